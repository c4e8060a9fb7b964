// The artist on screen, behind a mocked api: the cache first, the service in the background;
// every answer (the cache's, the service's, the estimate, the tiers) belongs to one open(), and
// one that comes late for an artist the user has left is dropped; "Download all" goes through
// the downloads store; a link opens through the app or, in a browser, in a new tab.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { AccessLevel } from '../../src-main/core/shared/catalogue'
import type { TierFit } from '../../src-main/core/shared/tiers'
import type { ArtistWithTracks, SessionSnapshot } from '../../src-main/core/shared/types'
import type { MockApi, MockFn } from './support/mock-api'

/** A promise answered by hand, to order the answers as a slow cache or service would. */
interface Deferred<T> {
  promise: Promise<T>
  resolve(value: T): void
  reject(error: unknown): void
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)))
  return { promise, resolve, reject }
}

const mock = vi.hoisted(() => ({
  listener: undefined as { snapshot(snapshot: unknown): void; events(events: unknown[]): void } | undefined,
  catalogue: {} as Record<string, ReturnType<typeof vi.fn>>,
  downloads: {} as Record<string, ReturnType<typeof vi.fn>>,
  openLink: undefined as unknown as MockFn<'app', 'openLink'>,
}))

vi.mock('../../src-renderer/api', () => ({
  api: {
    subscribe: (listener: typeof mock.listener) => {
      mock.listener = listener
      return { dispose: () => undefined }
    },
    app: { info: async () => ({ version: '0.0.0', transport: 'web' }), openLink: (...args) => mock.openLink(...args) },
    catalogue: new Proxy({}, { get: (_target, verb: string) => mock.catalogue[verb] }),
    downloads: new Proxy({}, { get: (_target, verb: string) => mock.downloads[verb] }),
  } satisfies MockApi,
}))

const { useArtistStore } = await import('../../src-renderer/stores/artist')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')
const { useSessionStore } = await import('../../src-renderer/stores/session')

function artist(username: string, name = username.toUpperCase(), tracks = 2): ArtistWithTracks {
  return {
    username, name, bio: '', location: null, isPodcaster: false, numTracks: tracks, avatar: '', avatarThumb: '', avatarCached: false,
    facebook: null, twitter: null, website: null, detailFetchedAt: 1, detailError: null, goneAt: null,
    tracks: Array.from({ length: tracks }, (_, i) => ({ uploadId: `${username}-${i}`, title: `Song ${i}`, bytes: 1000 })),
  } as unknown as ArtistWithTracks
}

const level = (id: number, name: string, price: number): AccessLevel => ({ id, name, price, maxsize: 100, bandwidth: 10, storage: 2 })
const fit = (of: AccessLevel, fits: boolean): TierFit =>
  ({ level: of, fits, fitsFileSize: fits, fitsStorage: fits, largestBytes: 1, maxFileBytes: 1, totalBytes: 1, storageBytes: 1 }) as TierFit

/** The store with its session open (online unless said), the downloads store's reads answered. */
async function opened(online = true) {
  mock.downloads = {
    ofUploads: vi.fn(async () => []),
    monthlyBytes: vi.fn(async () => ({ month: '2031-01', bytes: 0, months: [] })),
    state: vi.fn(async () => ({})),
    estimate: vi.fn(async () => ({ files: 2, bytes: 2000, freeBytes: 10_000, fits: true, folder: '/d' })),
  }
  mock.catalogue = {
    artist: vi.fn(async (name: string) => artist(name)),
    refreshArtist: vi.fn(async (name: string) => ({ artist: artist(name), gone: false })),
    tierFit: vi.fn(async () => [fit(level(1, 'Free', 0), true)]),
  }
  const session = useSessionStore()
  const started = session.start()
  mock.listener!.snapshot({ service: { baseUrl: 'http://x', demo: true, readOnly: false }, settings: null, sync: null, downloads: {}, online, notices: [] } as unknown as SessionSnapshot)
  await started
  return { store: useArtistStore(), notices: useNoticesStore() }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

beforeEach(() => setActivePinia(createPinia()))

describe('the artist store', () => {
  it('shows the cache at once, then the service: a change says "Updated", an unchanged artist says nothing', async () => {
    const { store, notices } = await opened()
    const service = deferred<{ artist: ArtistWithTracks; gone: boolean }>()
    mock.catalogue.refreshArtist!.mockReturnValueOnce(service.promise)
    const open = store.open('someone')
    await settle()
    expect(store.status).toBe('ready')
    expect(store.artist?.name).toBe('SOMEONE')
    expect(store.refreshing).toBe(true)
    service.resolve({ artist: artist('someone', 'Someone Renamed'), gone: false })
    await open
    expect(store.artist?.name).toBe('Someone Renamed')
    expect(notices.notices.map((notice) => notice.title)).toEqual(['Updated'])
    expect(store.estimate?.files).toBe(2)
    expect(store.cheapestTier?.level.name).toBe('Free')
  })

  it('drops the cache’s late answer for the artist the user left', async () => {
    const { store } = await opened(false)
    const first = deferred<ArtistWithTracks>()
    const second = deferred<ArtistWithTracks>()
    mock.catalogue.artist!.mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise)
    const left = store.open('first')
    const shown = store.open('second')
    second.resolve(artist('second'))
    await shown
    first.resolve(artist('first'))
    await left
    expect(store.artist?.username).toBe('second')
    expect(store.status).toBe('ready')
  })

  it('drops the service’s, the estimate’s and the tiers’ late answers for the artist the user left', async () => {
    const { store, notices } = await opened()
    const service = deferred<{ artist: ArtistWithTracks; gone: boolean }>()
    const estimate = deferred<unknown>()
    const tiers = deferred<TierFit[]>()
    mock.catalogue.refreshArtist!.mockReturnValueOnce(service.promise)
    mock.downloads.estimate!.mockReturnValueOnce(estimate.promise)
    mock.catalogue.tierFit!.mockReturnValueOnce(tiers.promise)
    const left = store.open('first')
    await settle()
    expect(store.artist?.username).toBe('first')
    await store.open('second')
    expect(store.artist?.username).toBe('second')
    const shownEstimate = store.estimate
    const shownTiers = store.tierFits
    // The first artist's answers come now, changed: none of it lands.
    service.resolve({ artist: artist('first', 'First Renamed'), gone: false })
    estimate.resolve({ files: 99, bytes: 99, freeBytes: 0, fits: false, folder: '/d' })
    tiers.resolve([fit(level(2, 'Gold', 15), false)])
    await left
    await settle()
    expect(store.artist?.username).toBe('second')
    expect(store.estimate).toBe(shownEstimate)
    expect(store.tierFits).toBe(shownTiers)
    expect(store.refreshing).toBe(false)
    expect(notices.notices).toEqual([])
  })

  it('keeps the artist shown when the service cannot be reached, and says nothing; another failure is told', async () => {
    const { store, notices } = await opened()
    mock.catalogue.refreshArtist!.mockRejectedValueOnce({ code: 'network', message: 'connect ECONNREFUSED' })
    await store.open('someone')
    expect(store.artist?.username).toBe('someone')
    expect(store.refreshProblem).toBeNull()
    mock.catalogue.refreshArtist!.mockRejectedValueOnce({ code: 'bad_response', message: 'the service answered nonsense' })
    await store.open('someone')
    expect(store.refreshProblem).toBe('the service answered nonsense')
    expect(notices.notices).toEqual([])
  })

  it('an unknown artist is missing; a cache that cannot be read is a failure with its reason', async () => {
    const { store } = await opened(false)
    mock.catalogue.artist!.mockRejectedValueOnce({ code: 'not_found', message: 'no artist nobody' })
    await store.open('nobody')
    expect(store.status).toBe('missing')
    mock.catalogue.artist!.mockRejectedValueOnce({ code: 'io', message: 'the cache is locked' })
    await store.open('someone')
    expect(store.status).toBe('failed')
    expect(store.failure).toBe('the cache is locked')
  })

  it('"Download all" queues through the downloads store and says how many tracks are on their way', async () => {
    const { store, notices } = await opened(false)
    mock.downloads.enqueue = vi.fn(async () => ({ downloads: [{ id: 1, uploadId: 'someone-0', state: 'queued' }, { id: 2, uploadId: 'someone-1', state: 'completed' }], folder: '/d' }))
    await store.open('someone')
    expect(await store.downloadAll()).toBe(true)
    expect(mock.downloads.enqueue).toHaveBeenCalledWith({ artist: 'someone' })
    expect(notices.notices.map(({ title, message }) => ({ title, message }))).toEqual([{ title: 'Queued', message: '1 track of SOMEONE is queued.' }])
    mock.downloads.enqueue.mockRejectedValueOnce({ code: 'disk_full', message: 'no room' })
    expect(await store.downloadAll()).toBe(false)
    expect(notices.notices.at(-1)?.title).toMatch(/^Could not download SOMEONE's tracks/)
  })

  it('"Download all" is worked out, never judged, until an estimate answers for the tracks and downloads on screen', async () => {
    const { store } = await opened(false)
    const first = deferred<unknown>()
    mock.downloads.estimate!.mockReturnValueOnce(first.promise)
    await store.open('someone')
    await settle()
    expect(store.downloadAllState).toEqual({ kind: 'working' })
    first.resolve({ files: 2, bytes: 2000, freeBytes: 10_000, fits: true, folder: '/d' })
    await settle()
    expect(store.downloadAllState).toMatchObject({ kind: 'estimate', estimate: { files: 2 } })

    // A sync brings the artist's other tracks: the estimate was for two of them, so it is worked out again.
    const again = deferred<unknown>()
    mock.downloads.estimate!.mockReturnValueOnce(again.promise)
    mock.catalogue.artist!.mockResolvedValueOnce(artist('someone', 'SOMEONE', 5))
    mock.listener!.events([{ type: 'catalogue-changed', version: '2' }])
    await settle()
    expect(store.artist?.tracks).toHaveLength(5)
    expect(store.downloadAllState).toEqual({ kind: 'working' })
    void store.updateEstimate()
    again.resolve({ files: 5, bytes: 5000, freeBytes: 10_000, fits: true, folder: '/d' })
    await settle()
    expect(store.downloadAllState).toMatchObject({ kind: 'estimate', estimate: { files: 5 } })

    // Open again: the downloads may have changed meanwhile, the last visit's estimate is not shown.
    const later = deferred<unknown>()
    mock.downloads.estimate!.mockReturnValueOnce(later.promise)
    mock.catalogue.artist!.mockResolvedValueOnce(artist('someone', 'SOMEONE', 5))
    await store.open('someone')
    expect(store.downloadAllState).toEqual({ kind: 'working' })
  })

  it('after "Download all" says what it queued, also once the estimate says nothing is left; until something is left again', async () => {
    const { store } = await opened(false)
    mock.downloads.enqueue = vi.fn(async () => ({
      downloads: [
        { id: 1, uploadId: 'someone-0', state: 'queued', bytesTotal: 1000, bytesDone: 0 },
        { id: 2, uploadId: 'someone-1', state: 'queued', bytesTotal: 1000, bytesDone: 0 },
      ],
      folder: '/d',
    }))
    await store.open('someone')
    await settle()
    expect(store.downloadAllState).toMatchObject({ kind: 'estimate', estimate: { files: 2 } })
    // The estimate after queuing takes its time (a busy machine): the page says what was queued, not "2 files fit".
    const after = deferred<unknown>()
    mock.downloads.estimate!.mockReturnValueOnce(after.promise)
    expect(await store.downloadAll()).toBe(true)
    expect(store.downloadAllState).toEqual({ kind: 'queued', files: 2, bytes: 2000 })
    after.resolve({ files: 0, bytes: 0, freeBytes: 10_000, fits: true, folder: '/d' })
    await settle()
    expect(store.downloadAllState).toEqual({ kind: 'queued', files: 2, bytes: 2000 })
    // One cancelled since: the estimate has a file to fetch again, and says so.
    mock.downloads.estimate!.mockResolvedValueOnce({ files: 1, bytes: 1000, freeBytes: 10_000, fits: true, folder: '/d' })
    await store.updateEstimate()
    expect(store.downloadAllState).toMatchObject({ kind: 'estimate', estimate: { files: 1 } })
  })

  it('a first visit that fetches the tracks the list left out says it fetches them, and then no "Updated"', async () => {
    const { store, notices } = await opened()
    const partial = { ...artist('someone', 'SOMEONE', 1), numTracks: 4, detailFetchedAt: null } as ArtistWithTracks
    const service = deferred<{ artist: ArtistWithTracks; gone: boolean }>()
    mock.catalogue.artist!.mockResolvedValueOnce(partial)
    mock.catalogue.refreshArtist!.mockReturnValueOnce(service.promise)
    const open = store.open('someone')
    await settle()
    expect(store.refreshing).toBe(true)
    expect(store.fetchingTracks).toBe(true)
    service.resolve({ artist: artist('someone', 'SOMEONE', 4), gone: false })
    await open
    expect(store.artist?.tracks).toHaveLength(4)
    expect(store.fetchingTracks).toBe(false)
    expect(notices.notices).toEqual([])
    // A later visit that finds a change says so.
    mock.catalogue.artist!.mockResolvedValueOnce(artist('someone', 'SOMEONE', 4))
    mock.catalogue.refreshArtist!.mockResolvedValueOnce({ artist: artist('someone', 'Someone Renamed', 4), gone: false })
    await store.open('someone')
    expect(store.fetchingTracks).toBe(false)
    expect(notices.notices.map((notice) => notice.title)).toEqual(['Updated'])
  })

  it('opens a link through the app, or in a new tab when the app leaves it to the page; a failure is told', async () => {
    const { store, notices } = await opened(false)
    const open = vi.fn()
    vi.stubGlobal('window', { open })
    try {
      mock.openLink = vi.fn(async () => ({ address: 'https://example.com/', opened: true }))
      await store.openLink('website', 'example.com', 'example.com')
      expect(mock.openLink).toHaveBeenCalledWith({ kind: 'website', value: 'example.com' })
      expect(open).not.toHaveBeenCalled()
      mock.openLink = vi.fn(async () => ({ address: 'https://example.com/', opened: false }))
      await store.openLink('website', 'example.com', 'example.com')
      expect(open).toHaveBeenCalledWith('https://example.com/', '_blank', 'noopener,noreferrer')
      mock.openLink = vi.fn(async () => Promise.reject({ code: 'invalid_argument', message: 'not a link' }))
      await store.openLink('twitter', '!!', 'Twitter')
      expect(notices.notices.at(-1)?.title).toMatch(/^Could not open Twitter/)
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

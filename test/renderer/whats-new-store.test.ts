// What's new, behind a mocked api: read when a screen shows it, read again once a burst of
// changes settles (only while shown), one read at a time (changes meanwhile make one more read,
// never a late answer over a newer one), another service's news never shown; the screen's layout
// (the followed artists' tracks first), Play queuing the screen's downloaded tracks in its order,
// Download and "Download all new" through the downloads store, following the queue live; the sentences.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DownloadView, SessionSnapshot, WhatsNew, WhatsNewTrack } from '../../src-main/core/shared/types'
import type { MockApi, MockFn } from './support/mock-api'

const mock = vi.hoisted(() => ({
  listener: undefined as { snapshot(snapshot: unknown): void; events(events: unknown[]): void } | undefined,
  whatsNew: undefined as unknown as MockFn<'catalogue', 'whatsNew'>,
  downloads: [] as unknown[],
  enqueue: undefined as unknown as MockFn<'downloads', 'enqueue'>,
  estimate: undefined as unknown as MockFn<'downloads', 'estimate'>,
}))

vi.mock('../../src-renderer/api', () => ({
  api: {
    subscribe: (listener: typeof mock.listener) => {
      mock.listener = listener
      return { dispose: () => undefined }
    },
    app: { info: async () => ({ version: '0.0.0' }) },
    catalogue: { whatsNew: (...args) => mock.whatsNew(...args) },
    downloads: {
      // The newest row of each upload asked for, as the core answers.
      ofUploads: async (uploadIds: string[]) =>
        uploadIds.flatMap((uploadId) => (mock.downloads as { id: number; uploadId: string }[]).filter((row) => row.uploadId === uploadId).sort((a, b) => b.id - a.id).slice(0, 1)),
      state: async () => ({ started: true, interrupted: 0, pausedBecause: null, folder: '/music' }),
      monthlyBytes: async () => ({ month: '2026-01', bytes: 0, months: [] }),
      enqueue: (...args) => mock.enqueue(...args),
      estimate: (...args) => mock.estimate(...args),
    },
  } satisfies MockApi,
}))

// The player is the player store's own test's business: here, what it is asked to play.
const player = vi.hoisted(() => ({ playList: undefined as unknown as ReturnType<typeof vi.fn<(...args: unknown[]) => Promise<void>>> }))
vi.mock('../../src-renderer/stores/player', () => ({ usePlayerStore: () => player }))

const { RELOAD_DELAY_MS, WHATS_NEW_LIMIT, useWhatsNewStore } = await import('../../src-renderer/stores/whats-new')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')
const { useSessionStore } = await import('../../src-renderer/stores/session')
const { useDownloadsStore } = await import('../../src-renderer/stores/downloads')
const { useFollowsStore } = await import('../../src-renderer/stores/follows')
const { whatsNewCut, whatsNewSummary } = await import('../../src-renderer/format/whats-new')

function news(runs: number[], artists = 0, tracks = 0, totals = { artists, tracks }): WhatsNew {
  return {
    mode: 'changes',
    runs: runs.map((id) => ({ id, finishedAt: id * 1000, artistCount: 0, trackCount: 0 })),
    artists: Array.from({ length: artists }, (_, i) => ({ artist: { username: `a${i}` }, change: 'new', runId: runs[i % runs.length]! })),
    tracks: Array.from({ length: tracks }, (_, i) => ({ track: { uploadId: `t${i}` }, artistUsername: 'a0', artistName: '', change: 'changed', runId: runs[0]! })),
    totalArtists: totals.artists,
    totalTracks: totals.tracks,
  } as unknown as WhatsNew
}

async function opened() {
  const session = useSessionStore()
  const started = session.start()
  mock.listener!.snapshot({ service: { baseUrl: 'http://x', demo: true, readOnly: false }, settings: null, sync: { status: 'running', progress: null, waitingFor: null, lastRun: null, lastFullSyncAt: 1, lastCheckAt: 1, lastError: null }, downloads: {}, online: true, notices: [] } as unknown as SessionSnapshot)
  await started
  return { store: useWhatsNewStore(), events: (...events: unknown[]) => mock.listener!.events(events) }
}

/** Whether the downloads of every track shown have been read (the downloads store follows them while the screen shows them). */
function downloadsRead(store: ReturnType<typeof useWhatsNewStore>): boolean {
  return store.tracks.every((entry) => useDownloadsStore().downloadOfUpload(entry.track.uploadId) !== undefined)
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

beforeEach(() => {
  setActivePinia(createPinia())
  mock.whatsNew = vi.fn(async () => news([2, 1], 3, 2))
  mock.downloads = []
  player.playList = vi.fn(async () => undefined)
  mock.enqueue = vi.fn(async () => ({ downloads: [], folder: '/music' }))
  mock.estimate = vi.fn(async () => ({ files: 1, bytes: 1, freeBytes: 10, fits: true }))
})

/** A track of the answer: its artist, run, change and whether followed, with a file to fetch. */
function track(uploadId: string, artist: string, runId: number, change: 'new' | 'changed', followed = false, bytes = 1000): WhatsNewTrack {
  return {
    track: { uploadId, itemId: null, title: `Song ${uploadId}`, subtype: 'track', bytes, ext: 'mp3', hotlinkPath: `/u/${uploadId}`, createdAt: null, downloads: null, hotlinks: null, artistUsername: null },
    artistUsername: artist, artistName: artist.toUpperCase(), change, runId, followed, download: null,
  }
}

/** Two syncs: the followed artist's tracks are listed first, as the core lists them. */
function layered(): WhatsNew {
  return {
    mode: 'changes',
    runs: [{ id: 5, finishedAt: 5000, artistCount: 1, trackCount: 4 }, { id: 4, finishedAt: 4000, artistCount: 0, trackCount: 1 }],
    artists: [{ artist: { username: 'fav' }, change: 'changed', runId: 5, followed: true }],
    tracks: [
      track('f1', 'fav', 5, 'new', true),
      track('f0', 'fav', 5, 'changed', true),
      track('c1', 'carol', 5, 'changed'),
      track('b1', 'bob', 5, 'new'),
      track('b0', 'bob', 4, 'new', false, 2000),
    ],
    totalArtists: 1,
    totalTracks: 5,
  } as unknown as WhatsNew
}

/** A download row as the queue gives it. */
function row(id: number, uploadId: string, state: DownloadView['state']) {
  return { id, uploadId, state, title: `Song ${uploadId}`, artistUsername: 'x', bytesDone: 0, bytesTotal: 10, interrupted: false, fileMissing: false }
}
afterEach(() => vi.useRealTimers())

describe("the What's new store", () => {
  it('reads the news when a screen shows them, with the syncs in order and what each brought', async () => {
    const { store } = await opened()
    const watching = store.watchNews()
    await settle()
    expect(mock.whatsNew).toHaveBeenCalledWith(WHATS_NEW_LIMIT)
    expect(store.sections.map((run) => [run.title, run.newArtists.length, run.changedTracks.flatMap((block) => block.tracks).length])).toEqual([
      ['The last sync', 2, 2],
      ['The sync before', 1, 0],
    ])
    expect(store.nothingNew).toBe(false)
    watching.dispose()
  })

  it('reads again once a burst of changes settles, and only while a screen shows the news', async () => {
    vi.useFakeTimers()
    const { store, events } = await opened()
    const watching = store.watchNews()
    await settle()
    expect(mock.whatsNew).toHaveBeenCalledTimes(1)
    events({ type: 'catalogue-changed' }, { type: 'catalogue-changed' })
    events({ type: 'sync-state', state: { status: 'running' } })
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS / 2)
    events({ type: 'sync-state', state: { status: 'idle' } })
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS + 10)
    expect(mock.whatsNew).toHaveBeenCalledTimes(2)
    // An artist followed (on any screen) moves to the top: read again.
    useFollowsStore().followed.set('someone', { username: 'someone' } as never)
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS + 10)
    expect(mock.whatsNew).toHaveBeenCalledTimes(3)
    watching.dispose()
    events({ type: 'catalogue-changed' })
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS * 3)
    expect(mock.whatsNew).toHaveBeenCalledTimes(3)
  })

  it('reads one at a time: a change meanwhile makes one more read, and the newest answer is the one shown', async () => {
    const { store } = await opened()
    let answer!: (value: WhatsNew) => void
    mock.whatsNew.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)))
    const watching = store.watchNews()
    void store.load()
    void store.load()
    expect(mock.whatsNew).toHaveBeenCalledTimes(1)
    mock.whatsNew.mockResolvedValueOnce(news([3, 2], 1, 0))
    answer(news([2, 1], 3, 2))
    await settle()
    expect(mock.whatsNew).toHaveBeenCalledTimes(2)
    expect(store.news?.runs[0]?.id).toBe(3)
    watching.dispose()
  })

  it('shows no other service’s news; a failed read is told and keeps what was read', async () => {
    const { store, events } = await opened()
    const watching = store.watchNews()
    await settle()
    expect(store.news).not.toBeNull()
    events({ type: 'service', service: { baseUrl: 'http://other', demo: false, readOnly: false } })
    expect(store.news).toBeNull()
    mock.whatsNew.mockRejectedValueOnce({ code: 'io', message: 'the cache is locked' })
    await store.load()
    expect(store.failed).toBe(true)
    expect(useNoticesStore().notices.map((notice) => notice.title)).toEqual(["What's new: File error"])
    await store.load()
    expect(store.failed).toBe(false)
    watching.dispose()
  })

  it('lays out each sync with the followed artists first, and lists the tracks in the screen\'s order', async () => {
    mock.whatsNew.mockResolvedValue(layered())
    const { store } = await opened()
    const watching = store.watchNews()
    await settle()
    const [last, before] = store.sections
    expect(last!.title).toBe('The last sync')
    expect(last!.following.map((block) => [block.name, block.tracks.map((entry) => entry.track.uploadId)])).toEqual([['FAV', ['f1', 'f0']]])
    expect(last!.newTracks.map((block) => block.username)).toEqual(['bob'])
    expect(last!.changedTracks.map((block) => block.username)).toEqual(['carol'])
    expect(last!.changedArtists.map((entry) => entry.followed)).toEqual([true])
    expect(before!.title).toBe('The sync before')
    expect(store.tracks.map((entry) => entry.track.uploadId)).toEqual(['f1', 'f0', 'b1', 'c1', 'b0'])
    watching.dispose()
  })

  it('plays a downloaded track with every downloaded track of the screen queued, in its order', async () => {
    mock.whatsNew.mockResolvedValue(layered())
    mock.downloads = [row(7, 'c1', 'completed'), row(8, 'f1', 'completed'), row(9, 'b1', 'queued'), row(10, 'b0', 'completed')]
    const { store } = await opened()
    const playList = player.playList
    const watching = store.watchNews()
    await vi.waitUntil(() => store.news !== null && downloadsRead(store))
    expect(store.playable.map((entry) => [entry.downloadId, entry.artistName])).toEqual([[8, 'FAV'], [7, 'CAROL'], [10, 'BOB']])
    await store.play(store.tracks.find((entry) => entry.track.uploadId === 'c1')!)
    expect(playList).toHaveBeenCalledWith(store.playable, 1)
    // A track not downloaded is not played.
    playList.mockClear()
    await store.play(store.tracks.find((entry) => entry.track.uploadId === 'b1')!)
    expect(playList).not.toHaveBeenCalled()
    watching.dispose()
  })

  it('downloads one track or all the new ones, follows the queue live, and checks the space first', async () => {
    vi.useFakeTimers()
    mock.whatsNew.mockResolvedValue(layered())
    mock.downloads = [row(8, 'f1', 'completed'), row(9, 'c1', 'failed')]
    const { store, events } = await opened()
    const watching = store.watchNews()
    await vi.waitUntil(() => store.news !== null && downloadsRead(store))
    // Not downloaded and not on their way: f0, b1, b0, and c1 whose download failed.
    expect(store.missing.map((entry) => entry.track.uploadId)).toEqual(['f0', 'b1', 'c1', 'b0'])
    expect(store.missingBytes).toBe(5000)
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS + 10)
    expect(mock.estimate).toHaveBeenLastCalledWith({ uploadIds: ['f0', 'b1', 'c1', 'b0'] })
    expect(store.estimate).toEqual({ files: 1, bytes: 1, freeBytes: 10, fits: true })

    await store.download(store.tracks.find((entry) => entry.track.uploadId === 'b1')!)
    expect(mock.enqueue).toHaveBeenLastCalledWith({ uploadIds: ['b1'] })
    // The queue's event: the row shows the download's state at once.
    events({ type: 'downloads-changed', downloads: [row(11, 'b1', 'downloading')], removed: [] })
    expect(store.downloadOf(store.tracks.find((entry) => entry.track.uploadId === 'b1')!)).toEqual({ id: 11, state: 'downloading' })
    expect(store.missing.map((entry) => entry.track.uploadId)).toEqual(['f0', 'c1', 'b0'])

    mock.enqueue.mockResolvedValueOnce({ downloads: [row(12, 'f0', 'queued'), row(13, 'c1', 'queued'), row(14, 'b0', 'queued')], folder: '/music' })
    expect(await store.downloadAll()).toBe(true)
    expect(mock.enqueue).toHaveBeenLastCalledWith({ uploadIds: ['f0', 'c1', 'b0'] })
    expect(store.missing).toEqual([])
    expect(useNoticesStore().notices.at(-1)).toMatchObject({ title: 'Queued', message: '3 new tracks are queued.' })

    // Refused (no room): told, and false.
    mock.enqueue.mockRejectedValueOnce({ code: 'disk_full', message: 'only 1 MB free' })
    events({ type: 'downloads-changed', downloads: [row(14, 'b0', 'cancelled')], removed: [] })
    expect(await store.downloadAll()).toBe(false)
    expect(useNoticesStore().notices.at(-1)?.title).toContain('Could not download the new tracks')
    watching.dispose()
  })

  it('after the first sync alone, shows its newest uploads as one section', async () => {
    const newest = { ...layered(), mode: 'newest', runs: [{ id: 1, finishedAt: 1000, artistCount: 0, trackCount: 3 }], artists: [] } as unknown as WhatsNew
    newest.tracks = [track('f1', 'fav', 1, 'new', true), track('b1', 'bob', 1, 'new'), track('c1', 'carol', 1, 'new'), track('b0', 'bob', 1, 'new')]
    mock.whatsNew.mockResolvedValue(newest)
    const { store } = await opened()
    const watching = store.watchNews()
    await settle()
    expect(store.sections.map((section) => section.title)).toEqual(['Newest uploads'])
    // By time, not merged by artist: bob's two uploads stay apart.
    expect(store.sections[0]!.newTracks.map((block) => block.username)).toEqual(['bob', 'carol', 'bob'])
    expect(whatsNewSummary(newest)).toBe('The first sync brought the whole catalogue; here are its 4 newest uploads. Later syncs will show what they add or change.')
    watching.dispose()
  })

  it('says what the syncs brought, and where the lists stop short', () => {
    expect(whatsNewSummary(news([2, 1], 3, 2))).toBe('3 artists and 2 tracks appeared or changed in the last two syncs.')
    expect(whatsNewSummary(news([2], 1, 1))).toBe('1 artist and 1 track appeared or changed in the last sync.')
    expect(whatsNewSummary(news([9, 8, 7, 6, 5, 4, 3, 2, 1, 0], 4, 2))).toBe('4 artists and 2 tracks appeared or changed in the last 10 syncs.')
    expect(whatsNewCut(news([2], 1, 1))).toBe('')
    expect(whatsNewCut(news([2], 200, 200, { artists: 1500, tracks: 4000 }))).toBe('Showing the first 200 artists and the first 200 tracks.')
  })
})

// The follows store behind a mocked api: read once, changes shown at once and kept by the core's
// answer or undone with a notice when it refuses, a quick follow-then-unfollow ending as the user
// left it, read again after the catalogue changes (once a burst settles) and for another service.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { FollowedArtist, SessionSnapshot } from '../../src-main/core/shared/types'
import type { MockApi, MockFn } from './support/mock-api'

const mock = vi.hoisted(() => ({
  listener: undefined as { snapshot(snapshot: unknown): void; events(events: unknown[]): void } | undefined,
  list: undefined as unknown as MockFn<'follows', 'list'>,
  follow: undefined as unknown as MockFn<'follows', 'follow'>,
  unfollow: undefined as unknown as MockFn<'follows', 'unfollow'>,
  setAutoDownload: undefined as unknown as MockFn<'follows', 'setAutoDownload'>,
  catalogueList: undefined as unknown as MockFn<'catalogue', 'list'>,
  filterCounts: undefined as unknown as MockFn<'catalogue', 'filterCounts'>,
}))

vi.mock('../../src-renderer/api', () => ({
  api: {
    subscribe: (listener: typeof mock.listener) => {
      mock.listener = listener
      return { dispose: () => undefined }
    },
    app: { info: async () => ({ version: '0.0.0' }) },
    catalogue: {
      list: (...args) => mock.catalogueList(...args),
      filterCounts: (...args) => mock.filterCounts(...args),
    },
    follows: {
      list: (...args) => mock.list(...args),
      follow: (...args) => mock.follow(...args),
      unfollow: (...args) => mock.unfollow(...args),
      setAutoDownload: (...args) => mock.setAutoDownload(...args),
    },
  } satisfies MockApi,
}))

const { RELOAD_DELAY_MS, useFollowsStore } = await import('../../src-renderer/stores/follows')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')
const { useSessionStore } = await import('../../src-renderer/stores/session')
const { useArtistsStore } = await import('../../src-renderer/stores/artists')

function artist(username: string, extra: Partial<FollowedArtist> = {}): FollowedArtist {
  return { username, name: username.toUpperCase(), autoDownload: false, followedAt: 1, gone: false, inCache: true, ...extra }
}

async function opened() {
  const session = useSessionStore()
  const started = session.start()
  mock.listener!.snapshot({ service: { baseUrl: 'http://x', demo: true, readOnly: false }, settings: null, sync: { status: 'idle' }, downloads: {}, online: true, notices: [] } as unknown as SessionSnapshot)
  await started
  return { store: useFollowsStore(), notices: useNoticesStore(), events: (...events: unknown[]) => mock.listener!.events(events) }
}

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

beforeEach(() => {
  setActivePinia(createPinia())
  mock.list = vi.fn(async () => [artist('Hungry_Lucy', { autoDownload: true })])
  mock.follow = vi.fn(async (username, options) => artist(String(username), { autoDownload: (options as { autoDownload?: boolean } | undefined)?.autoDownload ?? false, followedAt: 2 }))
  mock.unfollow = vi.fn(async () => true)
  mock.setAutoDownload = vi.fn(async (username, on) => artist(String(username), { autoDownload: on as boolean }))
  mock.catalogueList = vi.fn(async () => ({ total: 1, pages: 1, artists: [{ username: 'Hungry_Lucy' }] }))
  mock.filterCounts = vi.fn(async () => ({ following: 1, downloaded: 0 }))
})
afterEach(() => vi.useRealTimers())

describe('the follows store', () => {
  it('reads the follows once, by username without regard to case', async () => {
    const { store } = await opened()
    store.start()
    store.start()
    await vi.waitUntil(() => store.loaded)
    expect(mock.list).toHaveBeenCalledTimes(1)
    expect(store.isFollowed('hungry_lucy')).toBe(true)
    expect(store.get('HUNGRY_LUCY')?.autoDownload).toBe(true)
    expect(store.isFollowed('someone_else')).toBe(false)
  })

  it('shows a follow at once and keeps the core’s answer', async () => {
    const { store } = await opened()
    const answer = deferred<FollowedArtist>()
    mock.follow = vi.fn(() => answer.promise)
    const version = store.version
    const done = store.follow('Little_Thunder', { autoDownload: true })
    expect(store.isFollowed('little_thunder')).toBe(true)
    expect(store.get('Little_Thunder')).toMatchObject({ username: 'Little_Thunder', name: null, autoDownload: true })
    expect(store.version).toBeGreaterThan(version)
    expect(mock.follow).toHaveBeenCalledWith('Little_Thunder', { autoDownload: true })
    answer.resolve(artist('Little_Thunder', { autoDownload: true }))
    await done
    expect(store.get('Little_Thunder')).toEqual(artist('Little_Thunder', { autoDownload: true }))
  })

  it('tells the lists narrowed to the follows again once the core has an unfollow, not only when it is shown', async () => {
    const { store } = await opened()
    store.start()
    await vi.waitUntil(() => store.loaded)
    const answer = deferred<boolean>()
    mock.unfollow = vi.fn(() => answer.promise)
    const before = store.version
    const done = store.unfollow('Hungry_Lucy')
    const shown = store.version
    expect(shown).toBeGreaterThan(before)
    answer.resolve(true)
    await done
    expect(store.version).toBeGreaterThan(shown)
    expect(store.isFollowed('Hungry_Lucy')).toBe(false)
  })

  it('undoes a change the core refuses, with a notice naming the artist', async () => {
    const { store, notices } = await opened()
    store.start()
    await vi.waitUntil(() => store.loaded)
    mock.unfollow = vi.fn(async () => Promise.reject(Object.assign(new Error('the data folder /x is read-only'), { code: 'read_only' })))
    const unfollowing = store.unfollow('Hungry_Lucy')
    expect(store.isFollowed('Hungry_Lucy')).toBe(false)
    await unfollowing
    expect(store.get('Hungry_Lucy')).toEqual(artist('Hungry_Lucy', { autoDownload: true }))
    expect(notices.notices).toEqual([expect.objectContaining({ kind: 'error', title: 'Could not unfollow Hungry_Lucy: Read-only data folder' })])

    mock.follow = vi.fn(async () => Promise.reject(Object.assign(new Error('no artist named "ghost"'), { code: 'not_found' })))
    await store.follow('ghost')
    expect(store.isFollowed('ghost')).toBe(false)
    mock.setAutoDownload = vi.fn(async () => Promise.reject(new Error('broken')))
    await store.setAutoDownload('Hungry_Lucy', false)
    expect(store.get('Hungry_Lucy')?.autoDownload).toBe(true)
    expect(notices.notices.map((notice) => notice.title)).toEqual([
      'Could not unfollow Hungry_Lucy: Read-only data folder',
      'Could not follow ghost: Not found',
      'Could not turn off auto-download for Hungry_Lucy: Something went wrong',
    ])
  })

  it('ends as the user left it when a follow and an unfollow cross', async () => {
    const { store } = await opened()
    const followed = deferred<FollowedArtist>()
    mock.follow = vi.fn(() => followed.promise)
    const first = store.toggle('Bee')
    const second = store.toggle('Bee')
    expect(store.isFollowed('Bee')).toBe(false)
    // The follow's late answer does not bring the artist back.
    followed.resolve(artist('Bee'))
    await Promise.all([first, second])
    expect(store.isFollowed('Bee')).toBe(false)
    expect(mock.unfollow).toHaveBeenCalledWith('Bee')
  })

  it('reads again once the catalogue’s changes settle, and clears for another service', async () => {
    vi.useFakeTimers()
    const { store, events } = await opened()
    store.start()
    await vi.waitUntil(() => store.loaded)
    events({ type: 'catalogue-changed', version: '2' }, { type: 'catalogue-changed', version: '3' })
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS + 10)
    expect(mock.list).toHaveBeenCalledTimes(2)

    mock.list = vi.fn(async () => [artist('Other_One')])
    events({ type: 'service', service: { baseUrl: 'http://y', demo: false, readOnly: false } })
    expect(store.isFollowed('Hungry_Lucy')).toBe(false)
    await vi.waitUntil(() => store.isFollowed('Other_One'))
  })
})

describe('follows changed by another caller', () => {
  it('are read again when the core says one changed, but not for a change this window is still making', async () => {
    vi.useFakeTimers()
    const { store, events } = await opened()
    store.start()
    await vi.waitUntil(() => store.loaded)
    expect(store.isFollowed('Sad_Max')).toBe(false)

    // Another window follows Sad_Max: this one reads the follows again and shows it.
    mock.list = vi.fn(async () => [artist('Hungry_Lucy', { autoDownload: true }), artist('Sad_Max')])
    events({ type: 'follows-changed', username: 'sad_max' })
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS + 10)
    expect(mock.list).toHaveBeenCalledTimes(1)
    expect(store.isFollowed('Sad_Max')).toBe(true)

    // This window's own unfollow, its answer not in yet: the event of it is no reason to read.
    const answer = deferred<boolean>()
    mock.unfollow = vi.fn(() => answer.promise)
    const unfollowing = store.unfollow('Sad_Max')
    events({ type: 'follows-changed', username: 'Sad_Max' })
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS + 10)
    expect(mock.list).toHaveBeenCalledTimes(1)
    answer.resolve(true)
    await unfollowing
    expect(store.isFollowed('Sad_Max')).toBe(false)
  })
})

describe('the Following and Downloaded chips of the artists list', () => {
  it('count with the other filters, narrow the list, and follow the follows', async () => {
    vi.useFakeTimers()
    const { store } = await opened()
    const artists = useArtistsStore()
    artists.start()
    await vi.waitUntil(() => artists.counts !== null && store.loaded)
    expect(artists.counts).toEqual({ following: 1, downloaded: 0 })
    expect(mock.filterCounts).toHaveBeenLastCalledWith(expect.objectContaining({ kind: 'all', includeBlank: false, only: undefined }))

    // Another kind: counted again, once the change settles.
    artists.filters.kind = 'podcasts'
    await vi.advanceTimersByTimeAsync(300)
    expect(mock.filterCounts).toHaveBeenLastCalledWith(expect.objectContaining({ kind: 'podcasts', only: undefined }))

    // Narrowed to the followed artists: a follow reads the list and the counts again.
    artists.filters.only = 'following'
    await vi.advanceTimersByTimeAsync(10)
    expect(mock.catalogueList).toHaveBeenLastCalledWith(expect.objectContaining({ only: 'following', kind: 'podcasts' }))
    const lists = mock.catalogueList.mock.calls.length
    const counts = mock.filterCounts.mock.calls.length
    await store.follow('Little_Thunder')
    await vi.advanceTimersByTimeAsync(300)
    expect(mock.catalogueList.mock.calls.length).toBeGreaterThan(lists)
    expect(mock.filterCounts.mock.calls.length).toBeGreaterThan(counts)
    artists.resetFilters()
    expect(artists.filters.only).toBeNull()
  })
})

// The artist list's rows, fetched from the cache in windows as they come into view: the first
// answer of a query is small, the windows around the rows in view follow (and the next one in
// the direction of travel), at most a dozen windows are kept (the farthest go), and answers of
// filters left behind never land in the list.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ArtistListQuery, ArtistSummary } from '../../src-main/core/shared/types'
import type { MockApi } from './support/mock-api'

interface Call {
  query: ArtistListQuery & { offset: number; limit: number }
  answer(): void
}

const cache = vi.hoisted(() => ({
  /** Artists in the cache: `artist-<n>`. */
  total: 5000,
  /** Calls not answered yet, in order (answered by hand unless `auto`). */
  pending: [] as Call[],
  calls: [] as (ArtistListQuery & { offset: number; limit: number })[],
  auto: true,
  /** Artists sorted in at the top since the start (a sync): `new-<n>`, the others one place further down each. */
  inserted: 0,
  /** While a first sync's index is partial: how many artists a search sees (undefined: all of them). */
  searchable: undefined as number | undefined,
  session: undefined as { snapshot(snapshot: unknown): void; events(events: unknown[]): void } | undefined,
}))

vi.mock('../../src-renderer/api', () => ({
  api: {
    subscribe: (listener: typeof cache.session) => {
      cache.session = listener
      return { dispose: () => undefined }
    },
    app: { info: async () => ({ version: '0.0.0' }) },
    catalogue: {
      list: (asked = {}) =>
        new Promise((resolve) => {
          const query = { offset: 0, limit: 50, ...asked }
          cache.calls.push(query)
          const prefix = query.q ? `${query.q}-` : 'artist-'
          const total = query.q ? 300 : cache.total
          const count = Math.max(0, Math.min(query.limit, total - query.offset))
          const nameAt = (row: number): string => (query.q ? `${prefix}${row}` : row < cache.inserted ? `new-${row}` : `${prefix}${row - cache.inserted}`)
          const artists = Array.from({ length: count }, (_, i) => ({ username: nameAt(query.offset + i) }) as ArtistSummary)
          const answer = (): void => resolve(query.q && cache.searchable !== undefined ? { total, artists, searchable: cache.searchable } : { total, artists })
          if (cache.auto) answer()
          else cache.pending.push({ query, answer })
        }),
    },
  } satisfies MockApi,
}))

// What Node lacks of the browser: localStorage, and the page's window and document (their pagehide and visibilitychange).
const storage = new Map<string, string>()
vi.stubGlobal('localStorage', {
  getItem: (key: string) => storage.get(key) ?? null,
  setItem: (key: string, value: string) => void storage.set(key, value),
  removeItem: (key: string) => void storage.delete(key),
})

const { useArtistsStore, WINDOW_ROWS, DEFAULT_FILTERS, KEPT_LIST_KEY } = await import('../../src-renderer/stores/artists')
const { useSessionStore } = await import('../../src-renderer/stores/session')

/** Lets every answer given so far reach the store. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve()
  await new Promise((resolve) => setTimeout(resolve, 0))
}

/** Scrolls the list (as the view tells the store) to show rows start..end. */
async function show(store: ReturnType<typeof useArtistsStore>, start: number, end: number): Promise<void> {
  store.ensureRange(start, end)
  await settle()
}

/** The store with its rows read, in a session that hears the core's events (catalogue-changed). */
async function startedWithSession(): Promise<ReturnType<typeof useArtistsStore>> {
  const store = useArtistsStore()
  const opened = useSessionStore().start()
  cache.session!.snapshot({ service: { baseUrl: 'http://127.0.0.1:1', demo: false, readOnly: false }, sync: {}, downloads: {}, online: true, notices: [] })
  await opened
  store.start()
  await settle()
  return store
}

const windowsAsked = (): number[] => cache.calls.map((call) => call.offset / WINDOW_ROWS)

/** The pages of this test, each with its stores. */
const pages: EventTarget[] = []

/** A page of its own (a test, a reload): the stores of another one do not hear its pagehide. */
function newPage(): void {
  const page = new EventTarget()
  pages.push(page)
  vi.stubGlobal('window', page)
  vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }))
  setActivePinia(createPinia())
}

// A store's throttled save (kept-state.ts, up to a second later) would land in a later test's storage:
// each page of the test saves now instead, which cancels it.
afterEach(() => {
  for (const page of pages.splice(0)) page.dispatchEvent(new Event('pagehide'))
})

beforeEach(() => {
  storage.clear()
  newPage()
  cache.pending = []
  cache.calls = []
  cache.auto = true
  cache.total = 5000
  cache.inserted = 0
  cache.searchable = undefined
})

describe('the artist list store', () => {
  it('asks first for a screen or two of rows, then the window of the rows in view, and the next one past its middle', async () => {
    const store = useArtistsStore()
    store.start()
    await settle()
    expect(cache.calls).toEqual([{ kind: 'all', includeBlank: false, sort: 'trending', reverse: false, offset: 0, limit: 50 }])
    expect(store.status).toBe('ready')
    expect(store.total).toBe(5000)
    expect(store.rowAt(10)?.username).toBe('artist-10')
    expect(store.rowAt(60)).toBeUndefined()

    // The first rows cover the view and twenty rows past it: nothing more yet.
    await show(store, 0, 14)
    expect(windowsAsked()).toEqual([0])
    // Scrolled towards their end: the whole window.
    await show(store, 20, 34)
    expect(windowsAsked()).toEqual([0, 0])
    expect(cache.calls[1]!.limit).toBe(WINDOW_ROWS)
    expect(store.rowAt(199)?.username).toBe('artist-199')

    // Past the middle of window 0, going down: window 1 comes before it is needed.
    await show(store, 100, 114)
    expect(windowsAsked()).toEqual([0, 0, 1])
    expect(store.rowAt(250)?.username).toBe('artist-250')
    // Nothing more while the rows in view are here.
    await show(store, 120, 134)
    expect(cache.calls).toHaveLength(3)
  })

  it('keeps at most twelve windows: scrolling far drops those farthest from view', async () => {
    const store = useArtistsStore()
    store.start()
    await settle()
    for (let window = 0; window < 20; window++) await show(store, window * WINDOW_ROWS, window * WINDOW_ROWS + 14)
    const held = Array.from({ length: 25 }, (_, window) => store.rowAt(window * WINDOW_ROWS) !== undefined)
    expect(held.filter(Boolean)).toHaveLength(12)
    // The windows around the rows in view stay; the first ones went.
    expect(store.rowAt(19 * WINDOW_ROWS)?.username).toBe(`artist-${19 * WINDOW_ROWS}`)
    expect(store.rowAt(18 * WINDOW_ROWS)).toBeDefined()
    expect(store.rowAt(0)).toBeUndefined()
    // Scrolling back asks for a dropped window again.
    const before = cache.calls.length
    await show(store, 5, 19)
    expect(cache.calls.length).toBeGreaterThan(before)
    expect(store.rowAt(5)?.username).toBe('artist-5')
  })

  it('asks for a window once while it is on its way', async () => {
    const store = useArtistsStore()
    store.start()
    await settle()
    cache.auto = false
    store.ensureRange(400, 414)
    store.ensureRange(401, 415)
    store.ensureRange(402, 416)
    expect(windowsAsked().filter((window) => window === 2)).toHaveLength(1)
    for (const call of cache.pending) call.answer()
    await settle()
    expect(store.rowAt(410)?.username).toBe('artist-410')
  })

  it('drops the answers of filters left behind: the rows shown are always the latest query', async () => {
    const store = useArtistsStore()
    store.start()
    await settle()
    await show(store, 0, 14)
    cache.auto = false
    // A window of the old query on its way, then two keystrokes of a search.
    store.ensureRange(390, 404)
    store.filters.search = 'ab'
    await settle()
    store.filters.search = 'abc'
    await settle()
    const [oldWindow, ...rest] = cache.pending
    expect(oldWindow!.query.q).toBeUndefined()
    // The rows on screen stay until the first answer of the latest search replaces them.
    expect(store.rowAt(0)?.username).toBe('artist-0')
    expect(store.shownKey).not.toBe(store.queryKey)
    for (const call of rest) call.answer()
    await settle()
    for (const call of cache.pending.slice(1 + rest.length)) call.answer()
    await settle()
    oldWindow!.answer()
    await settle()
    expect(store.shownKey).toBe(store.queryKey)
    expect(store.shownSearch).toBe('abc')
    expect(store.total).toBe(300)
    expect(store.rowAt(0)?.username).toBe('abc-0')
    // The old query's window did not land.
    expect(store.rowAt(390)).toBeUndefined()
    // The keystroke typed while the first answer was awaited became one request, not one each.
    expect(cache.calls.filter((call) => call.q === 'ab').length).toBeLessThanOrEqual(1)
  })

  it('reads the same place again when a sync changes the catalogue', async () => {
    const store = await startedWithSession()
    await show(store, 600, 614)
    cache.total = 5001
    const before = cache.calls.length
    cache.session!.events([{ type: 'catalogue-changed' }])
    await settle()
    expect(cache.calls.slice(before).map((call) => call.offset / WINDOW_ROWS)).toContain(3)
    expect(store.total).toBe(5001)
    expect(store.rowAt(605)?.username).toBe('artist-605')
  })

  it('keeps the keyboard on its artist when a sync sorts others in above it', async () => {
    const store = await startedWithSession()
    store.selected = 6
    expect(store.rowAt(6)?.username).toBe('artist-6')
    // Three artists sorted in at the top: artist-6 is now the tenth row, and the keyboard goes with it.
    cache.inserted = 3
    cache.total = 5003
    cache.session!.events([{ type: 'catalogue-changed' }])
    await settle()
    expect(store.rowAt(6)?.username).toBe('artist-3')
    expect(store.selected).toBe(9)
    expect(store.rowAt(store.selected)?.username).toBe('artist-6')
  })

  it('says how many artists a search saw while a first sync fills the index, as the index grows, and no more once it is whole', async () => {
    const store = await startedWithSession()
    cache.searchable = 1250
    store.filters.search = 'ab'
    await settle()
    expect(store.shownSearch).toBe('ab')
    expect(store.searchable).toBe(1250)
    // A slice of the index later, the search is read again with the sync's change.
    cache.searchable = 31_250
    cache.session!.events([{ type: 'catalogue-changed' }])
    await settle()
    expect(store.searchable).toBe(31_250)
    // The lists are in: every artist is searchable.
    cache.searchable = undefined
    cache.session!.events([{ type: 'catalogue-changed' }])
    await settle()
    expect(store.searchable).toBeNull()
    // No search, no such count.
    cache.searchable = 10
    store.filters.search = ''
    await settle()
    expect(store.searchable).toBeNull()
  })
})

describe('the list across a reload and a restart', () => {
  /** The page goes (a reload, the window closed): what is kept is written at once. */
  const leave = (): void => void window.dispatchEvent(new Event('pagehide'))

  it('comes back with its filters, asking first for the rows that were in view, at the same place', async () => {
    let store = useArtistsStore()
    store.start()
    await settle()
    store.filters.kind = 'podcasts'
    store.filters.sort = 'top'
    store.filters.reverse = true
    store.filters.only = 'downloaded'
    await settle()
    await show(store, 1210, 1230)
    store.saveScroll(1210 * 56)
    leave()

    newPage()
    cache.calls = []
    store = useArtistsStore()
    expect({ ...store.filters }).toEqual({ ...DEFAULT_FILTERS, kind: 'podcasts', sort: 'top', reverse: true, only: 'downloaded' })
    expect(store.savedScroll()).toBe(1210 * 56)
    store.start()
    await settle()
    // One request, for the rows that were in view (and a little past them), with the filters kept.
    expect(cache.calls).toEqual([{ kind: 'podcasts', includeBlank: false, only: 'downloaded', sort: 'top', reverse: true, offset: 1200, limit: 51 }])
    expect(store.rowAt(1210)?.username).toBe('artist-1210')
    expect(store.status).toBe('ready')
  })

  it('keeps a search too, and new filters start their list at the top', async () => {
    let store = useArtistsStore()
    store.start()
    await settle()
    await show(store, 300, 320)
    store.saveScroll(300 * 56)
    store.filters.search = 'ab'
    await settle()
    expect(store.savedScroll()).toBe(0)
    leave()

    newPage()
    store = useArtistsStore()
    expect(store.filters.search).toBe('ab')
    expect(store.savedScroll()).toBe(0)
  })

  it('ignores a kept value that is damaged, of another version or names a filter the list does not offer', async () => {
    const kept = (value: unknown, v = 1): string => JSON.stringify({ v, value })
    const good = { filters: { ...DEFAULT_FILTERS, kind: 'musicians' }, scroll: 560, rows: { start: 10, end: 24 } }
    const bad = [
      'not json {',
      'null',
      '42',
      kept(good, 2),
      kept(good, 0),
      JSON.stringify(good),
      kept({ ...good, filters: { ...good.filters, kind: 'robots' } }),
      kept({ ...good, filters: { ...good.filters, sort: 'alphabetical' } }),
      kept({ ...good, filters: { ...good.filters, only: 'everyone' } }),
      kept({ ...good, filters: { ...good.filters, search: 7 } }),
      kept({ ...good, filters: null }),
      kept({ ...good, scroll: -1 }),
      kept({ ...good, scroll: 'far' }),
      kept({ ...good, rows: { start: 24, end: 10 } }),
      kept({ ...good, rows: { start: 0, end: 1e9 } }),
      kept({ ...good, rows: undefined }),
    ]
    for (const text of bad) {
      storage.set(KEPT_LIST_KEY, text)
      newPage()
      const store = useArtistsStore()
      expect({ ...store.filters }, text).toEqual(DEFAULT_FILTERS)
      expect(store.savedScroll(), text).toBe(0)
    }
    // The same value, whole: taken.
    storage.set(KEPT_LIST_KEY, kept(good))
    newPage()
    const store = useArtistsStore()
    expect(store.filters.kind).toBe('musicians')
    expect(store.savedScroll()).toBe(560)
  })

  it('writes at most once a second while the list scrolls, and the latest place when the page goes or hides', async () => {
    vi.useFakeTimers()
    try {
      const store = useArtistsStore()
      const place = (): number => (JSON.parse(storage.get(KEPT_LIST_KEY) ?? 'null') as { value: { scroll: number } } | null)?.value.scroll ?? -1
      const writes = vi.spyOn(localStorage, 'setItem')
      for (let top = 100; top <= 3000; top += 100) {
        store.saveScroll(top)
        vi.advanceTimersByTime(16)
      }
      // Thirty scroll events in half a second: the first written at once, the rest at the end of the second.
      expect(writes).toHaveBeenCalledTimes(1)
      expect(place()).toBe(100)
      vi.advanceTimersByTime(1000)
      expect(writes).toHaveBeenCalledTimes(2)
      expect(place()).toBe(3000)
      store.saveScroll(3100)
      store.saveScroll(3200)
      Object.assign(document, { visibilityState: 'hidden' })
      document.dispatchEvent(new Event('visibilitychange'))
      expect(place()).toBe(3200)
      writes.mockRestore()
    } finally {
      vi.useRealTimers()
    }
  })
})

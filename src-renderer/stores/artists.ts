/**
 * The artist list: its filters, and its rows fetched from the cache by offset
 * and limit in windows as they come into view. Only a bounded number of
 * windows is kept (the farthest from view go first), so scrolling 100,000 rows
 * holds a few thousand at most. A change of filters or of the catalogue starts
 * a new generation of windows; the rows on screen stay until its first answer
 * replaces them, so typing never flashes an empty list. At most one such first
 * answer is awaited at a time: keystrokes typed meanwhile become one request.
 * The filters and the place in their list are kept across a reload and a restart
 * (stores/kept-state.ts): the list comes back as it was left, its rows read at once
 * around that place.
 */
import { defineStore } from 'pinia'
import { computed, reactive, ref, shallowRef, watch } from 'vue'
import { ARTIST_KINDS, ARTIST_ONLY, SORT_ORDERS, type ArtistKind, type ArtistOnly, type SortOrder } from '@shared/catalogue'
import type { ArtistFilterCounts, ArtistListQuery, ArtistSummary } from '@shared/types'
import { api } from '../api'
import { useFollowsStore } from './follows'
import { keptState, wholeAtLeast } from './kept-state'
import { useNoticesStore } from './notices'
import { useSessionStore } from './session'

/** Rows per request: several screens' worth in one round trip. */
export const WINDOW_ROWS = 200
/** Windows kept in memory at most. */
const MAX_WINDOWS = 12
/**
 * Rows a new query's first answer brings when the list shows few: a screen or two, so the
 * answer to a keystroke is small; the rest of that window comes when the list scrolls towards it.
 */
const FIRST_ROWS = 50
/** Rows beyond the last one drawn that must already be here. */
const AHEAD_ROWS = 20

export interface ArtistFilters {
  /** Search text as typed; blank means no search. */
  search: string
  kind: ArtistKind
  sort: SortOrder
  reverse: boolean
  /** Include artists without tracks. */
  includeBlank: boolean
  /** Only the artists followed, or those with a downloaded track; null for every artist. */
  only: ArtistOnly | null
}

export const DEFAULT_FILTERS: Readonly<ArtistFilters> = Object.freeze({
  search: '',
  kind: 'all',
  sort: 'trending',
  reverse: false,
  includeBlank: false,
  only: null,
})

/** The query the filters ask for: sort and reverse do not apply to a search, so they are left out of it. */
export function queryOf(filters: ArtistFilters): ArtistListQuery {
  const q = filters.search.trim()
  const base = { kind: filters.kind, includeBlank: filters.includeBlank, ...(filters.only === null ? {} : { only: filters.only }) }
  return q === '' ? { ...base, sort: filters.sort, reverse: filters.reverse } : { ...base, q }
}

type Status = 'loading' | 'ready' | 'error'

/** What the list keeps for the next session: its filters, how far their list was scrolled, and the rows it showed then. */
export interface KeptList {
  filters: ArtistFilters
  /** Pixels from the top. */
  scroll: number
  /** The rows shown (overscan included), so the first request reads them. */
  rows: { start: number; end: number }
}

export const KEPT_LIST_KEY = 'tuneshelf.artists.list'
/** The version of KeptList's stored shape: a value of another one is ignored. */
const KEPT_LIST_VERSION = 1
/** The longest search the core takes (its argument check): a longer one is not one the list saved. */
const MAX_SEARCH = 1000
/** More rows than a screen ever shows: a stored range wider than this is not one the list saved. */
const MAX_SHOWN_ROWS = 1000

/** The kept list, if `stored` is one: every filter one the list offers, the place whole numbers. */
export function checkKeptList(stored: unknown): KeptList | null {
  if (typeof stored !== 'object' || stored === null) return null
  const { filters, scroll, rows } = stored as Partial<Record<keyof KeptList, unknown>>
  if (typeof filters !== 'object' || filters === null || typeof rows !== 'object' || rows === null) return null
  const f = filters as Partial<Record<keyof ArtistFilters, unknown>>
  const valid =
    typeof f.search === 'string' &&
    f.search.length <= MAX_SEARCH &&
    ARTIST_KINDS.includes(f.kind as ArtistKind) &&
    SORT_ORDERS.includes(f.sort as SortOrder) &&
    typeof f.reverse === 'boolean' &&
    typeof f.includeBlank === 'boolean' &&
    (f.only === null || ARTIST_ONLY.includes(f.only as ArtistOnly))
  const top = typeof scroll === 'number' && Number.isFinite(scroll) && scroll >= 0 ? scroll : null
  const start = wholeAtLeast((rows as { start?: unknown }).start, 0)
  const end = wholeAtLeast((rows as { end?: unknown }).end, 0)
  if (!valid || top === null || start === null || end === null || end < start || end - start > MAX_SHOWN_ROWS) return null
  const { search, kind, sort, reverse, includeBlank, only } = f as ArtistFilters
  return { filters: { search, kind, sort, reverse, includeBlank, only }, scroll: top, rows: { start, end } }
}

export const useArtistsStore = defineStore('artists', () => {
  const session = useSessionStore()
  const notices = useNoticesStore()

  const filters = reactive<ArtistFilters>({ ...DEFAULT_FILTERS })
  const query = computed(() => queryOf(filters))
  const queryKey = computed(() => JSON.stringify(query.value))
  const searching = computed(() => query.value.q !== undefined)

  /** loading until the first answer; error when the rows on screen could not be fetched. */
  const status = ref<Status>('loading')
  const failure = shallowRef<unknown>(null)
  /** Artists matching the query of the rows shown. */
  const total = ref(0)
  /** The search text of the rows shown (blank when not searching): what the count and the empty state talk about. */
  const shownSearch = ref('')
  /**
   * While a first sync's lists come in, the search shown looked only at the artists its index holds
   * so far: how many (null when it looked at every artist, or the rows shown are no search).
   */
  const searchable = ref<number | null>(null)
  /** The query of the rows shown, as a key; equal to queryKey once the latest filters' rows arrived. */
  const shownKey = ref('')
  /** Bumped whenever rows arrive or go, so views reading rowAt() draw again. */
  const version = ref(0)
  /** The row the keyboard is on, or -1. */
  const selected = ref(-1)
  /** Where the list was scrolled to, restored when the screen comes back. */
  let scrollOffset = 0

  // The rows: windows of WINDOW_ROWS by window index, of one generation of the query. Not reactive: version tells.
  let windows = new Map<number, ArtistSummary[]>()
  let generation = 0
  let shownGeneration = -1
  const inFlight = new Set<string>()
  /** The rows the list shows (overscan included), and where it was before, for fetching ahead. */
  let wanted = { start: 0, end: 0 }
  let previousStart = 0
  /** A first answer is awaited; filters changed meanwhile are fetched when it comes. */
  let reloading = false
  let reloadAgain = false

  // The filters and the place of the last session: the first request reads the rows that were in view.
  const kept = keptState(KEPT_LIST_KEY, KEPT_LIST_VERSION, checkKeptList, (): KeptList => ({ filters: { ...filters }, scroll: scrollOffset, rows: wanted }))
  const last = kept.read()
  if (last) {
    Object.assign(filters, last.filters)
    scrollOffset = last.scroll
    wanted = last.rows
    previousStart = last.rows.start
  }

  /** The artist at a row, if its window is here (reading it makes the caller draw again when rows arrive). */
  function rowAt(index: number): ArtistSummary | undefined {
    void version.value
    return windows.get(Math.floor(index / WINDOW_ROWS))?.[index % WINDOW_ROWS]
  }

  /** Where an artist is among the rows here, if it is. */
  function placeOf(username: string): number | undefined {
    for (const [index, rows] of windows) {
      const at = rows.findIndex((artist) => artist.username === username)
      if (at >= 0) return index * WINDOW_ROWS + at
    }
    return undefined
  }

  /** The rows of a window, all of them or its first `limit`. */
  function fetchWindow(
    list: ArtistListQuery,
    index: number,
    limit = WINDOW_ROWS,
  ): Promise<{ index: number; total: number; artists: ArtistSummary[]; searchable: number | null }> {
    return api.catalogue
      .list({ ...list, offset: index * WINDOW_ROWS, limit })
      .then((page) => ({ index, total: page.total, artists: page.artists, searchable: page.searchable ?? null }))
  }

  /** Whether the window holds its rows up to row `upTo` (or to its end, or the list's). */
  function holds(index: number, upTo: number): boolean {
    const rows = windows.get(index)
    return rows !== undefined && (rows.length === WINDOW_ROWS || index * WINDOW_ROWS + rows.length > Math.min(upTo, total.value - 1))
  }

  /** Keeps the windows nearest to the rows in view, dropping the farthest. */
  function evict(): void {
    if (windows.size <= MAX_WINDOWS) return
    const centre = (wanted.start + wanted.end) / 2 / WINDOW_ROWS
    const byDistance = [...windows.keys()].sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre))
    for (const index of byDistance.slice(0, windows.size - MAX_WINDOWS)) windows.delete(index)
  }

  /**
   * Fetches the rows of the latest filters around the wanted rows and swaps them in; filters
   * changed while it waited are fetched right after (the rows in between are never shown).
   */
  async function reload(): Promise<void> {
    generation += 1
    if (reloading) {
      reloadAgain = true
      return
    }
    reloading = true
    try {
      do {
        reloadAgain = false
        const gen = generation
        const list = query.value
        const key = queryKey.value
        const first = Math.floor(wanted.start / WINDOW_ROWS)
        const last = Math.floor(wanted.end / WINDOW_ROWS)
        // Within one window, only as far into it as the list shows (and a little more); across two, both whole.
        const limit = Math.min(WINDOW_ROWS, Math.max(FIRST_ROWS, wanted.end - first * WINDOW_ROWS + 1 + AHEAD_ROWS))
        const requests = last > first ? [fetchWindow(list, first), fetchWindow(list, first + 1)] : [fetchWindow(list, first, limit)]
        try {
          const pages = await Promise.all(requests)
          if (gen !== generation) continue
          // The keyboard's row is a place: artists a sync sorted in above would slide another artist into it.
          const selectedName = selected.value >= 0 ? rowAt(selected.value)?.username : undefined
          windows = new Map(pages.filter((page) => page.artists.length > 0).map((page) => [page.index, page.artists]))
          if (selectedName !== undefined) selected.value = placeOf(selectedName) ?? selected.value
          inFlight.clear()
          shownGeneration = gen
          shownKey.value = key
          shownSearch.value = list.q ?? ''
          total.value = pages[0]!.total
          searchable.value = pages[0]!.searchable
          status.value = 'ready'
          failure.value = null
          version.value += 1
        } catch (error) {
          if (gen !== generation) continue
          failure.value = error
          status.value = 'error'
          notices.error(error, 'Could not list the artists')
        }
      } while (reloadAgain)
    } finally {
      reloading = false
    }
    ensureRange(wanted.start, wanted.end)
  }

  /** The list shows rows start..end (overscan included): fetch the windows they need, and the next one in the direction of travel. */
  function ensureRange(start: number, end: number): void {
    const movingDown = start >= previousStart
    previousStart = start
    wanted = { start, end: Math.max(start, end) }
    if (reloading || shownGeneration !== generation || total.value === 0) return
    const lastRow = total.value - 1
    const first = Math.floor(Math.min(start, lastRow) / WINDOW_ROWS)
    const last = Math.floor(Math.min(wanted.end, lastRow) / WINDOW_ROWS)
    const indices: number[] = []
    for (let index = first; index <= last; index++) indices.push(index)
    // Ahead of the scroll: the neighbouring window once the view is past the middle of its own.
    if (movingDown && wanted.end % WINDOW_ROWS >= WINDOW_ROWS / 2 && (last + 1) * WINDOW_ROWS <= lastRow) indices.push(last + 1)
    if (!movingDown && start % WINDOW_ROWS < WINDOW_ROWS / 2 && first > 0) indices.push(first - 1)
    const gen = generation
    const list = query.value
    for (const index of indices) {
      const flight = `${gen}:${index}`
      if (holds(index, wanted.end + AHEAD_ROWS) || inFlight.has(flight)) continue
      inFlight.add(flight)
      fetchWindow(list, index).then(
        (page) => {
          inFlight.delete(flight)
          if (gen !== generation) return
          windows.set(index, page.artists)
          // Another answer of the same generation: the total moves only with the catalogue, which starts a new generation.
          total.value = page.total
          searchable.value = page.searchable
          evict()
          version.value += 1
        },
        (error: unknown) => {
          inFlight.delete(flight)
          if (gen !== generation) return
          failure.value = error
          notices.error(error, 'Could not list the artists')
        },
      )
    }
  }

  /** Starts the list over at its top (the filters changed). */
  function restart(): void {
    selected.value = -1
    scrollOffset = 0
    wanted = { start: 0, end: Math.max(wanted.end - wanted.start, 0) }
    previousStart = 0
    kept.save()
    void reload()
  }

  watch(queryKey, restart)
  watch(filters, () => kept.save())

  /** Back to no search and the default filters. */
  function resetFilters(): void {
    Object.assign(filters, DEFAULT_FILTERS)
  }

  function clearSearch(): void {
    filters.search = ''
  }

  /** Loads the first rows unless they are here or on their way. */
  function start(): void {
    if (shownGeneration === -1 && !reloading) void reload()
    if (counts.value === null) void loadCounts()
    follows.start()
  }

  function retry(): void {
    void reload()
  }

  // A sync changed the cache: the same place in the list, read again. Another service: its list from the top.
  session.onDidEmit((event) => {
    if (event.type === 'catalogue-changed') void reload()
    else if (event.type === 'service') restart()
  })

  // The Following and Downloaded chips: how many artists each would list with the other filters and the search.
  const follows = useFollowsStore()
  const counts = ref<ArtistFilterCounts | null>(null)
  const countsKey = computed(() => JSON.stringify({ ...query.value, only: undefined, sort: undefined, reverse: undefined }))
  let countsAsked = 0
  async function loadCounts(): Promise<void> {
    const asked = ++countsAsked
    try {
      const answer = await api.catalogue.filterCounts({ ...query.value, only: undefined, sort: undefined, reverse: undefined })
      if (asked === countsAsked) counts.value = answer
    } catch {
      // The chips keep their last counts; the list itself says what failed.
    }
  }
  let countsTimer: ReturnType<typeof setTimeout> | undefined
  /** Counts again once changes settle (a sync stores pages in bursts; a search is typed key by key). */
  function countSoon(): void {
    clearTimeout(countsTimer)
    countsTimer = setTimeout(() => void loadCounts(), 250)
  }
  watch(countsKey, countSoon)
  watch(
    () => follows.version,
    () => {
      countSoon()
      // An artist followed or unfollowed belongs to the Following list, or no longer does.
      if (filters.only === 'following') void reload()
    },
  )
  session.onDidEmit((event) => {
    if (event.type === 'catalogue-changed' || event.type === 'service') countSoon()
    else if (
      event.type === 'downloads-changed' &&
      (event.many !== undefined || event.removed.length > 0 || event.downloads.some((download) => download.state === 'completed'))
    ) {
      // A download that ended, or went off the list (or thousands changed at once): the Downloaded set may have changed.
      countSoon()
      if (filters.only === 'downloaded') void reload()
    }
  })

  return {
    filters,
    query,
    queryKey,
    searching,
    status,
    failure,
    total,
    counts,
    shownSearch,
    searchable,
    shownKey,
    version,
    selected,
    rowAt,
    ensureRange,
    resetFilters,
    clearSearch,
    start,
    retry,
    /** Where the list was scrolled to. */
    saveScroll: (offset: number): void => {
      scrollOffset = offset
      kept.save()
    },
    savedScroll: () => scrollOffset,
  }
})

/**
 * Offline search: an FTS5 index of each text's words, split and folded in
 * JavaScript exactly as the service's search does (shared/text's
 * `searchWords`; see migration 0004). As on the service, every word must
 * begin a word of the username, display name, bio or location.
 *
 * The order: artists whose names hold every word first, then the others.
 * Within each group, a search that finds at most `popularAbove` (2,000)
 * artists ranks by bm25, name fields weighted over the bio and location. A
 * search that finds more (with the list's filters) lists each group in the
 * catalogue's trending order: the order of the service's trending list at the
 * last sync, artists without a place in it last, by id. That is the service's
 * own order among equally relevant artists, so a one-word search that large
 * comes in exactly the service's order (the service also puts, among the
 * others of a search of several words, those with more of the words in their
 * names first; this does not). For a word such as `a`, `dj` or `the`, bm25
 * would only tell apart texts of different lengths, and ranking tens of
 * thousands of matches by it takes longer than a frame.
 *
 * Words that match very many artists (more than `storeAbove` in some list
 * filter) are answered ahead: at the end of a sync (`optimizeSearchIndex`),
 * each such word of at most `storeLength` characters gets, for every list
 * filter, its total and its first results stored in `search_answers`
 * (migration 0007), for the catalogue version they were computed at. Any later
 * write to the catalogue makes them stale, and searches are computed again
 * until the next sync ends.
 */
import type { Database } from 'better-sqlite3'
import { ARTIST_KINDS, type ArtistKind } from '../shared/catalogue'
import { searchWords } from '../shared/text'
import { deleteMeta, readMeta, writeMeta } from './meta'
import { cached, currentCatalogueVersion } from './query-cache'
import { statement } from './statements'

export interface SearchTuning {
  /** A search that finds more artists than this lists each group in trending order instead of by bm25. */
  popularAbove: number
  /** A word that matches more artists than this, in some list filter, has its answers stored when a sync ends. */
  storeAbove: number
  /** The longest word, in characters, whose answers are stored. */
  storeLength: number
}

export const SEARCH_TUNING: Readonly<SearchTuning> = { popularAbove: 2000, storeAbove: 5000, storeLength: 3 }

/** Relevancy weights of username, display name, bio and location for bm25 (the filter words weigh nothing). */
const BM25 = 'bm25(artists_fts, 10.0, 10.0, 1.0, 2.0, 0.0)'

/**
 * Trending order, artists without a place in it last. artists_fts is joined with artists for it,
 * through the narrow index of migration 0007: each match's whole row would be many times slower
 * to read, the more so after another connection's write empties this one's page cache.
 */
const TRENDING = 'artists.rank_trending IS NULL, artists.rank_trending, artists.id'

/**
 * How many results a first search ranks, and how many a stored answer holds. A first
 * page needs only the best few, and ORDER BY ... LIMIT keeps a small heap instead of
 * sorting every match.
 */
const TOP_RESULTS = 200

/** How many results a search ranks for a page that ends at `want`: the first few, more as a user scrolls, then all. */
const WINDOWS = [TOP_RESULTS, 1000, 5000]

/** The words of the index's filter column (see the generated column `search_flags` of migration 0001). */
export const FLAG_WORDS = ['gone', 'blank', 'podcast'] as const

/**
 * The FTS5 query for what a user typed, split and folded as the service does
 * it: every word must match, each as a prefix; words are quoted, so FTS syntax
 * in the text is just text, and the index's tokenizer keeps each one whole.
 * Undefined when the text holds no word.
 */
export function searchMatch(text: string): string | undefined {
  const words = searchWords(text)
  if (words.length === 0) return undefined
  return phrases(words)
}

function phrases(words: readonly string[]): string {
  return words.map((word) => `"${word}"*`).join(' ')
}

/** The list filters as FTS terms on the index's flag words. */
function searchFilters(kind: ArtistKind, includeBlank: boolean): string {
  return [
    kind === 'podcasts' ? 'AND search_flags : podcast' : kind === 'musicians' ? 'NOT search_flags : podcast' : '',
    'NOT search_flags : gone',
    includeBlank ? '' : 'NOT search_flags : blank',
  ].join(' ')
}

/** Artists with every word in their username or display name. */
function namesMatch(words: readonly string[], filters: string): string {
  return `{username pf_name} : (${phrases(words)}) ${filters}`
}

/**
 * Artists with every word in any text. Only the flag column is left out, and only
 * a word that begins a flag word can match there: for any other, the query needs
 * no column filter, which finds the same artists, ranks them the same, and costs
 * about half as much.
 */
function everywhere(words: readonly string[], filters: string): string {
  const flagLike = words.some((word) => FLAG_WORDS.some((flag) => flag.startsWith(word)))
  return flagLike ? `{username pf_name pf_bio location_name} : (${phrases(words)}) ${filters}` : `${phrases(words)} ${filters}`
}

export interface SearchResult {
  /** How many artists the search finds. */
  total: number
  /** Ids of the results offset to offset + limit, in order. */
  ids: number[]
}

/** A page of a search for what a user typed; undefined when the text holds no word. */
export function searchArtists(
  db: Database,
  text: string,
  kind: ArtistKind,
  includeBlank: boolean,
  offset: number,
  limit: number,
  tuning: SearchTuning = SEARCH_TUNING,
): SearchResult | undefined {
  const words = searchWords(text)
  if (words.length === 0) return undefined
  const stored = words.length === 1 ? storedAnswer(db, words[0]!, kind, includeBlank, tuning) : undefined
  const filters = searchFilters(kind, includeBlank)
  const anywhere = everywhere(words, filters)
  const total = stored?.total ?? searchCount(db, anywhere)
  if (stored?.first && offset + limit <= stored.first.length) return { total, ids: stored.first.slice(offset, offset + limit) }
  const order = total > tuning.popularAbove ? 'trending' : 'bm25'
  return { total, ids: searchOrder(db, namesMatch(words, filters), anywhere, order, offset + limit).slice(offset, offset + limit) }
}

/** How many artists a search matches. */
function searchCount(db: Database, anywhere: string): number {
  return cached(db, `search-count\u0000${anywhere}`, () =>
    statement<[string], { n: number }>(db, 'SELECT count(*) AS n FROM artists_fts WHERE artists_fts MATCH ?').get(anywhere)!.n,
  )
}

/**
 * Ids of a search's results in order, at least the first `want` of them (all of
 * them when there are fewer): artists whose names hold every word first, then the
 * others, each group by bm25 or in trending order. Cached until the catalogue changes.
 */
function searchOrder(db: Database, names: string, anywhere: string, order: 'bm25' | 'trending', want: number): number[] {
  const limit = WINDOWS.find((window) => want <= window) ?? -1
  const scope = limit === -1 ? 'all' : String(limit)
  const sql =
    order === 'bm25'
      ? `SELECT rowid FROM artists_fts WHERE artists_fts MATCH ? ORDER BY ${BM25}, rowid LIMIT ?`
      : `SELECT artists_fts.rowid FROM artists_fts CROSS JOIN artists INDEXED BY artists_trending_by_id ON artists.id = artists_fts.rowid
         WHERE artists_fts MATCH ? ORDER BY ${TRENDING} LIMIT ?`
  const ranked = (match: string): number[] => statement<[string, number], number>(db, sql).pluck().all(match, limit)
  const inNamesFirst = cached(db, `search-names-${order}-${scope}\u0000${names}`, () => ranked(names))
  // Enough name matches for the page: the other matches need no ranking.
  if (want <= inNamesFirst.length) return inNamesFirst
  // Fewer name matches than wanted means every one of them is in `inNamesFirst`. The others
  // follow; the first `limit` of everywhere hold at least `limit - inNamesFirst.length` of them.
  return cached(db, `search-${order}-${scope}\u0000${anywhere}`, () => {
    const seen = new Set(inNamesFirst)
    return inNamesFirst.concat(ranked(anywhere).filter((id) => !seen.has(id)))
  })
}

/**
 * A page of a search within a set of artists (followed, or with a download; see
 * artist-sets.ts), gone ones included: `inSet` is the set's condition on `artists`.
 * The set is small, so its matches are found through the index by rowid, and
 * ordered as the set lists them (trending order, gone artists last) with those
 * whose names hold every word first, instead of by bm25.
 */
export function searchArtistSet(
  db: Database,
  text: string,
  kind: ArtistKind,
  includeBlank: boolean,
  inSet: string,
  offset: number,
  limit: number,
): SearchResult {
  const words = searchWords(text)
  if (words.length === 0) return { total: 0, ids: [] }
  const filters = [
    kind === 'podcasts' ? 'AND search_flags : podcast' : kind === 'musicians' ? 'NOT search_flags : podcast' : '',
    includeBlank ? '' : 'NOT search_flags : blank',
  ].join(' ')
  const matching = statement<[string], number>(
    db,
    `SELECT rowid FROM artists_fts WHERE artists_fts MATCH ? AND rowid IN (SELECT artists.id FROM artists WHERE ${inSet})`,
  ).pluck()
  const inNames = new Set(matching.all(namesMatch(words, filters)))
  const all = new Set(matching.all(everywhere(words, filters)))
  const ordered = statement<[], number>(db, `SELECT artists.id FROM artists WHERE ${inSet} ORDER BY ${TRENDING}`)
    .pluck()
    .all()
    .filter((id) => all.has(id))
  const ids = [...ordered.filter((id) => inNames.has(id)), ...ordered.filter((id) => !inNames.has(id))]
  return { total: ids.length, ids: ids.slice(offset, offset + limit) }
}

interface StoredAnswer {
  total: number
  first: number[] | undefined
}

/** What a sync's end stored for one word and list filter, if it still holds. */
function storedAnswer(db: Database, word: string, kind: ArtistKind, includeBlank: boolean, tuning: SearchTuning): StoredAnswer | undefined {
  if (Array.from(word).length > tuning.storeLength) return undefined
  if (readMeta(db, 'search_answers_for') !== answersStamp(currentCatalogueVersion(db), tuning)) return undefined
  const row = statement<[string, string, number], { total: number; first_ids: string | null }>(
    db,
    'SELECT total, first_ids FROM search_answers WHERE word = ? AND kind = ? AND include_blank = ?',
  ).get(word, kind, includeBlank ? 1 : 0)
  if (!row) return undefined
  return { total: row.total, first: row.first_ids === null ? undefined : (JSON.parse(row.first_ids) as number[]) }
}

/** What stored answers hold for: the catalogue version and the rule they were computed with. */
function answersStamp(version: string, tuning: SearchTuning): string {
  return `${version}/${tuning.popularAbove}/${tuning.storeAbove}/${tuning.storeLength}/${TOP_RESULTS}`
}

/**
 * Stores the answers of every word that matches more than `storeAbove` artists in
 * some list filter (see the top of this file): for each list filter its total, and
 * where it lists in trending order, its first results. Computed from the index and
 * the trending ranks in one pass per word, the same answers a search computes.
 */
export function storeSearchAnswers(db: Database, tuning: SearchTuning = SEARCH_TUNING): void {
  statement(db, 'DELETE FROM search_answers').run()
  deleteMeta(db, 'search_answers_for')
  const artists = statement<[], number>(db, 'SELECT count(*) FROM artists').pluck().get()!
  if (artists <= tuning.storeAbove) return
  const version = currentCatalogueVersion(db)

  // Words that may match enough artists: the prefixes of the index's terms, by how many rows hold each term.
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocabulary USING fts5vocab(main, artists_fts, row)')
  const bound = new Map<string, number>()
  for (const [term, rows] of statement<[], [string, number]>(db, 'SELECT term, doc FROM temp.search_vocabulary').raw().iterate()) {
    let prefix = ''
    let length = 0
    for (const character of term) {
      if (++length > tuning.storeLength) break
      prefix += character
      bound.set(prefix, (bound.get(prefix) ?? 0) + rows)
    }
  }
  const candidates = [...bound].filter(([, rows]) => rows > tuning.storeAbove).map(([word]) => word)
  if (candidates.length === 0) return

  // The flags as the search's filters see them, and the trending order.
  const maxId = statement<[], number>(db, 'SELECT max(id) FROM artists').pluck().get()!
  const flags = new Uint8Array(maxId + 1)
  const PODCAST = 1
  const BLANK = 2
  const GONE = 4
  const flagged = statement<[string], number>(db, 'SELECT rowid FROM artists_fts WHERE artists_fts MATCH ?').pluck()
  for (const [word, bit] of [['podcast', PODCAST], ['blank', BLANK], ['gone', GONE]] as const) {
    for (const id of flagged.iterate(`search_flags : ${word}`)) flags[id] |= bit
  }
  // Where each artist stands: its place in trending order, or after all of those, by id.
  const trending = statement<[], number>(db, 'SELECT id FROM artists WHERE rank_trending IS NOT NULL ORDER BY rank_trending, id').pluck().all()
  const place = new Float64Array(maxId + 1)
  for (let id = 0; id <= maxId; id++) place[id] = trending.length + id
  trending.forEach((id, i) => (place[id] = i))
  const inPlace = (key: number): number => (key < trending.length ? trending[key]! : key - trending.length)

  // Each list filter, and for each combination of flags the filters that let it through (a bit each).
  const filters = ARTIST_KINDS.flatMap((kind) => [false, true].map((includeBlank) => ({ kind, includeBlank })))
  const letThrough = Array.from({ length: 8 }, (_, flag) =>
    filters.reduce(
      (mask, filter, i) =>
        (flag & GONE) === 0 &&
        (filter.includeBlank || (flag & BLANK) === 0) &&
        (filter.kind === 'all' || (filter.kind === 'podcasts') === ((flag & PODCAST) !== 0))
          ? mask | (1 << i)
          : mask,
      0,
    ),
  )
  // Which artists match the current word, and which of them in their names: those marked with the word's number.
  const inAll = new Int32Array(maxId + 1)
  const inNames = new Int32Array(maxId + 1)
  const keys = new Float64Array(maxId + 1)
  const insert = statement(db, 'INSERT INTO search_answers (word, kind, include_blank, total, first_ids) VALUES (?, ?, ?, ?, ?)')
  const matching = statement<[string], number>(db, 'SELECT rowid FROM artists_fts WHERE artists_fts MATCH ?').pluck()
  candidates.forEach((word, index) => {
    const mark = index + 1
    const all = matching.all(everywhere([word], ''))
    const byFlags = new Array<number>(8).fill(0)
    for (const id of all) {
      byFlags[flags[id]!]!++
      inAll[id] = mark
    }
    const totals = filters.map((_, i) => byFlags.reduce((sum, n, flag) => ((letThrough[flag]! >> i) & 1 ? sum + n : sum), 0))
    if (Math.max(...totals) <= tuning.storeAbove) return
    const names = matching.all(namesMatch([word], ''))
    for (const id of names) inNames[id] = mark
    // Filters still short of a first page, as bits; those ranked by bm25 are never open.
    let open = totals.reduce((mask, total, i) => (total > tuning.popularAbove ? mask | (1 << i) : mask), 0)
    const popular = open
    const firsts = filters.map(() => [] as number[])
    const take = (id: number): void => {
      const through = letThrough[flags[id]!]! & open
      for (let i = 0; through !== 0 && i < filters.length; i++) {
        if (((through >> i) & 1) === 0) continue
        const first = firsts[i]!
        first.push(id)
        if (first.length === TOP_RESULTS) open &= ~(1 << i)
      }
    }
    // Names first, then the others; each in trending order, those without a place in it last, by id.
    // A small group is sorted; a large one (more than a sixteenth of the trending order, where walking that
    // order costs less than sorting the group) is picked from the trending order until every filter has its page.
    for (const group of [names, all]) {
      if (open === 0) break
      const namesGroup = group === names
      const inGroup = (id: number): boolean => (inNames[id] === mark) === namesGroup && (letThrough[flags[id]!]! & open) !== 0
      let n = 0
      if (group.length * 16 <= trending.length) {
        for (const id of group) if (inGroup(id)) keys[n++] = place[id]!
      } else {
        for (let i = 0; i < trending.length && open !== 0; i++) {
          const id = trending[i]!
          if (inAll[id] === mark && inGroup(id)) take(id)
        }
        for (const id of group) if (place[id]! >= trending.length && inGroup(id)) keys[n++] = place[id]!
      }
      const sorted = keys.subarray(0, n).sort()
      for (let i = 0; i < n && open !== 0; i++) take(inPlace(sorted[i]!))
    }
    filters.forEach((filter, i) => {
      const first = (popular >> i) & 1 ? JSON.stringify(firsts[i]) : null
      insert.run(word, filter.kind, filter.includeBlank ? 1 : 0, totals[i]!, first)
    })
  })
  writeMeta(db, 'search_answers_for', answersStamp(version, tuning))
}

/**
 * Builds the whole index afresh from the artists, in one statement: what the
 * first sync of an empty cache does once its lists are in, many times faster
 * than row by row. Stored answers go with the old index.
 */
export function rebuildSearchIndex(db: Database): void {
  statement(db, 'DELETE FROM search_answers').run()
  statement(db, `INSERT INTO artists_fts (artists_fts) VALUES ('delete-all')`).run()
  statement(
    db,
    `INSERT INTO artists_fts (rowid, username, pf_name, pf_bio, location_name, search_flags)
     SELECT id, search_text(username), search_text(pf_name), search_text(pf_bio), search_text(location_name), search_flags FROM artists`,
  ).run()
}

/**
 * Row-by-row updates leave the index in many small segments; merging them into
 * one makes searches about a tenth faster. It costs about half a second per
 * 100,000 changed artists, and next to nothing when the index is already one
 * segment. Then the answers of the broadest words are stored (what a sync's end calls).
 */
export function optimizeSearchIndex(db: Database, tuning: SearchTuning = SEARCH_TUNING): void {
  statement(db, `INSERT INTO artists_fts (artists_fts) VALUES ('optimize')`).run()
  storeSearchAnswers(db, tuning)
}

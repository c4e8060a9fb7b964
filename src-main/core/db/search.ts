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
 * filter) are answered ahead: at the end of a sync (`startSearchIndexUpkeep` in search-answers.ts),
 * each such word of at most `storeLength` characters gets, for every list
 * filter, its total and its first results stored in `search_answers`
 * (migration 0007), for the catalogue version they were computed at. Any later
 * write to the catalogue makes them stale, and searches are computed again
 * until the next sync ends.
 */
import { createHash } from 'node:crypto'
import type { Database } from 'better-sqlite3'
import type { ArtistKind } from '../shared/catalogue'
import { searchWords } from '../shared/text'
import { deleteMeta, readMeta, writeMeta, writeMetaIfAbsent } from './meta'
import { bumpCatalogueVersion, cached, currentCatalogueVersion } from './query-cache'
import { statement } from './statements'

export interface SearchTuning {
  /** A search that finds more artists than this lists each group in trending order instead of by bm25. */
  popularAbove: number
  /** A word that matches more artists than this, in some list filter, has its answers stored when a sync ends. */
  storeAbove: number
  /** The longest word, in characters, whose answers are stored. */
  storeLength: number
  /** A search that finds more artists than this is put in trending order by walking that order (see `trendingWalk`). */
  walkAbove: number
}

export const SEARCH_TUNING: Readonly<SearchTuning> = { popularAbove: 2000, storeAbove: 5000, storeLength: 3, walkAbove: 20_000 }

/** Relevancy weights of username, display name, bio and location for bm25 (the filter words weigh nothing). */
const BM25 = 'bm25(artists_fts, 10.0, 10.0, 1.0, 2.0, 0.0)'

/**
 * Trending order, artists without a place in it last. artists_fts is joined with artists for it,
 * through the narrow index of migration 0007: each match's whole row would be many times slower
 * to read, the more so after another connection's write empties this one's page cache.
 */
const TRENDING = 'artists.rank_trending IS NULL, artists.rank_trending, artists.id'

/**
 * The same order found the other way round, for a search with very many matches: the
 * matches put in a set, then the trending order walked until enough of them are found
 * (then those without a place in it, by id). Joining costs a lookup per match (some 20 ms
 * for 100,000); walking costs at most one pass over the order's narrow index (about 4 ms),
 * and much less when the matches are dense in it, as those of a broad word are.
 */
const TRENDING_WALK = [
  `SELECT id FROM artists INDEXED BY artists_by_trending WHERE rank_trending IS NOT NULL
   AND id IN (SELECT rowid FROM artists_fts WHERE artists_fts MATCH ?) ORDER BY rank_trending, id LIMIT ?`,
  `SELECT id FROM artists WHERE rank_trending IS NULL AND id IN (SELECT rowid FROM artists_fts WHERE artists_fts MATCH ?) ORDER BY id LIMIT ?`,
] as const

/**
 * How many results a first search ranks, and how many a stored answer holds. A first
 * page needs only the best few, and ORDER BY ... LIMIT keeps a small heap instead of
 * sorting every match.
 */
export const TOP_RESULTS = 200

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
export function namesMatch(words: readonly string[], filters: string): string {
  return `{username pf_name} : (${phrases(words)}) ${filters}`
}

/**
 * Artists with every word in any text. Only the flag column is left out, and only
 * a word that begins a flag word can match there: for any other, the query needs
 * no column filter, which finds the same artists, ranks them the same, and costs
 * about half as much.
 */
export function everywhere(words: readonly string[], filters: string): string {
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
  const order = total <= tuning.popularAbove ? 'bm25' : total > tuning.walkAbove ? 'trending-walk' : 'trending'
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
function searchOrder(db: Database, names: string, anywhere: string, order: 'bm25' | 'trending' | 'trending-walk', want: number): number[] {
  const limit = WINDOWS.find((window) => want <= window) ?? -1
  const scope = limit === -1 ? 'all' : String(limit)
  const sql =
    order === 'bm25'
      ? `SELECT rowid FROM artists_fts WHERE artists_fts MATCH ? ORDER BY ${BM25}, rowid LIMIT ?`
      : `SELECT artists_fts.rowid FROM artists_fts CROSS JOIN artists INDEXED BY artists_trending_by_id ON artists.id = artists_fts.rowid
         WHERE artists_fts MATCH ? ORDER BY ${TRENDING} LIMIT ?`
  const ranked = (match: string): number[] => {
    if (order !== 'trending-walk') return statement<[string, number], number>(db, sql).pluck().all(match, limit)
    const [placed, unplaced] = TRENDING_WALK.map((walk) => statement<[string, number], number>(db, walk).pluck())
    const first = placed!.all(match, limit)
    return limit !== -1 && first.length === limit ? first : first.concat(unplaced!.all(match, limit === -1 ? -1 : limit - first.length))
  }
  // Both trending orders give the same ids, and share their cached answers.
  const inNamesFirst = cached(db, `search-names-${order === 'bm25' ? order : 'trending'}-${scope}\u0000${names}`, () => ranked(names))
  // Enough name matches for the page: the other matches need no ranking.
  if (want <= inNamesFirst.length) return inNamesFirst
  // Fewer name matches than wanted means every one of them is in `inNamesFirst`. The others
  // follow; the first `limit` of everywhere hold at least `limit - inNamesFirst.length` of them.
  return cached(db, `search-${order === 'bm25' ? order : 'trending'}-${scope}\u0000${anywhere}`, () => {
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

/**
 * What a sync's end stored for one word and list filter, if it still holds: all of it until the
 * catalogue changes; after a change that left the index as it was (an artist's tracks or detail
 * fetched again, without a change to its words or filters), still its totals, which are made of
 * the index alone, while its first results (made of the trending order too) are computed.
 */
function storedAnswer(db: Database, word: string, kind: ArtistKind, includeBlank: boolean, tuning: SearchTuning): StoredAnswer | undefined {
  if (Array.from(word).length > tuning.storeLength) return undefined
  const current = readMeta(db, 'search_answers_for') === answersStamp(currentCatalogueVersion(db), tuning)
  if (!current && readMeta(db, 'search_answers_index') !== `${cached(db, 'search-index-digest', () => searchIndexDigest(db))}/${answersStamp('', tuning)}`) {
    return undefined
  }
  const row = statement<[string, string, number], { total: number; first_ids: string | null }>(
    db,
    'SELECT total, first_ids FROM search_answers WHERE word = ? AND kind = ? AND include_blank = ?',
  ).get(word, kind, includeBlank ? 1 : 0)
  if (!row) return undefined
  return { total: row.total, first: current && row.first_ids !== null ? (JSON.parse(row.first_ids) as number[]) : undefined }
}

/**
 * A digest of the index's content as FTS5 keeps its books: its structure record (its segments
 * and their deletions), which it rewrites with every change of its content, and its averages
 * record (rowids 10 and 1 of its data table). Read outside any write of this connection, or
 * right after the index's 'optimize' (which writes out what it holds in memory), it says all.
 */
export function searchIndexDigest(db: Database): string {
  const digest = createHash('sha256')
  for (const block of statement<[], Buffer>(db, 'SELECT block FROM artists_fts_data WHERE id IN (1, 10) ORDER BY id').pluck().iterate()) {
    digest.update(block).update('\u0000')
  }
  return digest.digest('base64url')
}

/** What stored answers hold for: the catalogue version and the rule they were computed with. */
export function answersStamp(version: string, tuning: SearchTuning): string {
  return `${version}/${tuning.popularAbove}/${tuning.storeAbove}/${tuning.storeLength}/${TOP_RESULTS}`
}

/** The search index's row of each artist: its texts folded as the service's search folds them, and its filter words. */
const INDEX_ROWS = `INSERT INTO artists_fts (rowid, username, pf_name, pf_bio, location_name, search_flags)
  SELECT id, search_text(username), search_text(pf_name), search_text(pf_bio), search_text(location_name), search_flags FROM artists`

/** Stored answers go with the index they were computed from. */
function forgetStoredAnswers(db: Database): void {
  statement(db, 'DELETE FROM search_answers').run()
  deleteMeta(db, 'search_answers_for')
  deleteMeta(db, 'search_answers_inputs')
  deleteMeta(db, 'search_answers_index')
}

/**
 * Builds the whole index afresh from the artists, in one statement, many times
 * faster than row by row. Stored answers go with the old index.
 */
export function rebuildSearchIndex(db: Database): void {
  forgetStoredAnswers(db)
  statement(db, `INSERT INTO artists_fts (artists_fts) VALUES ('delete-all')`).run()
  statement(db, INDEX_ROWS).run()
}

/*
 * While the first sync of an empty cache stores its list pages ('fts_rebuild_pending' is set, and
 * the index's triggers leave it alone), the index grows a slice at a time: the sync calls
 * `indexArtistsSoFar` about once a second, which indexes in one statement the artists stored
 * since its last call (one statement for many rows costs what the bulk build costs per row; a
 * trigger per row costs many times more), and `finishSearchIndex` when the lists are in. The meta
 * row 'fts_indexed_upto' is the highest artist id indexed; it exists only while the flag is set.
 * What the index holds is exact as of the last slice (migration 0014):
 *  - the artists above the mark are not in it, and the next slice takes them: a new row's id is
 *    above every id in the table;
 *  - those at or below it are, each as its row was at the last slice: one that changed since (a
 *    podcaster found on a later page, a detail that renames), or was inserted there (ids are not
 *    reused while a cache fills, but if one were), is noted in search_stale, and the next slice
 *    deletes its entry and indexes it again as its row is; one deleted leaves the index at once.
 * Once the last slice ran (finishSearchIndex), every artist is in the index as its row is, which is
 * what `rebuildSearchIndex` builds, and the triggers keep it from then on.
 */

/** The highest artist id the index holds while a first sync fills the cache (0 before the first slice). */
function indexedUpTo(db: Database): number {
  return Number(readMeta(db, 'fts_indexed_upto') ?? 0)
}

/**
 * While a first sync fills the cache: indexes the artists stored since the last slice, and those
 * indexed before that changed since, in bulk, and marks them indexed. Returns how many entries
 * went in (none when no first sync is under way). Call it inside a write transaction.
 */
export function indexArtistsSoFar(db: Database): number {
  if (readMeta(db, 'fts_rebuild_pending') === null) return 0
  const upTo = indexedUpTo(db)
  const last = statement<[], number | null>(db, 'SELECT max(id) FROM artists').pluck().get() ?? 0
  // Stale entries go first, one by one by rowid (a delete is cheap while no insert waits in this
  // transaction, and a DELETE over a set of rowids would scan the whole index).
  const stale = statement<[], number>(db, 'SELECT id FROM search_stale WHERE id IN (SELECT id FROM artists_fts_docsize)').pluck().all()
  const remove = statement<[number]>(db, 'DELETE FROM artists_fts WHERE rowid = ?')
  for (const id of stale) remove.run(id)
  let added = statement(db, `${INDEX_ROWS} WHERE id IN (SELECT id FROM search_stale)`).run().changes
  const changed = statement(db, 'DELETE FROM search_stale').run().changes > 0
  if (last > upTo) {
    added += statement<[number, number]>(db, `${INDEX_ROWS} WHERE id > ? AND id <= ?`).run(upTo, last).changes
    writeMeta(db, 'fts_indexed_upto', String(last))
  }
  if (!changed && last <= upTo) return added
  // How many artists a search sees, counted once here rather than at each search (the index's
  // narrow table of entries, not the artists' wide rows: a few milliseconds on 100,000).
  writeMeta(db, 'fts_indexed_count', String(statement<[], number>(db, 'SELECT count(*) FROM artists_fts_docsize').pluck().get()!))
  // Searches cached for the index as it was are computed again.
  bumpCatalogueVersion(db)
  return added
}

/**
 * The end of a first sync's lists: a last slice (see above), and from now on the triggers keep
 * every artist. The index then holds what `rebuildSearchIndex` would build. Stored answers go
 * with the old index. Call it inside a write transaction.
 */
export function finishSearchIndex(db: Database): void {
  if (readMeta(db, 'fts_rebuild_pending') === null) return
  forgetStoredAnswers(db)
  indexArtistsSoFar(db)
  deleteMeta(db, 'fts_indexed_upto')
  deleteMeta(db, 'fts_indexed_count')
  deleteMeta(db, 'fts_rebuild_pending')
}

/**
 * Starts a first sync's index afresh: an empty cache has nothing to search, and its artists are
 * indexed a slice at a time from the first page on. Call it inside a write transaction.
 */
export function startSearchIndex(db: Database): void {
  forgetStoredAnswers(db)
  writeMetaIfAbsent(db, 'fts_rebuild_pending', '1')
  // Before anything else: with the mark gone, the triggers note nothing more.
  deleteMeta(db, 'fts_indexed_upto')
  deleteMeta(db, 'fts_indexed_count')
  statement(db, 'DELETE FROM search_stale').run()
  statement(db, `INSERT INTO artists_fts (artists_fts) VALUES ('delete-all')`).run()
}

/**
 * How many artists a search looks at, when that is not yet every artist of the cache: while a
 * first sync fills it, those indexed so far. Undefined when every artist can be found.
 */
export function searchableSoFar(db: Database): number | undefined {
  if (readMeta(db, 'fts_rebuild_pending') === null) return undefined
  return Number(readMeta(db, 'fts_indexed_count') ?? 0)
}

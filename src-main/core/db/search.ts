/**
 * Offline search: an FTS5 index of each text's words, split and folded in
 * JavaScript exactly as the service's search does (shared/text's
 * `searchWords`; see migration 0004), bm25 with name fields weighted over the
 * bio. As on the service, every word must begin a word of the username,
 * display name, bio or location; artists whose names hold every word come first.
 */
import type { Database } from 'better-sqlite3'
import type { ArtistKind } from '../shared/catalogue'
import { searchWords } from '../shared/text'
import { cached } from './query-cache'
import { statement } from './statements'

/** Relevancy weights of username, display name, bio and location for bm25 (the filter words weigh nothing). */
const BM25 = 'bm25(artists_fts, 10.0, 10.0, 1.0, 2.0, 0.0)'

/**
 * How many results a first search ranks. A first page needs only the best few, and
 * bm25 with ORDER BY ... LIMIT keeps a small heap instead of sorting every match,
 * which halves the cost of a search as it is typed; scrolling further ranks them all.
 */
const TOP_RESULTS = 200

/**
 * The FTS5 query for what a user typed, split and folded as the service does
 * it: every word must match, each as a prefix; words are quoted, so FTS syntax
 * in the text is just text, and the index's tokenizer keeps each one whole.
 * Undefined when the text holds no word.
 */
export function searchMatch(text: string): string | undefined {
  const words = searchWords(text)
  if (words.length === 0) return undefined
  return words.map((word) => `"${word}"*`).join(' ')
}

/** The list filters as FTS terms on the index's flag words. */
export function searchFilters(kind: ArtistKind, includeBlank: boolean): string {
  return [
    kind === 'podcasts' ? 'AND search_flags : podcast' : kind === 'musicians' ? 'NOT search_flags : podcast' : '',
    'NOT search_flags : gone',
    includeBlank ? '' : 'NOT search_flags : blank',
  ].join(' ')
}

function everywhere(match: string, filters: string): string {
  return `{username pf_name pf_bio location_name} : (${match}) ${filters}`
}

/** How many artists a search matches. */
export function searchCount(db: Database, match: string, filters: string): number {
  const query = everywhere(match, filters)
  return cached(db, `search-count\u0000${query}`, () =>
    statement<[string], { n: number }>(db, 'SELECT count(*) AS n FROM artists_fts WHERE artists_fts MATCH ?').get(query)!.n,
  )
}

/** Ids of the results offset to offset + limit, in relevancy order. */
export function searchArtistIds(db: Database, match: string, filters: string, offset: number, limit: number): number[] {
  return searchOrder(db, `{username pf_name} : (${match}) ${filters}`, everywhere(match, filters), offset + limit).slice(offset, offset + limit)
}

/**
 * Ids of a search's results in relevancy order, at least the first `want` of them
 * (all of them when there are fewer): artists whose names hold every word first,
 * then the others, each group by bm25. Cached until the catalogue changes.
 */
function searchOrder(db: Database, inNames: string, anywhere: string, want: number): number[] {
  const scope = want <= TOP_RESULTS ? 'top' : 'all'
  const limit = scope === 'top' ? TOP_RESULTS : -1
  const ranked = (match: string): number[] =>
    statement<[string, number], number>(db, `SELECT rowid FROM artists_fts WHERE artists_fts MATCH ? ORDER BY ${BM25}, rowid LIMIT ?`)
      .pluck()
      .all(match, limit)
  const names = cached(db, `search-names-${scope}\u0000${inNames}`, () => ranked(inNames))
  // Enough name matches for the page: the other matches need no ranking.
  if (want <= names.length) return names
  // Fewer name matches than wanted means every one of them is in `names`. The others
  // follow; the best `limit` of everywhere hold at least `limit - names.length` of them.
  return cached(db, `search-${scope}\u0000${anywhere}`, () => {
    const seen = new Set(names)
    return names.concat(ranked(anywhere).filter((id) => !seen.has(id)))
  })
}

/**
 * Builds the whole index afresh from the artists, in one statement: what the
 * first sync of an empty cache does once its lists are in, many times faster
 * than row by row.
 */
export function rebuildSearchIndex(db: Database): void {
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
 * 100,000 changed artists, and next to nothing when the index is already one segment.
 */
export function optimizeSearchIndex(db: Database): void {
  statement(db, `INSERT INTO artists_fts (artists_fts) VALUES ('optimize')`).run()
}

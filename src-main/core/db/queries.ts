/**
 * Reading the cache: the one module the CLI and the app's screens ask.
 * Lists reproduce the service's order at the last sync (ranks recorded per
 * sort order); search uses FTS5 with bm25, name fields weighted over the bio.
 */
import type { Database } from 'better-sqlite3'
import { cached } from './query-cache'
import { statement } from './statements'

export type SortOrder = 'trending' | 'top' | 'recently_created' | 'recently_updated'
export const SORT_ORDERS: readonly SortOrder[] = ['trending', 'top', 'recently_created', 'recently_updated']
export type ArtistKind = 'all' | 'podcasts' | 'musicians'

export interface ArtistListQuery {
  q?: string
  kind?: ArtistKind
  sort?: SortOrder
  reverse?: boolean
  includeBlank?: boolean
  /** Paging by page (from 1) and perPage, as the service does... */
  page?: number
  perPage?: number
  /** ...or by offset and limit, for a virtual list. */
  offset?: number
  limit?: number
}

export interface ListedItem {
  subtype: string
  upload: { id: string }
}

export interface ArtistSummary {
  id: number
  username: string
  numTracks: number
  name: string
  facebook: string | null
  twitter: string | null
  website: string | null
  bio: string
  avatar: string
  avatarThumb: string
  location: { id: number; name: string } | null
  user: { username: string } | null
  isPodcaster: boolean
  /** The items the list result carried (subtype and upload id). */
  listedItems: ListedItem[]
  /** When the artist stopped appearing in the service's lists, if it has. */
  goneAt: number | null
}

export interface Track {
  uploadId: string
  itemId: string | null
  title: string
  subtype: string
  createdAt: string | null
  bytes: number | null
  downloads: number | null
  hotlinks: number | null
  ext: string | null
  hotlinkPath: string | null
  artistUsername: string | null
}

export interface ArtistWithTracks extends ArtistSummary {
  tracks: Track[]
  detailFetchedAt: number | null
  detailError: string | null
}

export interface ArtistPage {
  /** Artists matching the query, over all pages. */
  total: number
  /** Pages of perPage (1 when paging by offset). */
  pages: number
  artists: ArtistSummary[]
}

export interface AccessLevel {
  id: number
  name: string
  maxsize: number
  price: number
  bandwidth: number
  storage: number
}

interface ArtistRow {
  id: number
  username: string
  num_tracks: number
  pf_name: string
  pf_facebook: string | null
  pf_twitter: string | null
  pf_website: string | null
  pf_bio: string
  avatar: string
  avatar_thumb: string
  location_id: number | null
  location_name: string | null
  user_username: string | null
  is_podcaster: number
  listed_items: string
  gone_at: number | null
  detail_fetched_at: number | null
  detail_error: string | null
}

/** Every column a summary needs, qualified so a join with the search index stays unambiguous. */
const ARTIST_COLUMNS = [
  'id',
  'username',
  'num_tracks',
  'pf_name',
  'pf_facebook',
  'pf_twitter',
  'pf_website',
  'pf_bio',
  'avatar',
  'avatar_thumb',
  'location_id',
  'location_name',
  'user_username',
  'is_podcaster',
  'listed_items',
  'gone_at',
  'detail_fetched_at',
  'detail_error',
].map((column) => `artists.${column}`).join(', ')

/** Relevancy weights of username, display name, bio and location for bm25 (the filter words weigh nothing). */
const BM25 = 'bm25(artists_fts, 10.0, 10.0, 1.0, 2.0, 0.0)'
const MAX_PAGE_SIZE = 1000

export class QueryError extends Error {}

/** A page of artists, as the service would list them at the last sync. */
export function listArtists(db: Database, query: ArtistListQuery = {}): ArtistPage {
  const sort = query.sort ?? 'trending'
  if (!SORT_ORDERS.includes(sort)) throw new QueryError(`unknown sort order: ${String(sort)}`)
  const { offset, limit, perPage } = paging(query)
  const filters: string[] = []
  const kind = query.kind ?? 'all'
  if (kind === 'podcasts') filters.push('artists.is_podcaster = 1')
  else if (kind === 'musicians') filters.push('artists.is_podcaster = 0')
  else if (kind !== 'all') throw new QueryError(`unknown kind: ${String(kind)}`)
  if (!query.includeBlank) filters.push('artists.num_tracks > 0')

  const words = query.q === undefined ? undefined : ftsQuery(query.q)
  let rows: ArtistRow[]
  let total: number
  if (words !== undefined) {
    // Relevancy, as on the service (sort and reverse do not apply): artists whose names hold every
    // word first, then the others; each group by bm25, names weighted over bio and location.
    const filters = [
      kind === 'podcasts' ? 'AND search_flags : podcast' : kind === 'musicians' ? 'NOT search_flags : podcast' : '',
      'NOT search_flags : gone',
      query.includeBlank ? '' : 'NOT search_flags : blank',
    ].join(' ')
    const everywhere = `{username pf_name pf_bio location_name} : (${words}) ${filters}`
    const inNames = `{username pf_name} : (${words}) ${filters}`
    total = cached(db, `search-count\u0000${everywhere}`, () =>
      statement<[string], { n: number }>(db, 'SELECT count(*) AS n FROM artists_fts WHERE artists_fts MATCH ?').get(everywhere)!.n,
    )
    const order = searchOrder(db, inNames, everywhere, offset + limit)
    rows = artistsById(db, order.slice(offset, offset + limit))
  } else if (query.q !== undefined && query.q.trim() !== '') {
    // Text with no searchable word (only punctuation or symbols) matches nothing.
    total = 0
    rows = []
  } else {
    const rank = `artists.rank_${sort}`
    const where = [`${rank} IS NOT NULL`, ...filters].join(' AND ')
    const direction = query.reverse ? 'DESC' : 'ASC'
    total = cached(db, `count\u0000${where}`, () => statement<[], { n: number }>(db, `SELECT count(*) AS n FROM artists WHERE ${where}`).get()!.n)
    // The inner query walks a covering index only; the outer one reads just the rows shown.
    rows = statement<{ limit: number; offset: number }, ArtistRow>(
      db,
      `SELECT ${ARTIST_COLUMNS} FROM artists WHERE id IN (
         SELECT id FROM artists WHERE ${where} ORDER BY ${rank} ${direction} LIMIT @limit OFFSET @offset
       ) ORDER BY ${rank} ${direction}`,
    ).all({ limit, offset })
  }
  return { total, pages: perPage ? Math.ceil(total / perPage) : 1, artists: rows.map(toSummary) }
}

/**
 * How many results a first search ranks. A first page needs only the best few, and
 * bm25 with ORDER BY ... LIMIT keeps a small heap instead of sorting every match,
 * which halves the cost of a search as it is typed; scrolling further ranks them all.
 */
const TOP_RESULTS = 200

/**
 * Ids of a search's results in relevancy order, at least the first `want` of them
 * (all of them when there are fewer): artists whose names hold every word first,
 * then the others, each group by bm25. Cached until the catalogue changes.
 */
function searchOrder(db: Database, inNames: string, everywhere: string, want: number): number[] {
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
  return cached(db, `search-${scope}\u0000${everywhere}`, () => {
    const seen = new Set(names)
    return names.concat(ranked(everywhere).filter((id) => !seen.has(id)))
  })
}

/** Rows of the given artists, in the order of ids. */
function artistsById(db: Database, ids: number[]): ArtistRow[] {
  if (ids.length === 0) return []
  const rows = statement<number[], ArtistRow>(
    db,
    `SELECT ${ARTIST_COLUMNS} FROM artists WHERE id IN (${ids.map(() => '?').join(', ')})`,
  ).all(...ids)
  const byId = new Map(rows.map((row) => [row.id, row]))
  return ids.map((id) => byId.get(id)!)
}

/** One artist with all its tracks, by username without regard to case; gone artists too. */
export function getArtist(db: Database, username: string): ArtistWithTracks | undefined {
  const row = statement<[string], ArtistRow>(db, `SELECT ${ARTIST_COLUMNS} FROM artists WHERE username_key = ?`).get(
    username.toLowerCase(),
  )
  if (!row) return undefined
  const tracks = statement<[number], Track>(
    db,
    `SELECT upload_id AS uploadId, item_id AS itemId, title, subtype, created_at AS createdAt, bytes, downloads,
       hotlinks, ext, hotlink_path AS hotlinkPath, item_artist AS artistUsername
     FROM tracks WHERE artist_id = ? ORDER BY position`,
  ).all(row.id)
  return { ...toSummary(row), tracks, detailFetchedAt: row.detail_fetched_at, detailError: row.detail_error }
}

/** The cached image behind an avatar address, if the sync fetched it. */
export function getAvatar(db: Database, url: string): { contentType: string; body: Buffer } | undefined {
  return statement<[string], { contentType: string; body: Buffer }>(
    db,
    'SELECT content_type AS contentType, body FROM avatars WHERE url = ?',
  ).get(url)
}

/** One track by upload id, with the artist it belongs to (username and display name). */
export function getTrack(db: Database, uploadId: string): (Track & { artistName: string; artistKey: string }) | undefined {
  return statement<[string], Track & { artistName: string; artistKey: string }>(
    db,
    `SELECT upload_id AS uploadId, item_id AS itemId, title, subtype, created_at AS createdAt, bytes, downloads,
       hotlinks, ext, hotlink_path AS hotlinkPath, artists.username AS artistUsername, artists.pf_name AS artistName,
       artists.username_key AS artistKey
     FROM tracks JOIN artists ON artists.id = tracks.artist_id WHERE upload_id = ?`,
  ).get(uploadId)
}

export function accessLevels(db: Database): AccessLevel[] {
  return statement<[], AccessLevel>(db, 'SELECT id, name, maxsize, price, bandwidth, storage FROM access_levels ORDER BY id').all()
}

export interface SyncStatus {
  baseUrl: string | null
  /** When the last sync completed (ms since the epoch), if one has. */
  lastFullSyncAt: number | null
  lastRun: { id: number; state: string; phase: string; startedAt: number; finishedAt: number | null; error: string | null } | null
  artists: number
  gone: number
  /** Listed artists whose detail is older than their list entry, or missing. */
  detailsPending: number
  detailErrors: { username: string; error: string }[]
}

export function syncStatus(db: Database): SyncStatus {
  const meta = (key: string): string | null =>
    statement<[string], { value: string }>(db, 'SELECT value FROM meta WHERE key = ?').get(key)?.value ?? null
  const lastRun = statement<[], { id: number; state: string; phase: string; startedAt: number; finishedAt: number | null; error: string | null }>(
    db,
    'SELECT id, state, phase, started_at AS startedAt, finished_at AS finishedAt, error FROM sync_runs ORDER BY id DESC LIMIT 1',
  ).get()
  const counts = statement<[], { artists: number; gone: number; pending: number }>(
    db,
    `SELECT count(*) AS artists, count(gone_at) AS gone,
       sum(gone_at IS NULL AND detail_signature IS NOT list_signature) AS pending FROM artists`,
  ).get()!
  const lastSync = meta('last_full_sync_at')
  return {
    baseUrl: meta('base_url'),
    lastFullSyncAt: lastSync === null ? null : Number(lastSync),
    lastRun: lastRun ?? null,
    artists: counts.artists,
    gone: counts.gone,
    detailsPending: counts.pending ?? 0,
    detailErrors: statement<[], { username: string; error: string }>(
      db,
      'SELECT username, detail_error AS error FROM artists WHERE detail_error IS NOT NULL AND gone_at IS NULL ORDER BY username_key',
    ).all(),
  }
}

/**
 * The FTS5 query for what a user typed: every word must match, each as a
 * prefix; words are quoted, so FTS syntax in the text is just text.
 */
export function ftsQuery(text: string): string | undefined {
  const words = text.normalize('NFC').split(/[^\p{L}\p{N}\p{M}]+/u).filter(Boolean)
  if (words.length === 0) return undefined
  return words.map((word) => `"${word}"*`).join(' ')
}

function paging(query: ArtistListQuery): { offset: number; limit: number; perPage: number | undefined } {
  const whole = (value: number | undefined, name: string, min: number, max: number): number | undefined => {
    if (value === undefined) return undefined
    if (!Number.isInteger(value) || value < min || value > max) throw new QueryError(`${name} must be an integer from ${min} to ${max}`)
    return value
  }
  if (query.offset !== undefined || query.limit !== undefined) {
    if (query.page !== undefined || query.perPage !== undefined) throw new QueryError('page by page/perPage or by offset/limit, not both')
    return { offset: whole(query.offset, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0, limit: whole(query.limit, 'limit', 1, MAX_PAGE_SIZE) ?? 50, perPage: undefined }
  }
  const perPage = whole(query.perPage, 'perPage', 1, MAX_PAGE_SIZE) ?? 25
  const page = whole(query.page, 'page', 1, Number.MAX_SAFE_INTEGER) ?? 1
  return { offset: (page - 1) * perPage, limit: perPage, perPage }
}

function toSummary(row: ArtistRow): ArtistSummary {
  return {
    id: row.id,
    username: row.username,
    numTracks: row.num_tracks,
    name: row.pf_name,
    facebook: row.pf_facebook,
    twitter: row.pf_twitter,
    website: row.pf_website,
    bio: row.pf_bio,
    avatar: row.avatar,
    avatarThumb: row.avatar_thumb,
    location: row.location_id === null ? null : { id: row.location_id, name: row.location_name ?? '' },
    user: row.user_username === null ? null : { username: row.user_username },
    isPodcaster: row.is_podcaster === 1,
    listedItems: JSON.parse(row.listed_items) as ListedItem[],
    goneAt: row.gone_at,
  }
}

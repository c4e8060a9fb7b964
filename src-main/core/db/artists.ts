/**
 * Reading artists and tracks from the cache. Lists reproduce the service's
 * order at the last sync (ranks recorded per sort order); a text query is a
 * search (see search.ts).
 */
import type { Database } from 'better-sqlite3'
import type * as v from 'valibot'
// The query as the boundary's schema leaves it (defaults filled in): checked there, not here.
import type { artistListQuerySchema } from '../shared/arguments'
import type { ArtistProfileRecord } from './artist-records'
import { hasAvatar } from './avatars'
import { cached } from './query-cache'
import type { ArtistOnly } from '../shared/catalogue'
import { ARTIST_SET_CONDITIONS } from './artist-sets'
import { searchArtists, searchArtistSet, searchableSoFar } from './search'
import { statement } from './statements'
import { searchWords } from '../shared/text'
import type { ArtistFilterCounts, ArtistPage, ArtistSummary, ArtistWithTracks, ListedItem, Track, TrackWithArtist } from '../shared/types'
export type { ArtistListQuery, ArtistPage, ArtistSummary, ArtistWithTracks, ListedItem, Track, TrackWithArtist } from '../shared/types'

type ValidListQuery = v.InferOutput<typeof artistListQuerySchema>

/** A row of artists: the service's profile members under their own names (as sync-store.ts writes them), and what the cache adds. */
export interface ArtistRow extends Omit<ArtistProfileRecord, 'location' | 'user'> {
  id: number
  location_id: number | null
  location_name: string | null
  user_username: string | null
  is_podcaster: number
  listed_items: string
  gone_at: number | null
  detail_fetched_at: number | null
  detail_error: string | null
}

/** Every column a summary needs, qualified so a join stays unambiguous. */
export const ARTIST_COLUMNS = [
  'id', 'username', 'num_tracks', 'pf_name', 'pf_facebook', 'pf_twitter', 'pf_website', 'pf_bio', 'avatar', 'avatar_thumb',
  'location_id', 'location_name', 'user_username', 'is_podcaster', 'listed_items', 'gone_at', 'detail_fetched_at', 'detail_error',
].map((column) => `artists.${column}`).join(', ')

export const TRACK_COLUMNS = `upload_id AS uploadId, item_id AS itemId, title, subtype, created_at AS createdAt, bytes, downloads,
  hotlinks, ext, hotlink_path AS hotlinkPath`

/** A page of artists, as the service would list them at the last sync (or a search, in relevancy order). */
export function listArtists(db: Database, query: ValidListQuery): ArtistPage {
  const { offset, limit, perPage } = paging(query)
  // A search while a first sync fills the cache sees the artists indexed so far, and says how many
  // (text with no searchable word matches nothing, however many it could see).
  const searchable = query.q !== undefined && searchWords(query.q).length > 0 ? searchableSoFar(db) : undefined
  const partial = searchable === undefined ? {} : { searchable }
  if (query.only !== undefined) {
    const set = listArtistSet(db, query, query.only, offset, limit)
    return { total: set.total, pages: perPage ? Math.ceil(set.total / perPage) : 1, artists: set.artists, ...partial }
  }
  const found = query.q === undefined ? undefined : searchArtists(db, query.q, query.kind, query.includeBlank, offset, limit)
  let rows: ArtistRow[]
  let total: number
  if (found !== undefined) {
    total = found.total
    rows = artistsById(db, found.ids)
  } else if (query.q !== undefined && query.q.trim() !== '') {
    // Text with no searchable word (only punctuation or symbols) matches nothing.
    total = 0
    rows = []
  } else {
    const filters: string[] = []
    if (query.kind === 'podcasts') filters.push('artists.is_podcaster = 1')
    else if (query.kind === 'musicians') filters.push('artists.is_podcaster = 0')
    if (!query.includeBlank) filters.push('artists.num_tracks > 0')
    const rank = `artists.rank_${query.sort}`
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
  return { total, pages: perPage ? Math.ceil(total / perPage) : 1, artists: rows.map(toSummary), ...partial }
}

/**
 * A page of the artists of a set (followed, or with a download), searched or in the
 * list's order; gone artists, which have no place in that order, come last.
 */
function listArtistSet(db: Database, query: ValidListQuery, only: ArtistOnly, offset: number, limit: number): { total: number; artists: ArtistSummary[] } {
  if (query.q !== undefined && query.q.trim() !== '') {
    const found = searchArtistSet(db, query.q, query.kind, query.includeBlank, ARTIST_SET_CONDITIONS[only], offset, limit)
    return { total: found.total, artists: artistsById(db, found.ids).map(toSummary) }
  }
  const where = [ARTIST_SET_CONDITIONS[only], ...kindFilters(query)].join(' AND ')
  const rank = `artists.rank_${query.sort}`
  const direction = query.reverse ? 'DESC' : 'ASC'
  const total = statement<[], number>(db, `SELECT count(*) FROM artists WHERE ${where}`).pluck().get()!
  const rows = statement<{ limit: number; offset: number }, ArtistRow>(
    db,
    `SELECT ${ARTIST_COLUMNS} FROM artists WHERE ${where} ORDER BY ${rank} IS NULL, ${rank} ${direction}, artists.id ${direction}
     LIMIT @limit OFFSET @offset`,
  ).all({ limit, offset })
  return { total, artists: rows.map(toSummary) }
}

/** The list's own filters: the kind of artist, and artists without tracks. */
function kindFilters(query: ValidListQuery): string[] {
  const filters: string[] = []
  if (query.kind === 'podcasts') filters.push('artists.is_podcaster = 1')
  else if (query.kind === 'musicians') filters.push('artists.is_podcaster = 0')
  if (!query.includeBlank) filters.push('artists.num_tracks > 0')
  return filters
}

/** How many artists each set would list with the query's filters and search (its paging and own set aside). */
export function artistSetCounts(db: Database, query: ValidListQuery): ArtistFilterCounts {
  const count = (only: ArtistOnly): number => listArtistSet(db, query, only, 0, 1).total
  return { following: count('following'), downloaded: count('downloaded') }
}

/** Rows of the given artists, in the order of ids. */
function artistsById(db: Database, ids: number[]): ArtistRow[] {
  if (ids.length === 0) return []
  const rows = statement<number[], ArtistRow>(db, `SELECT ${ARTIST_COLUMNS} FROM artists WHERE id IN (${ids.map(() => '?').join(', ')})`).all(
    ...ids,
  )
  const byId = new Map(rows.map((row) => [row.id, row]))
  return ids.map((id) => byId.get(id)!)
}

/** One artist with all its tracks, by username without regard to case; gone artists too. */
export function getArtist(db: Database, username: string): ArtistWithTracks | undefined {
  const row = statement<[string], ArtistRow>(db, `SELECT ${ARTIST_COLUMNS} FROM artists WHERE username_key = ?`).get(username.toLowerCase())
  if (!row) return undefined
  const tracks = statement<[number], Track>(
    db,
    `SELECT ${TRACK_COLUMNS}, item_artist AS artistUsername FROM tracks WHERE artist_id = ? ORDER BY position`,
  ).all(row.id)
  const avatarCached = row.avatar !== '' && hasAvatar(db, row.avatar)
  return { ...toSummary(row), tracks, detailFetchedAt: row.detail_fetched_at, detailError: row.detail_error, avatarCached }
}

/** One track by upload id, with the artist it belongs to. */
export function getTrack(db: Database, uploadId: string): TrackWithArtist | undefined {
  return statement<[string], TrackWithArtist>(
    db,
    `SELECT ${TRACK_COLUMNS}, artists.username AS artistUsername, artists.pf_name AS artistName, artists.username_key AS artistKey
     FROM tracks JOIN artists ON artists.id = tracks.artist_id WHERE upload_id = ?`,
  ).get(uploadId)
}

/**
 * The artists whose downloads folder may have the same name as one named `name`: those whose display
 * name is the same, trimmed and ASCII case folded (through the index of migration 0013), and one whose
 * username it is and whose display name is blank (its folder is its username). The caller compares the
 * folders' names themselves (downloads/file-names.ts).
 */
export function artistsNamedLike(db: Database, name: string): { username: string; name: string }[] {
  return statement<[string, string], { username: string; name: string }>(
    db,
    `SELECT username, pf_name AS name FROM artists WHERE trim(pf_name) = trim(?) COLLATE NOCASE
     UNION SELECT username, pf_name AS name FROM artists WHERE username_key = ? AND trim(pf_name) = ''`,
  ).all(name, name.trim().toLowerCase())
}

function paging(query: ValidListQuery): { offset: number; limit: number; perPage: number | undefined } {
  if (query.offset !== undefined || query.limit !== undefined) return { offset: query.offset ?? 0, limit: query.limit ?? 50, perPage: undefined }
  const perPage = query.perPage ?? 25
  return { offset: ((query.page ?? 1) - 1) * perPage, limit: perPage, perPage }
}

export function toSummary(row: ArtistRow): ArtistSummary {
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

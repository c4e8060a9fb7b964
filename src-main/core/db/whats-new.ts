/**
 * What's new: the artists and tracks that appeared or changed in the last ten
 * syncs that completed, so a returning user sees what changed without
 * scrolling the whole catalogue. The first sync of a cache is the starting
 * point, not news, and is never counted; while it is the only one, the
 * newest uploads stand in for the news (mode 'newest'), not an empty page.
 *
 * Followed artists come first in every list, and are never cut for others:
 * each list is read in two parts, the followed (driven from the small follows
 * table) and then the rest up to the limit. Every read walks the changed_run
 * indexes, so the cost follows what the syncs changed, not the catalogue's size.
 */
import type { Database } from 'better-sqlite3'
import type { DownloadState } from '../shared/catalogue'
import type { Track, WhatsNew, WhatsNewArtist, WhatsNewRun, WhatsNewTrack } from '../shared/types'
import { ARTIST_COLUMNS, toSummary, type ArtistRow } from './artists'
import { statement } from './statements'

/** How many completed syncs What's new covers. */
export const WHATS_NEW_RUNS = 10

type ArtistChangeRow = ArtistRow & { first_seen_run: number | null; changed_run: number; username_key: string }
type TrackChangeRow = Track & {
  firstSeenRun: number | null
  changedRun: number
  trackPosition: number
  ownerUsername: string
  ownerName: string
  ownerKey: string
  downloadId: number | null
  downloadState: DownloadState | null
}

/** The runs' ids as one JSON parameter: `IN (SELECT value FROM json_each(?))` is one statement for any count. */
const IN_RUNS = 'IN (SELECT value FROM json_each(@runs))'
const NOT_FOLLOWED = (artist: string): string => `NOT EXISTS (SELECT 1 FROM follows WHERE follows.username_key = ${artist}.username_key)`

/** The columns of a track row (artists.TRACK_COLUMNS, qualified: downloads has a title too): the track, its owner, and the upload's newest download (the downloads index by upload finds it). */
const TRACK_SELECT = `SELECT tracks.upload_id AS uploadId, tracks.item_id AS itemId, tracks.title, tracks.subtype,
    tracks.created_at AS createdAt, tracks.bytes, tracks.downloads, tracks.hotlinks, tracks.ext, tracks.hotlink_path AS hotlinkPath,
    tracks.item_artist AS artistUsername,
    tracks.first_seen_run AS firstSeenRun, tracks.changed_run AS changedRun, tracks.position AS trackPosition,
    artists.username AS ownerUsername, artists.pf_name AS ownerName, artists.username_key AS ownerKey,
    downloads.id AS downloadId, downloads.state AS downloadState`
const NEWEST_DOWNLOAD = 'LEFT JOIN downloads ON downloads.id = (SELECT max(id) FROM downloads WHERE downloads.upload_id = tracks.upload_id)'

/** The changes, the followed artists' first, then the newest sync first; at most `limit` artists and `limit` tracks. */
export function whatsNew(db: Database, limit = 200): WhatsNew {
  const runs = statement<[number], { id: number; finishedAt: number }>(
    db,
    `SELECT id, finished_at AS finishedAt FROM sync_runs WHERE state = 'completed' AND initial = 0 ORDER BY id DESC LIMIT ?`,
  ).all(WHATS_NEW_RUNS)
  if (runs.length === 0) return newestUploads(db, limit)
  const params = { runs: JSON.stringify(runs.map((run) => run.id)) }

  // The others in the order of the changed_run index (newest rows first): the read stops at the limit
  // however many rows a sync changed, instead of sorting them all; the page is then sorted by name.
  const artistSql = (from: string, where: string, order: string): string =>
    `SELECT ${ARTIST_COLUMNS}, artists.username_key, artists.first_seen_run, artists.changed_run ${from}
     WHERE artists.changed_run ${IN_RUNS} AND artists.gone_at IS NULL ${where} ORDER BY ${order} LIMIT @limit`
  const followedArtists = statement<[object], ArtistChangeRow>(
    db,
    artistSql('FROM follows JOIN artists ON artists.username_key = follows.username_key', '', 'artists.changed_run DESC, artists.username_key'),
  ).all({ ...params, limit })
  const otherArtists = statement<[object], ArtistChangeRow>(
    db,
    artistSql('FROM artists', `AND ${NOT_FOLLOWED('artists')}`, 'artists.changed_run DESC, artists.id DESC'),
  )
    .all({ ...params, limit: limit - followedArtists.length })
    .sort((a, b) => b.changed_run - a.changed_run || compare(a.username_key, b.username_key))

  // The same for tracks: the page's rows first (by the index), then their downloads, for those rows only.
  const trackSql = (from: string, where: string, order: string): string =>
    `${TRACK_SELECT} FROM (
       SELECT tracks.upload_id AS picked FROM ${from} WHERE tracks.changed_run ${IN_RUNS} AND artists.gone_at IS NULL ${where}
       ORDER BY ${order} LIMIT @limit
     ) JOIN tracks ON tracks.upload_id = picked JOIN artists ON artists.id = tracks.artist_id ${NEWEST_DOWNLOAD}`
  const followedTracks = statement<[object], TrackChangeRow>(
    db,
    trackSql(
      'follows JOIN artists ON artists.username_key = follows.username_key JOIN tracks ON tracks.artist_id = artists.id',
      '',
      'tracks.changed_run DESC, artists.username_key, tracks.position',
    ),
  )
    .all({ ...params, limit })
    .sort(byRunArtistPosition)
  const otherTracks = statement<[object], TrackChangeRow>(
    db,
    trackSql('tracks JOIN artists ON artists.id = tracks.artist_id', `AND ${NOT_FOLLOWED('artists')}`, 'tracks.changed_run DESC, tracks.upload_id DESC'),
  )
    .all({ ...params, limit: limit - followedTracks.length })
    .sort(byRunArtistPosition)

  const artistCounts = countsByRun(
    db,
    `SELECT changed_run AS run, count(*) AS n FROM artists WHERE changed_run ${IN_RUNS} AND gone_at IS NULL GROUP BY changed_run`,
    params,
  )
  const trackCounts = countsByRun(
    db,
    `SELECT tracks.changed_run AS run, count(*) AS n FROM tracks JOIN artists ON artists.id = tracks.artist_id
     WHERE tracks.changed_run ${IN_RUNS} AND artists.gone_at IS NULL GROUP BY tracks.changed_run`,
    params,
  )
  const withCounts: WhatsNewRun[] = runs.map((run) => ({ ...run, artistCount: artistCounts.get(run.id) ?? 0, trackCount: trackCounts.get(run.id) ?? 0 }))
  return {
    mode: 'changes',
    runs: withCounts,
    artists: [...followedArtists.map((row) => toArtist(row, true)), ...otherArtists.map((row) => toArtist(row, false))],
    tracks: [...followedTracks.map((row) => toTrack(row, true)), ...otherTracks.map((row) => toTrack(row, false))],
    totalArtists: withCounts.reduce((sum, run) => sum + run.artistCount, 0),
    totalTracks: withCounts.reduce((sum, run) => sum + run.trackCount, 0),
  }
}

/**
 * A cache whose only completed sync is its first: the newest uploads of the catalogue (by the
 * instant they were made, whatever their UTC offset), the followed artists' first. No sync
 * at all: nothing, and the screen says why.
 */
function newestUploads(db: Database, limit: number): WhatsNew {
  const first = statement<[], { id: number; finishedAt: number }>(
    db,
    `SELECT id, finished_at AS finishedAt FROM sync_runs WHERE state = 'completed' AND initial = 1 ORDER BY id DESC LIMIT 1`,
  ).get()
  if (!first) return { mode: 'changes', runs: [], artists: [], tracks: [], totalArtists: 0, totalTracks: 0 }
  // julianday() reads the offset ("…+05:45"): the text alone would sort local times.
  const trackSql = (from: string, where: string): string =>
    `${TRACK_SELECT} ${from} ${NEWEST_DOWNLOAD}
     WHERE tracks.created_at IS NOT NULL AND artists.gone_at IS NULL ${where}
     ORDER BY julianday(tracks.created_at) DESC, tracks.upload_id LIMIT @limit`
  // CROSS JOIN: from the few follows to their tracks (SQLite otherwise scanned every track, 115 ms for 560,000).
  const followed = statement<[object], TrackChangeRow>(
    db,
    trackSql('FROM follows CROSS JOIN artists ON artists.username_key = follows.username_key CROSS JOIN tracks ON tracks.artist_id = artists.id', ''),
  ).all({ limit })
  // Not every track of the catalogue (a million rows to sort): those of the artists that head the
  // service's recently_updated order, as many as tracks are wanted. An upload makes its artist
  // updated, so the newest N uploads belong to at most N artists, all at the head of that order
  // (with the followed artists, whose tracks are not taken here, mixed in).
  const others = statement<[object], TrackChangeRow>(
    db,
    trackSql(
      `FROM (SELECT id AS recent FROM artists WHERE rank_recently_updated IS NOT NULL ORDER BY rank_recently_updated LIMIT @candidates)
       JOIN artists ON artists.id = recent JOIN tracks ON tracks.artist_id = artists.id`,
      `AND ${NOT_FOLLOWED('artists')}`,
    ),
  ).all({ limit: limit - followed.length, candidates: limit + followCount(db) })
  const tracks = [...followed.map((row) => toTrack(row, true)), ...others.map((row) => toTrack(row, false))].map((entry) => ({
    ...entry,
    change: 'new' as const,
    runId: first.id,
  }))
  return {
    mode: 'newest',
    runs: [{ ...first, artistCount: 0, trackCount: tracks.length }],
    artists: [],
    tracks,
    totalArtists: 0,
    totalTracks: tracks.length,
  }
}

/** Code-point order, as SQLite's BINARY collation sorts the keys. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** A sync's tracks in blocks by artist, each artist's in its own order; the newest sync first. */
function byRunArtistPosition(a: TrackChangeRow, b: TrackChangeRow): number {
  return b.changedRun - a.changedRun || compare(a.ownerKey, b.ownerKey) || a.trackPosition - b.trackPosition
}

function followCount(db: Database): number {
  return statement<[], number>(db, 'SELECT count(*) FROM follows').pluck().get()!
}

function countsByRun(db: Database, sql: string, params: object): Map<number, number> {
  return new Map(statement<[object], { run: number; n: number }>(db, sql).all(params).map((row) => [row.run, row.n]))
}

function toArtist(row: ArtistChangeRow, followed: boolean): WhatsNewArtist {
  return { artist: toSummary(row), change: row.first_seen_run === row.changed_run ? 'new' : 'changed', runId: row.changed_run, followed }
}

function toTrack(row: TrackChangeRow, followed: boolean): WhatsNewTrack {
  const { firstSeenRun, changedRun, trackPosition: _position, ownerUsername, ownerName, ownerKey: _key, downloadId, downloadState, ...track } = row
  return {
    track,
    artistUsername: ownerUsername,
    artistName: ownerName,
    change: firstSeenRun === changedRun ? 'new' : 'changed',
    runId: changedRun,
    followed,
    download: downloadId === null || downloadState === null ? null : { id: downloadId, state: downloadState },
  }
}

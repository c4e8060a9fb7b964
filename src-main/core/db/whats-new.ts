/**
 * What's new: the artists and tracks that appeared or changed in the last two
 * syncs that completed, so a returning user sees what changed without
 * scrolling the whole catalogue. The first sync of a cache is the starting
 * point, not news, and is never counted.
 */
import type { Database } from 'better-sqlite3'
import type { WhatsNew } from '../shared/types'
import { ARTIST_COLUMNS, TRACK_COLUMNS, toSummary, type ArtistRow } from './artists'
import { statement } from './statements'

/** The changes, newest sync first, at most `limit` artists and `limit` tracks. */
export function whatsNew(db: Database, limit = 200): WhatsNew {
  const runs = statement<[], { id: number; finishedAt: number }>(
    db,
    `SELECT id, finished_at AS finishedAt FROM sync_runs WHERE state = 'completed' AND initial = 0 ORDER BY id DESC LIMIT 2`,
  ).all()
  if (runs.length === 0) return { runs, artists: [], tracks: [], totalArtists: 0, totalTracks: 0 }
  const oldest = runs.at(-1)!.id
  const artists = statement<[number, number], ArtistRow & { first_seen_run: number | null; changed_run: number }>(
    db,
    `SELECT ${ARTIST_COLUMNS}, artists.first_seen_run, artists.changed_run FROM artists
     WHERE changed_run >= ? AND gone_at IS NULL ORDER BY changed_run DESC, username_key LIMIT ?`,
  ).all(oldest, limit)
  const tracks = statement<[number, number], Record<string, unknown>>(
    db,
    `SELECT ${TRACK_COLUMNS}, tracks.item_artist AS artistUsername, tracks.first_seen_run AS firstSeenRun, tracks.changed_run AS changedRun,
       artists.username AS ownerUsername, artists.pf_name AS ownerName
     FROM tracks JOIN artists ON artists.id = tracks.artist_id
     WHERE tracks.changed_run >= ? AND artists.gone_at IS NULL ORDER BY tracks.changed_run DESC, artists.username_key, tracks.position LIMIT ?`,
  ).all(oldest, limit)
  const count = (sql: string): number => statement<[number], number>(db, sql).pluck().get(oldest)!
  return {
    runs,
    artists: artists.map((row) => ({ artist: toSummary(row), change: row.first_seen_run === row.changed_run ? 'new' : 'changed', runId: row.changed_run })),
    tracks: tracks.map(({ ownerUsername, ownerName, firstSeenRun, changedRun, ...track }) => ({
      track: track as unknown as WhatsNew['tracks'][number]['track'],
      artistUsername: ownerUsername as string,
      artistName: ownerName as string,
      change: firstSeenRun === changedRun ? 'new' : 'changed',
      runId: changedRun as number,
    })),
    totalArtists: count('SELECT count(*) FROM artists WHERE changed_run >= ? AND gone_at IS NULL'),
    totalTracks: count('SELECT count(*) FROM tracks JOIN artists ON artists.id = tracks.artist_id WHERE tracks.changed_run >= ? AND artists.gone_at IS NULL'),
  }
}

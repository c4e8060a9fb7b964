/**
 * New tracks of followed artists: what a sync run brought them (the notification), and what
 * auto-download queues. A track is new to a follower when the run that first saw it came after
 * the follow (follows.since_run) and was a completed run that did not fill an empty cache (a
 * first sync, or one after the cache was cleared, brings the whole catalogue: a starting point,
 * not news). Auto-download never brings back an upload that was ever queued (enqueued_uploads):
 * what the user downloaded, cancelled or took off the list stays as the user left it.
 *
 * enqueued_uploads is where auto-download's decisions are kept, and `auto` says which:
 *   0  queued by the user (any path),
 *   1  queued by auto-download,
 *   2  held back by auto-download over its limits: never queued, waiting for the user's
 *      "download the rest" (or a download of its own). Queuing it by any path makes it 0.
 * Held back is kept in the same table so that auto-download passes it over as it passes over
 * what was queued: no later sync drips the rest of a flood in, 50 at a time.
 */
import type { Database } from 'better-sqlite3'
import type { HeldBack, NewTracksSummary } from '../shared/types'
import { statement } from './statements'

/** A track auto-download queues. */
export interface AutoDownloadTrack {
  uploadId: string
  username: string
  title: string
  /** The upload's size as the catalogue gives it (0 when it gives none). */
  bytes: number
}

/** enqueued_uploads.auto of an upload auto-download held back. */
const HELD_BACK = 2

// Tracks first seen by a completed run that did not fill an empty cache, after their artist was followed.
// CROSS JOIN keeps SQLite to this order, from the few follows to their tracks: without statistics
// it scanned every track of the catalogue instead (130 ms for 560,000 tracks, after every sync).
const NEW_TO_FOLLOWER = `
  FROM follows
  CROSS JOIN artists ON artists.username_key = follows.username_key
  CROSS JOIN tracks ON tracks.artist_id = artists.id
  JOIN sync_runs AS runs ON runs.id = tracks.first_seen_run AND runs.state = 'completed' AND runs.initial = 0
  WHERE tracks.first_seen_run > coalesce(follows.since_run, 0)`

/**
 * The tracks to auto-download: new tracks of followed artists with auto-download on, never queued
 * before, of artists the service still lists; oldest first (the order they came), artist by artist.
 */
export function autoDownloadTracks(db: Database): AutoDownloadTrack[] {
  return statement<[], AutoDownloadTrack>(
    db,
    `SELECT tracks.upload_id AS uploadId, artists.username AS username, tracks.title AS title, coalesce(tracks.bytes, 0) AS bytes
     ${NEW_TO_FOLLOWER}
       AND follows.auto_download = 1 AND artists.gone_at IS NULL AND tracks.hotlink_path IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM enqueued_uploads WHERE enqueued_uploads.upload_id = tracks.upload_id)
     ORDER BY tracks.first_seen_run, artists.id, tracks.position DESC`,
  ).all()
}

/** The new tracks of followed artists that one run brought, by artist: most first, then by name. */
export function newTracksOfRun(db: Database, runId: number): NewTracksSummary {
  const artists = statement<[number], { username: string; name: string; count: number }>(
    db,
    `SELECT artists.username AS username, coalesce(nullif(trim(artists.pf_name), ''), artists.username) AS name, count(*) AS count
     ${NEW_TO_FOLLOWER} AND tracks.first_seen_run = ?
     GROUP BY artists.id
     ORDER BY count DESC, lower(name), artists.username_key`,
  ).all(runId)
  return { runId, total: artists.reduce((sum, artist) => sum + artist.count, 0), artists }
}

/** Every upload put in the queue is remembered, by whatever path (downloads.ts calls it for each new row); one held back is held no more. */
export function recordEnqueued(db: Database, uploadId: string, now: number): void {
  statement(
    db,
    `INSERT INTO enqueued_uploads (upload_id, first_at) VALUES (?, ?)
     ON CONFLICT (upload_id) DO UPDATE SET auto = 0, first_at = excluded.first_at WHERE auto = ${HELD_BACK}`,
  ).run(uploadId, now)
}

/** Uploads auto-download left out over its limits: it passes them over from now on, and they wait for the user. */
export function holdBack(db: Database, uploadIds: readonly string[], now: number): void {
  const hold = statement(db, `INSERT OR IGNORE INTO enqueued_uploads (upload_id, first_at, auto) VALUES (?, ?, ${HELD_BACK})`)
  db.transaction(() => {
    for (const uploadId of uploadIds) hold.run(uploadId, now)
  }).immediate()
}

// Held back, of artists still followed with auto-download on and still listed: unfollowing, or
// turning auto-download off, is saying no to them too.
const HELD = `${NEW_TO_FOLLOWER}
  AND follows.auto_download = 1 AND artists.gone_at IS NULL AND tracks.hotlink_path IS NOT NULL
  AND EXISTS (SELECT 1 FROM enqueued_uploads WHERE enqueued_uploads.upload_id = tracks.upload_id AND enqueued_uploads.auto = ${HELD_BACK})`

/** The uploads held back, in the order they came, artist by artist: what "download the rest" queues. */
export function heldBackUploads(db: Database): string[] {
  const rows = statement<[], { uploadId: string }>(db, `SELECT tracks.upload_id AS uploadId ${HELD} ORDER BY artists.id, tracks.first_seen_run, tracks.position DESC`).all()
  return rows.map((row) => row.uploadId)
}

/** What is held back, by artist (most first); undefined when nothing is. */
export function heldBackSummary(db: Database): HeldBack | undefined {
  const artists = statement<[], HeldBack['artists'][number]>(
    db,
    `SELECT artists.username AS username, coalesce(nullif(trim(artists.pf_name), ''), artists.username) AS name,
       count(*) AS count, sum(coalesce(tracks.bytes, 0)) AS bytes
     ${HELD}
     GROUP BY artists.id
     ORDER BY count DESC, lower(name), artists.username_key`,
  ).all()
  if (artists.length === 0) return undefined
  return { total: artists.reduce((sum, artist) => sum + artist.count, 0), bytes: artists.reduce((sum, artist) => sum + artist.bytes, 0), artists }
}

/** Marks uploads as queued by auto-download (they are in enqueued_uploads already, through the queue's own insert). */
export function markAutoEnqueued(db: Database, uploadIds: readonly string[]): void {
  const mark = statement(db, 'UPDATE enqueued_uploads SET auto = 1 WHERE upload_id = ?')
  db.transaction(() => {
    for (const uploadId of uploadIds) mark.run(uploadId)
  }).immediate()
}

/**
 * The artists a user follows (migration 0008), kept by username key: the key
 * the sync gives every artist (its username, lower-cased), so a follow
 * outlives the artist's row. An artist the service removed stays followed and
 * reads as gone; after the cache is cleared, a followed artist reads as not in
 * the cache until a sync brings it back.
 */
import type { Database } from 'better-sqlite3'
import type { FollowedArtist } from '../shared/types'
import { statement } from './statements'

/** The key an artist is stored under: what the sync computes for artists.username_key. */
export function usernameKey(username: string): string {
  return username.toLowerCase()
}

interface FollowRow {
  username: string
  name: string | null
  auto_download: number
  followed_at: number
  gone: number
  in_cache: number
}

// The artist's own spelling and name when the cache holds it; the spelling it was followed under otherwise.
const SELECT = `SELECT coalesce(artists.username, follows.username) AS username, artists.pf_name AS name,
    follows.auto_download, follows.followed_at, artists.gone_at IS NOT NULL AS gone, artists.id IS NOT NULL AS in_cache
  FROM follows LEFT JOIN artists ON artists.username_key = follows.username_key`

function toFollowed(row: FollowRow): FollowedArtist {
  return {
    username: row.username,
    name: row.name,
    autoDownload: row.auto_download === 1,
    followedAt: row.followed_at,
    gone: row.gone === 1,
    inCache: row.in_cache === 1,
  }
}

/** Every followed artist, by name as shown (the display name, else the username). */
export function listFollows(db: Database): FollowedArtist[] {
  return statement<[], FollowRow>(
    db,
    `${SELECT} ORDER BY lower(coalesce(nullif(trim(artists.pf_name), ''), artists.username, follows.username)), follows.username_key`,
  )
    .all()
    .map(toFollowed)
}

/** One followed artist, or undefined when the user does not follow it. */
export function getFollow(db: Database, username: string): FollowedArtist | undefined {
  const row = statement<[string], FollowRow>(db, `${SELECT} WHERE follows.username_key = ?`).get(usernameKey(username))
  return row && toFollowed(row)
}

/** Whether the cache holds an artist of that username (gone or not). */
export function artistInCache(db: Database, username: string): boolean {
  return statement<[string], number>(db, 'SELECT 1 FROM artists WHERE username_key = ?').pluck().get(usernameKey(username)) !== undefined
}

/**
 * Follows an artist, or changes how it is followed. A new follow starts after
 * the newest sync run (0 when none ran): only tracks a later sync brings are
 * new to it. Following again keeps when it was followed; autoDownload
 * undefined keeps the setting it had (off for a new follow).
 */
export function upsertFollow(db: Database, username: string, autoDownload: boolean | undefined, now: number): FollowedArtist {
  const key = usernameKey(username)
  db.transaction(() => {
    const spelled = statement<[string], string>(db, 'SELECT username FROM artists WHERE username_key = ?').pluck().get(key) ?? username
    statement(
      db,
      `INSERT INTO follows (username_key, username, auto_download, followed_at, since_run)
       VALUES (@key, @username, coalesce(@auto, 0), @now, coalesce((SELECT max(id) FROM sync_runs), 0))
       ON CONFLICT (username_key) DO UPDATE SET username = excluded.username, auto_download = coalesce(@auto, auto_download)`,
    ).run({ key, username: spelled, auto: autoDownload === undefined ? null : autoDownload ? 1 : 0, now })
  }).immediate()
  return getFollow(db, username)!
}

/** Stops following an artist; false when it was not followed. */
export function deleteFollow(db: Database, username: string): boolean {
  return statement(db, 'DELETE FROM follows WHERE username_key = ?').run(usernameKey(username)).changes > 0
}

/** Turns auto-download of a followed artist on or off; undefined when it is not followed. */
export function setFollowAutoDownload(db: Database, username: string, on: boolean): FollowedArtist | undefined {
  const changed = statement(db, 'UPDATE follows SET auto_download = ? WHERE username_key = ?').run(on ? 1 : 0, usernameKey(username)).changes
  return changed === 0 ? undefined : getFollow(db, username)
}

/**
 * Avatar images by the address the service gives, for offline display: the thumbnails a sync
 * fetches and the full-size avatars of the artists opened. The store is bounded: each image is
 * small (sync/avatars.ts), the whole has a budget, and an address no artist refers to any more
 * (an artist's `?v=` changed) goes at the sync's end. `fetched_at` is when the image was last
 * fetched or shown: the least recently used go first when the budget is reached.
 */
import type { Database } from 'better-sqlite3'
import { statement } from './statements'

export interface AvatarImage {
  url: string
  contentType: string
  body: Buffer
}

/**
 * The most the images take together: 256 MiB. A fixed figure, not a share of the disk, so the
 * cache's size is predictable and the same on every machine; it holds every thumbnail of a
 * 30,000-artist catalogue at a typical 8 KiB, and 1,024 of the largest kept (256 KiB).
 */
export const AVATAR_BUDGET_BYTES = 256 * 1024 * 1024

/** The cached image behind an avatar address, if it was fetched. */
export function getAvatar(db: Database, url: string): { contentType: string; body: Buffer } | undefined {
  return statement<[string], { contentType: string; body: Buffer }>(db, 'SELECT content_type AS contentType, body FROM avatars WHERE url = ?').get(
    url,
  )
}

/** Whether the cache holds the image behind an address. */
export function hasAvatar(db: Database, url: string): boolean {
  return statement<[string], number>(db, 'SELECT 1 FROM avatars WHERE url = ?').pluck().get(url) !== undefined
}

/**
 * Thumbnail addresses of listed artists that the cache has no image for yet: what a sync
 * fetches. The full-size avatar is fetched when its artist is opened (see sync/refresh.ts).
 */
export function thumbnailsWanted(db: Database): string[] {
  return statement<[], { url: string }>(
    db,
    `SELECT DISTINCT avatar_thumb AS url FROM artists
     WHERE gone_at IS NULL AND avatar_thumb != '' AND avatar_thumb NOT IN (SELECT url FROM avatars) ORDER BY url`,
  )
    .all()
    .map((row) => row.url)
}

/** Stores images (as used now), then keeps the store within budgetBytes, least recently used out first. */
export function recordAvatars(db: Database, images: AvatarImage[], now: number, budgetBytes = AVATAR_BUDGET_BYTES): void {
  const insert = statement(db, 'INSERT OR REPLACE INTO avatars (url, content_type, body, fetched_at) VALUES (?, ?, ?, ?)')
  db.transaction(() => {
    for (const image of images) insert.run(image.url, image.contentType, image.body, now)
    fitBudget(db, budgetBytes)
  }).immediate()
}

/**
 * Drops the least recently used images until the rest fit in budgetBytes. The total is summed
 * from the rows' headers (length() reads no image's bytes); the sort only runs over the budget.
 */
function fitBudget(db: Database, budgetBytes: number): void {
  let excess = statement<[], number>(db, 'SELECT total(length(body)) FROM avatars').pluck().get()! - budgetBytes
  if (excess <= 0) return
  const oldest = statement<[], { rowid: number; bytes: number }>(db, 'SELECT rowid, length(body) AS bytes FROM avatars ORDER BY fetched_at, rowid')
  const remove = statement(db, 'DELETE FROM avatars WHERE rowid = ?')
  const doomed: number[] = []
  for (const { rowid, bytes } of oldest.iterate()) {
    doomed.push(rowid)
    excess -= bytes
    if (excess <= 0) break
  }
  for (const rowid of doomed) remove.run(rowid)
}

/**
 * Notes that images were shown now. The window's reads come through a read-only connection, so
 * they are gathered and written here in one transaction now and then (core/host), not one a read.
 */
export function markAvatarsUsed(db: Database, urls: readonly string[], now: number): void {
  const touch = statement(db, 'UPDATE avatars SET fetched_at = ? WHERE url = ? AND fetched_at < ?')
  db.transaction(() => {
    for (const url of urls) touch.run(now, url, now)
  }).immediate()
}

/**
 * Removes the images no artist refers to (a changed address leaves its old image behind; an
 * artist's full-size avatar counts as much as its thumbnail), and any larger than maxBytes (what
 * an older Tuneshelf kept: up to 2 MiB each). Returns how many went.
 */
export function dropUnusedAvatars(db: Database, maxBytes: number): number {
  return statement<[number]>(
    db,
    `DELETE FROM avatars WHERE length(body) > ?
       OR (url NOT IN (SELECT avatar_thumb FROM artists) AND url NOT IN (SELECT avatar FROM artists))`,
  ).run(maxBytes).changes
}

/** Of these addresses, the ones the cache has no image for (empty addresses left out). */
export function avatarsMissing(db: Database, urls: readonly string[]): string[] {
  return [...new Set(urls)].filter((url) => url !== '' && !hasAvatar(db, url))
}

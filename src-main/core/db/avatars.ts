/** Avatar images by the address the service gives, for offline display. */
import type { Database } from 'better-sqlite3'
import { statement } from './statements'

export interface AvatarImage {
  url: string
  contentType: string
  body: Buffer
}

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

export function recordAvatars(db: Database, images: AvatarImage[], now: number): void {
  const insert = statement(db, 'INSERT OR REPLACE INTO avatars (url, content_type, body, fetched_at) VALUES (?, ?, ?, ?)')
  db.transaction(() => {
    for (const image of images) insert.run(image.url, image.contentType, image.body, now)
  }).immediate()
}

/** Of these addresses, the ones the cache has no image for (empty addresses left out). */
export function avatarsMissing(db: Database, urls: readonly string[]): string[] {
  return [...new Set(urls)].filter((url) => url !== '' && !hasAvatar(db, url))
}

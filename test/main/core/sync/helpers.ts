/** Shared pieces of the sync tests: a client with short back-offs, a cache in a temp folder, a canonical dump. */
import type { Database } from 'better-sqlite3'
import { createCatalogueClient, type CatalogueClient } from '../../../../src-main/core/api/index'
import { openCache } from '../../../../src-main/core/db/connection'
import { syncCatalogue, type SyncOptions, type SyncReport } from '../../../../src-main/core/sync/sync'

export function testClient(baseUrl: string): CatalogueClient {
  return createCatalogueClient({ baseUrl, backoffMs: 5, maxDelayMs: 40, retries: 4 })
}

/** Opens the cache of baseUrl in dataDir and syncs it; the cache stays open for the test to read (closed if the sync fails). */
export async function syncInto(
  dataDir: string,
  baseUrl: string,
  extra: Partial<SyncOptions> = {},
): Promise<{ db: Database; report: SyncReport }> {
  const { db } = openCache(dataDir, baseUrl)
  try {
    return { db, report: await syncCatalogue({ db, client: testClient(baseUrl), ...extra }) }
  } catch (error) {
    db.close()
    throw error
  }
}

/** Everything the cache knows of the catalogue, without ids and times that differ between equal runs. */
export function dumpCache(db: Database): unknown {
  // The search index must match the artists it indexes (this throws if it does not).
  db.prepare(`INSERT INTO artists_fts (artists_fts, rank) VALUES ('integrity-check', 1)`).run()
  return {
    artists: db
      .prepare(
        `SELECT username, num_tracks, pf_name, pf_facebook, pf_twitter, pf_website, pf_bio, avatar, avatar_thumb,
           location_id, location_name, user_username, listed_items, is_podcaster, rank_trending, rank_top,
           rank_recently_created, rank_recently_updated, list_signature, detail_signature, gone_at IS NOT NULL AS gone,
           detail_error
         FROM artists ORDER BY username_key`,
      )
      .all(),
    tracks: db
      .prepare(
        `SELECT artists.username, tracks.upload_id, tracks.position, item_id, title, subtype, created_at, bytes, downloads,
           hotlinks, ext, hotlink_path, item_artist
         FROM tracks JOIN artists ON artists.id = tracks.artist_id ORDER BY tracks.upload_id`,
      )
      .all(),
    levels: db.prepare('SELECT * FROM access_levels ORDER BY id').all(),
    avatars: db.prepare('SELECT url, content_type, hex(body) AS body FROM avatars ORDER BY url').all(),
  }
}

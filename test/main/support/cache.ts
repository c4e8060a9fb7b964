/** Reading a cache the way tests compare it: a canonical dump, and the search index checked against the artists. */
import type { Database } from 'better-sqlite3'
import { expect } from 'vitest'

/** Everything the cache knows of the catalogue, without ids and times that differ between equal runs. */
export function dumpCache(db: Database): unknown {
  checkSearchIndex(db)
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

/**
 * The search index must be sound and hold one entry per artist, each findable
 * by its own username's folded words (the index keeps no copy of the text, so
 * this is how its content is checked).
 */
export function checkSearchIndex(db: Database): void {
  db.prepare(`INSERT INTO artists_fts (artists_fts) VALUES ('integrity-check')`).run()
  const artists = db.prepare('SELECT id, username FROM artists').all() as { id: number; username: string }[]
  const indexed = db.prepare(`SELECT count(*) FROM artists_fts_docsize`).pluck().get()
  expect(indexed, 'search index entries').toBe(artists.length)
  const find = db.prepare(`SELECT rowid FROM artists_fts WHERE artists_fts MATCH ?`).pluck()
  for (const artist of artists) {
    const words = artist.username.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)
    if (words.length === 0) continue
    const match = `{username} : (${words.map((word) => `"${word}"`).join(' ')})`
    expect(find.all(match), `${artist.username} in the search index`).toContain(artist.id)
  }
}

/**
 * What the search index holds, in full: each word with the artist, the column and the place it
 * has there (FTS5's own vocabulary table). Two indexes that give the same rows answer every
 * search alike, however their segments are laid out.
 */
export function searchIndexContent(db: Database): unknown[] {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.artists_fts_words USING fts5vocab(main, 'artists_fts', 'instance')`)
  return db.prepare('SELECT term, doc, col, offset FROM temp.artists_fts_words ORDER BY term, doc, col, offset').raw().all()
}

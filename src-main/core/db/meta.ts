/**
 * The cache's notes about itself: the `meta` table, one text value per key.
 * Every read and write of it goes through here, so its keys are listed in one
 * place. (The search index's triggers in the migrations read
 * `fts_rebuild_pending` and `fts_indexed_upto` too: they are the schema, not code.)
 */
import type { Database } from 'better-sqlite3'
import { statement } from './statements'

/** What the cache notes about itself. */
export type MetaKey =
  /** The service the cache holds, as catalogueKey() gives it (never with a password). */
  | 'base_url'
  /** A counter every write to artists or tracks raises (query-cache.ts). */
  | 'catalogue_version'
  /** When the last full refresh completed, in ms since the epoch. */
  | 'last_full_sync_at'
  /** When the last sync of any kind (a full refresh or a quick check) completed, in ms since the epoch. */
  | 'last_check_at'
  /** Set while an empty cache fills: the search index is built a slice at a time as the lists come, and finished at their end. */
  | 'fts_rebuild_pending'
  /** While 'fts_rebuild_pending' is set: the highest artist id the search index holds; the artists up to it are searchable (search.ts). */
  | 'fts_indexed_upto'
  /** While 'fts_rebuild_pending' is set: how many artists the search index holds, as of its last slice (search.ts). */
  | 'fts_indexed_count'
  /** What the stored search answers hold for (search.ts). */
  | 'search_answers_for'
  /** A digest of what the stored search answers were computed from (search-answers.ts). */
  | 'search_answers_inputs'
  /** A digest of the search index the stored search answers' totals were computed from (search.ts). */
  | 'search_answers_index'
  /** Every origin a cache of a fixed name was served from (the built-in demo), as a JSON list. */
  | 'service_origins'
  /** The highest download id ever given (downloads.ts): a removed download's id is never given again. */
  | 'last_download_id'

/** The value of key, or null when the cache has none. */
export function readMeta(db: Database, key: MetaKey): string | null {
  return statement<[string], { value: string }>(db, 'SELECT value FROM meta WHERE key = ?').get(key)?.value ?? null
}

/** Sets key to value, replacing any value it had. */
export function writeMeta(db: Database, key: MetaKey, value: string): void {
  statement(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value)
}

/** Sets key to value unless it has one already. */
export function writeMetaIfAbsent(db: Database, key: MetaKey, value: string): void {
  statement(db, 'INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(key, value)
}

/** Removes key; says whether it was there. */
export function deleteMeta(db: Database, key: MetaKey): boolean {
  return statement(db, 'DELETE FROM meta WHERE key = ?').run(key).changes > 0
}

/** Raises the counter in key by one (from 1 when it has none), in one statement. */
export function incrementMeta(db: Database, key: MetaKey): void {
  statement(
    db,
    `INSERT INTO meta (key, value) VALUES (?, '1')
     ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`,
  ).run(key)
}

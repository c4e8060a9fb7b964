/**
 * The write-ahead log of a cache, sized to the cache. A sync rewrites much of
 * the catalogue, and the log holds what it wrote until a checkpoint copies it
 * into the cache; a fixed 32 MB log needed 33 MB free to sync a 6.5 MB cache.
 * Checkpointing once the log reaches a quarter of the cache (4 MB at least,
 * 32 MB at most) keeps the room a sync takes in proportion to what it syncs,
 * while a large cache keeps its few large checkpoints (each one waits on the disk).
 */
import type { Database } from 'better-sqlite3'

const MB = 1024 * 1024
const LEAST_LOG = 4 * MB
const MOST_LOG = 32 * MB

/** How far the log may grow before a checkpoint, for a cache of cacheBytes. */
export function logLimit(cacheBytes: number): number {
  return Math.min(MOST_LOG, Math.max(LEAST_LOG, Math.ceil(cacheBytes / 4)))
}

/** The cache's size as SQLite counts it (its pages; no file-system call). */
export function cacheBytes(db: Database): number {
  return (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number)
}

/**
 * Sets the connection's checkpoint threshold and log size limit for the cache's size now; called
 * when a cache opens and as a sync moves on (its cache grows). The size limit trims the log file
 * after one large transaction (a first sync's search index) once it has been checkpointed.
 */
export function fitLogToCache(db: Database): void {
  const limit = logLimit(cacheBytes(db))
  const pageSize = db.pragma('page_size', { simple: true }) as number
  db.pragma(`wal_autocheckpoint = ${Math.ceil(limit / pageSize)}`)
  db.pragma(`journal_size_limit = ${limit}`)
}

/**
 * About how many bytes a sync of this cache needs free on its disk: its log, and room for the
 * catalogue to grow (a changed catalogue, a run's staged lists) — half the cache, 8 MB at least,
 * as a first sync starts from nothing.
 */
export function roomForSync(cacheSize: number): number {
  return logLimit(cacheSize) + Math.max(8 * MB, Math.ceil(cacheSize / 2))
}

/** A library's cache file in a test: a connection of the test's own, closed after use (never the library's private one). */
import type { Database } from 'better-sqlite3'
import { openDatabase } from '../../../../src-main/core/db/connection'

/** Runs work on a fresh connection to the cache file (file: a library's `cacheFile`). */
export function withCache<T>(file: string, work: (db: Database) => T): T {
  const db = openDatabase(file)
  try {
    return work(db)
  } finally {
    db.close()
  }
}

/** The cache's `PRAGMA integrity_check` answer: 'ok' when sound. */
export function integrityCheck(file: string): unknown {
  return withCache(file, (db) => db.pragma('integrity_check', { simple: true }))
}

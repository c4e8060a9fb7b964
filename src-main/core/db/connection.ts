/**
 * Opening a catalogue cache: one SQLite file per service base URL inside the
 * data folder, WAL, migrated to the current schema. A file that fails its
 * integrity check is moved aside and a fresh cache is started, never a crash.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { migrate } from './migrate'

export type { Database } from 'better-sqlite3'

export interface OpenedCache {
  db: Database.Database
  file: string
  /** Set when a corrupt cache was moved aside: says where, for the user. */
  recovered?: string
}

/** The service's address in one canonical form: lower-case scheme and host, no trailing slash. */
export function normaliseBaseUrl(baseUrl: string): string {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new Error(`not a valid URL: ${baseUrl}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the service must be http or https: ${baseUrl}`)
  url.hash = ''
  url.search = ''
  return url.toString().replace(/\/+$/, '')
}

/** The cache file of a service: readable host and port, plus a digest of the whole URL. */
export function cacheFileFor(dataDir: string, baseUrl: string): string {
  const normalised = normaliseBaseUrl(baseUrl)
  const { host } = new URL(normalised)
  const digest = createHash('sha256').update(normalised).digest('hex').slice(0, 12)
  return path.join(dataDir, 'catalogues', `${host.replace(/[^a-zA-Z0-9.-]/g, '_')}-${digest}.sqlite`)
}

/** Opens (creating if needed) the cache of baseUrl inside dataDir. */
export function openCache(dataDir: string, baseUrl: string): OpenedCache {
  const file = cacheFileFor(dataDir, baseUrl)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  try {
    return { db: openAndCheck(file, baseUrl), file }
  } catch (error) {
    if (!isCorruption(error)) throw error
    const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`
    for (const suffix of ['', '-wal', '-shm']) {
      if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, aside + suffix)
    }
    const recovered = `The catalogue cache was damaged (${(error as Error).message}); it was moved to ${aside} and a fresh cache was started.`
    return { db: openAndCheck(file, baseUrl), file, recovered }
  }
}

/** Opens a database file with the cache's settings and schema (also used by tests on bare files). */
export function openDatabase(file: string): Database.Database {
  const db = new Database(file)
  try {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    // A sync rewrites much of a large cache: a bigger page cache and fewer, larger
    // checkpoints (each one flushes to disk) keep writes from waiting on the disk.
    db.pragma('cache_size = -65536')
    db.pragma('wal_autocheckpoint = 8192')
    migrate(db)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

function openAndCheck(file: string, baseUrl: string): Database.Database {
  const db = openDatabase(file)
  try {
    const check = db.pragma('quick_check', { simple: true })
    if (check !== 'ok') throw new CorruptCacheError(String(check))
    db.prepare(`INSERT INTO meta (key, value) VALUES ('base_url', ?) ON CONFLICT (key) DO NOTHING`).run(normaliseBaseUrl(baseUrl))
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

class CorruptCacheError extends Error {
  constructor(detail: string) {
    super(`integrity check failed: ${detail}`)
  }
}

function isCorruption(error: unknown): boolean {
  if (error instanceof CorruptCacheError) return true
  const code = (error as { code?: unknown }).code
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT_VTAB'
}

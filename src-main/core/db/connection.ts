/**
 * Opening a catalogue cache: one SQLite file per service inside the data
 * folder, WAL, migrated to the current schema. A file that fails its integrity
 * check is moved aside and a fresh cache is started, never a crash. A data
 * folder the app may not write to is opened read-only, from a snapshot.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { catalogueKey } from '../shared/urls'
import { CorruptCacheError, InvalidArgumentError, NotSyncedError, toTuneshelfError } from '../shared/errors'
import { ensureFolder, isWritableFolder } from '../files/folders'
import { readMeta, writeMeta } from './meta'
import { migrate } from './migrate'
import { fitLogToCache } from './wal'
import { keepDatabasePrivate, PRIVATE_FOLDER_MODE } from '../files/private-files'

export type { Database } from 'better-sqlite3'

export interface OpenedCache {
  db: Database.Database
  file: string
  /** The file the connection reads: the cache itself, or the snapshot of a read-only one. */
  readFile: string
  /** True when the folder cannot be written: the cache was opened from a snapshot, and nothing may write to it. */
  readOnly: boolean
  /** Set when a corrupt cache was moved aside: says where, for the user. */
  recovered?: string
  /** Releases the connection (and a read-only snapshot). */
  close(): void
}

export interface OpenCacheOptions {
  /** Fail with NotSyncedError instead of creating a cache that does not exist yet (reading never creates one). */
  mustExist?: boolean
  /** A fixed name for the cache file instead of one made from the URL: the built-in demo, whose port may change. */
  name?: string
}

/** The cache file of a service: readable host and port, plus a digest of the URL (without any password). */
export function cacheFileFor(dataDir: string, baseUrl: string): string {
  const key = catalogueKey(baseUrl)
  const { host } = new URL(key)
  const digest = createHash('sha256').update(key).digest('hex').slice(0, 12)
  return path.join(path.resolve(dataDir), 'catalogues', `${host.replace(/[^a-zA-Z0-9.-]/g, '_')}-${digest}.sqlite`)
}

/** The cache file of a fixed name (letters, digits, dots and dashes). */
export function namedCacheFile(dataDir: string, name: string): string {
  if (!/^[a-z0-9][a-z0-9.-]{0,63}$/i.test(name)) throw new InvalidArgumentError(`not a cache name: ${JSON.stringify(name)}`)
  return path.join(path.resolve(dataDir), 'catalogues', `${name}.sqlite`)
}

/** The caches of a data folder: each file, the service it holds (as its cache names it, never with a password) and its size. */
export function listCaches(dataDir: string): { file: string; baseUrl: string | null; bytes: number }[] {
  const folder = path.join(path.resolve(dataDir), 'catalogues')
  let names: string[]
  try {
    names = fs.readdirSync(folder)
  } catch {
    return []
  }
  return names
    .filter((name) => name.endsWith('.sqlite'))
    .sort()
    .map((name) => {
      const file = path.join(folder, name)
      const bytes = ['', '-wal'].reduce((sum, suffix) => sum + (fs.statSync(file + suffix, { throwIfNoEntry: false })?.size ?? 0), 0)
      let baseUrl: string | null = null
      try {
        const db = new Database(file, { readonly: true, fileMustExist: true })
        try {
          baseUrl = readMeta(db, 'base_url')
        } finally {
          db.close()
        }
      } catch {
        // A cache that cannot be read (damaged, or not yet migrated) is still listed, by its file.
      }
      return { file, baseUrl, bytes }
    })
}

/** Opens (creating if needed and allowed) the cache of baseUrl inside dataDir. */
export function openCache(dataDir: string, baseUrl: string, options: OpenCacheOptions = {}): OpenedCache {
  const file = options.name === undefined ? cacheFileFor(dataDir, baseUrl) : namedCacheFile(dataDir, options.name)
  const exists = fs.existsSync(file)
  if (!exists && options.mustExist) throw new NotSyncedError(`nothing has been synced from ${catalogueKey(baseUrl)} into ${path.resolve(dataDir)}`)
  if (exists && !isWritableFolder(path.dirname(file))) return openSnapshot(file)
  ensureFolder(path.dirname(file), 'the catalogue folder', PRIVATE_FOLDER_MODE)
  try {
    return opened(openAndCheck(file, baseUrl), file)
  } catch (error) {
    if (!isCorruption(error)) throw toTuneshelfError(error, `opening the catalogue cache ${file}`)
    const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`
    for (const suffix of ['', '-wal', '-shm']) {
      if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, aside + suffix)
    }
    const recovered = `The catalogue cache was damaged (${(error as Error).message}); it was moved to ${aside} and a fresh cache was started.`
    return { ...opened(openAndCheck(file, baseUrl), file), recovered }
  }
}

/** Opens a database file with the cache's settings and schema (also used by tests on bare files). */
export function openDatabase(file: string): Database.Database {
  // Made before SQLite makes it (0644, and its -wal and -shm like it): the user's alone.
  keepDatabasePrivate(file)
  const db = new Database(file)
  try {
    // First: every statement after it, the switch to WAL included, waits for another process's
    // lock (several opening one new cache at once) instead of failing busy at once.
    db.pragma('busy_timeout = 5000')
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    // A sync rewrites much of a large cache: a bigger page cache keeps writes from waiting on the disk.
    db.pragma('cache_size = -65536')
    migrate(db)
    // Checkpoints as large as the cache affords, and no larger: the log's room on the disk stays in proportion.
    fitLogToCache(db)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/**
 * A second, read-only connection to a cache another connection writes (the host's reader):
 * in WAL mode it sees the last committed state at once and never waits behind the writer.
 */
export function openReadConnection(file: string): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    db.pragma('busy_timeout = 2000')
    db.pragma('cache_size = -16384')
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

function opened(db: Database.Database, file: string): OpenedCache {
  return { db, file, readFile: file, readOnly: false, close: () => db.close() }
}

function openAndCheck(file: string, baseUrl: string): Database.Database {
  const db = openDatabase(file)
  try {
    const check = db.pragma('quick_check', { simple: true })
    if (check !== 'ok') throw new CorruptCacheError(`integrity check failed: ${String(check)}`)
    writeMeta(db, 'base_url', catalogueKey(baseUrl))
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/**
 * SQLite cannot open a WAL database in a folder it may not write to (it needs
 * the -shm file), so a read-only data folder is read from a copy in the
 * temporary folder. Whoever opened it must not write: the copy is thrown away.
 */
function openSnapshot(file: string): OpenedCache {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-read-only-'))
  const copy = path.join(folder, path.basename(file))
  try {
    for (const suffix of ['', '-wal']) {
      if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, copy + suffix)
    }
    const db = openDatabase(copy)
    return {
      db,
      file,
      readFile: copy,
      readOnly: true,
      close: () => {
        db.close()
        fs.rmSync(folder, { recursive: true, force: true })
      },
    }
  } catch (error) {
    fs.rmSync(folder, { recursive: true, force: true })
    // A message that names the file (a refused migration says to move it aside) names the user's file, not the copy.
    if (error instanceof Error) error.message = error.message.split(copy).join(file)
    throw toTuneshelfError(error, `reading the catalogue cache ${file}`)
  }
}

function isCorruption(error: unknown): boolean {
  if (error instanceof CorruptCacheError) return true
  const code = (error as { code?: unknown }).code
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT_VTAB'
}

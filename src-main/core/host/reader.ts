/**
 * The host's reader: its own read-only connection to the cache the writer has
 * open, in WAL mode, so a query sees the last committed state at once and
 * never waits behind the writer's transactions (a sync's batches, the end of a
 * sync, a big enqueue).
 */
import Database from 'better-sqlite3'
import { catalogueQueries, downloadQueries, type CatalogueQueries, type DownloadQueries } from '../queries'
import { toTuneshelfError } from '../shared/errors'
import type { OpenedLibrary } from './messages'

export interface LibraryReader {
  readonly library: OpenedLibrary
  readonly catalogue: CatalogueQueries
  readonly downloads: DownloadQueries
  close(): void
}

export function openReader(library: OpenedLibrary): LibraryReader {
  let db: Database.Database
  try {
    db = new Database(library.readFile, { readonly: true, fileMustExist: true })
    db.pragma('busy_timeout = 2000')
    db.pragma('cache_size = -16384')
  } catch (error) {
    throw toTuneshelfError(error, `reading the catalogue cache ${library.cacheFile}`)
  }
  return {
    library,
    catalogue: catalogueQueries(db, library),
    downloads: downloadQueries(db),
    close: () => db.close(),
  }
}

/**
 * The host's reader: its own read-only connection to the cache the writer has
 * open, in WAL mode, so a query sees the last committed state at once and
 * never waits behind the writer's transactions (a sync's batches, the end of a
 * sync, a big enqueue).
 */
import { openReadConnection, type Database } from '../db/connection'
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
  let db: Database
  try {
    db = openReadConnection(library.readFile)
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

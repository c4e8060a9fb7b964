/**
 * The host's reader: its own read-only connection to the cache the writer has
 * open, in WAL mode, so a query sees the last committed state at once and
 * never waits behind the writer's transactions (a sync's batches, the end of a
 * sync, a big enqueue). It reads through the same queries as the library.
 */
import { openReadConnection, type Database } from '../db/connection'
import { libraryQueries, type DownloadQueryContext, type LibraryQueries } from '../library/queries'
import { toTuneshelfError } from '../shared/errors'
import type { OpenedLibrary } from './messages'

export interface LibraryReader extends LibraryQueries {
  readonly library: OpenedLibrary
  close(): void
}

/** Opens a reader of the library the writer opened; context says what only the writer knows (the queue's interrupted downloads). */
export function openReader(library: OpenedLibrary, context: DownloadQueryContext): LibraryReader {
  let db: Database
  try {
    db = openReadConnection(library.readFile)
  } catch (error) {
    throw toTuneshelfError(error, `reading the catalogue cache ${library.cacheFile}`)
  }
  return { library, ...libraryQueries(db, { ...library, ...context }), close: () => db.close() }
}

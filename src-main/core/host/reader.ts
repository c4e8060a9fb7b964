/**
 * The host's reader: its own read-only connection to the cache the writer has
 * open, in WAL mode, so a query sees the last committed state at once and
 * never waits behind the writer's transactions (a sync's batches, the end of a
 * sync, a big enqueue). It reads through the same queries as the library.
 */
import { openReadConnection, type Database } from '../db/connection'
import { letAnswersLag } from '../db/query-cache'
import { libraryQueries, type DownloadQueryContext, type LibraryQueries } from '../library/queries'
import { toTuneshelfError } from '../shared/errors'
import type { OpenedLibrary } from './messages'

/**
 * How long, while a sync runs, the reader may give a list's order or count computed before the sync's
 * latest commits (query-cache.ts says why). Half a second: a name that reached the cache is found well
 * within the second the first sync's search promises, and a broad search is ranked at most twice a
 * second instead of after each of the 30–50 commits a second of a sync's lists.
 */
export const SYNC_ANSWER_LAG_MS = 500

export interface LibraryReader extends LibraryQueries {
  readonly library: OpenedLibrary
  /** Says whether a sync is writing the cache (its answers may lag it by SYNC_ANSWER_LAG_MS then). */
  followSync(running: boolean): void
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
  return {
    library,
    ...libraryQueries(db, { ...library, ...context }),
    followSync: (running) => letAnswersLag(db, running ? SYNC_ANSWER_LAG_MS : 0),
    close: () => db.close(),
  }
}

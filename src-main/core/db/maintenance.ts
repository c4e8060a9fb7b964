/** Clearing a cache: the catalogue goes, the download queue and its history stay, and so do the follows. */
import type { Database } from 'better-sqlite3'
import { deleteMeta } from './meta'
import { bumpCatalogueVersion } from './query-cache'
import { startSearchIndex } from './search'
import { statement } from './statements'
import { fitLogToCache } from './wal'

/**
 * Empties the catalogue (artists, tracks, levels, avatars, sync runs) in one
 * transaction, then gives the space back to the disk. The next sync is a first
 * sync again. Downloads keep their rows: their files are the user's.
 */
export function clearCatalogue(db: Database): void {
  db.transaction(() => {
    // The search index empties, and is built by the next (first) sync as its lists come in; the
    // triggers leave it alone meanwhile (before the artists go: each row's delete would touch it).
    startSearchIndex(db)
    for (const table of ['tracks', 'artists', 'access_levels', 'avatars', 'sync_ranks', 'sync_pages', 'sync_runs']) {
      statement(db, `DELETE FROM ${table}`).run()
    }
    deleteMeta(db, 'last_full_sync_at')
    deleteMeta(db, 'last_check_at')
    // Follows stay (they are the user's, kept by username): the artists come back with the next sync.
    // Run ids start again from 1 once sync_runs is empty, so each follow now starts before every run.
    statement(db, 'UPDATE follows SET since_run = 0').run()
    bumpCatalogueVersion(db)
  }).immediate()
  db.exec('VACUUM')
  // In WAL mode the file shrinks only when the vacuumed copy is checkpointed: now, not at some later sync.
  db.pragma('wal_checkpoint(TRUNCATE)')
  fitLogToCache(db)
}

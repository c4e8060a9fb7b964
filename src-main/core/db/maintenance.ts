/** Clearing a cache: the catalogue goes, the download queue and its history stay, and so do the follows. */
import type { Database } from 'better-sqlite3'
import { deleteMeta, writeMetaIfAbsent } from './meta'
import { bumpCatalogueVersion } from './query-cache'
import { statement } from './statements'
import { fitLogToCache } from './wal'

/**
 * Empties the catalogue (artists, tracks, levels, avatars, sync runs) in one
 * transaction, then gives the space back to the disk. The next sync is a first
 * sync again. Downloads keep their rows: their files are the user's.
 */
export function clearCatalogue(db: Database): void {
  db.transaction(() => {
    // The search index is rebuilt in one go by the next (first) sync.
    writeMetaIfAbsent(db, 'fts_rebuild_pending', '1')
    statement(db, `INSERT INTO artists_fts (artists_fts) VALUES ('delete-all')`).run()
    for (const table of ['tracks', 'artists', 'access_levels', 'avatars', 'sync_ranks', 'sync_pages', 'sync_runs']) {
      statement(db, `DELETE FROM ${table}`).run()
    }
    deleteMeta(db, 'last_full_sync_at')
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

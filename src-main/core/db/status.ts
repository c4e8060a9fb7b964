/** What the cache knows of its own freshness: the last sync, counts, failures. */
import type { Database } from 'better-sqlite3'
import { readMeta } from './meta'
import { statement } from './statements'
import type { SyncRunSummary, CatalogueStatus } from '../shared/types'
export type { SyncRunSummary, CatalogueStatus } from '../shared/types'

export function catalogueStatus(db: Database): CatalogueStatus {
  const lastRun = statement<[], SyncRunSummary>(
    db,
    'SELECT id, state, phase, started_at AS startedAt, finished_at AS finishedAt, error FROM sync_runs ORDER BY id DESC LIMIT 1',
  ).get()
  const counts = statement<[], { artists: number; gone: number; pending: number | null }>(
    db,
    `SELECT count(*) AS artists, count(gone_at) AS gone,
       sum(gone_at IS NULL AND detail_signature IS NOT list_signature) AS pending FROM artists`,
  ).get()!
  const lastSync = readMeta(db, 'last_full_sync_at')
  return {
    baseUrl: readMeta(db, 'base_url'),
    lastFullSyncAt: lastSync === null ? null : Number(lastSync),
    lastRun: lastRun ?? null,
    artists: counts.artists,
    gone: counts.gone,
    detailsPending: counts.pending ?? 0,
    detailErrors: statement<[], { username: string; error: string }>(
      db,
      'SELECT username, detail_error AS error FROM artists WHERE detail_error IS NOT NULL AND gone_at IS NULL ORDER BY username_key',
    ).all(),
  }
}

/** The cache file's size in bytes, as SQLite counts its pages. */
export function cacheBytes(db: Database): number {
  return statement<[], number>(db, 'SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()').pluck().get()!
}

/** What the cache knows of its own freshness: the last sync, counts, failures. */
import type { Database } from 'better-sqlite3'
import { readMeta } from './meta'
import { statement } from './statements'
import type { SyncRunSummary, CatalogueStatus } from '../shared/types'
export type { SyncRunSummary, CatalogueStatus } from '../shared/types'

/**
 * When the cache was last synced, and its last run: two reads by key, whatever the catalogue's size
 * (what the sync's state says, asked at every change of it).
 */
export function syncFreshness(db: Database): Pick<CatalogueStatus, 'lastRun' | 'lastFullSyncAt' | 'lastCheckAt'> {
  const lastRun = statement<[], SyncRunSummary>(
    db,
    'SELECT id, kind, state, phase, started_at AS startedAt, finished_at AS finishedAt, error FROM sync_runs ORDER BY id DESC LIMIT 1',
  ).get()
  const lastSync = readMeta(db, 'last_full_sync_at')
  // A cache synced before quick checks existed knows only its last full refresh.
  const lastCheck = readMeta(db, 'last_check_at') ?? lastSync
  return { lastRun: lastRun ?? null, lastFullSyncAt: lastSync === null ? null : Number(lastSync), lastCheckAt: lastCheck === null ? null : Number(lastCheck) }
}

/** Whether the cache holds any artist: one step of the table, whatever the catalogue's size. */
export function holdsArtists(db: Database): boolean {
  return statement<[], number>(db, 'SELECT EXISTS (SELECT 1 FROM artists)').pluck().get() === 1
}

/** The cache's freshness and its counts: the counts read every artist (tens of milliseconds at 100,000). */
export function catalogueStatus(db: Database): CatalogueStatus {
  const counts = statement<[], { artists: number; gone: number; pending: number | null }>(
    db,
    `SELECT count(*) AS artists, count(gone_at) AS gone,
       sum(gone_at IS NULL AND detail_signature IS NOT list_signature) AS pending FROM artists`,
  ).get()!
  return {
    baseUrl: readMeta(db, 'base_url'),
    ...syncFreshness(db),
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

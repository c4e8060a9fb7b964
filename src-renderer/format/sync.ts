/**
 * What the screens say of the sync: its phases (one table for the status bar and Settings alike),
 * and the state of the cache in the status bar and the offline banner, each saying "nothing cached"
 * only of a cache that holds nothing.
 */
import { formatAge } from '@shared/format'
import type { SyncPhase } from '@shared/types'

/**
 * What the cache holds: the catalogue of a completed sync; part of one (a first sync's pages, the
 * sync under way, stopped or failed); or nothing at all.
 */
export type CacheContents = 'synced' | 'partial' | 'nothing'

const PHASES: Record<SyncPhase, string> = {
  lists: 'Artist lists',
  details: 'Artist details',
  levels: 'Access levels',
  avatars: 'Avatars',
  done: 'Finishing',
}

/** The phase as a label ("Artist lists"); an unknown one (a newer core) as it is named. */
export function syncPhaseLabel(phase: SyncPhase | string): string {
  return PHASES[phase as SyncPhase] ?? phase
}

/** The sync and the cache as the status bar says them, while no sync runs or waits. */
export function syncStatusText(cached: CacheContents, lastSyncAt: number | null, failed: boolean, now: number): string {
  const cache =
    lastSyncAt !== null
      ? `${failed ? 'last synced' : 'Synced'} ${formatAge(lastSyncAt, now)}`
      : cached === 'partial'
        ? `${failed ? 'first' : 'First'} sync not complete`
        : `${failed ? 'nothing cached yet' : 'Not synced yet'}`
  return failed ? `Sync failed · ${cache}` : cache
}

/** What the cache being browsed offline is, for the offline banner ("you are browsing the cache (…)"). */
export function offlineCacheText(cached: CacheContents, lastSyncAt: number | null, now: number): string {
  if (lastSyncAt !== null) return `the catalogue was synced ${formatAge(lastSyncAt, now)}`
  return cached === 'partial' ? 'part of the catalogue: the first sync is not complete' : 'nothing is cached yet'
}

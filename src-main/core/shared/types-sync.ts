/**
 * The sync's shapes as they cross to a window (see types.ts, which re-exports
 * them): its progress, its report, its state, and another process's lock.
 */
import type { SerializedError } from './errors'

export interface SyncRunSummary {
  id: number
  state: string
  phase: string
  startedAt: number
  finishedAt: number | null
  error: string | null
}

export type SyncPhase = 'lists' | 'details' | 'levels' | 'avatars' | 'done'

export interface SyncProgress {
  phase: SyncPhase
  done: number
  total: number
}

export interface SyncStartOptions {
  skipAvatars?: boolean | undefined
  /** Requests in flight at once (default: the setting). */
  concurrency?: number | undefined
}

export interface SyncReport {
  runId: number
  resumed: boolean
  /** True when another caller's run was joined (in this process) or awaited (in another): this caller fetched nothing. */
  joined: boolean
  listPages: number
  detailsFetched: number
  /** Artists whose detail could not be fetched, even on a second try; a later sync tries again. */
  detailFailures: { username: string; message: string }[]
  gone: number
  accessLevels: number
  avatarsFetched: number
  avatarFailures: { url: string; message: string }[]
  durationMs: number
}

/** Another process holding a lock of the cache. */
export interface LockHolder {
  pid: number
  host: string
  acquiredAt: number
  heartbeatAt: number
}

/** A snapshot of the sync, enough to draw it after a window reloads. */
export interface SyncState {
  /** idle; running in this process; or waiting for another process's run to end. */
  status: 'idle' | 'running' | 'waiting'
  /** The running run's latest progress. */
  progress: SyncProgress | null
  /** The process whose run this one waits for. */
  waitingFor: LockHolder | null
  /** The cache's latest run (this process's or another's). */
  lastRun: SyncRunSummary | null
  /** When the last complete sync ended, if one has. */
  lastFullSyncAt: number | null
  /** Why the last run of this process failed, if it did. */
  lastError: SerializedError | null
}

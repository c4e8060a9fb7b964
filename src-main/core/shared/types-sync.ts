/**
 * The sync's shapes as they cross to a window (see types.ts, which re-exports
 * them): its progress, its report, its state, and another process's lock.
 */
import type { SerializedError } from './errors'

/** A full refresh (every list in every sort order, resumable) or a quick check (the recently updated list until it meets the cache). */
export type SyncKind = 'full' | 'quick'

export interface SyncRunSummary {
  id: number
  kind: SyncKind
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
  /** A request being tried again, until the next progress without one: shown beside the progress. */
  retry?: SyncRetry | undefined
}

/** A request of a sync tried again: which (its address, no password), why, and when. */
export interface SyncRetry {
  what: string
  why: string
  /** The try that failed, from 1. */
  attempt: number
  /** The wait before the next try. */
  inMs: number
}

export interface SyncStartOptions {
  /** What to run (default 'full'); a quick check on a cache no full refresh has filled is a full refresh. */
  kind?: SyncKind | undefined
  skipAvatars?: boolean | undefined
  /** Requests in flight at once (default: the setting). */
  concurrency?: number | undefined
}

export interface SyncReport {
  runId: number
  /** What ran (a quick check asked of an unsynced cache runs as a full refresh). */
  kind: SyncKind
  /** A quick check met more changed artists than it reads: a full refresh should follow. */
  moreChanged: boolean
  resumed: boolean
  /** True when another caller's run was joined (in this process) or awaited (in another): this caller fetched nothing. */
  joined: boolean
  listPages: number
  /** Lists that ended at an empty page before the page count the service claimed (that count is not believed). */
  listsEndedEarly: { pass: string; page: number; claimed: number }[]
  /** Entries of the lists (artists, access levels) the service described badly: left out, each once. */
  skipped: { what: string; message: string }[]
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
  /** When the last full refresh ended, if one has. */
  lastFullSyncAt: number | null
  /** When the last sync of either kind ended (a quick check or a full refresh), if one has. */
  lastCheckAt: number | null
  /**
   * The cache holds artists: a whole catalogue, or the pages of a first sync that has not completed
   * (false only when there is really nothing to browse).
   */
  hasArtists: boolean
  /** Why the last run of this process failed, if it did. */
  lastError: SerializedError | null
}

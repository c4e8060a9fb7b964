/**
 * The sync of one catalogue as a service: a snapshot of its state, progress
 * and state events, and single flight. Starting a sync while one runs joins
 * it: in this process the caller gets the same run, and while another process
 * syncs the cache, the caller waits for that run to end instead of starting
 * a second one (and takes over if it failed or was cancelled).
 */
import type { CatalogueClient } from '../api/index'
import type { Database } from '../db/connection'
import type { FreeSpace } from '../files/disk-space'
import { lockHolder, type LockHolder } from '../db/locks'
import { holdsArtists, syncFreshness } from '../db/status'
import { lastRun } from '../db/sync-store'
import { CancelledError, cancelledBy, serializeError, toTuneshelfError, type SerializedError } from '../shared/errors'
import { Emitter } from '../base/events'
import { LOCK_STALE_MS, SYNC_LOCK, SyncLockedError, syncCatalogue, type SyncProgress, type SyncReport } from './sync'
import type { SyncState, SyncStartOptions } from '../shared/types'
export type { SyncState, SyncStartOptions } from '../shared/types'

export interface SyncServiceOptions {
  db: Database
  client: CatalogueClient
  /** The cache file: runs in this process are shared by every service on the same file. */
  cacheFile: string
  progressIntervalMs?: number
  /** The most list pages a quick check reads (see syncCatalogue). */
  quickPageLimit?: number | undefined
  silenceLimitMs?: number | undefined
  /** Free space the sync leaves on the cache's disk, and its probe (see syncCatalogue). */
  reserveBytes?: number | undefined
  freeSpace?: FreeSpace | undefined
  /** How often a waiting caller looks whether another process's run has ended (default 500 ms). */
  waitPollMs?: number
  now?: () => number
}

/** Runs under way in this process, by cache file: a second start joins the first. */
const runsInProcess = new Map<string, Promise<SyncReport>>()

export class SyncService {
  private status: SyncState['status'] = 'idle'
  private progress: SyncProgress | null = null
  private waitingFor: LockHolder | null = null
  private lastError: SerializedError | null = null
  private controller: AbortController | undefined
  private current: Promise<SyncReport> | undefined
  private readonly progressEmitter = new Emitter<SyncProgress>()
  private readonly stateEmitter = new Emitter<SyncState>()
  private readonly now: () => number

  /** Progress of the running run, a few times a second; a phase's start and end always. */
  readonly onDidProgress = this.progressEmitter.event
  /** The state changed: started, waiting, progressed to a new phase, ended. */
  readonly onDidChangeState = this.stateEmitter.event

  constructor(private readonly options: SyncServiceOptions) {
    this.now = options.now ?? Date.now
  }

  /** The state now: what this service knows, the cache's last run and whether it holds artists (reads by key, never a count of the catalogue). */
  get state(): SyncState {
    const { db } = this.options
    return { status: this.status, progress: this.progress, waitingFor: this.waitingFor, ...syncFreshness(db), hasArtists: holdsArtists(db), lastError: this.lastError }
  }

  /** Starts a sync, or joins the one under way; resolves with its report (joined: true when it was not this call's). */
  start(options: SyncStartOptions = {}): Promise<SyncReport> {
    if (this.current) return this.current.then((report) => ({ ...report, joined: true }))
    const other = runsInProcess.get(this.options.cacheFile)
    if (other) return other.then((report) => ({ ...report, joined: true }))
    const controller = new AbortController()
    this.controller = controller
    const run = this.run(options, controller.signal).finally(() => {
      runsInProcess.delete(this.options.cacheFile)
      this.current = undefined
      this.controller = undefined
      this.progress = null
      this.waitingFor = null
      this.setStatus('idle')
    })
    this.current = run
    runsInProcess.set(this.options.cacheFile, run)
    return run
  }

  /** Cancels this process's run (it stops at once and resumes next time), or stops waiting for another's. */
  cancel(): void {
    this.controller?.abort(new CancelledError('sync cancelled'))
  }

  /** Resolves once no run of this service is under way (whatever its outcome). */
  async settled(): Promise<void> {
    await this.current?.catch(() => undefined)
  }

  dispose(): void {
    this.cancel()
    this.progressEmitter.dispose()
    this.stateEmitter.dispose()
  }

  private async run(options: SyncStartOptions, signal: AbortSignal): Promise<SyncReport> {
    const waitStartedAt = this.now()
    this.lastError = null
    try {
      for (;;) {
        if (signal.aborted) throw cancelledBy(signal)
        try {
          this.setStatus('running')
          return await syncCatalogue({
            kind: options.kind,
            db: this.options.db,
            client: this.options.client,
            concurrency: options.concurrency,
            skipAvatars: options.skipAvatars,
            signal,
            progressIntervalMs: this.options.progressIntervalMs,
            quickPageLimit: this.options.quickPageLimit,
            silenceLimitMs: this.options.silenceLimitMs,
            reserveBytes: this.options.reserveBytes,
            freeSpace: this.options.freeSpace,
            now: this.now,
            onProgress: (progress) => {
              const newPhase = progress.phase !== this.progress?.phase
              this.progress = progress
              this.progressEmitter.fire(progress)
              if (newPhase) this.stateEmitter.fire(this.state)
            },
          })
        } catch (error) {
          if (!(error instanceof SyncLockedError)) throw error
          // Another process syncs this cache: wait for it rather than run a second sync.
          this.waitingFor = error.holder
          this.progress = null
          this.setStatus('waiting')
          await this.waitForLock(signal)
          this.waitingFor = null
          const last = lastRun(this.options.db)
          if (last?.state === 'completed' && (last.finishedAt ?? 0) >= waitStartedAt) return joinedReport(last.id, last.kind, last.detailsFetched)
          // It failed or was cancelled: this caller goes on from where it stopped.
        }
      }
    } catch (error) {
      const failure = toTuneshelfError(error, 'syncing the catalogue')
      this.lastError = serializeError(failure)
      throw failure
    }
  }

  /** Resolves once no live process holds the sync lock; rejects with a CancelledError at once when cancelled. */
  private waitForLock(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined
      const onAbort = (): void => {
        clearTimeout(timer)
        reject(cancelledBy(signal))
      }
      const check = (): void => {
        try {
          if (lockHolder(this.options.db, SYNC_LOCK, this.now(), LOCK_STALE_MS) === undefined) {
            signal.removeEventListener('abort', onAbort)
            resolve()
          } else {
            // Another process gives no event to wait on: its lock row is all there is to watch.
            timer = setTimeout(check, this.options.waitPollMs ?? 500)
          }
        } catch (error) {
          signal.removeEventListener('abort', onAbort)
          reject(error)
        }
      }
      if (signal.aborted) return onAbort()
      signal.addEventListener('abort', onAbort, { once: true })
      check()
    })
  }

  private setStatus(status: SyncState['status']): void {
    this.status = status
    if (this.stateEmitter.hasListeners) this.stateEmitter.fire(this.state)
  }
}

function joinedReport(runId: number, kind: SyncReport['kind'], detailsFetched: number): SyncReport {
  return {
    runId, kind, moreChanged: false, resumed: false, joined: true, listPages: 0, listsEndedEarly: [], skipped: [], detailsFetched, detailFailures: [], gone: 0, accessLevels: 0, avatarsFetched: 0,
    avatarFailures: [], durationMs: 0,
  }
}

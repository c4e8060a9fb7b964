/**
 * Full and incremental sync of a catalogue service into the cache (design §5):
 * every page of the artist list in each sort order and once for podcasters,
 * the detail of every artist whose list entry changed, the access levels, and
 * each artist's avatar thumbnail. All of it goes through one queue that caps
 * the requests in flight to the service (the concurrency setting), and the
 * parts overlap where their data allows: a list page that arrives queues the
 * details and thumbnails it calls for while later pages are still coming, so
 * the pipe stays full. List pages go first (they find the rest of the work and
 * make a first sync browsable early), then details and thumbnails.
 * A run is checkpointed in the cache as it goes, so a cancelled or crashed run
 * resumes where it stopped. Only one run at a time per cache, across
 * processes: a lock in the cache says who runs it.
 */
import path from 'node:path'
import type { CatalogueClient } from '../api/index'
import type { Database } from '../db/connection'
import type { FreeSpace } from '../files/disk-space'
import { LockLease, type LockHolder } from '../db/locks'
import { dropStagedRanks, endRun, startOrResumeRun, type RunKind } from '../db/sync-store'
import { cacheBytes, roomForSync } from '../db/wal'
import { BusyError, CancelledError, DiskFullError, toTuneshelfError, type TuneshelfError } from '../shared/errors'
import { formatBytes } from '../shared/format'
import { throttle, type Throttled } from '../shared/throttle'
import { Pipeline } from './pipeline'
import { watchService } from './service-silence'
import { RoomWatch } from './room'
import { inSteps, upkeepSearchIndex } from './search-upkeep'
import type { SyncProgress, SyncReport } from '../shared/types'
export type { SyncProgress, SyncReport } from '../shared/types'

/**
 * The most pages of the recently updated list a quick check reads: 2,000 changed artists, about a
 * minute of requests on a far service. More than that changed is a full refresh's work.
 */
export const QUICK_PAGE_LIMIT = 40

/** The cache lock's name for a sync, and how often its holder says it is alive. */
export const SYNC_LOCK = 'sync'
export const LOCK_HEARTBEAT_MS = 2_000
/** A holder silent for this long has crashed (or hangs): its lock is taken over. */
export const LOCK_STALE_MS = 15_000

export interface SyncOptions {
  db: Database
  client: CatalogueClient
  /** A full refresh (the default) or a quick check; see startOrResumeRun for when a quick check runs as a full refresh. */
  kind?: RunKind
  /** Requests in flight to the service at once, all kinds together (default 4). */
  concurrency?: number
  /** Skip avatar thumbnails (default false). */
  skipAvatars?: boolean
  /** The most list pages a quick check reads (default QUICK_PAGE_LIMIT; tests ask for fewer). */
  quickPageLimit?: number
  signal?: AbortSignal
  onProgress?: (progress: SyncProgress) => void
  /** Least time between two progress reports (default 250 ms); a phase's start and end are always reported. */
  progressIntervalMs?: number
  /** How long the run goes on without a usable answer of the service (default SILENCE_LIMIT_MS; tests ask for less). */
  silenceLimitMs?: number | undefined
  now?: () => number
  /** Free space the sync leaves on the cache's disk (default FREE_SPACE_RESERVE_BYTES, the downloads' reserve). */
  reserveBytes?: number | undefined
  /** The probe of the free space (default statfs; tests may replace it). */
  freeSpace?: FreeSpace | undefined
}

/** Thrown when another process holds the cache's sync lock; says who. */
export class SyncLockedError extends BusyError {
  override name = 'SyncLockedError'
  constructor(readonly holder: LockHolder) {
    super(`another Tuneshelf process (pid ${holder.pid} on ${holder.host}) is syncing this catalogue`)
  }
}

/**
 * Runs (or resumes) a sync to the end. Rejects with a SyncLockedError when
 * another process is syncing this cache (or took this run over after this
 * process was silent for too long), a CancelledError when the signal aborts,
 * or the failure (always a TuneshelfError). Nothing is reported to onProgress
 * once the promise has settled.
 */
export async function syncCatalogue(options: SyncOptions): Promise<SyncReport> {
  const { db, client } = options
  const now = options.now ?? Date.now
  const startedAt = performance.now()
  // The free space the run leaves on the cache's disk.
  const room = new RoomWatch({ folder: path.dirname(db.name), reserveBytes: options.reserveBytes, freeSpace: options.freeSpace })
  // One controller for the run: the caller's cancel, a failure, or the lock taken over stops every request in flight.
  const controller = new AbortController()
  const lease = new LockLease(db, {
    name: SYNC_LOCK,
    heartbeatMs: LOCK_HEARTBEAT_MS,
    staleAfterMs: LOCK_STALE_MS,
    now,
    // Silent for too long (a machine asleep, a blocked process), this process lost its lock to
    // another that took the run over: it stops, and leaves the run to the new holder.
    onLost: (taker) =>
      controller.abort(taker ? new SyncLockedError(taker) : new BusyError('another Tuneshelf process took this sync over; start it again to go on')),
  })
  let holder
  try {
    holder = lease.acquire()
  } catch (error) {
    // A full disk or a busy cache can refuse the lock's own row: that too is a core error.
    throw withRoomNeeded(toTuneshelfError(error, 'syncing the catalogue'), db, false, room.reserveBytes)
  }
  if (holder) throw new SyncLockedError(holder)

  const report: SyncReport = {
    runId: 0, kind: options.kind ?? 'full', moreChanged: false, resumed: false, joined: false, listPages: 0, listsEndedEarly: [], skipped: [], detailsFetched: 0, detailFailures: [], gone: 0, accessLevels: 0,
    avatarsFetched: 0, avatarFailures: [], durationMs: 0,
  }
  const listener = options.onProgress
  // Once the run has settled nothing more is reported, whatever work of it is still winding down.
  let settled = false
  let lastSent: SyncProgress = { phase: 'lists', done: 0, total: 0 }
  const progress = throttle<SyncProgress>((value) => {
    lastSent = value
    if (!settled) listener?.(value)
  }, options.progressIntervalMs ?? 250)
  // Each retry at once, as the last progress with it (not throttled: a retry is rare, and each is told).
  const service = watchService(client, {
    limitMs: options.silenceLimitMs,
    onRetry: (retry) => {
      if (!settled) listener?.({ ...lastSent, retry })
    },
    onSilent: (error) => controller.abort(error),
  })
  const onAbort = (): void => controller.abort(new CancelledError('sync cancelled'))
  options.signal?.addEventListener('abort', onAbort, { once: true })
  if (options.signal?.aborted) onAbort()
  const signal = controller.signal
  let runId: number | undefined
  let initial = false
  try {
    const { run, resumed } = startOrResumeRun(db, now(), options.kind)
    runId = run.id
    initial = run.initial
    Object.assign(report, { runId: run.id, kind: run.kind, resumed })
    // Never into the reserve: looked at before the run's work and as it goes, to its end.
    await room.check()
    room.watch((error) => controller.abort(error))
    await new Pipeline(
      { db, client: service.client, run, signal, progress, now, report, skipAvatars: options.skipAvatars ?? false, quickPageLimit: options.quickPageLimit ?? QUICK_PAGE_LIMIT, fail: (error) => controller.abort(error) },
      options.concurrency ?? 4,
    ).run()
    // The run's end, in steps short enough for the core to answer between them, before the run is marked
    // completed (a stop on the way leaves it to the next sync's resume; see search-upkeep.ts): its staged
    // list positions dropped, then the search index's upkeep. Shown as the sync's finish ("Finishing"), not
    // as the last phase standing still at its end.
    announce(progress, { phase: 'done', done: 0, total: 1 })
    await inSteps(signal, () => db.transaction(() => dropStagedRanks(db, run.id)).immediate())
    await upkeepSearchIndex(db, signal)
    endRun(db, run.id, 'completed', now())
    announce(progress, { phase: 'done', done: 1, total: 1 })
    return report
  } catch (error) {
    // A failure that stopped the run first (a timer's write) is the cause; the cancellations it set off are not.
    const cause = signal.aborted ? signal.reason : error
    controller.abort(cause)
    const failure = withRoomNeeded(toTuneshelfError(cause, 'syncing the catalogue'), db, initial, room.reserveBytes)
    if (runId !== undefined && !lease.lost) {
      try {
        endRun(db, runId, failure.code === 'cancelled' ? 'cancelled' : 'failed', now(), failure.message)
      } catch {
        // A full disk can refuse this note too; the run then stays "running" and is resumed all the same.
      }
    }
    throw failure
  } finally {
    room.stop()
    settled = true
    service.dispose()
    progress.cancel()
    options.signal?.removeEventListener('abort', onAbort)
    // Left behind (a full disk), the lock goes stale as soon as this process is gone.
    lease.release()
    report.durationMs = performance.now() - startedAt
  }
}

/**
 * A full disk's failure, saying how much room a sync of this cache needs, so the user knows what
 * to free before resuming; any other failure as it is. `initial`: the run fills an empty cache,
 * which needs the room of the whole catalogue besides; `reserveBytes`: what it leaves free.
 */
function withRoomNeeded(failure: TuneshelfError, db: Database, initial: boolean, reserveBytes: number): TuneshelfError {
  if (!(failure instanceof DiskFullError)) return failure
  let size
  try {
    size = cacheBytes(db)
  } catch {
    // Only the estimate is lost: the failure still says the disk is full.
    return failure
  }
  // Whole decimal megabytes, rounded up (the room asked for is never short), as every size is shown.
  const mb = (bytes: number): number => Math.max(1, Math.ceil(bytes / 1_000_000))
  const kept = reserveBytes > 0 ? `, besides the ${formatBytes(reserveBytes)} it leaves free` : ''
  const room = `a sync of this ${mb(size)} MB cache needs about ${mb(roomForSync(size))} MB free on its disk${kept}`
  return new DiskFullError(`${failure.message}; ${room}${initial ? ', plus the room of the whole catalogue for a first sync' : ''}`, {
    cause: failure.cause ?? failure,
  })
}

/** Reports at once: a phase's start and end are never throttled away. */
function announce(progress: Throttled<SyncProgress>, value: SyncProgress): void {
  progress(value)
  progress.flush()
}

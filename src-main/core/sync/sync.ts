/**
 * Full and incremental sync of a catalogue service into the cache (design §5):
 * every page of the artist list in each sort order and once for podcasters,
 * then the detail of every artist whose list entry changed, the access levels,
 * and the avatars. A run is checkpointed in the cache as it goes, so a
 * cancelled or crashed run resumes where it stopped. Only one run at a time
 * per cache, across processes: a lock in the cache says who runs it.
 */
import pLimit from 'p-limit'
import type { CatalogueClient, ListArtistsQuery } from '../api/index'
import type { Database } from '../db/connection'
import { avatarsWanted, recordAvatars, type AvatarImage } from '../db/avatars'
import { replaceAccessLevels } from '../db/levels'
import { lockHolder, newLockOwner, refreshLock, releaseLock, tryAcquireLock, type LockHolder } from '../db/locks'
import {
  LIST_PASSES, addDetailsFetched, applyLists, artistsNeedingDetail, endRun, listProgress, recordDetailError, recordDetails,
  recordListPage, setRunPhase, startOrResumeRun, type DetailWanted, type FetchedDetail, type ListPass, type SyncPhase,
} from '../db/sync-store'
import { BusyError, CancelledError, toTuneshelfError } from '../shared/errors'
import { throttle, type Throttled } from '../shared/throttle'
import { fetchAvatar } from './avatars'
import { WriteBatch } from './batch'
import type { SyncProgress, SyncReport } from '../shared/types'
export type { SyncProgress, SyncReport } from '../shared/types'

const PER_PAGE = 50
/** The cache lock's name for a sync, and how often its holder says it is alive. */
export const SYNC_LOCK = 'sync'
export const LOCK_HEARTBEAT_MS = 2_000
/** A holder silent for this long has crashed (or hangs): its lock is taken over. */
export const LOCK_STALE_MS = 15_000

export interface SyncOptions {
  db: Database
  client: CatalogueClient
  /** Requests in flight at once, per phase (default 4). */
  concurrency?: number
  /** Skip avatars (default false). */
  skipAvatars?: boolean
  signal?: AbortSignal
  onProgress?: (progress: SyncProgress) => void
  /** Least time between two progress reports (default 250 ms); a phase's start and end are always reported. */
  progressIntervalMs?: number
  now?: () => number
}

/** Thrown when another process holds the cache's sync lock; says who. */
export class SyncLockedError extends BusyError {
  override name = 'SyncLockedError'
  constructor(readonly holder: LockHolder) {
    super(`another Tuneshelf process (pid ${holder.pid} on ${holder.host}) is syncing this catalogue`)
  }
}

const PHASES: SyncPhase[] = ['lists', 'details', 'levels', 'avatars', 'done']

/** What every phase of one run works with. */
interface Run {
  db: Database
  client: CatalogueClient
  runId: number
  signal: AbortSignal
  /** Stops the run with a failure that has no caller to throw to (a timer's write). */
  fail: (error: unknown) => void
  progress: Throttled<SyncProgress>
  now: () => number
  report: SyncReport
  concurrency: number
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
  const owner = newLockOwner()
  let holder
  try {
    holder = tryAcquireLock(db, SYNC_LOCK, owner, now(), LOCK_STALE_MS)
  } catch (error) {
    // A full disk or a busy cache can refuse the lock's own row: that too is a core error.
    throw toTuneshelfError(error, 'syncing the catalogue')
  }
  if (holder) throw new SyncLockedError(holder)

  // One controller for the run: the caller's cancel, a failure, or the lock taken over stops every request in flight.
  const controller = new AbortController()
  let lockLost = false
  const heartbeat = setInterval(() => {
    let held
    try {
      held = refreshLock(db, SYNC_LOCK, owner, now())
    } catch {
      // A busy or full database misses one beat; the lock goes stale only after several.
      return
    }
    if (held) return
    // Silent for too long (a machine asleep, a blocked process), this process lost its lock to
    // another that took the run over: it stops, and leaves the run to the new holder.
    lockLost = true
    let taker: LockHolder | undefined
    try {
      taker = lockHolder(db, SYNC_LOCK, now(), LOCK_STALE_MS)
    } catch {
      // Who took it is only for the message; a timer must not throw.
    }
    controller.abort(taker ? new SyncLockedError(taker) : new BusyError('another Tuneshelf process took this sync over; start it again to go on'))
  }, LOCK_HEARTBEAT_MS)
  heartbeat.unref()

  const report: SyncReport = {
    runId: 0, resumed: false, joined: false, listPages: 0, detailsFetched: 0, detailFailures: [], gone: 0, accessLevels: 0,
    avatarsFetched: 0, avatarFailures: [], durationMs: 0,
  }
  const listener = options.onProgress
  // Once the run has settled nothing more is reported, whatever work of it is still winding down.
  let settled = false
  const progress = throttle<SyncProgress>((value) => {
    if (!settled) listener?.(value)
  }, options.progressIntervalMs ?? 250)
  const onAbort = (): void => controller.abort(new CancelledError('sync cancelled'))
  options.signal?.addEventListener('abort', onAbort, { once: true })
  if (options.signal?.aborted) onAbort()
  const signal = controller.signal
  let runId: number | undefined
  try {
    const { run, resumed } = startOrResumeRun(db, now())
    runId = run.id
    Object.assign(report, { runId: run.id, resumed })
    const context: Run = {
      db, client, runId: run.id, signal, progress, now, report, concurrency: options.concurrency ?? 4,
      fail: (error) => controller.abort(error),
    }
    const from = PHASES.indexOf(run.phase)
    if (from <= 0) {
      report.listPages = await syncLists(context)
      report.gone = applyLists(db, run.id, now()).gone
    }
    if (from <= 1) await syncDetails(context)
    if (from <= 2) {
      setRunPhase(db, run.id, 'levels')
      report.accessLevels = await syncLevels(context)
    }
    setRunPhase(db, run.id, 'avatars')
    if (!options.skipAvatars) await syncAvatars(context)
    endRun(db, run.id, 'completed', now())
    announce(progress, { phase: 'done', done: 1, total: 1 })
    return report
  } catch (error) {
    // A failure that stopped the run first (a timer's write) is the cause; the cancellations it set off are not.
    const cause = signal.aborted ? signal.reason : error
    controller.abort(cause)
    const failure = toTuneshelfError(cause, 'syncing the catalogue')
    if (runId !== undefined && !lockLost) {
      try {
        endRun(db, runId, failure.code === 'cancelled' ? 'cancelled' : 'failed', now(), failure.message)
      } catch {
        // A full disk can refuse this note too; the run then stays "running" and is resumed all the same.
      }
    }
    throw failure
  } finally {
    settled = true
    progress.cancel()
    options.signal?.removeEventListener('abort', onAbort)
    clearInterval(heartbeat)
    try {
      releaseLock(db, SYNC_LOCK, owner)
    } catch {
      // Left behind, the lock goes stale as soon as this process is gone.
    }
    report.durationMs = performance.now() - startedAt
  }
}

/** Reports at once: a phase's start and end are never throttled away. */
function announce(progress: Throttled<SyncProgress>, value: SyncProgress): void {
  progress(value)
  progress.flush()
}

/** Every page of every list pass that this run has not stored yet; returns the pages fetched. */
async function syncLists({ db, client, runId, signal, progress, concurrency }: Run): Promise<number> {
  const limit = pLimit(concurrency)
  const stored = listProgress(db, runId)
  const pagesOf = new Map<ListPass, number>(LIST_PASSES.map((pass) => [pass, stored.get(pass)?.pages ?? 1]))
  const doneOf = new Map<ListPass, Set<number>>(LIST_PASSES.map((pass) => [pass, stored.get(pass)?.done ?? new Set()]))
  const known = new Set(LIST_PASSES.filter((pass) => stored.has(pass)))
  let fetched = 0
  const total = (): number => [...pagesOf.values()].reduce((sum, pages) => sum + Math.max(pages, 1), 0)
  const done = (): number => [...doneOf.values()].reduce((sum, pages) => sum + pages.size, 0)
  announce(progress, { phase: 'lists', done: done(), total: total() })

  const fetchPage = async (pass: ListPass, page: number): Promise<void> => {
    if (signal.aborted) return
    const query: ListArtistsQuery =
      pass === 'podcasters'
        ? { page, perPage: PER_PAGE, includeBlank: true, isPodcaster: 1 }
        : { page, perPage: PER_PAGE, includeBlank: true, sort: pass }
    const result = await client.listArtists(query, { signal })
    // The page count can change while a run goes on; the larger one wins so no page is skipped.
    const pages = Math.max(result.pages, pagesOf.get(pass)!)
    pagesOf.set(pass, pages)
    recordListPage(db, runId, pass, page, pages, PER_PAGE, result.artists)
    doneOf.get(pass)!.add(page)
    fetched++
    progress({ phase: 'lists', done: done(), total: total() })
  }

  const syncPass = async (pass: ListPass): Promise<void> => {
    if (!known.has(pass)) await limit(() => fetchPage(pass, 1))
    // Loop in case a later page reports more pages than the first did.
    for (;;) {
      signal.throwIfAborted()
      const missing: number[] = []
      for (let page = 1; page <= pagesOf.get(pass)!; page++) if (!doneOf.get(pass)!.has(page)) missing.push(page)
      if (missing.length === 0) return
      await Promise.all(missing.map((page) => limit(() => fetchPage(pass, page))))
    }
  }

  await Promise.all(LIST_PASSES.map(syncPass))
  announce(progress, { phase: 'lists', done: done(), total: total() })
  return fetched
}

async function syncDetails({ db, client, runId, signal, fail, progress, now, report, concurrency }: Run): Promise<void> {
  const limit = pLimit(concurrency)
  const wanted = artistsNeedingDetail(db)
  let done = 0
  announce(progress, { phase: 'details', done, total: wanted.length })
  const failures = new Map<number, { artist: DetailWanted; message: string }>()

  // Details are stored in batches; a batch lost to a crash is fetched again on resume.
  const batch = new WriteBatch<FetchedDetail>(
    (items) =>
      db.transaction(() => {
        recordDetails(db, items, runId)
        addDetailsFetched(db, runId, items.length)
      }).immediate(),
    fail,
  )
  const fetchDetail = async (artist: DetailWanted): Promise<void> => {
    if (signal.aborted) return
    let detail
    try {
      detail = await client.getArtist(artist.username, { signal })
    } catch (error) {
      if (signal.aborted) throw error
      // One artist's failure never fails the sync: it is noted, kept, and tried again.
      const message = (error as Error).message
      recordDetailError(db, artist.id, message)
      failures.set(artist.id, { artist, message })
      return
    }
    // Outside the try: a failure to store is the run's failure, not the artist's.
    batch.add({ wanted: artist, detail, fetchedAt: now() })
    failures.delete(artist.id)
    report.detailsFetched++
  }

  try {
    await Promise.all(
      wanted.map((artist) =>
        limit(async () => {
          await fetchDetail(artist)
          // A task that starts after a stop fetches nothing: it is not progress.
          if (!signal.aborted) progress({ phase: 'details', done: ++done, total: wanted.length })
        }),
      ),
    )
    // A second try for the failures, now that the rest is done.
    await Promise.all([...failures.values()].map(({ artist }) => limit(() => fetchDetail(artist))))
    signal.throwIfAborted()
  } finally {
    // Also after a stop: what arrived is kept, and a resume has less to fetch. A failure to
    // store it is the run's failure only when nothing else failed first.
    try {
      batch.flush()
    } catch (error) {
      fail(error)
    }
  }
  signal.throwIfAborted()
  report.detailFailures = [...failures.values()].map(({ artist, message }) => ({ username: artist.username, message }))
  announce(progress, { phase: 'details', done: wanted.length, total: wanted.length })
}

async function syncLevels({ db, client, signal, progress }: Run): Promise<number> {
  announce(progress, { phase: 'levels', done: 0, total: 1 })
  const levels = await client.accessLevels({ signal })
  replaceAccessLevels(db, levels)
  announce(progress, { phase: 'levels', done: 1, total: 1 })
  return levels.length
}

async function syncAvatars({ db, client, signal, fail, progress, now, report, concurrency }: Run): Promise<void> {
  const limit = pLimit(concurrency)
  const urls = avatarsWanted(db)
  const batch = new WriteBatch<AvatarImage>((images) => recordAvatars(db, images, now()), fail)
  let done = 0
  announce(progress, { phase: 'avatars', done, total: urls.length })
  try {
    await Promise.all(
      urls.map((url) =>
        limit(async () => {
          if (signal.aborted) return
          let image
          try {
            image = await fetchAvatar(client, url, signal)
          } catch (error) {
            if (signal.aborted) throw error
            report.avatarFailures.push({ url, message: (error as Error).message })
          }
          if (image) {
            batch.add(image)
            report.avatarsFetched++
          }
          progress({ phase: 'avatars', done: ++done, total: urls.length })
        }),
      ),
    )
  } finally {
    try {
      batch.flush()
    } catch (error) {
      fail(error)
    }
  }
  signal.throwIfAborted()
  announce(progress, { phase: 'avatars', done: urls.length, total: urls.length })
}

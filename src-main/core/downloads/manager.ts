/**
 * The download queue: persisted in the cache, at most N transfers at once,
 * pause, resume, cancel, retry and remove, progress with speed and time left,
 * a free-space check before starting, the queue paused (not lost) when the
 * disk fills, and running downloads resumed after a restart. One process runs
 * a cache's queue at a time (a lock in the cache says which).
 *
 * The manager orchestrates; each job has its module: the running transfers
 * (scheduler.ts), one transfer from start to end (transfer-job.ts) with its
 * progress kept in the cache (progress-recorder.ts), what a stopped one becomes
 * (settle.ts), a full disk (disk-full.ts), the rows and their change events
 * (rows.ts), planning an enqueue (plan.ts), its estimate (estimate.ts), and the
 * partial files no download knows of (stray-parts.ts).
 */
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import type { Database } from 'better-sqlite3'
import { getArtist } from '../db/artists'
import * as store from '../db/downloads'
import { LockLease } from '../db/locks'
import { BusyError, NotFoundError } from '../shared/errors'
import { Emitter } from '../base/events'
import { FREE_SPACE_RESERVE_BYTES, ensureSpace, freeSpaceOf, type FreeSpace } from '../files/disk-space'
import { DiskFullPolicy } from './disk-full'
import { estimateOf } from './estimate'
import { deletablePart } from './file-names'
import { applyPlan, planUploads, requeueFromZero, type PlannedUploads } from './plan'
import { rateMeter, type DownloadProgress, type TransferProgress } from './progress'
import { DOWNLOAD_ACTIONS } from '../shared/download-actions'
import { outcomeOf, resolveSelection, sortForAction } from './bulk'
import { DownloadRows } from './rows'
import { Scheduler } from './scheduler'
import { settleStopped } from './settle'
import { strayPartFiles } from './stray-parts'
import { transferDownload, type SharedTransferOptions } from './transfer-job'
import { moveInQueue } from './queue-order'
import type { Download } from '../db/downloads'
import type { DownloadActionResult, DownloadChange, DownloadEstimate, DownloadQueueState, DownloadSelection, QueuePlace } from '../shared/types'
export type { DownloadActionResult, DownloadChange, DownloadEstimate, DownloadQueueState } from '../shared/types'

export type { Download } from '../db/downloads'
export type { DownloadProgress } from './progress'

export interface DownloadManagerOptions extends SharedTransferOptions {
  db: Database
  /** Transfers at once, 1 to 8 (default 3). */
  concurrency?: number
  /** Space kept free on the volume (default FREE_SPACE_RESERVE_BYTES, which the sync keeps too). */
  reserveBytes?: number
  /** Free space of a folder; tests may replace it. */
  freeSpace?: FreeSpace
  now?: () => number
}

export class DownloadManager {
  private readonly db: Database
  private readonly rows: DownloadRows
  private readonly scheduler: Scheduler
  private readonly diskFull: DiskFullPolicy
  /** Set when a transfer could not reach its server: nothing starts until networkBack(). */
  private networkGone = false
  private started = false
  private readonly lease: LockLease
  private readonly now: () => number
  private readonly freeSpace: FreeSpace
  private readonly reserveBytes: number
  private readonly changes = new Emitter<DownloadChange>()
  private readonly progress = new Emitter<DownloadProgress>()
  /** The queue's speed: every transfer's new bytes together, weighted over about 10 s (progress.ts). */
  private readonly throughput = rateMeter(performance.now())
  private readonly idle = new Emitter<void>()
  private readonly queuePaused = new Emitter<string>()

  /** Rows changed: one event per action, so queuing an artist's 200 tracks is one event. */
  readonly onDidChange = this.changes.event
  /** A running download's bytes, speed and time left, and the queue's speed, a few times a second per download. */
  readonly onDidProgress = this.progress.event
  /** Nothing runs and nothing queued can start. */
  readonly onDidBecomeIdle = this.idle.event
  /** The disk filled: every transfer paused, and the queue waits for resumeQueue(). */
  readonly onDidPauseQueue = this.queuePaused.event

  constructor(private readonly options: DownloadManagerOptions) {
    const db = options.db
    const now = options.now ?? Date.now
    this.db = db
    this.now = now
    this.freeSpace = options.freeSpace ?? freeSpaceOf
    this.reserveBytes = options.reserveBytes ?? FREE_SPACE_RESERVE_BYTES
    this.rows = new DownloadRows(db, now, this.changes)
    this.lease = new LockLease(db, {
      name: 'downloads',
      heartbeatMs: 2_000,
      staleAfterMs: 15_000,
      now,
      // The beat also picks up downloads another process queued in this cache meanwhile.
      onBeat: () => this.scheduler.pump(),
      onLost: () => {
        // This process stalled past the stale limit and another one took the queue: two
        // processes must never write the same partial file, so this one lets go at once.
        this.queuePaused.fire("another Tuneshelf process took over this catalogue's downloads while this one was not responding")
        void this.stop()
      },
    })
    const job = {
      ...options, db, now, freeSpace: this.freeSpace, reserveBytes: this.reserveBytes,
      onProgress: (progress: TransferProgress, newBytes: number) =>
        this.progress.fire({ ...progress, queueSpeed: this.throughput.add(newBytes, performance.now()) }),
      onCompleted: (id: number) => this.rows.fireChange([id]),
    }
    const waitForNetwork = (): void => {
      this.networkGone = true
    }
    this.scheduler = new Scheduler(options.concurrency ?? 3, {
      canStart: () => this.canStart(),
      nextQueued: (limit) => store.nextQueued(db, limit),
      starting: (download) => this.rows.setStates([download], 'downloading'),
      transfer: (download, controller) => transferDownload(download, controller, job),
      settle: (download, reason, error) => settleStopped(download, reason, error, { db, now, rows: this.rows, diskFull: this.diskFull, networkGone: waitForNetwork }),
      ended: () => this.checkIdle(),
    })
    this.diskFull = new DiskFullPolicy(db, this.rows, this.scheduler, (message) => this.queuePaused.fire(message))
    try {
      store.forgetStoredCredentials(db)
    } catch {
      // A busy cache is cleaned on a later open; its rows leave the store without the password meanwhile.
    }
  }

  get state(): DownloadQueueState {
    return {
      started: this.started,
      running: this.scheduler.running,
      concurrency: this.scheduler.concurrency,
      pausedBecause: this.diskFull.pausedBecause,
      waitingFor: this.networkGone ? 'network' : null,
      interrupted: this.interruptedIds().length,
      runElsewhere: this.started ? null : (this.lease.holder() ?? null),
    }
  }

  /**
   * Runs the queue in this process: downloads that were running when the app
   * last stopped resume from their partial files. Refuses (BusyError) while
   * another process runs this cache's queue.
   */
  start(): void {
    if (this.started) return
    const holder = this.lease.acquire()
    if (holder) {
      throw new BusyError(`another Tuneshelf process (pid ${holder.pid} on ${holder.host}) is running this catalogue's downloads; add them there, or close it first`)
    }
    this.started = true
    this.networkGone = false
    const interrupted = store.listDownloads(this.db, 'downloading')
    for (const download of interrupted) store.setState(this.db, download.id, 'queued', { now: this.now() })
    // Those that waited for the network when the app last stopped are tried again like the others.
    const waited = store.stopWaitingForNetwork(this.db)
    this.rows.fireChange([...interrupted.map((download) => download.id), ...waited])
    this.scheduler.pump()
  }

  /** Partial files in folder (recursively) that no download knows of: reported, never deleted. */
  strayPartFiles(folder: string): Promise<string[]> {
    return strayPartFiles(folder, store.listDownloads(this.db))
  }

  /**
   * Stops every transfer and keeps it as it is: still "downloading" in the cache,
   * with its bytes on disk, shown as interrupted until the next start resumes it.
   */
  async stop(): Promise<void> {
    if (!this.started) return
    this.started = false
    // Silent while the transfers stop; the lock is given back once none writes its partial file.
    this.lease.stopBeating()
    await Promise.all(this.scheduler.runningIds().map((id) => this.scheduler.interrupt(id, 'stop')))
    this.lease.release()
    this.checkIdle()
  }

  /**
   * Queues uploads by id (each once) into folder, after checking they fit. An
   * upload already queued there, or complete with its file intact, is left as
   * it is; one whose file is gone is queued again in the same row.
   */
  async enqueueUploads(uploadIds: readonly string[], folder: string): Promise<Download[]> {
    const { root, plans, bytes } = await this.plan(uploadIds, folder)
    await ensureSpace(root, bytes, this.reserveBytes, this.freeSpace)
    const result = this.db.transaction(() => plans.map((plan) => applyPlan(this.db, plan, this.rows, this.now))).immediate()
    this.rows.fireChange(result.filter((_, index) => plans[index]!.kind !== 'existing').map((download) => download.id))
    this.scheduler.pump()
    this.checkIdle()
    return result
  }

  /**
   * What queuing these uploads into folder would take, without queuing them: the
   * bytes still to download (uploads already there count nothing), the space free
   * after the reserve, and whether they fit. For "Download all (1.2 GB)".
   */
  async estimate(uploadIds: readonly string[], folder: string): Promise<DownloadEstimate> {
    return estimateOf(await this.plan(uploadIds, folder), this.reserveBytes, this.freeSpace)
  }

  /** The uploads of an artist (case-insensitive username), in the artist's order. */
  uploadsOf(username: string): string[] {
    const artist = getArtist(this.db, username)
    if (!artist) throw new NotFoundError(`no artist named ${JSON.stringify(username)} in the cache`)
    return artist.tracks.map((track) => track.uploadId)
  }

  /** Queues every track of an artist (case-insensitive username) into folder, after checking the space they need. */
  async enqueueArtist(username: string, folder: string): Promise<Download[]> {
    return this.enqueueUploads(this.uploadsOf(username), folder)
  }

  // An action on a list applies to the downloads that allow it and skips the others, saying why (bulk.ts);
  // a selection of groups is resolved to its downloads here, as the queue is when the action comes.

  /** Pauses downloads (queued or running); a running one keeps its bytes. */
  pause(selection: DownloadSelection): Promise<DownloadActionResult> {
    const { ids, strict } = this.resolve(selection)
    return this.pauseSome(ids, strict)
  }

  /** Pauses the whole queue: every queued and running download (those of another process's run too). */
  pauseAll(): Promise<DownloadActionResult> {
    const ids = [...store.listDownloads(this.db, 'downloading'), ...store.listDownloads(this.db, 'queued')].map((download) => download.id)
    return this.pauseSome(ids, false)
  }

  /** Queues paused downloads again; they go on from their bytes on disk. */
  resume(selection: DownloadSelection): DownloadActionResult {
    const { ids, strict } = this.resolve(selection)
    const { downloads, skipped } = sortForAction(this.db, 'resume', ids, strict)
    this.rows.setStates(downloads, DOWNLOAD_ACTIONS.resume.to)
    this.scheduler.pump()
    return { changed: downloads.map((download) => download.id), skipped }
  }

  /** Resumes the whole queue: every paused download (by the user or a full disk), and a queue waiting for space. */
  resumeAll(): DownloadActionResult {
    const paused = store.listDownloads(this.db, 'paused').filter((download) => download.pauseReason !== 'disk_full')
    this.rows.setStates(paused, DOWNLOAD_ACTIONS.resume.to)
    const queued = this.resumeQueue()
    return { changed: [...paused.map((download) => download.id), ...queued], skipped: [] }
  }

  /** Stops downloads and deletes their partial files; completed files are never touched. */
  async cancel(selection: DownloadSelection): Promise<DownloadActionResult> {
    const { ids, strict } = this.resolve(selection)
    const { downloads, skipped } = sortForAction(this.db, 'cancel', ids, strict)
    // Those not running are cancelled first, in one step: while the running ones stop,
    // the scheduler (filling the slots they free) must not start one of them.
    const waiting = downloads.filter((download) => !this.scheduler.isRunning(download.id))
    for (const download of waiting) store.recordProgress(this.db, download.id, 0, 0, this.now())
    this.rows.setStates(waiting, DOWNLOAD_ACTIONS.cancel.to)
    await Promise.all([
      ...waiting.map(async (download) => {
        const part = deletablePart(store.downloadFolder(this.db, download.id), download.targetPath)
        if (part !== undefined) await fsp.rm(part, { force: true })
      }),
      ...downloads.filter((download) => this.scheduler.isRunning(download.id)).map((download) => this.scheduler.interrupt(download.id, 'cancel')),
    ])
    this.scheduler.pump()
    return outcomeOf(this.db, 'cancel', downloads, skipped)
  }

  /** Queues failed or cancelled downloads again (a cancelled one starts from zero). */
  retry(selection: DownloadSelection): DownloadActionResult {
    const { ids, strict } = this.resolve(selection)
    const { downloads, skipped } = sortForAction(this.db, 'retry', ids, strict)
    this.rows.setStates(downloads, DOWNLOAD_ACTIONS.retry.to)
    this.scheduler.pump()
    return { changed: downloads.map((download) => download.id), skipped }
  }

  /**
   * Queues again, from zero and in the same row and file name, completed downloads
   * whose file is no longer on disk (deleted or moved by hand). One whose file is
   * still there is skipped: nothing is overwritten.
   */
  redownload(selection: DownloadSelection): DownloadActionResult {
    const { ids, strict } = this.resolve(selection)
    const { downloads, skipped } = sortForAction(this.db, 'redownload', ids, strict, (download) =>
      fs.existsSync(download.targetPath) ? `the file of download ${download.id} is still at ${download.targetPath}: nothing to download again` : null,
    )
    if (downloads.length === 0) return { changed: [], skipped }
    this.db.transaction(() => {
      for (const download of downloads) requeueFromZero(this.db, download, this.rows, this.now)
    }).immediate()
    this.rows.fireChange(downloads.map((download) => download.id))
    this.scheduler.pump()
    return { changed: downloads.map((download) => download.id), skipped }
  }

  /** Takes downloads off the list; their files (or partial files) stay on disk. */
  async remove(selection: DownloadSelection): Promise<DownloadActionResult> {
    const { ids, strict } = this.resolve(selection)
    const { downloads, skipped } = sortForAction(this.db, 'remove', ids, strict)
    if (downloads.length === 0) return { changed: [], skipped }
    const running = downloads.filter((download) => this.scheduler.isRunning(download.id))
    // Those not running go first: the scheduler must not start one of them while the running ones stop.
    store.deleteDownloads(this.db, downloads.filter((download) => !this.scheduler.isRunning(download.id)).map((download) => download.id))
    await Promise.all(running.map((download) => this.scheduler.interrupt(download.id, 'remove')))
    store.deleteDownloads(this.db, running.map((download) => download.id))
    this.rows.fireRemoved(downloads.map((download) => download.id))
    this.scheduler.pump()
    return { changed: downloads.map((download) => download.id), skipped }
  }

  /** Moves downloads in the queue (queue-order.ts): what starts next follows at once. */
  move(selection: DownloadSelection, place: QueuePlace): DownloadActionResult {
    const { ids, strict } = this.resolve(selection)
    const { result, reordered } = moveInQueue(this.db, ids, place, strict)
    this.rows.fireChange(reordered)
    return result
  }

  /** Downloads whose state says "downloading" but that no process is transferring. */
  interruptedIds(): number[] {
    if (this.started) return store.listDownloads(this.db, 'downloading').filter((download) => !this.scheduler.isRunning(download.id)).map((d) => d.id)
    if (this.lease.holder()) return []
    return store.listDownloads(this.db, 'downloading').map((download) => download.id)
  }

  /** Transfers at once; applies at once (extra running transfers go back to the queue, keeping their bytes). */
  setConcurrency(concurrency: number): void {
    this.scheduler.setConcurrency(concurrency)
  }

  /**
   * Lets a queue paused by a full disk go on: the downloads it paused are queued
   * again (not those the user paused), and so are any it could not even mark
   * paused (left "downloading" because the full disk was the cache's own).
   */
  resumeQueue(): number[] {
    const stranded = this.started ? this.interruptedIds().map((id) => this.rows.require(id)) : []
    const queued = this.diskFull.resume(stranded)
    this.rows.setStates(queued, 'queued')
    this.scheduler.pump()
    return queued.map((download) => download.id)
  }

  /**
   * The service answers again (the session checks): the downloads that waited for the network go on,
   * from their bytes on disk. Nothing happens when none waits.
   */
  networkBack(): void {
    if (!this.networkGone) return
    this.networkGone = false
    this.rows.fireChange(store.stopWaitingForNetwork(this.db))
    this.scheduler.pump()
  }

  /** Resolves when nothing is running and nothing queued can start (at once if so now). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve()
    return new Promise((resolve) => {
      const subscription = this.onDidBecomeIdle(() => {
        subscription.dispose()
        resolve()
      })
    })
  }

  /** Stops the queue and lets go of every listener. */
  async dispose(): Promise<void> {
    await this.stop()
    for (const emitter of [this.changes, this.progress, this.idle, this.queuePaused]) emitter.dispose()
  }

  /** The ids a selection names now (bulk.ts), and whether it names one alone. */
  private resolve(selection: DownloadSelection): { ids: number[]; strict: boolean } {
    return resolveSelection(this.db, selection, Array.isArray(selection) ? [] : this.interruptedIds())
  }

  private plan(uploadIds: readonly string[], folder: string): Promise<PlannedUploads> {
    return planUploads(this.db, uploadIds, folder, this.options.baseUrl, this.options.relocate)
  }

  private async pauseSome(ids: readonly number[], strict: boolean): Promise<DownloadActionResult> {
    const { downloads, skipped } = sortForAction(this.db, 'pause', ids, strict)
    const queued = downloads.filter((download) => !this.scheduler.isRunning(download.id))
    this.rows.setStates(queued, DOWNLOAD_ACTIONS.pause.to)
    await Promise.all(downloads.filter((download) => this.scheduler.isRunning(download.id)).map((download) => this.scheduler.interrupt(download.id, 'pause')))
    return outcomeOf(this.db, 'pause', downloads, skipped)
  }

  private isIdle(): boolean {
    return this.scheduler.running === 0 && (!this.canStart() || store.nextQueued(this.db, 1).length === 0)
  }

  private checkIdle(): void {
    if (this.isIdle()) this.idle.fire()
  }

  private canStart(): boolean {
    return this.started && this.diskFull.pausedBecause === null && !this.networkGone
  }
}

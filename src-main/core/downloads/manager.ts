/**
 * The download queue: persisted in the cache, at most N transfers at once,
 * pause, resume, cancel, retry and remove, progress with speed and time left,
 * a free-space check before starting, the queue paused (not lost) when the
 * disk fills, and running downloads resumed after a restart. One process runs
 * a cache's queue at a time (a lock in the cache says which).
 */
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import type { Database } from 'better-sqlite3'
import type { Http } from '../api/http'
import { getArtist } from '../db/artists'
import * as store from '../db/downloads'
import { lockHolder, newLockOwner, refreshLock, releaseLock, tryAcquireLock } from '../db/locks'
import { BusyError, DiskFullError, NotFoundError, toTuneshelfError } from '../shared/errors'
import { credentialsFor } from '../shared/urls'
import { Emitter } from '../events'
import type { DownloadState } from '../shared/catalogue'
import { ensureSpace, freeSpaceOf, type FreeSpace } from './disk-space'
import { partPathOf } from './file-names'
import { bytesNeeded, planUpload, sizeOrNull, type Plan } from './plan'
import { progressTracker, type DownloadProgress } from './progress'
import { DOWNLOAD_ACTIONS } from '../shared/download-actions'
import { isSingle, outcomeOf, sortForAction } from './bulk'
import { checkChange } from './states'
import { isUnreachable, transfer, type TransferOptions } from './transfer'
import { moveInQueue } from './queue-order'
import type { SpeedLimiter } from './speed-limit'
import type { Download } from '../db/downloads'
import type { DownloadActionResult, DownloadChange, DownloadEstimate, DownloadQueueState, QueuePlace } from '../shared/types'
export type { DownloadActionResult, DownloadChange, DownloadEstimate, DownloadQueueState } from '../shared/types'

export type { Download } from '../db/downloads'
export type { DownloadProgress } from './progress'

export interface DownloadManagerOptions {
  db: Database
  /** The service's base URL, for hotlink paths that are not absolute. */
  baseUrl: string
  /** Transfers at once, 1 to 8 (default 3). */
  concurrency?: number
  /** Space kept free on the volume (default 256 MiB). */
  reserveBytes?: number
  /** Free space of a folder; tests may replace it. */
  freeSpace?: FreeSpace
  /** Least time between two progress events of one download (default 200 ms: five a second). */
  progressIntervalMs?: number
  /** The app's one got set-up. */
  http?: Http
  /**
   * Maps a stored file address to where the service is now: the built-in demo may
   * come back on another port, and the addresses cached before still name the old one.
   */
  relocate?: (url: string) => string
  /** Retry settings passed to every transfer. */
  transferSettings?: Pick<TransferOptions, 'retries' | 'maxAttempts' | 'backoffMs' | 'maxDelayMs'>
  /** The speed limit all transfers share (speed-limit.ts); none when absent. */
  limiter?: SpeedLimiter
  now?: () => number
}

type StopReason = 'pause' | 'cancel' | 'remove' | 'requeue' | 'stop' | 'disk-full'

interface Active {
  controller: AbortController
  reason?: StopReason
  done: Promise<void>
}

const MIB = 1024 * 1024
const QUEUE_LOCK = 'downloads'
const LOCK_HEARTBEAT_MS = 2_000
const LOCK_STALE_MS = 15_000
/** Least time between two writes of a running download's progress to the cache. */
const PERSIST_PROGRESS_MS = 1_000

export class DownloadManager {
  private readonly db: Database
  private readonly active = new Map<number, Active>()
  private concurrency: number
  private queuePausedBecause: string | null = null
  /** Set when a transfer could not reach its server: nothing starts until networkBack(). */
  private networkGone = false
  private started = false
  private readonly owner = newLockOwner()
  private heartbeat: NodeJS.Timeout | undefined
  private readonly now: () => number
  private readonly freeSpace: FreeSpace
  private readonly reserveBytes: number
  private readonly changes = new Emitter<DownloadChange>()
  private readonly progress = new Emitter<DownloadProgress>()
  private readonly idle = new Emitter<void>()
  private readonly queuePaused = new Emitter<string>()

  /** Rows changed: one event per action, so queuing an artist's 200 tracks is one event. */
  readonly onChange = this.changes.event
  /** A running download's bytes, speed and time left, a few times a second per download. */
  readonly onProgress = this.progress.event
  /** Nothing runs and nothing queued can start. */
  readonly onIdle = this.idle.event
  /** The disk filled: every transfer paused, and the queue waits for resumeQueue(). */
  readonly onQueuePaused = this.queuePaused.event

  constructor(private readonly options: DownloadManagerOptions) {
    this.db = options.db
    this.concurrency = options.concurrency ?? 3
    this.now = options.now ?? Date.now
    this.freeSpace = options.freeSpace ?? freeSpaceOf
    this.reserveBytes = options.reserveBytes ?? 256 * MIB
    try {
      store.forgetStoredCredentials(this.db)
    } catch {
      // A busy cache is cleaned on a later open; its rows leave the store without the password meanwhile.
    }
  }

  get state(): DownloadQueueState {
    return {
      started: this.started,
      running: this.active.size,
      concurrency: this.concurrency,
      pausedBecause: this.queuePausedBecause,
      waitingFor: this.networkGone ? 'network' : null,
      interrupted: this.interruptedIds().length,
      runElsewhere: this.started ? null : (lockHolder(this.db, QUEUE_LOCK, this.now(), LOCK_STALE_MS) ?? null),
    }
  }

  /**
   * Runs the queue in this process: downloads that were running when the app
   * last stopped resume from their partial files. Refuses (BusyError) while
   * another process runs this cache's queue.
   */
  start(): void {
    if (this.started) return
    const holder = tryAcquireLock(this.db, QUEUE_LOCK, this.owner, this.now(), LOCK_STALE_MS)
    if (holder) {
      throw new BusyError(`another Tuneshelf process (pid ${holder.pid} on ${holder.host}) is running this catalogue's downloads; add them there, or close it first`)
    }
    this.started = true
    this.networkGone = false
    // The beat also picks up downloads another process queued in this cache meanwhile.
    this.heartbeat = setInterval(() => {
      let held: boolean
      try {
        held = refreshLock(this.db, QUEUE_LOCK, this.owner, this.now())
      } catch {
        // A busy or full database misses one beat; the lock goes stale only after several.
        return
      }
      if (held) {
        this.pump()
        return
      }
      // This process stalled past the stale limit and another one took the queue: two
      // processes must never write the same partial file, so this one lets go at once.
      const message = 'another Tuneshelf process took over this catalogue\'s downloads while this one was not responding'
      this.queuePaused.fire(message)
      void this.stop()
    }, LOCK_HEARTBEAT_MS)
    this.heartbeat.unref()
    const interrupted = store.listDownloads(this.db, 'downloading')
    for (const download of interrupted) store.setState(this.db, download.id, 'queued', { now: this.now() })
    // Those that waited for the network when the app last stopped are tried again like the others.
    const waited = store.stopWaitingForNetwork(this.db)
    this.fireChange([...interrupted.map((download) => download.id), ...waited])
    this.pump()
  }

  /** Partial files in folder (recursively) that no download knows of: reported, never deleted. */
  async strayPartFiles(folder: string): Promise<string[]> {
    const known = new Set([...store.listDownloads(this.db)].map((download) => partPathOf(download.targetPath)))
    let entries
    try {
      entries = await fsp.readdir(folder, { recursive: true, withFileTypes: true })
    } catch {
      return []
    }
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.part'))
      .map((entry) => path.join(entry.parentPath, entry.name))
      .filter((part) => !known.has(part))
  }

  /**
   * Stops every transfer and keeps it as it is: still "downloading" in the cache,
   * with its bytes on disk, shown as interrupted until the next start resumes it.
   */
  async stop(): Promise<void> {
    if (!this.started) return
    this.started = false
    clearInterval(this.heartbeat)
    await Promise.all([...this.active.keys()].map((id) => this.interrupt(id, 'stop')))
    try {
      releaseLock(this.db, QUEUE_LOCK, this.owner)
    } catch {
      // A cache that cannot be written (its disk full) keeps the lock row; without its
      // heartbeat, and once this process is gone, it is stale and the next start takes it.
    }
    this.checkIdle()
  }

  /**
   * Queues uploads by id (each once) into folder, after checking they fit. An
   * upload already queued there, or complete with its file intact, is left as
   * it is; one whose file is gone is queued again in the same row.
   */
  async enqueueUploads(uploadIds: readonly string[], folder: string): Promise<Download[]> {
    const root = await fsp.realpath(folder)
    const taken = store.allTargets(this.db)
    const plans = [...new Set(uploadIds)].map((uploadId) => planUpload(this.db, uploadId, root, this.options.baseUrl, taken, this.options.relocate))
    const needed = plans.reduce((sum, plan) => sum + bytesNeeded(plan), 0)
    await ensureSpace(root, needed, this.reserveBytes, this.freeSpace)
    const result = this.db.transaction(() => plans.map((plan) => this.apply(plan))).immediate()
    this.fireChange(result.filter((_, index) => plans[index]!.kind !== 'existing').map((download) => download.id))
    this.pump()
    this.checkIdle()
    return result
  }

  /**
   * What queuing these uploads into folder would take, without queuing them: the
   * bytes still to download (uploads already there count nothing), the space free
   * after the reserve, and whether they fit. For "Download all (1.2 GB)".
   */
  async estimate(uploadIds: readonly string[], folder: string): Promise<DownloadEstimate> {
    const root = await fsp.realpath(folder)
    const taken = store.allTargets(this.db)
    const plans = [...new Set(uploadIds)].map((uploadId) => planUpload(this.db, uploadId, root, this.options.baseUrl, taken, this.options.relocate))
    const bytes = plans.reduce((sum, plan) => sum + bytesNeeded(plan), 0)
    const freeBytes = Math.max(0, (await this.freeSpace(root)) - this.reserveBytes)
    return { files: plans.filter((plan) => plan.kind !== 'existing').length, bytes, freeBytes, fits: bytes <= freeBytes }
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

  // An action on a list applies to the downloads that allow it and skips the others, saying why (bulk.ts).

  /** Pauses downloads (queued or running); a running one keeps its bytes. */
  pause(ids: readonly number[]): Promise<DownloadActionResult> {
    return this.pauseSome(ids, isSingle(ids))
  }

  /** Pauses the whole queue: every queued and running download (those of another process's run too). */
  pauseAll(): Promise<DownloadActionResult> {
    const ids = [...store.listDownloads(this.db, 'downloading'), ...store.listDownloads(this.db, 'queued')].map((download) => download.id)
    return this.pauseSome(ids, false)
  }

  /** Queues paused downloads again; they go on from their bytes on disk. */
  resume(ids: readonly number[]): DownloadActionResult {
    const { downloads, skipped } = sortForAction(this.db, 'resume', ids, isSingle(ids))
    this.setStates(downloads, DOWNLOAD_ACTIONS.resume.to)
    this.pump()
    return { changed: downloads.map((download) => download.id), skipped }
  }

  /** Resumes the whole queue: every paused download (by the user or a full disk), and a queue waiting for space. */
  resumeAll(): DownloadActionResult {
    const paused = store.listDownloads(this.db, 'paused').filter((download) => download.pauseReason !== 'disk_full')
    this.setStates(paused, DOWNLOAD_ACTIONS.resume.to)
    const queued = this.resumeQueue()
    return { changed: [...paused.map((download) => download.id), ...queued], skipped: [] }
  }

  /** Stops downloads and deletes their partial files; completed files are never touched. */
  async cancel(ids: readonly number[]): Promise<DownloadActionResult> {
    const { downloads, skipped } = sortForAction(this.db, 'cancel', ids, isSingle(ids))
    // Those not running are cancelled first, in one step: while the running ones stop,
    // the scheduler (filling the slots they free) must not start one of them.
    const waiting = downloads.filter((download) => !this.active.has(download.id))
    for (const download of waiting) store.recordProgress(this.db, download.id, 0, 0, this.now())
    this.setStates(waiting, DOWNLOAD_ACTIONS.cancel.to)
    await Promise.all([
      ...waiting.map((download) => fsp.rm(partPathOf(download.targetPath), { force: true })),
      ...downloads.filter((download) => this.active.has(download.id)).map((download) => this.interrupt(download.id, 'cancel')),
    ])
    this.pump()
    return outcomeOf(this.db, 'cancel', downloads, skipped)
  }

  /** Queues failed or cancelled downloads again (a cancelled one starts from zero). */
  retry(ids: readonly number[]): DownloadActionResult {
    const { downloads, skipped } = sortForAction(this.db, 'retry', ids, isSingle(ids))
    this.setStates(downloads, DOWNLOAD_ACTIONS.retry.to)
    this.pump()
    return { changed: downloads.map((download) => download.id), skipped }
  }

  /**
   * Queues again, from zero and in the same row and file name, completed downloads
   * whose file is no longer on disk (deleted or moved by hand). One whose file is
   * still there is skipped: nothing is overwritten.
   */
  redownload(ids: readonly number[]): DownloadActionResult {
    const { downloads, skipped } = sortForAction(this.db, 'redownload', ids, isSingle(ids), (download) =>
      fs.existsSync(download.targetPath) ? `the file of download ${download.id} is still at ${download.targetPath}: nothing to download again` : null,
    )
    if (downloads.length === 0) return { changed: [], skipped }
    this.db.transaction(() => {
      for (const download of downloads) {
        checkChange(download.id, this.require(download.id).state, 'queued')
        // A partial file left by an older run is not this file's beginning: it goes first.
        fs.rmSync(partPathOf(download.targetPath), { force: true })
        const { uploadId, artistUsername, title, url, targetPath, bytesTotal } = download
        store.requeueDownload(this.db, download.id, { uploadId, artistUsername, title, url, targetPath, bytesTotal }, this.now())
      }
    }).immediate()
    this.fireChange(downloads.map((download) => download.id))
    this.pump()
    return { changed: downloads.map((download) => download.id), skipped }
  }

  /** Takes downloads off the list; their files (or partial files) stay on disk. */
  async remove(ids: readonly number[]): Promise<DownloadActionResult> {
    const { downloads, skipped } = sortForAction(this.db, 'remove', ids, isSingle(ids))
    if (downloads.length === 0) return { changed: [], skipped }
    const running = downloads.filter((download) => this.active.has(download.id))
    // Those not running go first: the scheduler must not start one of them while the running ones stop.
    store.deleteDownloads(
      this.db,
      downloads.filter((download) => !this.active.has(download.id)).map((download) => download.id),
    )
    await Promise.all(running.map((download) => this.interrupt(download.id, 'remove')))
    store.deleteDownloads(
      this.db,
      running.map((download) => download.id),
    )
    this.changes.fire({ downloads: [], removed: downloads.map((download) => download.id) })
    this.pump()
    return { changed: downloads.map((download) => download.id), skipped }
  }

  /** Moves downloads in the queue (queue-order.ts): what starts next follows at once. */
  move(ids: readonly number[], place: QueuePlace): DownloadActionResult {
    const { result, reordered } = moveInQueue(this.db, ids, place)
    this.fireChange(reordered)
    return result
  }

  /** Downloads whose state says "downloading" but that no process is transferring. */
  interruptedIds(): number[] {
    if (this.started) return store.listDownloads(this.db, 'downloading').filter((download) => !this.active.has(download.id)).map((d) => d.id)
    if (lockHolder(this.db, QUEUE_LOCK, this.now(), LOCK_STALE_MS)) return []
    return store.listDownloads(this.db, 'downloading').map((download) => download.id)
  }

  list(state?: DownloadState): Download[] {
    return store.listDownloads(this.db, state)
  }

  get(id: number): Download | undefined {
    return store.getDownload(this.db, id)
  }

  monthlyBytes(): { month: string; bytes: number }[] {
    return store.monthlyBytes(this.db)
  }

  /** Transfers at once; applies at once (extra running transfers go back to the queue, keeping their bytes). */
  setConcurrency(concurrency: number): void {
    this.concurrency = concurrency
    const excess = [...this.active.keys()].slice(this.concurrency)
    for (const id of excess) void this.interrupt(id, 'requeue')
    this.pump()
  }

  /**
   * Lets a queue paused by a full disk go on: the downloads it paused are queued
   * again (not those the user paused), and so are any it could not even mark
   * paused (left "downloading" because the full disk was the cache's own).
   */
  resumeQueue(): number[] {
    this.queuePausedBecause = null
    const stranded = this.started ? this.interruptedIds().map((id) => this.require(id)) : []
    const queued = [...store.pausedForSpace(this.db), ...stranded]
    this.setStates(queued, 'queued')
    this.pump()
    return queued.map((download) => download.id)
  }

  /**
   * The service answers again (the session checks): the downloads that waited for the network go on,
   * from their bytes on disk. Nothing happens when none waits.
   */
  networkBack(): void {
    if (!this.networkGone) return
    this.networkGone = false
    this.fireChange(store.stopWaitingForNetwork(this.db))
    this.pump()
  }

  /** Resolves when nothing is running and nothing queued can start (at once if so now). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve()
    return new Promise((resolve) => {
      const subscription = this.onIdle(() => {
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

  private apply(plan: Plan): Download {
    switch (plan.kind) {
      case 'existing':
        return plan.download
      case 'retry':
        checkChange(plan.download.id, plan.download.state, 'queued')
        store.setState(this.db, plan.download.id, 'queued', { now: this.now() })
        return this.require(plan.download.id)
      case 'requeue':
        checkChange(plan.download.id, plan.download.state, 'queued')
        return store.requeueDownload(this.db, plan.download.id, plan.row, this.now())
      case 'new':
        return store.insertDownload(this.db, plan.row, this.now())
    }
  }

  private async pauseSome(ids: readonly number[], strict: boolean): Promise<DownloadActionResult> {
    const { downloads, skipped } = sortForAction(this.db, 'pause', ids, strict)
    const queued = downloads.filter((download) => !this.active.has(download.id))
    this.setStates(queued, DOWNLOAD_ACTIONS.pause.to)
    await Promise.all(downloads.filter((download) => this.active.has(download.id)).map((download) => this.interrupt(download.id, 'pause')))
    return outcomeOf(this.db, 'pause', downloads, skipped)
  }

  private isIdle(): boolean {
    return this.active.size === 0 && (!this.canStart() || store.nextQueued(this.db, 1).length === 0)
  }

  private checkIdle(): void {
    if (this.isIdle()) this.idle.fire()
  }

  private canStart(): boolean {
    return this.started && this.queuePausedBecause === null && !this.networkGone
  }

  private pump(): void {
    if (!this.canStart() || this.active.size >= this.concurrency) return
    // Only as many rows as there are free slots: a long queue costs nothing per finished download.
    for (const download of store.nextQueued(this.db, this.concurrency - this.active.size)) {
      if (!this.active.has(download.id)) this.run(download)
    }
  }

  private run(download: Download): void {
    const controller = new AbortController()
    const active: Active = { controller, done: Promise.resolve() }
    this.active.set(download.id, active)
    this.setStates([download], 'downloading')
    active.done = this.transferOne(download, active)
      .catch((error: unknown) => this.settleFailure(download, active, toTuneshelfError(error, `downloading ${download.title}`)))
      .catch((error: unknown) => console.error(`Tuneshelf: download ${download.id} could not be settled`, error))
      .finally(() => {
        this.active.delete(download.id)
        this.pump()
        this.checkIdle()
      })
  }

  private async transferOne(download: Download, active: Active): Promise<void> {
    // Progress is heard a few times a second and kept in memory; the cache is written at
    // most once per PERSIST_PROGRESS_MS, and once more when the transfer ends (with its
    // completion, in the same transaction, or before its new state is recorded).
    // The tracker reports from the throttle's timer too, where nothing may be thrown: a failed
    // write of the progress (the cache's disk full, say) stops the transfer, which fails with it.
    let recordFailure: { error: unknown } | undefined
    let bytesDone = download.bytesDone
    let persistedBytes = download.bytesDone
    let unpersistedBytes = 0
    let persistedAt = performance.now()
    const persist = (): void => {
      if (recordFailure || (bytesDone === persistedBytes && unpersistedBytes === 0)) return
      try {
        store.recordProgress(this.db, download.id, bytesDone, unpersistedBytes, this.now())
      } catch (error) {
        recordFailure = { error }
        active.controller.abort()
        return
      }
      persistedBytes = bytesDone
      unpersistedBytes = 0
      persistedAt = performance.now()
    }
    const tracker = progressTracker(download.id, download.bytesTotal, download.bytesDone, this.options.progressIntervalMs ?? 200, (progress, newBytes) => {
      if (recordFailure) return
      bytesDone = progress.bytes
      unpersistedBytes += newBytes
      if (performance.now() - persistedAt >= PERSIST_PROGRESS_MS) persist()
      if (recordFailure) return
      this.progress.fire(progress)
    })
    let completed = false
    try {
      const onDisk = sizeOrNull(partPathOf(download.targetPath)) ?? 0
      await ensureSpace(path.dirname(download.targetPath), Math.max(0, download.bytesTotal - onDisk), this.reserveBytes, this.freeSpace).catch(
        (error: unknown) => {
          // The artist's folder may not exist yet: judge the volume by the nearest folder that does.
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
          return ensureSpace(nearestFolder(download.targetPath), Math.max(0, download.bytesTotal - onDisk), this.reserveBytes, this.freeSpace)
        },
      )
      const url = this.options.relocate ? this.options.relocate(download.url) : download.url
      const result = await transfer({
        ...this.options.transferSettings,
        http: this.options.http,
        limiter: this.options.limiter,
        url,
        // The base URL's password, for its own origin only: stored nowhere, sent to no other host.
        credentials: credentialsFor(url, this.options.baseUrl),
        target: download.targetPath,
        expectedBytes: download.bytesTotal,
        validator: download.validator,
        signal: active.controller.signal,
        onProgress: tracker,
        onValidator: (validator) => store.setValidator(this.db, download.id, validator),
      })
      tracker.flush()
      if (recordFailure) throw recordFailure.error
      // The file is flushed and in place: complete, with the last bytes counted, in one write.
      store.completeDownload(this.db, download.id, result.sha256, result.bytes, this.now(), unpersistedBytes)
      completed = true
      this.fireChange([download.id])
    } catch (error) {
      throw recordFailure ? recordFailure.error : error
    } finally {
      tracker.flush()
      // What a stopped transfer leaves on disk, recorded before its new state.
      if (!completed) persist()
    }
  }

  /** What a stopped transfer becomes: decided by why it was stopped, or by its error. */
  private async settleFailure(download: Download, active: Active, error: Error): Promise<void> {
    switch (active.reason) {
      case 'pause':
        return this.setStates([download], 'paused')
      case 'requeue':
        return this.setStates([download], 'queued')
      case 'stop':
      case 'remove':
        return // stays as it is in the cache: the next start resumes it, or remove() deletes it
      case 'cancel':
        await this.discardPart(download)
        return this.setStates([download], 'cancelled')
      case 'disk-full':
        return this.pauseForSpace(download)
    }
    if (error instanceof DiskFullError) {
      // Nothing is lost: every running download pauses with its bytes, and the queue waits for space.
      // The queue pauses first, as recording the pause fails too when the full disk is the cache's.
      this.queuePausedBecause = `${error.message}; free some space, then resume the queue`
      for (const id of this.active.keys()) if (id !== download.id) void this.interrupt(id, 'disk-full')
      this.queuePaused.fire(this.queuePausedBecause)
      return this.pauseForSpace(download)
    }
    if (isUnreachable(error)) {
      // Not a failure of the download: back in line, saying why (it waits for the network), and the
      // queue holds back, as every download would fail the same way, until networkBack().
      this.networkGone = true
      return this.setStates([download], 'queued', { error: error.message })
    }
    this.setStates([download], 'failed', { error: error.message })
  }

  private pauseForSpace(download: Download): void {
    try {
      this.setStates([download], 'paused', { pauseReason: 'disk_full', error: this.queuePausedBecause })
    } catch {
      // Expected when the full disk is the cache's: the row stays "downloading" (interrupted) until resumeQueue() or the next start.
    }
  }

  private async discardPart(download: Download): Promise<void> {
    await fsp.rm(partPathOf(download.targetPath), { force: true })
    store.recordProgress(this.db, download.id, 0, 0, this.now())
  }

  private async interrupt(id: number, reason: StopReason): Promise<void> {
    const active = this.active.get(id)
    if (!active) return
    active.reason ??= reason
    active.controller.abort()
    await active.done
  }

  /** Moves downloads to a state the table allows, in one transaction and one change event. */
  private setStates(downloads: readonly Download[], state: DownloadState, fields: Omit<store.StateFields, 'now'> = {}): void {
    if (downloads.length === 0) return
    this.db.transaction(() => {
      for (const download of downloads) {
        const current = this.require(download.id)
        checkChange(download.id, current.state, state)
        store.setState(this.db, download.id, state, { ...fields, now: this.now() })
      }
    }).immediate()
    this.fireChange(downloads.map((download) => download.id))
  }

  private fireChange(ids: readonly number[]): void {
    if (ids.length === 0 || !this.changes.hasListeners) return
    this.changes.fire({ downloads: ids.map((id) => this.require(id)), removed: [] })
  }

  private require(id: number): Download {
    const download = store.getDownload(this.db, id)
    if (!download) throw new NotFoundError(`no download ${id}`)
    return download
  }
}

function nearestFolder(file: string): string {
  let folder = path.dirname(file)
  while (sizeOrNull(folder) === null && path.dirname(folder) !== folder) folder = path.dirname(folder)
  return folder
}

/**
 * The download queue: persisted in the cache, at most N transfers at once,
 * pause, resume, cancel, retry and remove, throttled progress with speed and
 * time left, a free-space check before starting, the queue paused (not lost)
 * when the disk fills, and running downloads resumed after a restart.
 */
import { EventEmitter } from 'node:events'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import type { Database } from 'better-sqlite3'
import { getArtist, getTrack } from '../db/queries'
import { ensureSpace, freeSpaceOf, type FreeSpace } from './disk-space'
import { DiskFullError, PermanentDownloadError } from './errors'
import { defaultRelativePath, freePath, partPathOf, resolveInside } from './file-names'
import * as store from './store'
import { transfer, type TransferOptions } from './transfer'
import type { Download, DownloadState } from './store'

export type { Download, DownloadState } from './store'

export interface DownloadProgress {
  id: number
  bytes: number
  total: number
  percent: number
  /** Bytes per second, a moving average. */
  speed: number
  /** Seconds left at that speed; null until there is a speed. */
  etaSeconds: number | null
}

export interface DownloadManagerOptions {
  db: Database
  /** The service's base URL, for hotlink paths that are not absolute. */
  baseUrl: string
  /** Every file lands inside this folder. */
  downloadDir: string
  /** Transfers at once, 1 to 8 (default 3). */
  concurrency?: number
  /** Space kept free on the volume (default 256 MiB). */
  reserveBytes?: number
  /** Free space of a folder; tests may replace it. */
  freeSpace?: FreeSpace
  /** Least time between two progress events of one download (default 200 ms: five a second). */
  progressIntervalMs?: number
  /** Retry and timeout settings passed to every transfer. */
  transferSettings?: Pick<TransferOptions, 'retries' | 'backoffMs' | 'maxDelayMs' | 'idleTimeoutMs' | 'connectTimeoutMs' | 'userAgent'>
  now?: () => number
}

interface Events {
  progress: [DownloadProgress]
  change: [Download]
  'queue-paused': [string]
}

type StopReason = 'pause' | 'cancel' | 'remove' | 'requeue' | 'stop' | 'disk-full'

interface Active {
  controller: AbortController
  reason?: StopReason
  done: Promise<void>
}

const MIB = 1024 * 1024
const ACTIVE_STATES: DownloadState[] = ['queued', 'downloading', 'paused']

export class DownloadManager extends EventEmitter<Events> {
  private readonly db: Database
  private readonly active = new Map<number, Active>()
  private concurrency: number
  private queuePausedBecause: string | undefined
  private stopped = true
  private readonly now: () => number
  private readonly freeSpace: FreeSpace
  private readonly reserveBytes: number

  constructor(private readonly options: DownloadManagerOptions) {
    super()
    this.db = options.db
    this.concurrency = checkConcurrency(options.concurrency ?? 3)
    this.now = options.now ?? Date.now
    this.freeSpace = options.freeSpace ?? freeSpaceOf
    this.reserveBytes = options.reserveBytes ?? 256 * MIB
    fs.mkdirSync(options.downloadDir, { recursive: true })
  }

  /**
   * Starts the queue: downloads that were running when the app last stopped
   * resume from their partial files. Returns partial files in the folder that
   * no download knows of (reported, never deleted).
   */
  async start(): Promise<{ orphanParts: string[] }> {
    this.stopped = false
    for (const download of store.listDownloads(this.db, 'downloading')) store.setState(this.db, download.id, 'queued', { now: this.now() })
    const known = store.unfinishedTargets(this.db)
    const orphanParts = (await partFiles(this.options.downloadDir)).filter((part) => !known.has(part.slice(0, -'.part'.length)))
    this.pump()
    return { orphanParts }
  }

  /** Stops every transfer and keeps it as it is, to resume on the next start. */
  async stop(): Promise<void> {
    this.stopped = true
    await Promise.all([...this.active.keys()].map((id) => this.interrupt(id, 'stop')))
  }

  /** Queues uploads by id (each once); an upload already queued, or completed with its file still there, is not queued again. */
  async enqueueUploads(uploadIds: string[]): Promise<Download[]> {
    // Targets taken by downloads not yet finished, and by the ones planned here.
    const taken = store.unfinishedTargets(this.db)
    const plans = [...new Set(uploadIds)].map((uploadId) => this.plan(uploadId, taken))
    const needed = plans.reduce((sum, plan) => sum + (plan.existing ? 0 : plan.bytes), 0)
    await ensureSpace(this.options.downloadDir, needed, this.reserveBytes, this.freeSpace)
    const result = plans.map((plan) => plan.existing ?? store.insertDownload(this.db, plan.row!, this.now()))
    for (const download of result) this.emit('change', download)
    this.pump()
    return result
  }

  /** Queues every track of an artist (case-insensitive username), after checking the space they need. */
  async enqueueArtist(username: string): Promise<Download[]> {
    const artist = getArtist(this.db, username)
    if (!artist) throw new PermanentDownloadError(`no artist named ${JSON.stringify(username)} in the cache`)
    return this.enqueueUploads(artist.tracks.map((track) => track.uploadId))
  }

  pause(id: number): void {
    const download = this.require(id)
    if (this.active.has(id)) void this.interrupt(id, 'pause')
    else if (download.state === 'queued') this.update(id, 'paused')
  }

  resume(id: number): void {
    const download = this.require(id)
    if (download.state === 'paused' || download.state === 'failed') this.update(id, 'queued')
    this.pump()
  }

  /** Stops a download and deletes its partial file; a completed file stays. */
  async cancel(id: number): Promise<void> {
    const download = this.require(id)
    if (this.active.has(id)) return this.interrupt(id, 'cancel')
    if (download.state === 'completed' || download.state === 'canceled') return
    await fsp.rm(partPathOf(download.targetPath), { force: true })
    store.recordProgress(this.db, id, 0, 0, this.now())
    this.update(id, 'canceled')
  }

  /** Queues a failed or canceled download again (a canceled one starts from zero). */
  retry(id: number): void {
    const download = this.require(id)
    if (download.state === 'failed' || download.state === 'canceled') this.update(id, 'queued')
    this.pump()
  }

  /** Takes a download off the list; its file (or partial file) stays on disk. */
  async remove(id: number): Promise<void> {
    this.require(id)
    if (this.active.has(id)) await this.interrupt(id, 'remove')
    store.deleteDownload(this.db, id)
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

  /** Transfers at once, 1 to 8; applies at once (extra running transfers go back to the queue, keeping their bytes). */
  setConcurrency(concurrency: number): void {
    this.concurrency = checkConcurrency(concurrency)
    const excess = [...this.active.keys()].slice(this.concurrency)
    for (const id of excess) void this.interrupt(id, 'requeue')
    this.pump()
  }

  get runningCount(): number {
    return this.active.size
  }

  /** Why the queue is paused (a full disk), if it is. */
  get pausedBecause(): string | undefined {
    return this.queuePausedBecause
  }

  /** Lets a queue paused by a full disk go on. */
  resumeQueue(): void {
    this.queuePausedBecause = undefined
    for (const download of store.listDownloads(this.db, 'paused')) {
      if (download.error?.startsWith('paused: ')) this.update(download.id, 'queued')
    }
    this.pump()
  }

  /** Resolves when nothing is running and nothing queued can start. */
  async whenIdle(): Promise<void> {
    while (this.active.size > 0 || (this.canStart() && store.nextQueued(this.db, 1).length > 0)) {
      await Promise.race([...this.active.values()].map((active) => active.done).concat(new Promise<void>((resolve) => setTimeout(resolve, 50))))
    }
  }

  private plan(uploadId: string, taken: Set<string>): { existing?: Download; row?: Parameters<typeof store.insertDownload>[1]; bytes: number } {
    const track = getTrack(this.db, uploadId)
    if (!track) throw new PermanentDownloadError(`no upload ${uploadId} in the cache; sync first`)
    if (track.bytes === null || track.hotlinkPath === null) throw new PermanentDownloadError(`the catalogue gives no size or address for upload ${uploadId}`)
    for (const download of store.downloadsOfUpload(this.db, uploadId)) {
      if (ACTIVE_STATES.includes(download.state)) return { existing: download, bytes: 0 }
      if (download.state === 'completed' && sizeOrNull(download.targetPath) === download.bytesTotal) return { existing: download, bytes: 0 }
    }
    const url = new URL(track.hotlinkPath, `${this.options.baseUrl}/`).toString()
    const relative = defaultRelativePath(track.artistName, track.title, uploadId, track.ext)
    const target = freePath(resolveInside(this.options.downloadDir, relative), (candidate) =>
      !taken.has(candidate) && !fs.existsSync(candidate) && !fs.existsSync(partPathOf(candidate)),
    )
    taken.add(target)
    return {
      row: { uploadId, artistUsername: track.artistUsername ?? '', title: track.title, url, targetPath: target, bytesTotal: track.bytes },
      bytes: track.bytes,
    }
  }

  private canStart(): boolean {
    return !this.stopped && this.queuePausedBecause === undefined
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
    this.update(download.id, 'downloading')
    active.done = this.transferOne(download, active).finally(() => {
      this.active.delete(download.id)
      this.pump()
    })
  }

  private async transferOne(download: Download, active: Active): Promise<void> {
    const progress = this.progressTracker(download)
    try {
      const onDisk = sizeOrNull(partPathOf(download.targetPath)) ?? 0
      await ensureSpace(this.options.downloadDir, Math.max(0, download.bytesTotal - onDisk), this.reserveBytes, this.freeSpace)
      const result = await transfer({
        ...this.options.transferSettings,
        url: download.url,
        target: download.targetPath,
        expectedBytes: download.bytesTotal,
        validator: download.validator,
        signal: active.controller.signal,
        onProgress: progress.update,
        onValidator: (validator) => store.setValidator(this.db, download.id, validator),
      })
      progress.flush()
      store.completeDownload(this.db, download.id, result.sha256, result.bytes, this.now())
      this.emit('change', this.require(download.id))
    } catch (error) {
      progress.flush()
      this.settleFailure(download, active, error)
      if (active.reason === 'cancel') {
        await fsp.rm(partPathOf(download.targetPath), { force: true })
        store.recordProgress(this.db, download.id, 0, 0, this.now())
        this.update(download.id, 'canceled')
      }
    }
  }

  private settleFailure(download: Download, active: Active, error: unknown): void {
    switch (active.reason) {
      case 'pause':
        return this.update(download.id, 'paused')
      case 'requeue':
        return this.update(download.id, 'queued')
      case 'stop':
      case 'remove':
      case 'cancel':
        return // stays as it is in the cache (stop, remove), or is settled by the caller (cancel)
      case 'disk-full':
        return this.update(download.id, 'paused', `paused: ${this.queuePausedBecause}`)
    }
    if (error instanceof DiskFullError) {
      // Nothing is lost: every running download pauses with its bytes, and the queue waits for space.
      this.queuePausedBecause = `${error.message}; free some space, then resume the queue`
      this.update(download.id, 'paused', `paused: ${this.queuePausedBecause}`)
      for (const id of this.active.keys()) if (id !== download.id) void this.interrupt(id, 'disk-full')
      this.emit('queue-paused', this.queuePausedBecause)
      return
    }
    this.update(download.id, 'failed', (error as Error).message)
  }

  private async interrupt(id: number, reason: StopReason): Promise<void> {
    const active = this.active.get(id)
    if (!active) return
    active.reason ??= reason
    active.controller.abort(new Error(`download ${reason}`))
    await active.done
  }

  private update(id: number, state: DownloadState, error?: string): void {
    store.setState(this.db, id, state, { error: error ?? null, now: this.now() })
    this.emit('change', this.require(id))
  }

  private require(id: number): Download {
    const download = store.getDownload(this.db, id)
    if (!download) throw new PermanentDownloadError(`no download ${id}`)
    return download
  }

  /** Progress of one transfer: events and cache writes at most every progressIntervalMs. */
  private progressTracker(download: Download): { update: (bytes: number) => void; flush: () => void } {
    const interval = this.options.progressIntervalMs ?? 200
    let persisted = download.bytesDone
    let lastAt = performance.now()
    let lastBytes = download.bytesDone
    let bytes = download.bytesDone
    let speed = 0
    const flush = (): void => {
      store.recordProgress(this.db, download.id, bytes, Math.max(0, bytes - persisted), this.now())
      persisted = bytes
    }
    return {
      update: (done) => {
        bytes = done
        const now = performance.now()
        if (now - lastAt < interval) return
        const sample = ((bytes - lastBytes) * 1000) / (now - lastAt)
        // A moving average: steady enough to read, quick enough to follow a change.
        speed = speed === 0 ? sample : speed * 0.7 + sample * 0.3
        lastAt = now
        lastBytes = bytes
        flush()
        this.emit('progress', {
          id: download.id,
          bytes,
          total: download.bytesTotal,
          percent: download.bytesTotal === 0 ? 100 : (bytes / download.bytesTotal) * 100,
          speed,
          etaSeconds: speed > 0 ? (download.bytesTotal - bytes) / speed : null,
        })
      },
      flush,
    }
  }
}

function checkConcurrency(concurrency: number): number {
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 8) throw new RangeError('concurrency must be an integer from 1 to 8')
  return concurrency
}

function sizeOrNull(file: string): number | null {
  try {
    return fs.statSync(file).size
  } catch {
    return null
  }
}

async function partFiles(folder: string): Promise<string[]> {
  const entries = await fsp.readdir(folder, { recursive: true, withFileTypes: true })
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.part')).map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
}

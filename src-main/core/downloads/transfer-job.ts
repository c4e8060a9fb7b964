/**
 * One download's transfer from start to end: the space it still needs, checked first; its address
 * (where the service is now, with the base URL's password for that origin only); the transfer; its
 * progress, reported and kept in the cache; and its completion recorded once the file is in place.
 */
import path from 'node:path'
import type { Database } from 'better-sqlite3'
import type { Http } from '../api/http'
import { nearestExisting } from '../files/contained-path'
import * as store from '../db/downloads'
import type { Download } from '../db/downloads'
import { credentialsFor } from '../shared/urls'
import { ensureSpace, type FreeSpace } from '../files/disk-space'
import { checkPlannedTarget, partPathOf } from './file-names'
import { sizeOrNull } from './plan'
import { progressTracker, type TransferProgress } from './progress'
import { ProgressRecorder } from './progress-recorder'
import type { SpeedLimiter } from './speed-limit'
import { transfer, type TransferOptions } from './transfer'

/** What every transfer of a queue shares, as the queue's options give it. */
export interface SharedTransferOptions {
  /** The service's base URL, for hotlink paths that are not absolute. */
  baseUrl: string
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
}

export interface TransferJob extends SharedTransferOptions {
  db: Database
  /** Space kept free on the volume. */
  reserveBytes: number
  freeSpace: FreeSpace
  now: () => number
  /** A running download's progress, a few times a second, with the bytes new since its last report. */
  onProgress: (progress: TransferProgress, newBytes: number) => void
  /** The download is complete in the cache. */
  onCompleted: (id: number) => void
}

/**
 * Transfers download to its target until complete; rejects when it fails or controller aborts (the
 * queue decides what it becomes). Aborts controller itself when its progress cannot be written.
 */
export async function transferDownload(download: Download, controller: AbortController, job: TransferJob): Promise<void> {
  const recorder = new ProgressRecorder(job.db, download, job.now, () => controller.abort())
  const tracker = progressTracker(download.id, download.bytesTotal, download.bytesDone, job.progressIntervalMs ?? 200, (progress, newBytes) => {
    if (recorder.heard(progress.bytes, newBytes)) job.onProgress(progress, newBytes)
  })
  let completed = false
  try {
    // Where the file goes is what the cache says, and the cache may have been written by others since
    // the download was planned: the target must still be in its folder, and the writer checks the disk.
    const folder = store.downloadFolder(job.db, download.id) ?? ''
    checkPlannedTarget(folder, download.targetPath)
    const needed = Math.max(0, download.bytesTotal - (sizeOrNull(partPathOf(download.targetPath)) ?? 0))
    await ensureSpace(path.dirname(download.targetPath), needed, job.reserveBytes, job.freeSpace).catch((error: unknown) => {
      // The artist's folder may not exist yet: judge the volume by the nearest folder that does.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      return ensureSpace(nearestExisting(path.dirname(download.targetPath)), needed, job.reserveBytes, job.freeSpace)
    })
    const url = job.relocate ? job.relocate(download.url) : download.url
    const result = await transfer({
      ...job.transferSettings,
      http: job.http,
      limiter: job.limiter,
      url,
      // The base URL's password, for its own origin only: stored nowhere, sent to no other host.
      credentials: credentialsFor(url, job.baseUrl),
      target: download.targetPath,
      folder,
      expectedBytes: download.bytesTotal,
      validator: download.validator,
      signal: controller.signal,
      onProgress: tracker,
      onValidator: (validator) => store.setValidator(job.db, download.id, validator),
    })
    tracker.flush()
    if (recorder.failure) throw recorder.failure.error
    // The file is flushed and in place: complete, with the last bytes counted, in one write.
    store.completeDownload(job.db, download.id, result.sha256, result.bytes, job.now(), recorder.unpersistedBytes)
    completed = true
    job.onCompleted(download.id)
  } catch (error) {
    throw recorder.failure ? recorder.failure.error : error
  } finally {
    tracker.flush()
    tracker.dispose()
    // What a stopped transfer leaves on disk, recorded before its new state.
    if (!completed) recorder.persist()
  }
}

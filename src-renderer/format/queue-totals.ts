/**
 * The queue at a glance, for the top of the downloads screen: how many run and
 * wait, their speed together, and the time left for everything running or queued
 * at that speed (the bytes still to come of each, from its live progress).
 */
import type { DownloadProgress, DownloadView } from '@shared/types'

export interface QueueTotals {
  running: number
  queued: number
  /** Bytes per second of all running downloads together (0 when none reports one). */
  speed: number
  /** Bytes still to download, running and queued. */
  bytesLeft: number
  /** At the speed now; null while nothing moves. */
  secondsLeft: number | null
}

export function queueTotals(downloads: readonly DownloadView[], progress: ReadonlyMap<number, DownloadProgress>): QueueTotals {
  let running = 0
  let queued = 0
  let speed = 0
  let bytesLeft = 0
  for (const download of downloads) {
    // An interrupted download says "downloading" but nothing transfers it: it neither runs nor waits in line.
    const runs = download.state === 'downloading' && !download.interrupted
    if (!runs && download.state !== 'queued') continue
    if (runs) running++
    else queued++
    const live = progress.get(download.id)
    if (runs) speed += live?.speed ?? 0
    const total = live?.total || download.bytesTotal
    bytesLeft += Math.max(0, total - (live?.bytes ?? download.bytesDone))
  }
  return { running, queued, speed, bytesLeft, secondsLeft: speed > 0 ? bytesLeft / speed : null }
}

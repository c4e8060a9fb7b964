/**
 * The queue at a glance, for the top of the downloads screen: how many run and
 * wait, their speed together, and the time left for everything running or queued
 * at that speed (the bytes still to come of each), from the core's figures and
 * the running transfers' live progress.
 */
import type { DownloadSummary } from '@shared/types'
import type { LiveFigures } from '../stores/download-batch'

export interface QueueTotals {
  running: number
  queued: number
  /** Paused by the user or by the queue (a full disk): waiting for Resume, not in line. */
  paused: number
  /** Bytes per second of all running downloads together (0 when none reports one). */
  speed: number
  /** Bytes still to download, running and queued. */
  bytesLeft: number
  /** At the speed now; null while nothing moves. */
  secondsLeft: number | null
}

export function queueTotals(summary: DownloadSummary | null, live: LiveFigures): QueueTotals {
  if (!summary) return { running: 0, queued: 0, paused: 0, speed: 0, bytesLeft: 0, secondsLeft: null }
  // An interrupted download says "downloading" but nothing transfers it: it neither runs nor waits in line.
  const { downloading, queued } = summary.groups
  const bytesLeft = Math.max(0, downloading.bytes - downloading.bytesDone + queued.bytes - queued.bytesDone - live.ahead)
  return { running: downloading.files, queued: queued.files, paused: summary.groups.paused.files, speed: live.speed, bytesLeft, secondsLeft: live.speed > 0 ? bytesLeft / live.speed : null }
}

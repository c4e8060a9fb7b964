/**
 * The batch the overall progress measures: every download queued since the
 * queue last had nothing to do, completed ones included, so the bar climbs
 * from 0 to 100 % across the whole batch (Motrix's headline) instead of
 * counting only what is left and dropping back each time a large file completes.
 * Failed and cancelled downloads leave it (their bytes are not coming); a retried
 * one joins again. The core keeps the batch (migration 0010) and says it in its
 * summary; the window adds what the running transfers brought since they last saved.
 */
import type { DownloadSummary } from '@shared/types'

/** What the running transfers add to the figures last read: their speed together, and their bytes not yet saved. */
export interface LiveFigures {
  speed: number
  ahead: number
}

export interface BatchFigures {
  /** Files in the batch, and how many of them completed. */
  files: number
  filesDone: number
  /** Bytes of the whole batch, and how many are on disk (completed files whole, running ones live). */
  bytesTotal: number
  bytesDone: number
  /** Files still to finish. */
  pending: number
  /** Bytes per second of every running download together. */
  speed: number
  /** Seconds until what is queued or running is done at that speed; null while nothing moves. */
  secondsLeft: number | null
}

const NOTHING: BatchFigures = { files: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0, pending: 0, speed: 0, secondsLeft: null }

/** The headline figures of the batch, from the core's summary and the live progress of running downloads. */
export function batchFigures(summary: DownloadSummary | null, live: LiveFigures): BatchFigures {
  if (!summary) return NOTHING
  const { batch, groups } = summary
  const bytesDone = Math.min(batch.bytes, batch.bytesDone + live.ahead)
  // What the speed will carry: running, queued and interrupted files (paused ones wait for the user).
  const moving = ['downloading', 'queued', 'interrupted'] as const
  const left = Math.max(0, moving.reduce((sum, group) => sum + groups[group].bytes - groups[group].bytesDone, 0) - live.ahead)
  return {
    files: batch.files,
    filesDone: batch.filesDone,
    bytesTotal: batch.bytes,
    bytesDone,
    pending: batch.pending,
    speed: live.speed,
    secondsLeft: live.speed > 0 ? left / live.speed : null,
  }
}

/**
 * The batch the overall progress measures: every download queued since the
 * queue last had nothing to do, completed ones included, so the bar climbs
 * from 0 to 100 % across the whole batch (Motrix's headline) instead of
 * counting only what is left and dropping back each time a large file completes.
 * Failed and cancelled downloads leave it (their bytes are not coming); a retried
 * one joins again. Plain functions over the store's rows, unit tested apart.
 */
import type { DownloadProgress, DownloadView } from '@shared/types'

/** Still to finish: what keeps a batch going. */
export function isPending(download: Pick<DownloadView, 'state'>): boolean {
  return download.state === 'queued' || download.state === 'downloading' || download.state === 'paused'
}

/**
 * The batch as the rows read at start tell it: what is pending, and what completed since
 * the earliest of those was queued (a window opened, or reloaded, in the middle of a batch).
 */
export function startingBatch(rows: Iterable<DownloadView>): Set<number> {
  const all = [...rows]
  let since = Number.POSITIVE_INFINITY
  for (const row of all) if (isPending(row)) since = Math.min(since, row.createdAt)
  const batch = new Set<number>()
  if (since === Number.POSITIVE_INFINITY) return batch
  for (const row of all) if (isPending(row) || (row.state === 'completed' && (row.finishedAt ?? 0) >= since)) batch.add(row.id)
  return batch
}

/**
 * The batch after rows changed: a pending row joins it (a new batch when nothing was
 * pending before: `wasIdle`), a failed or cancelled one leaves it, a removed one too.
 */
export function nextBatch(
  batch: ReadonlySet<number>,
  wasIdle: boolean,
  changed: readonly Pick<DownloadView, 'id' | 'state'>[],
  removed: readonly number[] = [],
): Set<number> {
  const starts = wasIdle && changed.some(isPending)
  const next = new Set(starts ? [] : batch)
  for (const row of changed) {
    if (isPending(row)) next.add(row.id)
    else if (row.state !== 'completed') next.delete(row.id)
  }
  for (const id of removed) next.delete(id)
  return next
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

/** The headline figures of a batch, from the rows and the live progress of running downloads. */
export function batchFigures(
  batch: ReadonlySet<number>,
  byId: ReadonlyMap<number, DownloadView>,
  progress: ReadonlyMap<number, DownloadProgress>,
): BatchFigures {
  const figures: BatchFigures = { files: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0, pending: 0, speed: 0, secondsLeft: null }
  let moving = 0
  for (const id of batch) {
    const row = byId.get(id)
    if (!row) continue
    const live = progress.get(id)
    const total = Math.max(row.bytesTotal, row.bytesDone)
    const done = row.state === 'completed' ? total : Math.min(total, live?.bytes ?? row.bytesDone)
    figures.files++
    figures.bytesTotal += total
    figures.bytesDone += done
    if (row.state === 'completed') figures.filesDone++
    if (isPending(row)) figures.pending++
    if (row.state === 'downloading' && live) figures.speed += live.speed
    // What the speed will carry: running and queued files (paused ones wait for the user).
    if (row.state === 'downloading' || row.state === 'queued') moving += total - done
  }
  figures.secondsLeft = figures.speed > 0 ? moving / figures.speed : null
  return figures
}

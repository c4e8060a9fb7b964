/**
 * The life of a download in one table: which state may follow which. What
 * each user action needs is the shared table of shared/download-actions.ts,
 * which the window reads too. A change the tables do not allow is an error,
 * never a silent no-op.
 */
import { InvalidArgumentError } from '../shared/errors'
import type { DownloadState } from '../shared/catalogue'
import { allowsAction, refusalOf, type QueueAction } from '../shared/download-actions'

/** Every change of state the queue makes, from each state. */
const TRANSITIONS: Readonly<Record<DownloadState, readonly DownloadState[]>> = {
  queued: ['downloading', 'paused', 'cancelled'],
  // queued: back in line (fewer transfers allowed, or the app stopped); paused: by the user or a full disk.
  downloading: ['completed', 'failed', 'paused', 'queued', 'cancelled'],
  paused: ['queued', 'cancelled'],
  failed: ['queued', 'cancelled'],
  // From zero: the partial file was deleted.
  cancelled: ['queued'],
  // Only when the file is gone and the upload is asked for again.
  completed: ['queued'],
}

export function canChange(from: DownloadState, to: DownloadState): boolean {
  return TRANSITIONS[from].includes(to)
}

/** Throws an InvalidArgumentError unless action applies to a download in state `from` (the table is shared/download-actions.ts). */
export function checkAction(action: QueueAction, id: number, from: DownloadState): void {
  if (!allowsAction(action, from)) throw new InvalidArgumentError(refusalOf(action, id, from), { field: 'ids' })
}

/** Throws unless the queue may move a download from one state to another (a bug otherwise). */
export function checkChange(id: number, from: DownloadState, to: DownloadState): void {
  if (!canChange(from, to)) throw new InvalidArgumentError(`download ${id} cannot go from ${from} to ${to}`, { field: 'ids' })
}

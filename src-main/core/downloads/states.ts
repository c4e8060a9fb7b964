/**
 * The life of a download in one table: which state may follow which, and what
 * each user action needs. A change the table does not allow is an error, never
 * a silent no-op.
 */
import { InvalidArgumentError } from '../shared/errors'
import type { DownloadState } from '../shared/catalogue'

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

/** The user's actions on a download, and the states each one applies to. */
export const ACTIONS = {
  pause: { from: ['queued', 'downloading'], to: 'paused', done: 'paused' },
  resume: { from: ['paused'], to: 'queued', done: 'resumed' },
  cancel: { from: ['queued', 'downloading', 'paused', 'failed'], to: 'cancelled', done: 'cancelled' },
  retry: { from: ['failed', 'cancelled'], to: 'queued', done: 'retried' },
} as const satisfies Record<string, { from: readonly DownloadState[]; to: DownloadState; done: string }>

export type DownloadAction = keyof typeof ACTIONS

/** Throws an InvalidArgumentError unless action applies to a download in state `from`. */
export function checkAction(action: DownloadAction, id: number, from: DownloadState): void {
  const rule = ACTIONS[action]
  if ((rule.from as readonly DownloadState[]).includes(from)) return
  const allowed = rule.from.join(' or ')
  throw new InvalidArgumentError(`download ${id} is ${from}: only a ${allowed} download can be ${rule.done}`, { field: 'ids' })
}

/** Throws unless the queue may move a download from one state to another (a bug otherwise). */
export function checkChange(id: number, from: DownloadState, to: DownloadState): void {
  if (!canChange(from, to)) throw new InvalidArgumentError(`download ${id} cannot go from ${from} to ${to}`, { field: 'ids' })
}

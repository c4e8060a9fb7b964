/**
 * The user's actions on a download and the states each one applies to: the
 * one table the core enforces (downloads/states.ts, downloads/manager.ts) and
 * the window offers buttons from (format/download-actions.ts),
 * so a button is shown exactly where the core will accept it. Free of Node.
 */
import { DOWNLOAD_STATES, type DownloadState } from './catalogue'

interface ActionRule {
  /** The states a download may be in for the action to apply. */
  readonly from: readonly DownloadState[]
  /** The state it leaves the download in; null: the download leaves the list. */
  readonly to: DownloadState | null
  /** The action's past participle, for messages ("can be paused"). */
  readonly done: string
}

export const DOWNLOAD_ACTIONS = {
  pause: { from: ['queued', 'downloading'], to: 'paused', done: 'paused' },
  resume: { from: ['paused'], to: 'queued', done: 'resumed' },
  cancel: { from: ['queued', 'downloading', 'paused', 'failed'], to: 'cancelled', done: 'cancelled' },
  retry: { from: ['failed', 'cancelled'], to: 'queued', done: 'retried' },
  // Only a completed download whose file is no longer on disk (the core checks the file).
  redownload: { from: ['completed'], to: 'queued', done: 'downloaded again' },
  // Every download: its file, or its partial file, stays on disk.
  remove: { from: DOWNLOAD_STATES, to: null, done: 'removed' },
} as const satisfies Record<string, ActionRule>

/** An action of the queue on a list of downloads. */
export type QueueAction = keyof typeof DOWNLOAD_ACTIONS

export const QUEUE_ACTIONS = Object.keys(DOWNLOAD_ACTIONS) as QueueAction[]

/** Whether action applies to a download in state `from` (by its state only; redownload also needs its file gone). */
export function allowsAction(action: QueueAction, from: DownloadState): boolean {
  return (DOWNLOAD_ACTIONS[action].from as readonly DownloadState[]).includes(from)
}

/** Why action does not apply to download `id` in state `from`: "download 909 is completed: only a … download can be cancelled". */
export function refusalOf(action: QueueAction, id: number, from: DownloadState): string {
  const rule = DOWNLOAD_ACTIONS[action]
  return `download ${id} is ${from}: only a ${rule.from.join(' or ')} download can be ${rule.done}`
}

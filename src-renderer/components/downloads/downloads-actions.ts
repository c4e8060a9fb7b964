/**
 * The downloads screen's vocabulary: the groups the queue is shown in, and the
 * actions each download's state allows (the same table the core enforces, in
 * downloads/states.ts), so a row and a selection offer only what will be accepted.
 */
import type { DownloadView } from '@shared/types'

/** The groups of the screen, in their order: a download's state, with "interrupted" apart from "downloading". */
export const GROUPS = [
  { key: 'downloading', title: 'Downloading' },
  { key: 'queued', title: 'Queued' },
  { key: 'paused', title: 'Paused' },
  { key: 'interrupted', title: 'Interrupted' },
  { key: 'failed', title: 'Failed' },
  { key: 'completed', title: 'Completed' },
  { key: 'cancelled', title: 'Cancelled' },
] as const

export type GroupKey = (typeof GROUPS)[number]['key']

/** The group a download is shown in. */
export function groupOf(download: DownloadView): GroupKey {
  if (download.state === 'downloading' && download.interrupted) return 'interrupted'
  return download.state
}

/** What the user can do to a download: the queue's actions, and opening a finished file. */
export type DownloadAction = 'pause' | 'resume' | 'cancel' | 'retry' | 'remove' | 'open' | 'reveal'

/** The actions in the order buttons show them, with their labels. */
export const ACTIONS: readonly { action: DownloadAction; label: string; danger?: boolean }[] = [
  { action: 'pause', label: 'Pause' },
  { action: 'resume', label: 'Resume' },
  { action: 'retry', label: 'Retry' },
  { action: 'open', label: 'Open' },
  { action: 'reveal', label: 'Show in folder' },
  { action: 'cancel', label: 'Cancel', danger: true },
  { action: 'remove', label: 'Remove' },
]

/** Which groups each action applies to (remove applies to every download: its file stays on disk). */
const ALLOWED: Record<DownloadAction, readonly GroupKey[]> = {
  pause: ['downloading', 'queued', 'interrupted'],
  resume: ['paused'],
  cancel: ['downloading', 'queued', 'paused', 'interrupted', 'failed'],
  retry: ['failed', 'cancelled'],
  remove: ['downloading', 'queued', 'paused', 'interrupted', 'failed', 'completed', 'cancelled'],
  open: ['completed'],
  reveal: ['completed'],
}

/** Whether a download's state allows an action. */
export function allows(download: DownloadView, action: DownloadAction): boolean {
  return ALLOWED[action].includes(groupOf(download))
}

/** The actions a download allows, in button order. */
export function actionsOf(download: DownloadView): typeof ACTIONS {
  return ACTIONS.filter(({ action }) => allows(download, action))
}

/** What failed, for an error message: `Could not pause "Song"`, `Could not show 3 downloads in their folder`. */
export function doingOf(action: DownloadAction, what: string, many = false): string {
  switch (action) {
    case 'reveal':
      return `Could not show ${what} in ${many ? 'their' : 'its'} folder`
    default:
      return `Could not ${action} ${what}`
  }
}

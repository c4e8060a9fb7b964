/**
 * The downloads screen's vocabulary: the groups the queue is shown in, and the
 * buttons each download offers. Which queue action a state allows is the core's
 * own table (@shared/download-actions), so a row and a selection offer only what
 * the core accepts; opening a file is the window's, on a completed file still there.
 */
import { allowsAction, type QueueAction } from '@shared/download-actions'
import { groupOfDownload, type DownloadGroup } from '@shared/download-groups'
import type { DownloadView } from '@shared/types'

/** The groups of the screen, in their order (shared/download-groups.ts), with their headings. */
export const GROUPS = [
  { key: 'downloading', title: 'Downloading' },
  { key: 'queued', title: 'Queued' },
  { key: 'paused', title: 'Paused' },
  { key: 'interrupted', title: 'Interrupted' },
  { key: 'failed', title: 'Failed' },
  { key: 'completed', title: 'Completed' },
  { key: 'cancelled', title: 'Cancelled' },
] as const satisfies readonly { key: DownloadGroup; title: string }[]

export type GroupKey = DownloadGroup

/** The group a download is shown in: its state, with "interrupted" apart from "downloading". */
export function groupOf(download: DownloadView): GroupKey {
  return groupOfDownload(download)
}

/** What the user can do to a download: the queue's actions, and opening a finished file. */
export type DownloadAction = QueueAction | 'open' | 'reveal'

export interface ActionButton {
  action: DownloadAction
  label: string
  /** What the button does, where its label does not say it all (its tooltip and description). */
  hint?: string
  danger?: boolean
}

/** The actions in the order buttons show them. */
export const ACTIONS: readonly ActionButton[] = [
  { action: 'pause', label: 'Pause', hint: 'Stop for now, keeping what is downloaded; Resume goes on from there' },
  { action: 'resume', label: 'Resume' },
  { action: 'retry', label: 'Retry' },
  { action: 'redownload', label: 'Download again', hint: 'The file is no longer on disk: download it again, to the same place' },
  { action: 'open', label: 'Open', hint: 'Open the file with the application your system plays it with' },
  { action: 'reveal', label: 'Show in folder' },
  { action: 'cancel', label: 'Cancel', danger: true, hint: 'Stop the download and delete the part downloaded so far' },
  { action: 'remove', label: 'Remove', hint: 'Take it off this list; a downloaded file stays on disk' },
]

/** Whether a download allows an action now (the core checks again, and skips it if it moved on meanwhile). */
export function allows(download: DownloadView, action: DownloadAction): boolean {
  switch (action) {
    case 'open':
    case 'reveal':
      return download.state === 'completed' && !download.fileMissing
    case 'redownload':
      return download.state === 'completed' && download.fileMissing
    default:
      return allowsAction(action, download.state)
  }
}

/** The actions a download allows, in button order. */
export function actionsOf(download: DownloadView): readonly ActionButton[] {
  return ACTIONS.filter(({ action }) => allows(download, action))
}

/** Why an action cannot run in this window at all (open and reveal in a browser), or null. */
export function unavailableHere(action: DownloadAction, desktop: boolean): string | null {
  if (desktop || (action !== 'open' && action !== 'reveal')) return null
  return 'Needs the desktop app: a browser cannot open files or folders on this computer'
}

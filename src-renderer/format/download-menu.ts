/**
 * What a download row's context menu offers: the row's own buttons (or, on a row of
 * a selection, the selection bar's, each acting on every selected download that
 * allows it), then its moves in the queue. Built from the same tables as the buttons
 * (download-actions.ts), so the menu and the buttons never disagree.
 */
import type { DownloadView } from '@shared/types'
import { ACTIONS, allows, unavailableHere, type DownloadAction } from './download-actions'

/** What choosing an entry does. */
export type DownloadCommand = { action: DownloadAction } | { move: 'top' | 'bottom' }

export interface DownloadMenuEntry {
  key: string
  label: string
  /** Why it cannot be used here (Open in a browser), or null. */
  disabled: string | null
  danger: boolean
  separator: boolean
  command: DownloadCommand
}

/** Whether a download can be moved in the queue from the screen (the queued group is the one that is ordered). */
export function movable(download: DownloadView): boolean {
  return download.state === 'queued'
}

export const MOVES = [
  { to: 'top', label: 'Move to top', hint: 'Start it next' },
  { to: 'bottom', label: 'Move to bottom', hint: 'Start it after every other queued download' },
] as const

/** The entries for these downloads (one row, or a selection), in button order, then the moves. */
export function downloadMenuEntries(downloads: readonly DownloadView[], desktop: boolean): DownloadMenuEntry[] {
  const many = downloads.length > 1
  const entries: DownloadMenuEntry[] = []
  for (const { action, label, danger } of ACTIONS) {
    const count = downloads.filter((download) => allows(download, action)).length
    if (count === 0) continue
    entries.push({
      key: action,
      label: many ? `${label} (${count.toLocaleString()})` : label,
      disabled: unavailableHere(action, desktop),
      danger: danger ?? false,
      separator: false,
      command: { action },
    })
  }
  const queued = downloads.filter(movable).length
  for (const [index, move] of MOVES.entries()) {
    if (queued === 0) break
    entries.push({
      key: `move-${move.to}`,
      label: many ? `${move.label} (${queued.toLocaleString()})` : move.label,
      disabled: null,
      danger: false,
      separator: index === 0 && entries.length > 0,
      command: { move: move.to },
    })
  }
  return entries
}

/**
 * What a download row's context menu offers: the row's own buttons (or, on a row of
 * a selection, the selection bar's, each acting on every selected download that
 * allows it, counted without the rows at hand when the selection is whole groups),
 * then its moves in the queue. Built from the same tables as the buttons
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

/** How many of some downloads (one row, or a selection that may be whole groups) each action applies to. */
export interface ActionCounts {
  /** The downloads in all. */
  total: number
  /** How many of them allow the action. */
  of(action: DownloadAction): number
  /** How many are queued: what Move to top and Move to bottom move. */
  movable: number
}

/** The counts of rows at hand. */
export function countsOfRows(rows: readonly DownloadView[]): ActionCounts {
  return {
    total: rows.length,
    of: (action) => rows.filter((row) => allows(row, action)).length,
    movable: rows.filter(movable).length,
  }
}

/** The entries for some downloads (one row, or a selection), in button order, then the moves. */
export function downloadMenuEntries(counts: ActionCounts, desktop: boolean): DownloadMenuEntry[] {
  const many = counts.total > 1
  const entries: DownloadMenuEntry[] = []
  for (const { action, label, danger } of ACTIONS) {
    const count = counts.of(action)
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
  const queued = counts.movable
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

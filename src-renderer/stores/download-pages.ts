/**
 * The rows of the downloads screen as the window holds them: for each group, a few
 * windows of WINDOW_ROWS rows by offset (those in view and near it), never the whole
 * queue; and where an action puts the rows it moves between groups at once, before
 * the core answers (the optimistic step): each row whose new place follows from what
 * is held lands there, a row whose place is not known yet is left for the next read.
 * Plain functions over plain data, unit tested apart from the store.
 */
import { compareInGroup, DOWNLOAD_GROUPS, groupOfDownload, type DownloadGroup } from '@shared/download-groups'
import type { DownloadView } from '@shared/types'

/** Rows per window: a few screens of rows, read in one call. */
export const WINDOW_ROWS = 50

/** One group's windows by index (window i holds offsets i×WINDOW_ROWS…); a hole is a row whose place is known to be there but not the row. */
export type GroupWindows = ReadonlyMap<number, readonly (DownloadView | undefined)[]>
export type Pages = ReadonlyMap<DownloadGroup, GroupWindows>
export type Sizes = Readonly<Record<DownloadGroup, number>>

/** A row and its place in its group (or in a sequence of rows). */
export interface Placed {
  row: DownloadView
  at: number
}

/** The order of the rows within a group, as the core reads its pages: queue order, completed newest first (shared/download-groups.ts). */
export function compareRows(a: Pick<DownloadView, 'queueOrder' | 'id' | 'state' | 'finishedAt'>, b: Pick<DownloadView, 'queueOrder' | 'id' | 'state' | 'finishedAt'>): number {
  return compareInGroup(a, b)
}

/** The row at a place of a group, if its window is held. */
export function rowAt(windows: GroupWindows | undefined, index: number): DownloadView | undefined {
  return windows?.get(Math.floor(index / WINDOW_ROWS))?.[index % WINDOW_ROWS]
}

/** Every row held of a group, with its place, in the group's order. */
export function heldOf(windows: GroupWindows | undefined): Placed[] {
  if (!windows) return []
  const held: Placed[] = []
  for (const index of [...windows.keys()].sort((a, b) => a - b)) {
    windows.get(index)!.forEach((row, offset) => {
      if (row) held.push({ row, at: index * WINDOW_ROWS + offset })
    })
  }
  return held
}

/** Windows holding these rows at their places (holes where a place has no row). */
export function windowsOf(placed: readonly Placed[]): Map<number, (DownloadView | undefined)[]> {
  const windows = new Map<number, (DownloadView | undefined)[]>()
  for (const { row, at } of placed) {
    const index = Math.floor(at / WINDOW_ROWS)
    let rows = windows.get(index)
    if (!rows) windows.set(index, (rows = []))
    rows[at % WINDOW_ROWS] = row
  }
  // Holes read as undefined, not as missing keys, so a window's length says how far it is known.
  for (const rows of windows.values()) for (let offset = 0; offset < rows.length; offset++) rows[offset] ??= undefined
  return windows
}

/** Whether the window holds every row it should, up to the group's size. */
export function holdsWindow(windows: GroupWindows | undefined, index: number, size: number): boolean {
  const rows = windows?.get(index)
  const expected = Math.min(WINDOW_ROWS, size - index * WINDOW_ROWS)
  if (!rows || rows.length < expected) return false
  for (let offset = 0; offset < expected; offset++) if (!rows[offset]) return false
  return true
}

/** Rows in order, and how many the whole sequence has (some of it may not be held). */
interface Sequence {
  entries: Placed[]
  size: number
}

/** How many rows of the sequence come before row in the group's order; undefined when what is held does not say. */
function rank(sequence: Sequence, row: DownloadView): number | undefined {
  const { entries, size } = sequence
  if (size === 0) return 0
  let low = 0
  let high = entries.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (compareRows(entries[middle]!.row, row) < 0) low = middle + 1
    else high = middle
  }
  if (low === 0) return entries[0]?.at === 0 ? 0 : undefined
  const before = entries[low - 1]!
  if (before.at === size - 1) return size
  return entries[low]?.at === before.at + 1 ? before.at + 1 : undefined
}

/** What an action does to the rows it applies to: all of some groups but the rows excepted, and rows named one by one. */
export interface Movers {
  /** Rows named one by one, as they are now (none of them in `groups`). */
  rows: readonly DownloadView[]
  /** Whole groups: every row of them allows the action. */
  groups: readonly DownloadGroup[]
  /** Rows of those groups left out, as they are now. */
  except: readonly DownloadView[]
}

/**
 * What a moved row becomes (null: it leaves the list); `at` and `size` are its place among the rows
 * moved from its group (or among those named), in queue order: a move to the top numbers them.
 */
export type Change = (row: DownloadView, at: number, size: number) => DownloadView | null

export interface Projection {
  pages: Map<DownloadGroup, GroupWindows>
  sizes: Record<DownloadGroup, number>
}

/**
 * The groups after an action, at once: every group's size, and its held rows where their new
 * places follow from what is held (a whole group moved into another lands in order among the rows
 * there when both are held up to that point; a row named alone lands anywhere its neighbours are
 * held). `targetOf` says where the rows of a group go (null: off the list), for the rows not held.
 */
export function project(pages: Pages, sizes: Sizes, movers: Movers, change: Change, targetOf: (group: DownloadGroup) => DownloadGroup | null): Projection {
  const whole = new Set(movers.groups)
  const except = new Set(movers.except.map((row) => row.id))
  const next = { ...sizes }
  /** The sequences of rows each group is made of afterwards; `kept` when it is its own rows, untouched. */
  const parts = new Map<DownloadGroup, { sequences: Sequence[]; kept: boolean }>(DOWNLOAD_GROUPS.map((group) => [group, { sequences: [], kept: true }]))
  const arrive = (rows: Placed[], size: number, from: DownloadGroup | null): void => {
    const byTarget = new Map<DownloadGroup, Placed[]>()
    for (const { row, at } of rows) {
      const changed = change(row, at, size)
      if (!changed) continue
      const target = groupOfDownload(changed)
      let list = byTarget.get(target)
      if (!list) byTarget.set(target, (list = []))
      list.push({ row: changed, at })
    }
    const target = from === null ? null : targetOf(from)
    if (target !== null && !byTarget.has(target)) byTarget.set(target, [])
    for (const [group, entries] of byTarget) {
      const part = parts.get(group)!
      part.kept = false
      entries.sort((a, b) => compareRows(a.row, b.row))
      // Rows named one by one are all known: their places among those landing in the group are their order.
      if (from === null) entries.forEach((entry, at) => (entry.at = at))
      part.sequences.push({ entries, size: from === null ? entries.length : size })
    }
  }
  const named = [...movers.rows].sort(compareRows)
  for (const group of DOWNLOAD_GROUPS) {
    const held = heldOf(pages.get(group))
    const part = parts.get(group)!
    if (whole.has(group)) {
      const stay = movers.except.filter((row) => groupOfDownload(row) === group).sort(compareRows)
      const moving = held.filter(({ row }) => !except.has(row.id)).map(({ row, at }) => ({ row, at: at - stay.filter((kept) => compareRows(kept, row) < 0).length }))
      const size = Math.max(0, sizes[group] - stay.length)
      part.kept = false
      part.sequences.push({ entries: stay.map((row, at) => ({ row, at })), size: stay.length })
      next[group] -= size
      const target = targetOf(group)
      if (target !== null) next[target] += size
      arrive(moving, size, group)
      continue
    }
    const leaving = named.filter((row) => groupOfDownload(row) === group)
    if (leaving.length === 0) {
      part.sequences.push({ entries: held, size: sizes[group] })
      continue
    }
    const gone = new Set(leaving.map((row) => row.id))
    part.kept = false
    part.sequences.push({
      entries: held.filter(({ row }) => !gone.has(row.id)).map(({ row, at }) => ({ row, at: at - leaving.filter((left) => compareRows(left, row) < 0).length })),
      size: Math.max(0, sizes[group] - leaving.length),
    })
    next[group] -= leaving.length
  }
  // The rows named one by one: a sequence of their own, complete, wherever they land.
  const placedNamed = named.map((row, at) => ({ row, at }))
  for (const { row, at } of placedNamed) {
    const changed = change(row, at, named.length)
    if (changed) next[groupOfDownload(changed)] += 1
  }
  arrive(placedNamed, named.length, null)

  const result = new Map<DownloadGroup, GroupWindows>()
  for (const [group, { sequences, kept }] of parts) {
    if (kept) {
      const windows = pages.get(group)
      if (windows) result.set(group, windows)
      continue
    }
    const placed: Placed[] = []
    for (const sequence of sequences) {
      for (const entry of sequence.entries) {
        let at = entry.at
        for (const other of sequences) {
          if (other === sequence) continue
          const before = rank(other, entry.row)
          if (before === undefined) {
            at = -1
            break
          }
          at += before
        }
        if (at >= 0) placed.push({ row: entry.row, at })
      }
    }
    result.set(group, windowsOf(placed))
  }
  return { pages: result, sizes: next }
}

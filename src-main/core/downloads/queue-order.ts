/**
 * Reordering the queue: downloads moved to its top (they start next), its
 * bottom, or just before another download (a drag on the downloads screen).
 * Only a queued or paused download has a place worth moving (a paused one
 * goes back there when resumed); on a list, the others are skipped with the
 * reason, as every action on a list does (bulk.ts); one id alone fails instead.
 * Moved downloads keep their order among themselves.
 */
import type { Database } from 'better-sqlite3'
import * as store from '../db/downloads'
import { orderBounds, queueOrder, setOrders } from '../db/queue-order'
import { InvalidArgumentError, NotFoundError } from '../shared/errors'
import type { Download, DownloadActionResult, QueuePlace, SkippedDownload } from '../shared/types'
import { isSingle } from './bulk'

/** The states whose downloads have a place in the queue to move. */
const MOVABLE: readonly Download['state'][] = ['queued', 'paused']

export interface MoveOutcome {
  result: DownloadActionResult
  /** Every download whose place changed (the moved ones, and those a move before another shifted). */
  reordered: number[]
}

export function moveInQueue(db: Database, ids: readonly number[], place: QueuePlace, strict = isSingle(ids)): MoveOutcome {
  const moving: Download[] = []
  const skipped: SkippedDownload[] = []
  const unique = [...new Set(ids)]
  const found = store.getDownloads(db, unique)
  for (const id of unique) {
    const download = found.get(id)
    let reason: string | null = null
    if (!download) reason = `no download ${id}: it was removed`
    else if (!MOVABLE.includes(download.state)) reason = `download ${id} is ${download.state}: only a queued or paused download can be moved in the queue`
    if (reason === null) moving.push(download!)
    else if (strict) throw download ? new InvalidArgumentError(reason, { field: 'ids' }) : new NotFoundError(`no download ${id}`)
    else skipped.push({ id, state: download?.state ?? null, reason })
  }
  if ('before' in place) {
    if (ids.includes(place.before)) throw new InvalidArgumentError(`download ${place.before} cannot be moved before itself`, { field: 'before' })
    if (!store.getDownload(db, place.before)) throw new NotFoundError(`no download ${place.before} to move before`)
  }
  if (moving.length === 0) return { result: { changed: [], skipped }, reordered: [] }
  const reordered = db.transaction(() => reorder(db, moving, place)).immediate()
  return { result: { changed: moving.map((download) => download.id), skipped }, reordered }
}

/** Writes the new places; returns the ids whose place changed. */
function reorder(db: Database, moving: readonly Download[], place: QueuePlace): number[] {
  const moved = new Set(moving.map((download) => download.id))
  const order = queueOrder(db)
  // The moved ones in their queue order, whatever order the ids were given in.
  const inOrder = order.filter((row) => moved.has(row.id))
  if ('to' in place) {
    // Past either end: only the moved downloads change place.
    const { low, high } = orderBounds(db)
    const places =
      place.to === 'top'
        ? inOrder.map((row, index) => ({ id: row.id, order: low - inOrder.length + index }))
        : inOrder.map((row, index) => ({ id: row.id, order: high + 1 + index }))
    setOrders(db, places)
    return places.map((row) => row.id)
  }
  // Before another: the queue numbered again from 1, only the places that differ written.
  const rest = order.filter((row) => !moved.has(row.id))
  const at = rest.findIndex((row) => row.id === place.before)
  const next = [...rest.slice(0, at), ...inOrder, ...rest.slice(at)]
  const changed = next.map((row, index) => ({ id: row.id, order: index + 1 })).filter((row, index) => next[index]!.order !== row.order)
  setOrders(db, changed)
  return changed.map((row) => row.id)
}

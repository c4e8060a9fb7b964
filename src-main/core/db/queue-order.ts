/**
 * The queue's order in the cache (`downloads.queue_order`, migration 0008): the
 * queue starts queued downloads lowest first, ties by id. A new download goes
 * to the bottom (db/downloads.ts); downloads/queue-order.ts moves them.
 */
import type { Database } from 'better-sqlite3'
import { statement } from './statements'

/** Every download's id and place, in queue order. */
export function queueOrder(db: Database): { id: number; order: number }[] {
  return statement<[], { id: number; order: number }>(db, 'SELECT id, queue_order AS "order" FROM downloads ORDER BY queue_order, id').all()
}

/** The lowest and highest places taken (0 and 0 when the queue is empty). */
export function orderBounds(db: Database): { low: number; high: number } {
  return statement<[], { low: number; high: number }>(
    db,
    'SELECT coalesce(min(queue_order), 0) AS low, coalesce(max(queue_order), 0) AS high FROM downloads',
  ).get()!
}

/** Puts downloads at the given places, in one transaction. */
export function setOrders(db: Database, places: readonly { id: number; order: number }[]): void {
  const update = statement(db, 'UPDATE downloads SET queue_order = ? WHERE id = ?')
  db.transaction(() => {
    for (const { id, order } of places) update.run(order, id)
  }).immediate()
}

/** The ids of every completed download, in queue order. */
export function completedIds(db: Database): number[] {
  return statement<[], number>(db, `SELECT id FROM downloads WHERE state = 'completed' ORDER BY queue_order, id`).pluck().all()
}

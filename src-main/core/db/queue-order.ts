/**
 * The queue's order in the cache (`downloads.queue_order`, migration 0008): the
 * queue starts queued downloads lowest first, ties by id. A new download goes
 * to the bottom (db/downloads.ts); downloads/queue-order.ts moves them.
 */
import type { Database } from 'better-sqlite3'
import { DOWNLOAD_STATES } from '../shared/catalogue'
import { statement } from './statements'

/** Every download's id and place, in queue order. */
export function queueOrder(db: Database): { id: number; order: number }[] {
  return statement<[], { id: number; order: number }>(db, 'SELECT id, queue_order AS "order" FROM downloads ORDER BY queue_order, id').all()
}

/**
 * The lowest and highest places over every state: min and max of queue_order over the whole table
 * cannot use the index on (state, queue_order, id) and read every row (queuing N downloads one insert
 * at a time read N²/2 rows). Each state's min and max are subqueries of their own: SQLite reads one
 * index entry for a min() or a max() only when it is the query's single aggregate; the two side by
 * side read every row of the state (10,000 queued: 3.8 s of a 6 s enqueue).
 */
const BOUNDS = `SELECT coalesce(min(low), 0) AS low, coalesce(max(high), 0) AS high FROM (${DOWNLOAD_STATES.map(
  (state) =>
    `SELECT (SELECT min(queue_order) FROM downloads WHERE state = '${state}') AS low, (SELECT max(queue_order) FROM downloads WHERE state = '${state}') AS high`,
).join(' UNION ALL ')})`

/** The lowest and highest places taken (0 and 0 when the queue is empty), whatever the queue's length. */
export function orderBounds(db: Database): { low: number; high: number } {
  return statement<[], { low: number; high: number }>(db, BOUNDS).get()!
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

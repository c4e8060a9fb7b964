/**
 * Completed downloads listed newest first. The downloads screen shows the
 * completed group by when each finished, the latest on top (as Motrix and
 * gPodder list finished files), not by the queue's order, which says only in
 * what order they started. A page of that group must stay a walk of an index
 * to its offset at 10,000 rows, as every other group's is (0008's index of
 * (state, queue_order, id)): this index holds each state's rows by when they
 * finished, which a page of completed ones walks backwards. (A partial index
 * of the completed rows alone would be smaller, but SQLite's planner, with no
 * statistics, prefers the index of state alone and sorts: 10,000 rows a page.)
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    CREATE INDEX downloads_by_finished ON downloads (state, finished_at, id);
  `

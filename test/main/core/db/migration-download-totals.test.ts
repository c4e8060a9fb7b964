/**
 * 0010-download-totals: a cache at version 9 with a queue in every state, a batch under way, gets
 * the figures of each state and of the batch (as the window used to find the batch: what is
 * pending, and what completed since the earliest of those was queued), and its triggers keep
 * them equal to a count of the rows through inserts, changes and deletes.
 */
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { completeDownload, deleteDownloads, downloadSummary, insertDownload, setState } from '../../../../src-main/core/db/downloads'
import { migrate, schemaVersion } from '../../../../src-main/core/db/migrate'
import { MIGRATIONS } from '../../../../src-main/core/db/migrations/index'

/** A version 9 cache whose queue holds each state, sizes 100, 200, ...; bytes on disk 10 per 100. */
function cacheAtVersion9(): Database.Database {
  const db = new Database(':memory:')
  migrate(db, MIGRATIONS, 9)
  expect(schemaVersion(db)).toBe(9)
  const insert = db.prepare(
    `INSERT INTO downloads (id, upload_id, artist_username, title, url, target_path, state, pause_reason, bytes_done, bytes_total, created_at, finished_at, queue_order)
     VALUES (@id, @id, 'a', 't', 'http://x/y.mp3', '/music/y.mp3', @state, @reason, @done, @total, @created, @finished, @id)`,
  )
  const rows = [
    // Completed before the batch under way began (the earliest pending one was queued at 500): not in it.
    { id: 1, state: 'completed', created: 100, finished: 200 },
    // Completed since: in it.
    { id: 2, state: 'completed', created: 400, finished: 600 },
    { id: 3, state: 'downloading', created: 500, finished: null },
    { id: 4, state: 'queued', created: 700, finished: null },
    { id: 5, state: 'paused', created: 800, finished: null },
    { id: 6, state: 'failed', created: 300, finished: 650 },
    { id: 7, state: 'cancelled', created: 300, finished: 660 },
    { id: 8, state: 'completed', created: 900, finished: 950 },
  ]
  for (const row of rows) {
    const total = row.id * 100
    insert.run({ ...row, reason: row.state === 'paused' ? 'user' : null, total, done: row.state === 'completed' ? total : row.id * 10 })
  }
  return db
}

const totals = (db: Database.Database): unknown => db.prepare('SELECT state, files, bytes, bytes_done AS bytesDone FROM download_totals ORDER BY state').all()
const counted = (db: Database.Database): unknown =>
  db
    .prepare(
      `SELECT states.value AS state, count(downloads.id) AS files, coalesce(sum(bytes_total), 0) AS bytes, coalesce(sum(bytes_done), 0) AS bytesDone
       FROM json_each('["cancelled", "completed", "downloading", "failed", "paused", "queued"]') AS states
       LEFT JOIN downloads ON downloads.state = states.value GROUP BY states.value ORDER BY states.value`,
    )
    .all()

describe('0010-download-totals', () => {
  it('counts each state and finds the batch under way, keeping every row', () => {
    const db = cacheAtVersion9()
    const before = db.prepare('SELECT * FROM downloads ORDER BY id').all()
    expect(migrate(db, MIGRATIONS, 10)).toEqual([10])
    expect(db.prepare('SELECT * FROM downloads ORDER BY id').all()).toEqual(before.map((row) => ({ ...(row as object), batch: [2, 8].includes((row as { id: number }).id) ? 1 : null })))
    expect(totals(db)).toEqual(counted(db))
    expect(totals(db)).toContainEqual({ state: 'completed', files: 3, bytes: 1100, bytesDone: 1100 })
    expect(db.prepare('SELECT * FROM download_batch').all()).toEqual([{ id: 1, number: 1, files: 2, bytes: 1000 }])
    expect(downloadSummary(db, []).batch).toEqual({ files: 5, filesDone: 2, bytes: 300 + 400 + 500 + 1000, bytesDone: 30 + 40 + 50 + 1000, pending: 3 })
    expect(db.prepare(`SELECT strict FROM pragma_table_list WHERE name IN ('download_totals', 'download_batch')`).pluck().all()).toEqual([1, 1])
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
  })

  it('keeps the figures through inserts, changes and deletes, and starts a new batch when something is pending again after nothing was', () => {
    const db = cacheAtVersion9()
    migrate(db)
    insertDownload(db, { uploadId: '9', artistUsername: 'a', title: 't', url: 'http://x/9.mp3', targetPath: '/music/9.mp3', folder: '/', bytesTotal: 900 }, 1000)
    completeDownload(db, 3, 'hash', 300, 1100, 270)
    setState(db, 5, 'cancelled', { now: 1200 })
    deleteDownloads(db, [2, 6])
    expect(totals(db)).toEqual(counted(db))
    // Completed in it: 3 (and 8); 2 is gone; 5 left it; 4 and the new one still pending.
    expect(downloadSummary(db, []).batch).toEqual({ files: 4, filesDone: 2, bytes: 300 + 800 + 400 + 900, bytesDone: 300 + 800 + 40, pending: 2 })

    // Nothing pending: the batch stays as it ended, until something is pending again.
    for (const id of [4, 9]) setState(db, id, 'downloading', { now: 1300 })
    for (const id of [4, 9]) completeDownload(db, id, 'hash', id * 100, 1400, 0)
    expect(downloadSummary(db, []).batch).toMatchObject({ files: 4, filesDone: 4, pending: 0 })
    setState(db, 7, 'queued', { now: 1500 })
    expect(downloadSummary(db, []).batch).toEqual({ files: 1, filesDone: 0, bytes: 700, bytesDone: 70, pending: 1 })
    expect(db.prepare('SELECT number FROM download_batch').pluck().get()).toBe(2)
    expect(totals(db)).toEqual(counted(db))
    db.close()
  })

  it('migrates an empty queue: every state at zero, the first batch empty', () => {
    const db = new Database(':memory:')
    migrate(db, MIGRATIONS, 9)
    expect(migrate(db, MIGRATIONS, 10)).toEqual([10])
    expect(totals(db)).toEqual(counted(db))
    expect(db.prepare('SELECT * FROM download_batch').all()).toEqual([{ id: 1, number: 1, files: 0, bytes: 0 }])
    db.close()
  })
})

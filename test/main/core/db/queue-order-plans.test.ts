/**
 * The queue's bounds (the next place of a new download, the top and bottom that moves go to) are a
 * few index lookups, whatever the queue's length: min and max of queue_order over the whole table
 * read every row, and queuing 10,000 downloads one insert at a time read 50 million (2.3 s).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { openDatabase } from '../../../../src-main/core/db/connection'
import { migrate } from '../../../../src-main/core/db/migrate'
import { insertDownload } from '../../../../src-main/core/db/downloads'
import { orderBounds } from '../../../../src-main/core/db/queue-order'

test('the bounds of the queue are read through its index, never by scanning every download', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-queue-order-'))
  onTestFinished(() => fs.rmSync(folder, { recursive: true, force: true }))
  const db = openDatabase(path.join(folder, 'cache.sqlite'))
  onTestFinished(() => { db.close() })
  migrate(db)
  const row = (n: number) => ({ uploadId: `u${n}`, artistUsername: 'a', title: `t${n}`, url: `http://127.0.0.1:9/${n}`, targetPath: `/d/a/${n}.mp3`, folder: '/d', bytesTotal: n })
  for (let n = 1; n <= 5; n++) insertDownload(db, row(n), n)
  db.prepare(`UPDATE downloads SET state = 'completed' WHERE id = 2`).run()
  expect(orderBounds(db)).toEqual({ low: 1, high: 5 })
  expect(insertDownload(db, row(6), 6).queueOrder).toBe(6)

  // A fresh connection: its statement cache is empty, so the read prepares (and shows) its statement.
  const fresh = openDatabase(path.join(folder, 'cache.sqlite'))
  onTestFinished(() => { fresh.close() })
  const prepare = fresh.prepare.bind(fresh)
  const seen: string[] = []
  fresh.prepare = ((sql: string) => (seen.push(sql), prepare(sql))) as typeof fresh.prepare
  orderBounds(fresh)
  fresh.prepare = prepare
  const plan = seen.flatMap((sql) => (prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((step) => step.detail))
  expect(plan.some((step) => /SEARCH downloads USING COVERING INDEX downloads_by_queue_order \(state=\?\)/.test(step))).toBe(true)
  expect(plan.filter((step) => /SCAN downloads/.test(step))).toEqual([])
})

test('the bounds read one index entry per state, not every row of one: as fast at 20,000 queued as at 20', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-queue-order-'))
  onTestFinished(() => fs.rmSync(folder, { recursive: true, force: true }))
  const db = openDatabase(path.join(folder, 'cache.sqlite'))
  onTestFinished(() => {
    db.close()
  })
  migrate(db)
  const queue = (from: number, to: number): void => {
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO downloads (id, upload_id, artist_username, title, url, target_path, state, bytes_total, created_at, queue_order)
       SELECT i, 'u' || i, 'a', 't' || i, 'http://127.0.0.1:9/' || i, '/d/' || i || '.mp3', 'queued', 1, 1000, i FROM n`,
    ).run(from, to)
  }
  // The fastest of many rounds: other work on the machine only ever adds to a round.
  const fastest = (): number => {
    let best = Infinity
    for (let round = 0; round < 200; round++) {
      const start = performance.now()
      orderBounds(db)
      best = Math.min(best, performance.now() - start)
    }
    return best
  }
  queue(1, 20)
  const few = fastest()
  queue(21, 20_000)
  expect(orderBounds(db)).toEqual({ low: 1, high: 20_000 })
  const many = fastest()
  // Reading every queued row's index entry takes about 1 ms here; one entry per state a few microseconds.
  expect(many).toBeLessThan(Math.max(few * 5, 0.05))
})

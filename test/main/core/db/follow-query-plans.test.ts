/**
 * The reads that start from the follows (What's new's followed part, after a first sync and after
 * later ones; auto-download; what a sync brought followed artists) never walk every track of the
 * catalogue. Without statistics SQLite chose to scan the tracks table for them: 115–130 ms on
 * 560,000 tracks, each time What's new opened and after every sync. The plan does not depend on
 * the table's size (no statistics are kept), so a small cache shows the one a large cache gets.
 */
import type { Database } from 'better-sqlite3'
import { expect } from 'vitest'
import { openDatabase } from '../../../../src-main/core/db/connection'
import { autoDownloadTracks, newTracksOfRun } from '../../../../src-main/core/db/new-tracks'
import { whatsNew } from '../../../../src-main/core/db/whats-new'
import { catalogueTest } from '../../support/fixtures'

const test = catalogueTest({ artists: 30, seed: 5, maxFileMb: 1 })

/** Every statement `read` runs on db, and SQLite's plan for it with the same parameters. */
function plansOf(db: Database, read: () => unknown): { sql: string; plan: string[] }[] {
  const seen: { sql: string; args: unknown[] }[] = []
  const prepare = db.prepare.bind(db)
  db.prepare = ((sql: string) => {
    const prepared = prepare(sql) as unknown as Record<'all' | 'get' | 'run', (...args: unknown[]) => unknown>
    for (const method of ['all', 'get', 'run'] as const) {
      const run = prepared[method].bind(prepared)
      prepared[method] = (...args: unknown[]) => {
        seen.push({ sql, args })
        return run(...args)
      }
    }
    return prepared
  }) as unknown as Database['prepare']
  try {
    read()
  } finally {
    db.prepare = prepare
  }
  return seen.map(({ sql, args }) => ({
    sql,
    plan: (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((row) => row.detail),
  }))
}

test('reads that start from the follows never scan every track, with or without follows', async ({ demo, openLibrary }) => {
  const library = openLibrary()
  const first = await library.sync.start({ skipAvatars: true })
  const check = (): void => {
    // A fresh connection: its statement cache is empty, so each read prepares (and shows) its statements.
    const db = openDatabase(library.cacheFile)
    try {
      const plans = [
        ...plansOf(db, () => whatsNew(db, 200)),
        ...plansOf(db, () => autoDownloadTracks(db)),
        ...plansOf(db, () => newTracksOfRun(db, first.runId)),
      ]
      expect(plans.length).toBeGreaterThanOrEqual(4)
      for (const { sql, plan } of plans) expect(plan, sql).not.toContain('SCAN tracks')
    } finally {
      db.close()
    }
  }
  // After the first sync alone (the newest uploads), with no follow, then with some.
  check()
  const [one, two] = demo.catalogue.artists.filter((artist) => artist.numTracks > 1)
  library.follows.follow(one!.username, { autoDownload: true })
  library.follows.follow(two!.username)
  check()
})

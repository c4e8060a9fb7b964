/**
 * The search index's upkeep at a sync's end (sync/search-upkeep.ts), stopped half-way: by a
 * cancel, or by the app closing. The catalogue here is too small for the default rule to store
 * any answer, so the upkeep runs with a rule that stores some (and their first results), in
 * steps of one piece each, and is stopped once it has stored its first words.
 */
import path from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Database } from 'better-sqlite3'
import { describe, expect, vi } from 'vitest'
import { readMeta } from '../../../../src-main/core/db/meta'
import { currentCatalogueVersion } from '../../../../src-main/core/db/query-cache'
import { SEARCH_TUNING, answersStamp, searchArtists, type SearchTuning } from '../../../../src-main/core/db/search'
import { openDatabase } from '../../../../src-main/core/db/connection'
import { dropStagedRanks, lastRun, startOrResumeRun } from '../../../../src-main/core/db/sync-store'
import * as upkeep from '../../../../src-main/core/sync/search-upkeep'
import type { Library } from '../../../../src-main/core/library/library'
import { catalogueTest } from '../../support/fixtures'
import { withCache } from './cache-file'

vi.mock('../../../../src-main/core/sync/search-upkeep', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src-main/core/sync/search-upkeep')>()
  return { ...actual, upkeepSearchIndex: vi.fn(actual.upkeepSearchIndex) }
})
const { upkeepSearchIndex: realUpkeep } = await vi.importActual<typeof upkeep>('../../../../src-main/core/sync/search-upkeep')

const test = catalogueTest({ artists: 150, seed: 8, maxFileMb: 4 })
/** Stores the words that match more than 10 artists, with first results for those over 20. */
const TUNING: SearchTuning = { ...SEARCH_TUNING, popularAbove: 20, storeAbove: 10 }
const COMPUTED: SearchTuning = { ...TUNING, storeLength: 0 } // never reads stored answers
const WORDS = ['a', 'e', 'th', 'the', 'ma', 'lo', 's']

const storedRows = (db: Database): number => db.prepare('SELECT count(*) FROM search_answers').pluck().get() as number

/** The next sync's upkeep runs with TUNING, in steps of one piece, and `stop` is called once it has stored some words. */
function stopUpkeepHalfWay(stop: () => unknown): { rowsAtStop: () => number } {
  let rows = 0
  vi.mocked(upkeep.upkeepSearchIndex).mockImplementationOnce(async (db, signal) => {
    let settled = false
    const running = realUpkeep(db, signal, TUNING, 0).finally(() => (settled = true))
    void (async () => {
      while (!settled && storedRows(db) === 0) await nextTurn()
      rows = storedRows(db)
      if (!settled) void stop()
    })()
    return running
  })
  return { rowsAtStop: () => rows }
}

/** Every search of WORDS in every filter, read with TUNING (stored answers when they hold) and computed, on a connection of the test's own. */
function expectSearchesRight(file: string): void {
  withCache(file, (db) => {
    for (const word of WORDS) {
      for (const kind of ['all', 'podcasts', 'musicians'] as const) {
        for (const [offset, limit] of [[0, 10], [5, 30]] as const) {
          expect(searchArtists(db, word, kind, false, offset, limit, TUNING), `${word} ${kind} ${offset}`).toEqual(
            searchArtists(db, word, kind, false, offset, limit, COMPUTED),
          )
        }
      }
    }
  })
}

/** A first sync, its upkeep stopped half-way by `stop`; what the cache holds after. */
async function stoppedSync(library: Library, stop: () => unknown): Promise<void> {
  const upkeepStopped = stopUpkeepHalfWay(stop)
  await expect(library.sync.start({ skipAvatars: true })).rejects.toMatchObject({ code: 'cancelled' })
  // Stopped half-way indeed: some words stored, but nothing marked as holding, and the run not completed.
  expect(upkeepStopped.rowsAtStop()).toBeGreaterThan(0)
  withCache(library.cacheFile, (db) => {
    expect(storedRows(db)).toBeGreaterThan(0)
    expect(readMeta(db, 'search_answers_for')).toBeNull()
    expect(lastRun(db)).toMatchObject({ state: 'cancelled', phase: 'avatars' })
    expect(db.prepare('SELECT count(*) FROM sync_ranks').pluck().get()).toBe(0)
  })
  expectSearchesRight(library.cacheFile)
}

/** The next sync resumes the run with only the upkeep left, and completes it: the answers then stored and read. */
async function expectResumedToTheEnd(library: Library): Promise<void> {
  vi.mocked(upkeep.upkeepSearchIndex).mockImplementationOnce((db, signal) => realUpkeep(db, signal, TUNING))
  const report = await library.sync.start({ skipAvatars: true })
  expect(report).toMatchObject({ resumed: true, listPages: 0, detailsFetched: 0 })
  withCache(library.cacheFile, (db) => {
    expect(lastRun(db)).toMatchObject({ state: 'completed' })
    expect(readMeta(db, 'search_answers_for')).toBe(answersStamp(currentCatalogueVersion(db), TUNING))
    // Read from what was stored: a made-up total shows.
    db.prepare(`UPDATE search_answers SET total = total + 1000 WHERE word = 'a' AND kind = 'all' AND include_blank = 0`).run()
    expect(searchArtists(db, 'a', 'all', false, 0, 10, TUNING)!.total).toBe(searchArtists(db, 'a', 'all', false, 0, 10, COMPUTED)!.total + 1000)
    db.prepare(`UPDATE search_answers SET total = total - 1000 WHERE word = 'a' AND kind = 'all' AND include_blank = 0`).run()
  })
  expectSearchesRight(library.cacheFile)
}

describe("a sync's search upkeep stopped half-way", () => {
  test('by a cancel: the run is not completed, nothing half-done is read, and the next sync resumes it with only the upkeep left', async ({ openLibrary }) => {
    const library = openLibrary()
    await stoppedSync(library, () => library.sync.cancel())
    await expectResumedToTheEnd(library)
  })

  test('by the app closing: the same, the next sync in a new session', async ({ openLibrary, tempDir }) => {
    const dataDir = tempDir()
    const first = openLibrary({ dataDir })
    await stoppedSync(first, () => first.dispose())
    await first.dispose()
    await expectResumedToTheEnd(openLibrary({ dataDir }))
  })
})

describe("a sync's end", () => {
  test("drops a run's staged list positions a slice at a time, in their order, and only that run's", ({ tempDir }) => {
    const db = openDatabase(path.join(tempDir(), 'cache.sqlite'))
    const { run } = startOrResumeRun(db, 1)
    const other = run.id + 1
    db.prepare(`INSERT INTO sync_runs (id, started_at, state, phase) VALUES (?, 1, 'cancelled', 'lists')`).run(other)
    const stage = db.prepare('INSERT INTO sync_ranks (run_id, pass, artist_id, position) VALUES (?, ?, ?, ?)')
    db.transaction(() => {
      for (const runId of [run.id, other]) for (const pass of ['top', 'trending']) for (let id = 1; id <= 500; id++) stage.run(runId, pass, id * 3, id)
    }).immediate()
    const staged = (runId: number): unknown[] => db.prepare('SELECT pass, artist_id FROM sync_ranks WHERE run_id = ? ORDER BY pass, artist_id').raw().all(runId)
    const all = staged(run.id)
    for (const left of [700, 400, 100]) {
      expect(dropStagedRanks(db, run.id, 300)).toBe(false)
      expect(staged(run.id)).toEqual(all.slice(-left))
    }
    expect(dropStagedRanks(db, run.id, 300)).toBe(true)
    expect(staged(run.id)).toEqual([])
    expect(staged(other)).toHaveLength(1000)
    db.close()
  })

  test('leaves no staged list position and the search index in one segment', async ({ openLibrary }) => {
    const library = openLibrary()
    await library.sync.start({ skipAvatars: true })
    withCache(library.cacheFile, (db) => {
      expect(db.prepare('SELECT count(*) FROM sync_ranks').pluck().get()).toBe(0)
      expect(db.prepare('SELECT count(DISTINCT segid) FROM artists_fts_idx').pluck().get()).toBe(1)
    })
  })
})

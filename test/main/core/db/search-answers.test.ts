/**
 * The answers of the broadest words stored at a sync's end (db/search-answers.ts):
 * read exactly as they would be computed, never once they no longer hold, kept when
 * nothing they are made of changed, and stored in steps as in one piece.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Database } from 'better-sqlite3'
import { describe, expect } from 'vitest'
import { openDatabase, openReadConnection } from '../../../../src-main/core/db/connection'
import { listArtists } from '../../../../src-main/core/db/artists'
import { bumpCatalogueVersion } from '../../../../src-main/core/db/query-cache'
import { SEARCH_TUNING, rebuildSearchIndex, searchArtists, type SearchTuning } from '../../../../src-main/core/db/search'
import {
  optimizeSearchIndex, startSearchIndexUpkeep, storeSearchAnswers, type SearchAnswersJob,
} from '../../../../src-main/core/db/search-answers'
import { test as base } from '../../support/fixtures'
import { FILTERS, expectedOrder, pageQuery, syntheticCache, type SyntheticArtist } from './synthetic-search-cache'

/**
 * The file's cache of 6,000 made-up artists, written once: each test takes a copy of its
 * file (and of its artists) at the path it gives, to change as it likes.
 */
const cacheTest = base.extend('largeCache', { scope: 'file' }, ({ tempDir }) => {
  const template = path.join(tempDir(), 'template.sqlite')
  const made = syntheticCache(template, 6000)
  made.db.close()
  return (file: string): { db: Database; artists: SyntheticArtist[] } => {
    fs.copyFileSync(template, file)
    return { db: openDatabase(file), artists: structuredClone(made.artists) }
  }
})

describe('stored answers of the broadest words', () => {
  // Stores the answers of many more words than the defaults would in a catalogue of 6,000.
  const storeMore: SearchTuning = { ...SEARCH_TUNING, storeAbove: 1000 }

  cacheTest('answer the broadest words from what a sync\'s end stored, exactly as they would be computed', ({ tempDir, largeCache }) => {
    const { db, artists } = largeCache(path.join(tempDir(), 'large.sqlite'))
    // With the defaults: only words that match more than 5,000 of the 6,000.
    db.transaction(() => optimizeSearchIndex(db)).immediate()
    expect(db.prepare('SELECT DISTINCT word FROM search_answers ORDER BY word').pluck().all()).toEqual(['a'])
    for (const { kind, includeBlank } of FILTERS) {
      const page = listArtists(db, pageQuery('a', kind, includeBlank, 0, 100))
      const expected = expectedOrder(artists, 'a', kind, includeBlank)
      const computed = searchArtists(db, 'a', kind, includeBlank, 0, 100, { ...SEARCH_TUNING, storeLength: 0 })!
      expect(page.total).toBe(expected.length)
      expect(page.artists.map((a) => a.id)).toEqual(computed.ids)
      if (expected.length > SEARCH_TUNING.popularAbove) expect(computed.ids).toEqual(expected.slice(0, 100))
    }

    db.transaction(() => optimizeSearchIndex(db, storeMore)).immediate()
    const stored = db.prepare('SELECT DISTINCT word FROM search_answers ORDER BY word').pluck().all() as string[]
    expect(stored).toEqual(expect.arrayContaining(['a', 'al', 'am', 'the', 'dj', 't', 'p', 'po', 'b', 'g', 'e', 'r', 're', 'rec']))
    // Some filters of a stored word find at most 2,000 artists: those are ranked by bm25 when asked, only their totals stored.
    expect(db.prepare('SELECT count(*) FROM search_answers WHERE first_ids IS NULL').pluck().get()).toBeGreaterThan(0)
    const computed = { ...storeMore, storeLength: 0 } // never reads stored answers
    let firstPages = 0
    for (const word of stored) {
      for (const { kind, includeBlank } of FILTERS) {
        const expected = expectedOrder(artists, word, kind, includeBlank)
        for (const [offset, limit] of [[0, 50], [0, 200], [150, 50], [199, 1], [190, 20], [200, 50], [1000, 25]] as const) {
          const page = searchArtists(db, word, kind, includeBlank, offset, limit, storeMore)!
          const same = searchArtists(db, word, kind, includeBlank, offset, limit, computed)!
          expect(page.total, `${word} ${kind} ${includeBlank}`).toBe(expected.length)
          expect(page, `${word} ${kind} ${includeBlank} ${offset}`).toEqual(same)
          if (expected.length > SEARCH_TUNING.popularAbove) expect(same.ids).toEqual(expected.slice(offset, offset + limit))
          if (offset + limit <= 200) firstPages++
        }
      }
    }
    expect(firstPages).toBeGreaterThan(300)
    db.close()
  })

  cacheTest('never answer from stored answers once the catalogue changed, or that another rule stored', ({ tempDir, largeCache }) => {
    const { db, artists } = largeCache(path.join(tempDir(), 'large.sqlite'))
    db.transaction(() => optimizeSearchIndex(db, storeMore)).immediate()
    const total = (q: string, tuning = storeMore): number => searchArtists(db, q, 'all', true, 0, 50, tuning)!.total
    const truth = expectedOrder(artists, 'dj', 'all', true).length
    expect(total('dj')).toBe(truth)
    // What is stored is what is read (a made-up total shows)...
    db.prepare(`UPDATE search_answers SET total = 7 WHERE word = 'dj'`).run()
    expect(total('dj')).toBe(7)
    // ... but not under another rule,
    expect(total('dj', { ...storeMore, popularAbove: 3000 })).toBe(truth)
    // nor once the catalogue changed: an artist renamed is found at once, first among the names in trending order.
    const renamed = artists.find((a) => !a.gone && !a.blank && a.rank !== null && !/dj/i.test(`${a.username} ${a.name}`))!
    db.transaction(() => {
      db.prepare(`UPDATE artists SET pf_name = 'DJ Renamed', rank_trending = -1 WHERE id = ?`).run(renamed.id)
      bumpCatalogueVersion(db)
    }).immediate()
    expect(total('dj')).toBe(truth + 1)
    expect(searchArtists(db, 'dj', 'all', true, 0, 1, storeMore)!.ids).toEqual([renamed.id])
    // The next sync's end stores them again; a first sync's index rebuild drops them.
    db.transaction(() => optimizeSearchIndex(db, storeMore)).immediate()
    db.prepare(`UPDATE search_answers SET total = 8 WHERE word = 'dj'`).run()
    expect(total('dj')).toBe(8)
    db.transaction(() => rebuildSearchIndex(db)).immediate()
    expect(db.prepare('SELECT count(*) FROM search_answers').pluck().get()).toBe(0)
    expect(total('dj')).toBe(truth + 1)
    db.close()
  })

  cacheTest('keep the stored answers at a sync\'s end that changed nothing they are made of, and compute them again after any change', ({ tempDir, largeCache }) => {
    const { db, artists } = largeCache(path.join(tempDir(), 'large.sqlite'))
    const syncEnd = (): void => db.transaction(() => (bumpCatalogueVersion(db), optimizeSearchIndex(db, storeMore))).immediate()
    const computed = { ...storeMore, storeLength: 0 } // never reads stored answers
    // Every stored word's pages, from stored answers, equal the same pages computed from the index.
    const sameAsComputed = (): void => {
      for (const word of db.prepare('SELECT DISTINCT word FROM search_answers').pluck().all() as string[]) {
        for (const { kind, includeBlank } of FILTERS) {
          for (const [offset, limit] of [[0, 50], [150, 50], [0, 200]] as const) {
            const what = `${word} ${kind} ${includeBlank} ${offset}`
            expect(searchArtists(db, word, kind, includeBlank, offset, limit, storeMore), what).toEqual(searchArtists(db, word, kind, includeBlank, offset, limit, computed))
          }
        }
      }
    }
    syncEnd()
    sameAsComputed()
    // A made-up total shows whether the answers were computed again (gone) or kept (still there).
    const marked = (): number => searchArtists(db, 'dj', 'all', true, 0, 50, storeMore)!.total
    db.prepare(`UPDATE search_answers SET total = 7 WHERE word = 'dj'`).run()
    syncEnd()
    expect(marked()).toBe(7)
    expect(db.prepare('SELECT count(*) FROM search_answers').pluck().get()).toBeGreaterThan(100)

    // Each kind of change they are made of: a bio (an artist's text), a flag (no tracks), the trending order, an artist gone from the cache.
    const bio = artists.find((a) => !a.gone && !a.blank && !/dj/i.test(`${a.username} ${a.name} ${a.bio}`))!
    const [first, second] = artists.filter((a) => a.rank !== null).sort((a, b) => a.rank! - b.rank!)
    const changes = [
      () => db.prepare(`UPDATE artists SET pf_bio = 'dj sets' WHERE id = ?`).run(bio.id),
      () => db.prepare('UPDATE artists SET num_tracks = 0 WHERE id = ?').run(bio.id),
      () => db.prepare('UPDATE artists SET rank_trending = CASE id WHEN ? THEN 1 ELSE 0 END WHERE id IN (?, ?)').run(first!.id, first!.id, second!.id),
      () => db.prepare('DELETE FROM artists WHERE id = ?').run(artists.find((a) => /dj/i.test(a.name) && !a.gone)!.id),
    ]
    for (const [i, change] of changes.entries()) {
      db.prepare(`UPDATE search_answers SET total = 7 WHERE word = 'dj'`).run()
      db.transaction(() => (change(), bumpCatalogueVersion(db))).immediate()
      syncEnd()
      expect(marked(), `change ${i}`).not.toBe(7)
      sameAsComputed()
    }
    expect(marked()).toBe(searchArtists(db, 'dj', 'all', true, 0, 50, computed)!.total)
    db.close()
  })

  cacheTest('keep answering totals from the stored answers after a change that left the index as it was, and first results from the index', ({ tempDir, largeCache }) => {
    const { db, artists } = largeCache(path.join(tempDir(), 'large.sqlite'))
    db.transaction(() => optimizeSearchIndex(db, storeMore)).immediate()
    const computed = { ...storeMore, storeLength: 0 } // never reads stored answers
    const page = (tuning: SearchTuning) => searchArtists(db, 'dj', 'all', true, 0, 50, tuning)!
    // A made-up total (one less, still ranked in trending order) and first results show what is read from the stored answers.
    const truth = page(computed).total
    const madeUp = Array.from({ length: 200 }, (_, i) => i + 1)
    db.prepare(`UPDATE search_answers SET total = total - 1, first_ids = ? WHERE word = 'dj' AND first_ids IS NOT NULL`).run(JSON.stringify(madeUp))
    expect(page(storeMore)).toEqual({ total: truth - 1, ids: madeUp.slice(0, 50) })
    // A change that leaves the index as it was (an artist's tracks counted again, its place in the trending order):
    // the total still holds; the first results are computed, with the new trending order.
    const inNames = artists.find((a) => /dj/i.test(a.name) && !a.gone && !a.blank && a.rank !== null)!
    db.transaction(() => (db.prepare('UPDATE artists SET num_tracks = 5, rank_trending = -1 WHERE id = ?').run(inNames.id), bumpCatalogueVersion(db))).immediate()
    expect(page(storeMore)).toEqual({ total: truth - 1, ids: page(computed).ids })
    expect(page(computed).ids[0]).toBe(inNames.id)
    // A change to the index (a bio): nothing stored is read until the next sync's end.
    const other = artists.find((a) => !a.gone && !/dj/i.test(`${a.username} ${a.name} ${a.bio}`))!
    db.transaction(() => (db.prepare(`UPDATE artists SET pf_bio = 'dj' WHERE id = ?`).run(other.id), bumpCatalogueVersion(db))).immediate()
    expect(page(storeMore)).toEqual(page(computed))
    expect(page(computed).total).toBe(truth + 1)
    db.close()
  })

  cacheTest('store nothing for a catalogue too small for any word to match that many', ({ tempDir }) => {
    const { db } = syntheticCache(path.join(tempDir(), 'small.sqlite'), 3000)
    db.transaction(() => storeSearchAnswers(db)).immediate()
    expect(db.prepare('SELECT count(*) FROM search_answers').pluck().get()).toBe(0)
    db.transaction(() => storeSearchAnswers(db, { ...SEARCH_TUNING, storeAbove: 1000 })).immediate()
    expect(db.prepare('SELECT count(*) FROM search_answers').pluck().get()).toBeGreaterThan(0)
    db.close()
  })

  cacheTest('store the answers in steps exactly as in one piece, use them only once all are in, and give up if the catalogue changes meanwhile', ({ tempDir, largeCache }) => {
    const { db } = largeCache(path.join(tempDir(), 'large.sqlite'))
    const rows = (): unknown[] => db.prepare('SELECT * FROM search_answers ORDER BY word, kind, include_blank').all()
    const moveInTrending = db.prepare(
      'UPDATE artists SET rank_trending = (SELECT max(rank_trending) + 1 FROM artists) WHERE id = (SELECT id FROM artists WHERE rank_trending IS NOT NULL ORDER BY rank_trending LIMIT 1)',
    )
    const start = (): SearchAnswersJob => {
      db.transaction(() => (moveInTrending.run(), bumpCatalogueVersion(db))).immediate()
      return startSearchIndexUpkeep(db, storeMore, { sliceMs: Number.POSITIVE_INFINITY })
    }
    db.transaction(() => optimizeSearchIndex(db, storeMore)).immediate()

    // Steps of one piece each: the look at what the answers are made of, the words to store (here in one slice),
    // the flags, the trending order, then one word a step. None of them is read before the last is in.
    const job = start()
    const left: number[] = []
    while (!step(db, job)) {
      expect(stamped(db)).toBe(false)
      left.push(job.left)
    }
    expect(stamped(db)).toBe(true)
    expect(job.left).toBe(0)
    const known = left.filter(Number.isFinite)
    const words = known[0]!
    expect(words).toBeGreaterThan(20)
    expect(left.length - known.length).toBe(1)
    expect(known.slice(-(words - 1))).toEqual(Array.from({ length: words - 1 }, (_, i) => words - 1 - i))
    const inSteps = rows()
    db.transaction(() => storeSearchAnswers(db, storeMore)).immediate()
    expect(inSteps).toEqual(rows())

    // A change between two steps: the job stops, nothing is stored as holding, searches are computed.
    const stopped = start()
    while (!Number.isFinite(stopped.left) || stopped.left === words) expect(step(db, stopped)).toBe(false)
    db.transaction(() => bumpCatalogueVersion(db)).immediate()
    expect(step(db, stopped)).toBe(true)
    expect(stamped(db)).toBe(false)
    const computed = { ...storeMore, storeLength: 0 }
    expect(searchArtists(db, 'dj', 'all', false, 0, 50, storeMore)).toEqual(searchArtists(db, 'dj', 'all', false, 0, 50, computed))
    // The next sync's end stores them all again.
    db.transaction(() => (bumpCatalogueVersion(db), optimizeSearchIndex(db, storeMore))).immediate()
    expect(stamped(db)).toBe(true)
    expect(rows()).toHaveLength(inSteps.length)
    db.close()
  })

  cacheTest('answer every search right between the steps of an upkeep that merges the index and stores every answer, on another connection too', ({ tempDir, largeCache }) => {
    const file = path.join(tempDir(), 'large.sqlite')
    const { db, artists } = largeCache(file)
    db.transaction(() => optimizeSearchIndex(db, storeMore)).immediate()
    // A sync that rewrote a third of the bios, in batches: the index in many segments, every answer to store again.
    const edited = artists.filter((a) => a.id % 3 === 0)
    const setBio = db.prepare('UPDATE artists SET pf_bio = ? WHERE id = ?')
    for (let i = 0; i < edited.length; i += 50) {
      db.transaction(() => {
        for (const artist of edited.slice(i, i + 50)) setBio.run((artist.bio = `${artist.bio} zebra dj`), artist.id)
        bumpCatalogueVersion(db)
      }).immediate()
    }
    expect(segments(db)).toBeGreaterThan(3)
    // What every search must answer all along: the same as computed before the upkeep began, and as the rule says.
    const reader = openReadConnection(file)
    const computed = { ...storeMore, storeLength: 0 } // never reads stored answers
    const queries = ['a', 'dj', 'the', 'z', 'ze', 'zebra', 'al', 'p', 'echo'].flatMap((word) =>
      FILTERS.flatMap(({ kind, includeBlank }) => [[0, 50], [150, 50]].map(([offset, limit]) => ({ word, kind, includeBlank, offset: offset!, limit: limit! }))),
    )
    const truth = queries.map(({ word, kind, includeBlank, offset, limit }) => {
      const answer = searchArtists(db, word, kind, includeBlank, offset, limit, computed)!
      const expected = expectedOrder(artists, word, kind, includeBlank)
      expect(answer.total, word).toBe(expected.length)
      if (expected.length > storeMore.popularAbove) expect(answer.ids, word).toEqual(expected.slice(offset, offset + limit))
      return answer
    })
    const expectRight = (from: number, count: number): void => {
      for (let i = from; i < from + count; i++) {
        const { word, kind, includeBlank, offset, limit } = queries[i % queries.length]!
        for (const connection of [db, reader]) {
          expect(searchArtists(connection, word, kind, includeBlank, offset, limit, storeMore), `${word} ${kind} ${includeBlank} ${offset}`).toEqual(truth[i % queries.length])
        }
      }
    }
    // Steps of one piece each, the index merged a page at a time, its vocabulary read 256 terms at a time; every step
    // checks a few queries in turn, on both connections.
    const job = startSearchIndexUpkeep(db, storeMore, { mergePages: 1, sliceMs: 0 })
    let steps = 0
    let merges = 0
    while (!step(db, job)) {
      if (!Number.isFinite(job.left)) merges++
      expectRight(steps++ * 6, 6)
    }
    expect(merges).toBeGreaterThan(10)
    expect(segments(db)).toBe(1)
    expect(stamped(db)).toBe(true)
    expectRight(0, queries.length)
    // What a one-piece upkeep would have stored.
    const rows = (): unknown[] => db.prepare('SELECT * FROM search_answers ORDER BY word, kind, include_blank').all()
    const inSteps = rows()
    db.transaction(() => storeSearchAnswers(db, storeMore)).immediate()
    expect(rows()).toEqual(inSteps)
    db.prepare(`INSERT INTO artists_fts (artists_fts) VALUES ('integrity-check')`).run()
    reader.close()
    db.close()
  })

  cacheTest('give up the answers when another process changes the catalogue between two steps, and answer its change on every connection', ({ tempDir, largeCache }) => {
    const file = path.join(tempDir(), 'large.sqlite')
    const { db, artists } = largeCache(file)
    db.transaction(() => optimizeSearchIndex(db, storeMore)).immediate()
    const computed = { ...storeMore, storeLength: 0 }
    const moved = artists.find((a) => a.rank !== null && !a.gone && !a.blank && !/dj/i.test(`${a.username} ${a.name} ${a.bio}`))!
    db.transaction(() => (db.prepare('UPDATE artists SET rank_trending = -1 WHERE id = ?').run(moved.id), bumpCatalogueVersion(db))).immediate()
    const job = startSearchIndexUpkeep(db, storeMore)
    while (!Number.isFinite(job.left) || job.left > 10) expect(step(db, job)).toBe(false)
    // The CLI, say, renames an artist meanwhile: the words stored so far no longer hold.
    const other = openDatabase(file)
    other.transaction(() => (other.prepare(`UPDATE artists SET pf_name = 'DJ Other' WHERE id = ?`).run(moved.id), bumpCatalogueVersion(other))).immediate()
    expect(step(db, job)).toBe(true)
    expect(stamped(db)).toBe(false)
    for (const connection of [db, other]) {
      const page = searchArtists(connection, 'dj', 'all', false, 0, 50, storeMore)!
      expect(page).toEqual(searchArtists(connection, 'dj', 'all', false, 0, 50, computed))
      expect(page.ids[0]).toBe(moved.id)
    }
    // The next sync's end stores them again, on the new catalogue.
    db.transaction(() => optimizeSearchIndex(db, storeMore)).immediate()
    expect(stamped(db)).toBe(true)
    expect(searchArtists(other, 'dj', 'all', false, 0, 50, storeMore)!.ids[0]).toBe(moved.id)
    other.close()
    db.close()
  })
})

/** One step of a job, in a transaction of its own, one piece long. */
function step(db: Database, job: SearchAnswersJob): boolean {
  return db.transaction(() => job.step(0)).immediate()
}

/** Whether the stored answers are marked as holding for some catalogue version. */
function stamped(db: Database): boolean {
  return db.prepare(`SELECT count(*) FROM meta WHERE key = 'search_answers_for'`).pluck().get() === 1
}

/** How many segments the search index is in. */
function segments(db: Database): number {
  return db.prepare('SELECT count(DISTINCT segid) FROM artists_fts_idx').pluck().get() as number
}

/**
 * Search during a first sync, on the demo service on loopback whose list pages come slowly:
 * an artist of the first page is found as soon as its row can be listed, every artist listed
 * is found within a slice's time (SEARCH_SLICE_MS) of its row, the index grows by slices (not
 * page by page, and artists indexed that change are indexed again by the next slice, not row by
 * row), a search says how many artists it could see while the lists come, and once they are in
 * the index is exactly what a full rebuild builds.
 */
import Database from 'better-sqlite3'
import { describe, expect } from 'vitest'
import { openDatabase } from '../../../../src-main/core/db/connection'
import { rebuildSearchIndex } from '../../../../src-main/core/db/search'
import { SEARCH_SLICE_MS } from '../../../../src-main/core/sync/pipeline'
import type { ArtistPage } from '../../../../src-main/core/shared/types'
import { checkSearchIndex, searchIndexContent } from '../../support/cache'
import { catalogueTest } from '../../support/fixtures'

const ARTISTS = 800
const test = catalogueTest({ artists: ARTISTS, seed: 47, maxFileMb: 1 })
/** Room for a loaded machine between a slice's due time and the probe that sees it. */
const SLACK_MS = 750

describe('search during a first sync', () => {
  test('finds the artists listed within a slice of their rows, says how many it sees, and ends as a full rebuild', async ({ demo, openLibrary }) => {
    // About a third of a second per list page: the lists take a few seconds, several slices.
    demo.faults.add({ path: '/api/v1/artists', times: 10_000, fault: { kind: 'slow', bytesPerSecond: 120_000 } })
    const library = openLibrary({ syncProgressIntervalMs: 0 })
    const reader = new Database(library.cacheFile, { readonly: true })
    const indexed = reader.prepare('SELECT count(*) FROM artists_fts_docsize').pluck()
    const stored = reader.prepare('SELECT count(*) FROM artists').pluck()
    const mark = reader.prepare(`SELECT value FROM meta WHERE key = 'fts_indexed_upto'`).pluck()
    const staleNow = reader.prepare('SELECT count(*) FROM search_stale').pluck()
    let staleSeen = 0
    const inLists = (): boolean => library.sync.state.status === 'running' && library.sync.state.progress?.phase === 'lists'

    // The first rows to show, and a search for them at that moment.
    let first: { username: string; name: string; byUsername: ArtistPage; byName: ArtistPage } | undefined
    library.catalogue.onDidChange(() => {
      if (first !== undefined || !inLists()) return
      const row = library.catalogue.list({ offset: 0, limit: 1 }).artists[0]
      if (!row) return
      first = {
        username: row.username,
        name: row.name,
        byUsername: library.catalogue.list({ q: row.username, offset: 0, limit: 50 }),
        byName: library.catalogue.list({ q: row.name, offset: 0, limit: 50 }),
      }
    })

    // Every 40 ms of the lists: the rows listed (as the trending list shows them), when each was first seen, and when a search first found it.
    const seenAt = new Map<string, number>()
    const followed = new Set<string>()
    const foundAt = new Map<string, number>()
    const marks = new Set<string>()
    const counts: { searchable: number | undefined; indexed: number; stored: number }[] = []
    let listsStarted: number | undefined
    let listsEnded: number | undefined
    const probe = setInterval(() => {
      if (!inLists()) {
        if (listsStarted !== undefined) listsEnded ??= performance.now()
        return
      }
      const now = performance.now()
      listsStarted ??= now
      const listed = library.catalogue.list({ offset: 0, limit: 1000, includeBlank: true })
      // One artist of the rows new at this look is followed (following all would take longer than a look).
      const fresh = listed.artists.find((artist) => !seenAt.has(artist.username))
      for (const artist of listed.artists) if (!seenAt.has(artist.username)) seenAt.set(artist.username, now)
      if (fresh) followed.add(fresh.username)
      for (const username of [...followed].filter((name) => !foundAt.has(name))) {
        const page = library.catalogue.list({ q: username, offset: 0, limit: 50, includeBlank: true })
        counts.push({ searchable: page.searchable, indexed: indexed.get() as number, stored: stored.get() as number })
        if (page.artists.some((artist) => artist.username === username)) foundAt.set(username, now)
      }
      const value = mark.get() as string | undefined
      if (value !== undefined) marks.add(value)
      staleSeen = Math.max(staleSeen, staleNow.get() as number)
    }, 40)
    const report = await library.sync.start({ concurrency: 4, skipAvatars: true })
    clearInterval(probe)
    listsEnded ??= performance.now()

    // An artist of the first page: found by its username and by its name as soon as its row could be listed.
    expect(first).toBeDefined()
    for (const page of [first!.byUsername, first!.byName]) {
      expect(page.artists.map((artist) => artist.username)).toContain(first!.username)
      expect(page.searchable).toBeGreaterThan(0)
      expect(page.searchable).toBeLessThan(ARTISTS)
    }

    // While the lists come, a search says how many artists it sees: those in the index, never more than are stored.
    expect(counts.length).toBeGreaterThan(10)
    for (const count of counts) {
      expect(count.searchable).toBe(count.indexed)
      expect(count.searchable).toBeLessThanOrEqual(count.stored)
    }
    expect(counts.some((count) => count.searchable! < count.stored)).toBe(true)

    // Each artist listed was found within a slice of its row.
    expect(seenAt.size).toBeGreaterThan(ARTISTS / 2)
    expect(followed.size).toBeGreaterThan(5)
    expect([...followed].filter((username) => !foundAt.has(username))).toEqual([])
    const lags = [...followed].map((username) => foundAt.get(username)! - seenAt.get(username)!)
    expect(Math.max(...lags)).toBeLessThanOrEqual(SEARCH_SLICE_MS + SLACK_MS)

    // By slices, not page by page: at most about one a second.
    const listsMs = listsEnded - listsStarted!
    expect(listsMs).toBeGreaterThan(2 * SEARCH_SLICE_MS)
    expect(marks.size).toBeGreaterThan(1)
    expect(marks.size).toBeLessThanOrEqual(Math.ceil(listsMs / SEARCH_SLICE_MS) + 1)
    expect(marks.size).toBeLessThan(report.listPages / 4)
    // Artists indexed already changed (podcasters found on a later page): the next slice took them again.
    expect(staleSeen).toBeGreaterThan(0)

    // Once the lists are in: every artist, no longer partial.
    const after = library.catalogue.list({ q: first!.username, offset: 0, limit: 50 })
    expect(after.artists.map((artist) => artist.username)).toContain(first!.username)
    expect(after).not.toHaveProperty('searchable')
    reader.close()
    await library.dispose()

    // The index grown by slices holds exactly what a full rebuild builds.
    const db = openDatabase(library.cacheFile)
    checkSearchIndex(db)
    const grown = searchIndexContent(db)
    db.transaction(() => rebuildSearchIndex(db)).immediate()
    expect(grown).toEqual(searchIndexContent(db))
    db.close()
    demo.faults.clear()
  })
})

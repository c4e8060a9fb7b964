/**
 * The search index of a first sync, which grows a slice at a time while its lists come in
 * (db/search.ts, migration 0014): a slice makes the artists stored so far searchable, the
 * artists indexed stay exact as later pages and details change them, a search says how many
 * artists it could see, and the end of the lists leaves the index a full rebuild would build.
 */
import path from 'node:path'
import BetterSqlite3, { type Database } from 'better-sqlite3'
import { describe, expect } from 'vitest'
import type { ArtistDetailRecord, ListedArtistRecord } from '../../../../src-main/core/db/artist-records'
import { listArtists } from '../../../../src-main/core/db/artists'
import { openDatabase } from '../../../../src-main/core/db/connection'
import { recordDetails } from '../../../../src-main/core/db/detail-store'
import { clearCatalogue } from '../../../../src-main/core/db/maintenance'
import { readMeta } from '../../../../src-main/core/db/meta'
import { indexArtistsSoFar, rebuildSearchIndex } from '../../../../src-main/core/db/search'
import { applyLists, detailWantedFor, endRun, recordListPage, startOrResumeRun } from '../../../../src-main/core/db/sync-store'
import { artistListQuerySchema } from '../../../../src-main/core/shared/arguments'
import type { ArtistListQuery, ArtistPage } from '../../../../src-main/core/shared/types'
import { parseArguments } from '../../../../src-main/core/shared/validation'
import { checkSearchIndex, searchIndexContent } from '../../support/cache'
import { test } from '../../support/fixtures'

const entry = (username: string, name = username, bio = ''): ListedArtistRecord => ({
  username,
  num_tracks: 2,
  pf_name: name,
  pf_facebook: null,
  pf_twitter: null,
  pf_website: null,
  pf_bio: bio,
  avatar: '',
  avatar_thumb: '',
  location: { id: 1, name: 'Reykjavík' },
  user: { username },
  items: [],
})

const search = (db: Database, q: string, query: Partial<ArtistListQuery> = {}): ArtistPage =>
  listArtists(db, parseArguments(artistListQuerySchema, { q, ...query }))
const found = (db: Database, q: string, query: Partial<ArtistListQuery> = {}): string[] => search(db, q, query).artists.map((artist) => artist.username)
const slice = (db: Database): number => db.transaction(() => indexArtistsSoFar(db)).immediate()
const indexed = (db: Database): number => db.prepare('SELECT count(*) FROM artists_fts_docsize').pluck().get() as number
/** Artists indexed whose entry the next slice replaces. */
const stale = (db: Database): string[] =>
  db.prepare('SELECT username FROM artists WHERE id IN (SELECT id FROM search_stale) ORDER BY username').pluck().all() as string[]

describe('the search index of a first sync', () => {
  test('grows a slice at a time, says how many artists a search sees, stays exact, and ends as a full rebuild', ({ tempDir }) => {
    const db = openDatabase(path.join(tempDir(), 'cache.sqlite'))
    const { run } = startOrResumeRun(db, 1)
    expect(run.initial).toBe(true)

    // The first page, stored: listed at once, searchable once a slice took it.
    recordListPage(db, run.id, 'trending', 1, 2, 2, [entry('ann', 'Ann Aurora'), entry('bob', 'Bob Ember')], true)
    expect(search(db, 'aurora')).toMatchObject({ total: 0, searchable: 0 })
    expect(slice(db)).toBe(2)
    expect(search(db, 'aurora')).toMatchObject({ total: 1, searchable: 2 })
    expect(found(db, 'aurora')).toEqual(['ann'])
    // Folded as the full index folds: case, marks.
    expect(found(db, 'REYKJAVIK')).toEqual(['ann', 'bob'])
    expect(slice(db)).toBe(0)

    // The next page waits for the next slice; the artists indexed already answer meanwhile.
    recordListPage(db, run.id, 'trending', 2, 2, 2, [entry('cat', 'Cat Ψυχή')], true)
    expect(search(db, 'ψυχη')).toMatchObject({ total: 0, searchable: 2 })
    expect(search(db, 'bob')).toMatchObject({ total: 1, searchable: 2 })

    // Artists indexed already change: a later pass finds ann a podcaster, a detail renames bob.
    // Until the next slice they are found as they were; then as they are (in bulk with the new rows).
    recordListPage(db, run.id, 'podcasters', 1, 1, 50, [entry('ann', 'Ann Aurora')], true)
    const renamed: ArtistDetailRecord = { ...entry('bob', 'Bob Quasar'), items: [] }
    recordDetails(db, [{ wanted: detailWantedFor(db, 'bob')!, detail: renamed, fetchedAt: 2 }], run.id)
    expect(found(db, 'aurora', { kind: 'musicians' })).toEqual(['ann'])
    expect(found(db, 'ember')).toEqual(['bob'])
    expect(found(db, 'quasar')).toEqual([])
    expect(stale(db)).toEqual(['ann', 'bob'])

    expect(slice(db)).toBe(3)
    expect(stale(db)).toEqual([])
    expect(found(db, 'aurora', { kind: 'podcasts' })).toEqual(['ann'])
    expect(found(db, 'aurora', { kind: 'musicians' })).toEqual([])
    expect(found(db, 'quasar')).toEqual(['bob'])
    expect(found(db, 'ember')).toEqual([])
    expect(search(db, 'ψυχη')).toMatchObject({ total: 1, searchable: 3 })
    expect(indexed(db)).toBe(3)
    checkSearchIndex(db)

    // A change after the last slice: the end of the lists indexes it too.
    recordDetails(db, [{ wanted: detailWantedFor(db, 'cat')!, detail: { ...entry('cat', 'Cat Ψυχή', 'Plays the theremin'), items: [] }, fetchedAt: 2 }], run.id)
    expect(found(db, 'theremin')).toEqual([])

    // The last pages, and the end of the lists: every artist, no longer partial.
    recordListPage(db, run.id, 'top', 1, 1, 50, [entry('dan', 'Dan Nimbus'), entry('ann', 'Ann Aurora'), entry('bob', 'Bob Ember'), entry('cat', 'Cat Ψυχή')], true)
    recordListPage(db, run.id, 'recently_created', 1, 1, 50, [entry('dan', 'Dan Nimbus'), entry('ann', 'Ann Aurora'), entry('bob', 'Bob Ember'), entry('cat', 'Cat Ψυχή')], true)
    recordListPage(db, run.id, 'recently_updated', 1, 1, 50, [entry('dan', 'Dan Nimbus'), entry('ann', 'Ann Aurora'), entry('bob', 'Bob Ember'), entry('cat', 'Cat Ψυχή')], true)
    applyLists(db, run.id, 3)
    expect(readMeta(db, 'fts_rebuild_pending')).toBeNull()
    expect(readMeta(db, 'fts_indexed_upto')).toBeNull()
    const page = search(db, 'nimbus')
    expect(page.artists.map((artist) => artist.username)).toEqual(['dan'])
    expect(page).not.toHaveProperty('searchable')
    expect(found(db, 'aurora', { kind: 'podcasts' })).toEqual(['ann'])
    expect(found(db, 'theremin')).toEqual(['cat'])
    expect(stale(db)).toEqual([])
    checkSearchIndex(db)

    const grown = searchIndexContent(db)
    db.transaction(() => rebuildSearchIndex(db)).immediate()
    expect(grown).toEqual(searchIndexContent(db))
    db.close()
  })

  test('a plain list says nothing of the index; a later sync keeps the index by its triggers', ({ tempDir }) => {
    const db = openDatabase(path.join(tempDir(), 'cache.sqlite'))
    const { run } = startOrResumeRun(db, 1)
    recordListPage(db, run.id, 'trending', 1, 1, 50, [entry('ann', 'Ann Aurora')], true)
    expect(listArtists(db, parseArguments(artistListQuerySchema, {}))).not.toHaveProperty('searchable')
    // Text with no searchable word matches nothing, whatever the index holds.
    expect(search(db, '!!!')).not.toHaveProperty('searchable')
    applyLists(db, run.id, 2)
    endRun(db, run.id, 'completed', 2)
    expect(found(db, 'aurora')).toEqual(['ann'])

    // Not a first sync: no slices, every artist indexed as its row is stored.
    const second = startOrResumeRun(db, 3).run
    expect(second.initial).toBe(false)
    recordListPage(db, second.id, 'trending', 1, 1, 50, [entry('ann', 'Ann Aurora'), entry('eve', 'Eve Zenith')])
    expect(slice(db)).toBe(0)
    expect(search(db, 'zenith')).not.toHaveProperty('searchable')
    expect(found(db, 'zenith')).toEqual(['eve'])
    db.close()
  })

  test('a cache cleared during a first sync starts its index over', ({ tempDir }) => {
    const db = openDatabase(path.join(tempDir(), 'cache.sqlite'))
    const { run } = startOrResumeRun(db, 1)
    recordListPage(db, run.id, 'trending', 1, 1, 50, [entry('ann', 'Ann Aurora'), entry('bob', 'Bob Ember')], true)
    slice(db)
    clearCatalogue(db)
    expect(readMeta(db, 'fts_indexed_upto')).toBeNull()
    expect(indexed(db)).toBe(0)
    const again = startOrResumeRun(db, 2).run
    expect(again.initial).toBe(true)
    // The ids start over from 1: a mark left from before would have them indexed row by row, or twice.
    recordListPage(db, again.id, 'trending', 1, 1, 50, [entry('cat', 'Cat Ψυχή')], true)
    expect(search(db, 'ψυχη')).toMatchObject({ total: 0, searchable: 0 })
    expect(slice(db)).toBe(1)
    expect(search(db, 'ψυχη')).toMatchObject({ total: 1, searchable: 1 })
    db.close()
  })

  test('a cache that was filling when 0014 came is indexed whole at the end of its lists', ({ tempDir }) => {
    const file = path.join(tempDir(), 'cache.sqlite')
    const old = openDatabase(file)
    const { run } = startOrResumeRun(old, 1)
    recordListPage(old, run.id, 'trending', 1, 1, 50, [entry('ann', 'Ann Aurora'), entry('bob', 'Bob Ember')], true)
    old.close()
    // As the code before 0014 left it: the first sync under way, nothing indexed, and no mark.
    const before = new BetterSqlite3(file)
    // (and without the migrations after it, which the reopening applies again)
    before.exec(`DELETE FROM schema_migrations WHERE version >= 14; PRAGMA user_version = 13; ALTER TABLE downloads DROP COLUMN folder;
      DROP TRIGGER search_stale_insert; DROP TRIGGER search_stale_delete; DROP TRIGGER search_stale_update; DROP TABLE search_stale;
      INSERT INTO artists_fts (artists_fts) VALUES ('delete-all')`)
    expect(before.prepare(`SELECT count(*) FROM meta WHERE key = 'fts_indexed_upto'`).pluck().get()).toBe(0)
    before.close()
    const db = openDatabase(file)
    expect(search(db, 'aurora')).toMatchObject({ total: 0, searchable: 0 })
    applyLists(db, run.id, 2)
    expect(found(db, 'aurora')).toEqual(['ann'])
    const grown = searchIndexContent(db)
    db.transaction(() => rebuildSearchIndex(db)).immediate()
    expect(grown).toEqual(searchIndexContent(db))
    db.close()
  })

  test('an artist deleted or given an id at or below the mark while the cache fills is taken out, or in, by the next slice', ({ tempDir }) => {
    const db = openDatabase(path.join(tempDir(), 'cache.sqlite'))
    const { run } = startOrResumeRun(db, 1)
    recordListPage(db, run.id, 'trending', 1, 1, 50, [entry('ann', 'Ann Aurora'), entry('bob', 'Bob Ember')], true)
    expect(slice(db)).toBe(2)
    // The sync never does either; the index stays exact if something else does.
    const bob = db.prepare(`SELECT id FROM artists WHERE username = 'bob'`).pluck().get() as number
    db.prepare('DELETE FROM artists WHERE id = ?').run(bob)
    expect(found(db, 'ember')).toEqual([])
    recordListPage(db, run.id, 'trending', 2, 2, 50, [entry('cat', 'Cat Nimbus')], true)
    expect(db.prepare(`SELECT id FROM artists WHERE username = 'cat'`).pluck().get()).toBe(bob)
    expect(slice(db)).toBe(1)
    expect(found(db, 'nimbus')).toEqual(['cat'])
    expect(found(db, 'ember')).toEqual([])
    expect(indexed(db)).toBe(2)
    checkSearchIndex(db)
    db.close()
  })
})

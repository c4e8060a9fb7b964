import path from 'node:path'
import { describe, expect } from 'vitest'
import type { ArtistDetailRecord, ItemRecord, ListedArtistRecord } from '../../../../src-main/core/db/artist-records'
import { openDatabase } from '../../../../src-main/core/db/connection'
import { recordDetails } from '../../../../src-main/core/db/detail-store'
import { detailWantedFor, recordListPage, startOrResumeRun } from '../../../../src-main/core/db/sync-store'
import { test } from '../../support/fixtures'

const profile = (username: string): Omit<ListedArtistRecord, 'items'> => ({
  username,
  num_tracks: 2,
  pf_name: username,
  pf_facebook: null,
  pf_twitter: null,
  pf_website: null,
  pf_bio: '',
  avatar: '',
  avatar_thumb: '',
  location: null,
  user: null,
})
const item = (id: string, title: string): ItemRecord => ({
  id: `item-${id}`,
  title,
  subtype: 'track',
  upload: { id, created_at: '2026-01-01', bytes: 10, downloads: 0, hotlinks: 0, ext: 'mp3', hotlink_path: null },
  artist: null,
})

describe('storing list pages', () => {
  // Positions go in by a plain INSERT, and by the upsert that keeps the lower one where the artist has one already.
  test('an artist on two pages of one pass (the list moved while it was read) keeps its first position', ({ tempDir }) => {
    const db = openDatabase(path.join(tempDir(), 'cache.sqlite'))
    const { run } = startOrResumeRun(db, 1)
    const entry = (username: string): ListedArtistRecord => ({ ...profile(username), items: [] })
    recordListPage(db, run.id, 'top', 1, 2, 2, [entry('ann'), entry('bob')])
    // Page 2 again lists bob (unchanged, so known from page 1) and ann changed.
    recordListPage(db, run.id, 'top', 2, 2, 2, [entry('bob'), { ...entry('ann'), pf_name: 'Ann, renamed' }])
    const ranks = db.prepare(`SELECT a.username, position FROM sync_ranks JOIN artists a ON a.id = artist_id WHERE pass = 'top' ORDER BY position`).all()
    expect(ranks).toEqual([
      { username: 'ann', position: 0 },
      { username: 'bob', position: 1 },
    ])
    expect(db.prepare(`SELECT pf_name FROM artists WHERE username = 'ann'`).pluck().get()).toBe('Ann, renamed')
    db.close()
  })
})

describe('storing artists details', () => {
  // The tracks go in by a plain INSERT, and by OR REPLACE where an upload id is taken: the outcome is OR REPLACE's.
  test('an upload that moved to another artist, or that one detail lists twice, is stored once, as the last detail says', ({ tempDir }) => {
    const db = openDatabase(path.join(tempDir(), 'cache.sqlite'))
    const { run } = startOrResumeRun(db, 1)
    recordListPage(db, run.id, 'trending', 1, 1, 50, [{ ...profile('ann'), items: [] }, { ...profile('bob'), items: [] }])
    const detail = (username: string, items: ItemRecord[]): ArtistDetailRecord => ({ ...profile(username), items })
    const fetched = (username: string, items: ItemRecord[]) => ({ wanted: detailWantedFor(db, username)!, detail: detail(username, items), fetchedAt: 2 })

    recordDetails(db, [fetched('ann', [item('1', 'one'), item('2', 'two')])], run.id)
    recordDetails(db, [fetched('bob', [item('2', 'two, now bob’s'), item('3', 'three'), item('3', 'three again')])], run.id)

    const rows = db.prepare('SELECT upload_id AS id, a.username, position, title FROM tracks JOIN artists a ON a.id = artist_id ORDER BY upload_id').all()
    expect(rows).toEqual([
      { id: '1', username: 'ann', position: 0, title: 'one' },
      { id: '2', username: 'bob', position: 0, title: 'two, now bob’s' },
      { id: '3', username: 'bob', position: 2, title: 'three again' },
    ])
    db.close()
  })
})

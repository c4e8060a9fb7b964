/**
 * 0009-tracks-rowid: a cache at version 8 with artists, tracks of several syncs, downloads and
 * follows becomes one whose tracks are a rowid table, every row kept and every query that reads
 * tracks answering as before.
 */
import path from 'node:path'
import Database from 'better-sqlite3'
import * as v from 'valibot'
import { describe, expect } from 'vitest'
import { ARTIST_SET_CONDITIONS } from '../../../../src-main/core/db/artist-sets'
import { getArtist, getTrack, listArtists } from '../../../../src-main/core/db/artists'
import { openDatabase } from '../../../../src-main/core/db/connection'
import { listDownloadViews } from '../../../../src-main/core/db/downloads'
import { migrate, schemaVersion } from '../../../../src-main/core/db/migrate'
import { MIGRATIONS } from '../../../../src-main/core/db/migrations/index'
import { autoDownloadTracks, newTracksOfRun } from '../../../../src-main/core/db/new-tracks'
import { whatsNew } from '../../../../src-main/core/db/whats-new'
import { artistListQuerySchema } from '../../../../src-main/core/shared/arguments'
import { test } from '../../support/fixtures'

const TRACK_FIELDS = `upload_id, artist_id, position, item_id, title, subtype, created_at, bytes, downloads, hotlinks, ext,
  hotlink_path, item_artist, first_seen_run, changed_run`
const ARTISTS = ['ann', 'Bob', 'cleo', 'dax', 'eve', 'fin']

/** A version 8 cache: three completed syncs (the first filled it), six artists (one gone), their tracks, downloads and follows. */
function cacheAtVersion8(file: string): void {
  const db = new Database(file)
  migrate(db, MIGRATIONS, 8)
  expect(schemaVersion(db)).toBe(8)
  const run = db.prepare(`INSERT INTO sync_runs (id, started_at, finished_at, state, phase, initial) VALUES (?, ?, ?, 'completed', 'done', ?)`)
  run.run(1, 10, 11, 1)
  run.run(2, 20, 21, 0)
  run.run(3, 30, 31, 0)
  const artist = db.prepare(
    `INSERT INTO artists (id, username, username_key, num_tracks, pf_name, pf_bio, avatar, avatar_thumb, listed_items, list_signature, listed_run,
       rank_trending, rank_recently_updated, gone_at, first_seen_run, changed_run)
     VALUES (?, ?, ?, ?, ?, '', '', '', '[]', 'x', 3, ?, ?, ?, 1, ?)`,
  )
  const track = db.prepare(`INSERT INTO tracks (${TRACK_FIELDS}) VALUES (?, ?, ?, ?, ?, 'track', ?, ?, ?, ?, 'mp3', ?, ?, ?, ?)`)
  // Upload ids in no order of their artists, of different lengths (text order is not number order).
  let seed = 11
  ARTISTS.forEach((username, index) => {
    const id = index + 1
    const count = 2 + index * 3
    artist.run(id, username, username.toLowerCase(), count, username.toUpperCase(), index, ARTISTS.length - index, id === 5 ? 31 : null, 1 + (id % 3))
    for (let position = 0; position < count; position++) {
      seed = (seed * 7919 + 13) % 100_003
      const firstSeen = 1 + ((seed >> 3) % 3)
      const changed = seed % 4 === 0 ? null : Math.max(firstSeen, 1 + (seed % 3))
      track.run(String(seed * (1 + (seed % 2) * 10)), id, position, `item-${seed}`, `Song ${seed}`, `2026-0${1 + (seed % 9)}-1${seed % 10}T10:00:00+0${seed % 6}:00`,
        seed * 10, seed % 50, seed % 7, seed % 5 === 0 ? null : `/u/${seed}.mp3`, position % 4 === 0 ? `guest${seed % 3}` : null, firstSeen, changed)
    }
  })
  const uploads = db.prepare('SELECT upload_id FROM tracks ORDER BY upload_id').pluck().all() as string[]
  const download = db.prepare(
    `INSERT INTO downloads (upload_id, artist_username, title, url, target_path, state, bytes_total, created_at, queue_order)
     VALUES (?, 'x', 't', 'http://x/y.mp3', ?, ?, 10, 1, ?)`,
  )
  ;[uploads[0]!, uploads[5]!, uploads[9]!, uploads[9]!, '424242'].forEach((upload, index) =>
    download.run(upload, `/music/${index}.mp3`, index === 3 ? 'queued' : 'completed', index + 1),
  )
  db.prepare(`INSERT INTO enqueued_uploads (upload_id, first_at) SELECT DISTINCT upload_id, 1 FROM downloads`).run()
  db.prepare(`INSERT INTO follows (username_key, username, auto_download, followed_at, since_run) VALUES ('bob', 'Bob', 1, 1, 1), ('dax', 'dax', 0, 1, 2)`).run()
  db.close()
}

/** What the app reads of tracks, through its own queries. */
function answers(db: Database.Database): unknown {
  const uploads = db.prepare('SELECT upload_id FROM tracks ORDER BY upload_id').pluck().all() as string[]
  return {
    rows: db.prepare(`SELECT ${TRACK_FIELDS} FROM tracks ORDER BY upload_id`).all(),
    artists: ARTISTS.map((username) => getArtist(db, username)),
    tracks: [...uploads.filter((_, index) => index % 5 === 0), '424242'].map((upload) => getTrack(db, upload)),
    whatsNew: [whatsNew(db), whatsNew(db, 7)],
    newTracks: [newTracksOfRun(db, 2), newTracksOfRun(db, 3)],
    autoDownload: autoDownloadTracks(db),
    downloads: listDownloadViews(db, undefined, new Set()),
    downloaded: listArtists(db, v.parse(artistListQuerySchema, { only: 'downloaded', includeBlank: true })),
    downloadedIds: db.prepare(`SELECT id FROM artists WHERE ${ARTIST_SET_CONDITIONS.downloaded} ORDER BY id`).pluck().all(),
  }
}

function errorOf(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected a failure')
}

describe('0009-tracks-rowid', () => {
  test('rebuilds tracks as a rowid table, keeping every row, index and answer', ({ tempDir }) => {
    const file = path.join(tempDir(), 'cache.sqlite')
    cacheAtVersion8(file)
    const old = new Database(file, { readonly: true })
    const before = answers(old)
    expect(old.prepare(`SELECT wr FROM pragma_table_list WHERE name = 'tracks'`).pluck().get()).toBe(1)
    old.close()
    // Every query has something to answer: What's new whole and cut at 7 tracks, new tracks of follows, downloads.
    const { whatsNew: news, newTracks, autoDownload, downloadedIds } = before as {
      whatsNew: { mode: string; tracks: unknown[]; totalTracks: number }[]
      newTracks: { total: number }[]
      autoDownload: unknown[]
      downloadedIds: number[]
    }
    expect(news.map((page) => [page.mode, page.tracks.length, page.totalTracks])).toEqual([['changes', 29, 29], ['changes', 7, 29]])
    expect(newTracks.map((summary) => summary.total)).toEqual([1, 7])
    expect(autoDownload).toHaveLength(3)
    expect(downloadedIds).toEqual([4, 6])

    // The app's own open: WAL, foreign keys on, then the migration (and those after it).
    const db = openDatabase(file)
    expect(schemaVersion(db)).toBe(MIGRATIONS.length)
    expect(answers(db)).toEqual(before)
    expect(db.prepare('SELECT count(*) FROM tracks').pluck().get()).toBe(ARTISTS.reduce((sum, _, index) => sum + 2 + index * 3, 0))

    expect(db.prepare(`SELECT strict, wr FROM pragma_table_list WHERE name = 'tracks'`).get()).toEqual({ strict: 1, wr: 0 })
    expect(db.prepare(`SELECT name, pk FROM pragma_table_info('tracks') WHERE pk = 1`).get()).toEqual({ name: 'id', pk: 1 })
    expect(db.prepare(`SELECT name FROM pragma_index_list('tracks') ORDER BY name`).pluck().all()).toEqual([
      'sqlite_autoindex_tracks_1', 'tracks_by_artist', 'tracks_by_changed_run',
    ])
    expect(db.prepare(`SELECT name FROM pragma_index_info('tracks_by_changed_run')`).pluck().all()).toEqual(['changed_run', 'upload_id'])
    expect(db.prepare(`SELECT "table", "from", "to", on_delete FROM pragma_foreign_key_list('tracks')`).all()).toEqual([
      { table: 'artists', from: 'artist_id', to: 'id', on_delete: 'CASCADE' },
    ])
    expect(db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'tracks_new' OR sql LIKE '%tracks_new%'`).pluck().get()).toBe(0)
    expect(db.pragma('foreign_key_check')).toEqual([])
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')

    // An upload id is still one track; STRICT still refuses a wrong type.
    const taken = (before as { rows: { upload_id: string }[] }).rows[0]!.upload_id
    const insert = db.prepare(`INSERT INTO tracks (upload_id, artist_id, position, title, subtype) VALUES (?, ?, 0, 't', 'track')`)
    expect(errorOf(() => insert.run(taken, 1))).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' })
    expect(() => insert.run('777', 99)).toThrow(/FOREIGN KEY/)
    expect(() => db.prepare(`UPDATE tracks SET bytes = 'big'`).run()).toThrow(/cannot store TEXT value in INTEGER column/)
    db.close()
  })

  test('migrates an empty cache too', () => {
    const db = new Database(':memory:')
    migrate(db, MIGRATIONS, 8)
    expect(migrate(db, MIGRATIONS, 9)).toEqual([9])
    expect(db.prepare('SELECT count(*) FROM tracks').pluck().get()).toBe(0)
    expect(db.prepare(`SELECT wr FROM pragma_table_list WHERE name = 'tracks'`).pluck().get()).toBe(0)
    db.close()
  })
})

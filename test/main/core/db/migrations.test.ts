import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect } from 'vitest'
import { openCache, openDatabase } from '../../../../src-main/core/db/connection'
import { migrate, schemaVersion } from '../../../../src-main/core/db/migrate'
import { MIGRATIONS, type Migration } from '../../../../src-main/core/db/migrations/index'
import { searchMatch } from '../../../../src-main/core/db/search'
import { SchemaMismatchError, SchemaTooNewError } from '../../../../src-main/core/shared/errors'
import { test } from '../../support/fixtures'

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex')

/** A database at schema version n (an empty one when n is 0), in memory. */
function databaseAt(version: number): Database.Database {
  const db = new Database(':memory:')
  migrate(db, MIGRATIONS, version)
  expect(schemaVersion(db)).toBe(version)
  return db
}

const insertArtist = (db: Database.Database, id: number, username: string, name: string, bio = ''): void => {
  db.prepare(
    `INSERT INTO artists (id, username, username_key, num_tracks, pf_name, pf_bio, avatar, avatar_thumb, listed_items, list_signature, listed_run)
     VALUES (?, ?, ?, 1, ?, ?, '', '', '[]', 'x', 1)`,
  ).run(id, username, username.toLowerCase(), name, bio)
}

/** Ids the search index finds for what a user typed, folded and matched as the offline search does. */
const searchIds = (db: Database.Database, typed: string): number[] =>
  db.prepare('SELECT rowid FROM artists_fts WHERE artists_fts MATCH ? ORDER BY rowid').pluck().all(searchMatch(typed)) as number[]

describe('migrations', () => {
  test('are numbered 1, 2, 3... in order', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1))
    for (const migration of MIGRATIONS) expect(migration.name).toMatch(new RegExp(`^${String(migration.version).padStart(4, '0')}-`))
  })

  test('refuse a database written by newer code, and leave it untouched', ({ tempDir }) => {
    const db = new Database(path.join(tempDir(), 'newer.sqlite'))
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`)
    expect(() => migrate(db)).toThrow(SchemaTooNewError)
    expect(() => migrate(db)).toThrow(/newer Tuneshelf .*update Tuneshelf/)
    expect(schemaVersion(db)).toBe(MIGRATIONS.length + 1)
    expect(db.prepare(`SELECT count(*) FROM sqlite_schema`).pluck().get()).toBe(0)
    db.close()
  })

  test('run once: a second migrate applies nothing', () => {
    const db = new Database(':memory:')
    expect(migrate(db)).toEqual(MIGRATIONS.map((m) => m.version))
    expect(migrate(db)).toEqual([])
    db.close()
  })
})

describe('checksums', () => {
  test('are recorded for every migration: SHA-256 of its SQL text', () => {
    const db = databaseAt(MIGRATIONS.length)
    const recorded = db.prepare('SELECT version, name, checksum FROM schema_migrations ORDER BY version').all()
    expect(recorded).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name, checksum: sha256(m.sql) })))
    db.close()
  })

  test('refuse a cache whose applied migration differs from the code, saying what to do, and leave nothing applied', () => {
    const db = databaseAt(2)
    const changed: Migration[] = MIGRATIONS.map((m) => (m.version === 2 ? { ...m, sql: `${m.sql}\n    -- edited after release\n` } : m))
    expect(() => migrate(db, changed)).toThrow(SchemaMismatchError)
    expect(() => migrate(db, changed)).toThrow(/migration 2 \(0002-downloads\).*Move the cache file aside \(or delete it\) and sync again/)
    expect(schemaVersion(db)).toBe(2)
    expect(db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'locks'`).pluck().get()).toBe(0)
    // The code's own migrations still open it.
    expect(migrate(db)).toEqual(MIGRATIONS.filter((m) => m.version > 2).map((m) => m.version))
    db.close()
  })

  test('refuse, through openCache, a cache file whose recorded checksum differs, and leave the file untouched', ({ tempDir }) => {
    const dir = tempDir()
    const baseUrl = 'http://127.0.0.1:9'
    const cache = openCache(dir, baseUrl)
    cache.db.prepare(`INSERT INTO access_levels VALUES (1, 'Free', 100, 0, 30, 2)`).run()
    cache.close()
    const tamper = new Database(cache.file)
    tamper.prepare(`UPDATE schema_migrations SET checksum = ? WHERE version = 3`).run(sha256('another migration 3'))
    tamper.close()
    const folder = path.dirname(cache.file)
    const before = { files: fs.readdirSync(folder), digest: sha256(fs.readFileSync(cache.file)) }
    expect(before.files).toEqual([path.basename(cache.file)])

    let refusal: unknown
    try {
      openCache(dir, baseUrl)
    } catch (error) {
      refusal = error
    }
    expect(refusal).toBeInstanceOf(SchemaMismatchError)
    expect(refusal).toMatchObject({ code: 'schema_mismatch', name: 'SchemaMismatchError' })
    const message = (refusal as Error).message
    expect(message).toMatch(/migration 3 \(0003-download-states\)/)
    expect(message).toContain(`Move the cache file ${cache.file} aside (or delete it) and sync again`)
    // Not taken for a damaged file: nothing moved aside, nothing written.
    expect(fs.readdirSync(folder)).toEqual(before.files)
    expect(sha256(fs.readFileSync(cache.file))).toBe(before.digest)
  })

  test('of a cache made before checksums existed are adopted, and the cache is migrated to the latest', ({ tempDir }) => {
    const file = path.join(tempDir(), 'legacy.sqlite')
    // What Tuneshelf wrote before schema_migrations: migrations 1 and 2 as they shipped, user_version 2.
    const legacy = new Database(file)
    legacy.pragma('journal_mode = WAL')
    legacy.exec(MIGRATIONS[0]!.sql)
    legacy.exec(MIGRATIONS[1]!.sql)
    legacy.pragma('user_version = 2')
    insertArtist(legacy, 7, 'vapor', 'Ａｅｓｔｈｅｔｉｃ')
    legacy
      .prepare(
        `INSERT INTO downloads (upload_id, artist_username, title, url, target_path, state, bytes_total, created_at)
         VALUES ('1000001', 'vapor', 't', 'http://x/y.mp3', '/tmp/t.mp3', 'canceled', 10, 1)`,
      )
      .run()
    legacy.close()

    const db = openDatabase(file)
    expect(schemaVersion(db)).toBe(MIGRATIONS.length)
    expect(db.prepare('SELECT version, name, checksum FROM schema_migrations ORDER BY version').all()).toEqual(
      MIGRATIONS.map((m) => ({ version: m.version, name: m.name, checksum: sha256(m.sql) })),
    )
    expect(db.prepare('SELECT state FROM downloads').pluck().all()).toEqual(['cancelled'])
    expect(searchIds(db, 'aesthetic')).toEqual([7])
    db.close()
    // Adopted checksums are checked like any others on the next open.
    const again = openDatabase(file)
    expect(migrate(again)).toEqual([])
    again.close()
  })
})

describe('0001-initial', () => {
  test('creates strict tables, the search index and its triggers', () => {
    const db = databaseAt(1)
    const strict = db
      .prepare(
        `SELECT name, strict FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'artists_fts%' AND name NOT LIKE 'sqlite_%'`,
      )
      .all() as { name: string; strict: number }[]
    expect(strict.map((t) => t.name).sort()).toEqual([
      'access_levels', 'artists', 'avatars', 'meta', 'schema_migrations', 'sync_pages', 'sync_ranks', 'sync_runs', 'tracks',
    ])
    for (const table of strict) expect(table.strict, table.name).toBe(1)
    db.prepare(
      `INSERT INTO artists (username, username_key, num_tracks, pf_name, pf_bio, avatar, avatar_thumb, listed_items, list_signature, listed_run, location_name)
       VALUES ('Björk_Fan', 'björk_fan', 1, 'Café Ünder', 'Line one\nMusik für Menschen', '', '', '[]', 'x', 1, 'Reykjavík')`,
    ).run()
    const search = (match: string): number => (db.prepare('SELECT count(*) AS n FROM artists_fts WHERE artists_fts MATCH ?').get(match) as { n: number }).n
    expect(search('"bjork"*')).toBe(1)
    expect(search('"cafe"')).toBe(1)
    expect(search('"fur"')).toBe(1)
    expect(search('"reykjavik"')).toBe(1)
    db.prepare(`UPDATE artists SET pf_name = 'Other Name'`).run()
    expect(search('"cafe"')).toBe(0)
    expect(search('"other"')).toBe(1)
    db.prepare('DELETE FROM artists').run()
    expect(search('"other"')).toBe(0)
    // STRICT: a wrong type is refused, not coerced.
    expect(() => db.prepare(`INSERT INTO access_levels VALUES (1, 'Free', 'lots', 0, 30, 2)`).run()).toThrow(/cannot store TEXT value in INTEGER column/)
    db.close()
  })

  test('keeps usernames unique without regard to case through username_key', () => {
    const db = databaseAt(1)
    const insert = db.prepare(
      `INSERT INTO artists (username, username_key, num_tracks, pf_name, pf_bio, avatar, avatar_thumb, listed_items, list_signature, listed_run)
       VALUES (?, ?, 0, '', '', '', '', '[]', 'x', 1)`,
    )
    insert.run('Ärzte', 'ärzte')
    expect(() => insert.run('ÄRZTE', 'ÄRZTE'.toLowerCase())).toThrow(/UNIQUE/)
    db.close()
  })
})

describe('0002-downloads', () => {
  test('adds the download queue to a version 1 cache and keeps its data', () => {
    const db = databaseAt(1)
    db.prepare(`INSERT INTO access_levels VALUES (1, 'Free', 100, 0, 30, 2)`).run()
    expect(migrate(db, MIGRATIONS, 2)).toEqual([2])
    expect(schemaVersion(db)).toBe(2)
    expect(db.prepare('SELECT count(*) FROM access_levels').pluck().get()).toBe(1)
    const insert = db.prepare(
      `INSERT INTO downloads (upload_id, artist_username, title, url, target_path, state, bytes_total, created_at)
       VALUES ('1000001', 'a', 't', 'http://x/y.mp3', '/tmp/t.mp3', ?, 10, 1)`,
    )
    insert.run('queued')
    expect(() => insert.run('exploded')).toThrow(/CHECK constraint/)
    db.close()
  })
})

describe('0003-download-states', () => {
  const DISK_FULL = 'the disk at /music is full (ENOSPC: no space left on device, write); free some space, then resume the queue'

  test('spells cancelled one way and moves why a download is paused out of its error text, keeping every row', () => {
    const db = databaseAt(2)
    const insert = db.prepare(
      `INSERT INTO downloads (id, upload_id, artist_username, title, url, target_path, state, bytes_done, bytes_total, validator,
         sha256, error, created_at, started_at, finished_at)
       VALUES (@id, @upload, 'a', 'Title', 'http://x/y.mp3', '/music/y.mp3', @state, @done, 100, 'W/"etag"', NULL, @error, 11, 12, @finished)`,
    )
    const rows = [
      { id: 1, upload: '1000001', state: 'canceled', done: 40, error: null, finished: 20 },
      { id: 2, upload: '1000002', state: 'paused', done: 50, error: `paused: ${DISK_FULL}`, finished: null },
      { id: 3, upload: '1000003', state: 'paused', done: 60, error: null, finished: null },
      { id: 4, upload: '1000004', state: 'paused', done: 70, error: 'the connection was reset', finished: null },
      { id: 5, upload: '1000005', state: 'failed', done: 0, error: 'the service answered 404', finished: 21 },
      { id: 6, upload: '1000006', state: 'completed', done: 100, error: null, finished: 22 },
      { id: 7, upload: '1000007', state: 'queued', done: 0, error: null, finished: null },
    ]
    for (const row of rows) insert.run(row)
    db.prepare(`INSERT INTO download_months VALUES ('2026-11', 123)`).run()

    expect(migrate(db, MIGRATIONS, 3)).toEqual([3])
    expect(
      db.prepare('SELECT id, upload_id AS upload, state, pause_reason AS reason, bytes_done AS done, error FROM downloads ORDER BY id').all(),
    ).toEqual([
      { id: 1, upload: '1000001', state: 'cancelled', reason: null, done: 40, error: null },
      { id: 2, upload: '1000002', state: 'paused', reason: 'disk_full', done: 50, error: DISK_FULL },
      { id: 3, upload: '1000003', state: 'paused', reason: 'user', done: 60, error: null },
      { id: 4, upload: '1000004', state: 'paused', reason: 'user', done: 70, error: 'the connection was reset' },
      { id: 5, upload: '1000005', state: 'failed', reason: null, done: 0, error: 'the service answered 404' },
      { id: 6, upload: '1000006', state: 'completed', reason: null, done: 100, error: null },
      { id: 7, upload: '1000007', state: 'queued', reason: null, done: 0, error: null },
    ])
    // Every other column is carried over as it was.
    expect(db.prepare('SELECT DISTINCT validator, bytes_total, created_at, started_at FROM downloads').all()).toEqual([
      { validator: 'W/"etag"', bytes_total: 100, created_at: 11, started_at: 12 },
    ])
    expect(db.prepare('SELECT id, finished_at FROM downloads WHERE finished_at IS NOT NULL ORDER BY id').all()).toEqual([
      { id: 1, finished_at: 20 },
      { id: 5, finished_at: 21 },
      { id: 6, finished_at: 22 },
    ])
    expect(db.prepare('SELECT * FROM download_months').all()).toEqual([{ month: '2026-11', bytes: 123 }])
    // The queue's indexes are back on the rebuilt table.
    expect(db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'downloads' ORDER BY name`).pluck().all()).toEqual([
      'downloads_by_state',
      'downloads_by_upload',
    ])
    expect(db.pragma('foreign_key_check')).toEqual([])
    db.close()
  })

  test('checks that a reason is set exactly while paused, and only the new spelling', () => {
    const db = databaseAt(3)
    const insert = db.prepare(
      `INSERT INTO downloads (upload_id, artist_username, title, url, target_path, state, pause_reason, bytes_total, created_at)
       VALUES ('1000001', 'a', 't', 'http://x/y.mp3', '/tmp/t.mp3', ?, ?, 10, 1)`,
    )
    insert.run('paused', 'user')
    insert.run('paused', 'disk_full')
    insert.run('queued', null)
    insert.run('cancelled', null)
    expect(() => insert.run('paused', null)).toThrow(/CHECK constraint/)
    expect(() => insert.run('queued', 'user')).toThrow(/CHECK constraint/)
    expect(() => insert.run('completed', 'disk_full')).toThrow(/CHECK constraint/)
    expect(() => insert.run('paused', 'bored')).toThrow(/CHECK constraint/)
    expect(() => insert.run('canceled', null)).toThrow(/CHECK constraint/)
    expect(() => db.prepare(`UPDATE downloads SET state = 'queued' WHERE pause_reason = 'user'`).run()).toThrow(/CHECK constraint/)
    expect(db.prepare('SELECT count(*) FROM downloads').pluck().get()).toBe(4)
    db.close()
  })
})

describe('0004-folded-search', () => {
  test('re-indexes the artists folded as the service folds them, in every script', () => {
    const db = databaseAt(3)
    insertArtist(db, 1, 'vapor', 'Ａｅｓｔｈｅｔｉｃ')
    insertArtist(db, 2, 'psyche', 'Ψυχή Band')
    insertArtist(db, 3, 'iceland', 'Björk Guðmundsdóttir Tribute')
    insertArtist(db, 4, 'other', 'Quiet Harbor', 'Sometimes plays near the bjorkvik harbour')
    // The index of 0001 splits fullwidth letters apart and keeps Greek accents.
    expect(searchIds(db, 'aesthetic')).toEqual([])
    expect(searchIds(db, 'ψυχη')).toEqual([])

    expect(migrate(db, MIGRATIONS, 4)).toEqual([4])
    for (const [typed, ids] of [
      ['a', [1]], ['aes', [1]], ['aesthetic', [1]], ['AESTHETIC', [1]], ['Ａｅｓ', [1]],
      ['ψ', [2]], ['ψυχ', [2]], ['ψυχη', [2]], ['ΨΥΧΉ', [2]], ['ψυχή band', [2]],
      ['b', [2, 3, 4]], ['bjo', [3, 4]], ['bjork', [3, 4]], ['BJÖRK', [3, 4]], ['bjork gu', [3]], ['guðmundsdottir', [3]],
    ] as const) {
      expect(searchIds(db, typed), typed).toEqual(ids)
    }
    // Only what the text holds, as a word's beginning.
    for (const typed of ['esthetic', 'aesthetics', 'ψυχηs', 'υχη', 'bjorkk', 'jork', 'gudmundsdottir', 'björk band', 'xylophone']) {
      expect(searchIds(db, typed), typed).toEqual([])
    }
    db.close()
  })

  test('keeps the folded index in step with later inserts, updates and deletes', () => {
    const db = databaseAt(4)
    insertArtist(db, 1, 'vapor', 'Ａｅｓｔｈｅｔｉｃ')
    insertArtist(db, 2, 'psyche', 'Ψυχή')
    expect(searchIds(db, 'aesthetic')).toEqual([1])
    db.prepare(`UPDATE artists SET pf_name = 'Ｖａｐｏｒｗａｖｅ' WHERE id = 1`).run()
    expect(searchIds(db, 'aesthetic')).toEqual([])
    expect(searchIds(db, 'vaporw')).toEqual([1])
    // A new position in a sort order leaves the index alone; the artist stays findable.
    db.prepare(`UPDATE artists SET rank_top = 3 WHERE id = 2`).run()
    expect(searchIds(db, 'ψυχη')).toEqual([2])
    db.prepare('DELETE FROM artists WHERE id = 2').run()
    expect(searchIds(db, 'ψυχη')).toEqual([])
    db.prepare(`INSERT INTO artists_fts (artists_fts) VALUES ('integrity-check')`).run()
    expect(db.prepare('SELECT count(*) FROM artists_fts_docsize').pluck().get()).toBe(1)
    db.close()
  })
})

describe('0005-locks', () => {
  test('adds a strict table of named locks and keeps the data', () => {
    const db = databaseAt(4)
    insertArtist(db, 1, 'vapor', 'Ａｅｓｔｈｅｔｉｃ')
    expect(migrate(db, MIGRATIONS, 5)).toEqual([5])
    expect(db.prepare('SELECT username FROM artists').pluck().all()).toEqual(['vapor'])
    expect(searchIds(db, 'aesthetic')).toEqual([1])
    expect(db.prepare(`SELECT strict FROM pragma_table_list WHERE name = 'locks'`).pluck().get()).toBe(1)
    const insert = db.prepare('INSERT INTO locks (name, token, pid, host, acquired_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)')
    insert.run('sync', 'token-a', 1234, 'host-a', 1, 2)
    expect(() => insert.run('sync', 'token-b', 5678, 'host-b', 3, 4)).toThrow(/UNIQUE|PRIMARY KEY/)
    expect(() => insert.run('other', 'token-c', 'not a pid', 'host', 1, 1)).toThrow(/cannot store TEXT value in INTEGER column/)
    expect(() => db.prepare(`INSERT INTO locks (name, pid, host, acquired_at, heartbeat_at) VALUES ('x', 1, 'h', 1, 1)`).run()).toThrow(/NOT NULL/)
    db.close()
  })
})

describe('0006-whats-new', () => {
  test('adds when each artist and track appeared and changed (unknown for the rows already there) and which runs were first syncs', () => {
    const db = databaseAt(5)
    insertArtist(db, 1, 'vapor', 'Ａｅｓｔｈｅｔｉｃ')
    db.prepare(`INSERT INTO tracks (upload_id, artist_id, position, title, subtype) VALUES ('1000001', 1, 0, 'Song', 'track')`).run()
    db.prepare(`INSERT INTO sync_runs (started_at, state, phase) VALUES (1, 'completed', 'done')`).run()
    expect(migrate(db, MIGRATIONS, 6)).toEqual([6])
    expect(db.prepare('SELECT first_seen_run, changed_run FROM artists').get()).toEqual({ first_seen_run: null, changed_run: null })
    expect(db.prepare('SELECT first_seen_run, changed_run FROM tracks').get()).toEqual({ first_seen_run: null, changed_run: null })
    expect(db.prepare('SELECT initial FROM sync_runs').pluck().get()).toBe(0)
    expect(searchIds(db, 'aesthetic')).toEqual([1])
    expect(() => db.prepare(`UPDATE artists SET changed_run = 'soon'`).run()).toThrow(/cannot store TEXT value in INTEGER column/)
    db.close()
  })
})

describe('0007-search-answers', () => {
  test('adds the stored answers of broad searches (empty) and a narrow index of trending places by artist, and keeps the data', () => {
    const db = databaseAt(6)
    insertArtist(db, 1, 'vapor', 'Ａｅｓｔｈｅｔｉｃ')
    db.prepare('UPDATE artists SET rank_trending = 4 WHERE id = 1').run()
    expect(migrate(db, MIGRATIONS, 7)).toEqual([7])
    expect(searchIds(db, 'aesthetic')).toEqual([1])
    expect(db.prepare(`SELECT strict, wr FROM pragma_table_list WHERE name = 'search_answers'`).get()).toEqual({ strict: 1, wr: 1 })
    expect(db.prepare('SELECT count(*) FROM search_answers').pluck().get()).toBe(0)
    const insert = db.prepare('INSERT INTO search_answers (word, kind, include_blank, total, first_ids) VALUES (?, ?, ?, ?, ?)')
    insert.run('a', 'all', 1, 3, '[1,2,3]')
    insert.run('a', 'all', 0, 2, null)
    expect(() => insert.run('a', 'all', 1, 4, '[]')).toThrow(/UNIQUE|PRIMARY KEY/)
    expect(() => insert.run('b', 'all', 1, 'many', null)).toThrow(/cannot store TEXT value in INTEGER column/)
    // A search in trending order reads each match's place from the index, not its row.
    expect(db.prepare(`SELECT name FROM pragma_index_info('artists_trending_by_id')`).pluck().all()).toEqual(['id', 'rank_trending'])
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT artists_fts.rowid FROM artists_fts CROSS JOIN artists INDEXED BY artists_trending_by_id
         ON artists.id = artists_fts.rowid WHERE artists_fts MATCH ? ORDER BY artists.rank_trending`,
      )
      .all('"a"*') as { detail: string }[]
    expect(plan.map((row) => row.detail)).toContain('SEARCH artists USING COVERING INDEX artists_trending_by_id (id=?)')
    db.close()
  })
})

describe('0015-download-folders', () => {
  test('gives each download queued before it the folder its target was planned in: <folder>/<artist>/<file>', () => {
    const db = databaseAt(14)
    const insert = db.prepare(
      `INSERT INTO downloads (upload_id, artist_username, title, url, target_path, state, bytes_total, created_at, queue_order)
       VALUES (?, 'a', 't', 'http://x/y.mp3', ?, 'completed', 10, 1, ?)`,
    )
    insert.run('1000001', '/music/Blue Echo/Song [1000001].mp3', 1)
    insert.run('1000002', '/mnt/old disk/A (a)/B [1000002].ogg', 2)
    expect(migrate(db)).toEqual([15])
    expect(db.prepare('SELECT folder FROM downloads ORDER BY id').pluck().all()).toEqual(['/music', '/mnt/old disk'])
    db.close()
  })
})

describe('several processes opening one new cache at once', () => {
  test('migrate it once between them, each migration under the write lock', async ({ tempDir }) => {
    const connection = new URL('../../../../src-main/core/db/connection.ts', import.meta.url).href
    for (let round = 0; round < 3; round++) {
      const dataDir = tempDir()
      const script = `const { openCache } = await import(${JSON.stringify(connection)}); openCache(${JSON.stringify(dataDir)}, 'http://127.0.0.1:1').close()`
      const runs = Array.from(
        { length: 5 },
        () =>
          new Promise<{ code: number | null; stderr: string }>((resolve) => {
            const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] })
            let stderr = ''
            child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
            child.once('exit', (code) => resolve({ code, stderr }))
          }),
      )
      for (const run of await Promise.all(runs)) expect(run.code, run.stderr).toBe(0)
      const opened = openCache(dataDir, 'http://127.0.0.1:1')
      try {
        expect(schemaVersion(opened.db)).toBe(MIGRATIONS.length)
        expect(opened.db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all()).toEqual(MIGRATIONS.map((m) => m.version))
      } finally {
        opened.close()
      }
    }
  }, 60_000)
})

import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { SchemaTooNewError, migrate, schemaVersion } from '../../../../src-main/core/db/migrate'
import { MIGRATIONS } from '../../../../src-main/core/db/migrations/index'
import { useTempDir } from './temp-dir'

const tempDir = useTempDir()

describe('migrations', () => {
  it('are numbered 1, 2, 3... in order', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1))
    for (const migration of MIGRATIONS) expect(migration.name).toMatch(new RegExp(`^${String(migration.version).padStart(4, '0')}-`))
  })

  it('refuse a database written by newer code, and leave it untouched', () => {
    const db = new Database(path.join(tempDir(), 'newer.sqlite'))
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`)
    expect(() => migrate(db)).toThrow(SchemaTooNewError)
    expect(schemaVersion(db)).toBe(MIGRATIONS.length + 1)
    db.close()
  })

  it('run once: a second migrate applies nothing', () => {
    const db = new Database(':memory:')
    expect(migrate(db)).toEqual(MIGRATIONS.map((m) => m.version))
    expect(migrate(db)).toEqual([])
    db.close()
  })
})

describe('0001-initial', () => {
  it('creates strict tables, the search index and its triggers', () => {
    const db = new Database(':memory:')
    migrate(db, MIGRATIONS, 1)
    expect(schemaVersion(db)).toBe(1)
    const strict = db.prepare(`SELECT name, strict FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'artists_fts%' AND name NOT LIKE 'sqlite_%'`).all() as { name: string; strict: number }[]
    expect(strict.map((t) => t.name).sort()).toEqual(['access_levels', 'artists', 'avatars', 'meta', 'sync_pages', 'sync_ranks', 'sync_runs', 'tracks'])
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

  it('keeps usernames unique without regard to case through username_key', () => {
    const db = new Database(':memory:')
    migrate(db, MIGRATIONS, 1)
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
  it('adds the download queue to a version 1 cache and keeps its data', () => {
    const db = new Database(':memory:')
    migrate(db, MIGRATIONS, 1)
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

import path from 'node:path'
import { describe, expect } from 'vitest'
import { openDatabase } from '../../../../src-main/core/db/connection'
import { deleteMeta, incrementMeta, readMeta, writeMeta, writeMetaIfAbsent } from '../../../../src-main/core/db/meta'
import { relocation } from '../../../../src-main/core/library/relocation'
import { test } from '../../support/fixtures'

describe("the cache's notes about itself", () => {
  test('are read, replaced, kept when set only if absent, counted up and removed, key by key', ({ tempDir }) => {
    const db = openDatabase(path.join(tempDir(), 'cache.sqlite'))
    expect(readMeta(db, 'last_full_sync_at')).toBeNull()
    writeMeta(db, 'last_full_sync_at', '5')
    writeMeta(db, 'last_full_sync_at', '6')
    expect(readMeta(db, 'last_full_sync_at')).toBe('6')
    writeMetaIfAbsent(db, 'last_full_sync_at', '7')
    expect(readMeta(db, 'last_full_sync_at')).toBe('6')
    writeMetaIfAbsent(db, 'fts_rebuild_pending', '1')
    expect(readMeta(db, 'fts_rebuild_pending')).toBe('1')
    const before = readMeta(db, 'catalogue_version')
    incrementMeta(db, 'catalogue_version')
    incrementMeta(db, 'catalogue_version')
    expect(Number(readMeta(db, 'catalogue_version'))).toBe(Number(before ?? 0) + 2)
    expect(deleteMeta(db, 'fts_rebuild_pending')).toBe(true)
    expect(deleteMeta(db, 'fts_rebuild_pending')).toBe(false)
    expect(readMeta(db, 'fts_rebuild_pending')).toBeNull()
    expect(readMeta(db, 'last_full_sync_at')).toBe('6')
    db.close()
  })

  test("remember every origin a demo cache was served from, and move addresses on them to the current one", ({ tempDir }) => {
    const db = openDatabase(path.join(tempDir(), 'cache.sqlite'))
    relocation(db, 'http://127.0.0.1:4000')
    const relocate = relocation(db, 'http://127.0.0.1:5000/')
    expect(JSON.parse(readMeta(db, 'service_origins')!)).toEqual(['http://127.0.0.1:4000', 'http://127.0.0.1:5000'])
    expect(relocate('http://127.0.0.1:4000/hotlink/1.mp3?x=1')).toBe('http://127.0.0.1:5000/hotlink/1.mp3?x=1')
    // Addresses of other origins, and what is no address, stay as they are.
    expect(relocate('http://example.com/hotlink/1.mp3')).toBe('http://example.com/hotlink/1.mp3')
    expect(relocate('not an address')).toBe('not an address')
    db.close()
  })
})

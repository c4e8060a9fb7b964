import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { cacheFileFor, normaliseBaseUrl, openCache } from '../../../../src-main/core/db/connection'
import { useTempDir } from './temp-dir'

const tempDir = useTempDir()

describe('the cache file', () => {
  it('is one file per service, the same for equivalent spellings of its URL', () => {
    const dir = tempDir()
    expect(cacheFileFor(dir, 'HTTP://Example.COM:8080/api/')).toBe(cacheFileFor(dir, 'http://example.com:8080/api'))
    expect(cacheFileFor(dir, 'http://example.com:8080')).not.toBe(cacheFileFor(dir, 'http://example.com:8081'))
    expect(path.basename(cacheFileFor(dir, 'http://127.0.0.1:8787'))).toMatch(/^127\.0\.0\.1_8787-[0-9a-f]{12}\.sqlite$/)
    expect(normaliseBaseUrl('https://host/x/?q=1#h')).toBe('https://host/x')
    expect(() => normaliseBaseUrl('ftp://host')).toThrow(/http or https/)
    expect(() => normaliseBaseUrl('not a url')).toThrow(/not a valid URL/)
  })

  it('opens in WAL mode with the schema, and keeps two services apart', () => {
    const dir = tempDir()
    const a = openCache(dir, 'http://127.0.0.1:1')
    const b = openCache(dir, 'http://127.0.0.1:2')
    expect(a.db.pragma('journal_mode', { simple: true })).toBe('wal')
    a.db.prepare(`INSERT INTO access_levels VALUES (1, 'Free', 100, 0, 30, 2)`).run()
    expect(b.db.prepare('SELECT count(*) FROM access_levels').pluck().get()).toBe(0)
    expect(a.db.prepare(`SELECT value FROM meta WHERE key = 'base_url'`).pluck().get()).toBe('http://127.0.0.1:1')
    a.db.close()
    b.db.close()
    const again = openCache(dir, 'http://127.0.0.1:1')
    expect(again.recovered).toBeUndefined()
    expect(again.db.prepare('SELECT count(*) FROM access_levels').pluck().get()).toBe(1)
    again.db.close()
  })

  it('moves a corrupt file aside and starts afresh, with a message', () => {
    const dir = tempDir()
    const first = openCache(dir, 'http://127.0.0.1:3')
    first.db.prepare(`INSERT INTO access_levels VALUES (1, 'Free', 100, 0, 30, 2)`).run()
    first.db.close()
    // Scribble over the middle of the file, past the header.
    const fd = fs.openSync(first.file, 'r+')
    const size = fs.fstatSync(fd).size
    fs.writeSync(fd, Buffer.alloc(Math.min(8192, size - 4096), 0x5a), 0, undefined, 4096)
    fs.closeSync(fd)
    const opened = openCache(dir, 'http://127.0.0.1:3')
    expect(opened.recovered).toMatch(/damaged[\s\S]*moved to [\s\S]*\.corrupt-/)
    expect(opened.db.prepare('SELECT count(*) FROM access_levels').pluck().get()).toBe(0)
    expect(opened.db.pragma('quick_check', { simple: true })).toBe('ok')
    opened.db.close()
    const aside = fs.readdirSync(path.dirname(first.file)).filter((name) => name.includes('.corrupt-'))
    expect(aside.length).toBeGreaterThan(0)
  })

  it('recovers from a file that is not a database at all', () => {
    const dir = tempDir()
    const file = cacheFileFor(dir, 'http://127.0.0.1:4')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, 'this is not SQLite, just text that happens to be here'.repeat(100))
    const opened = openCache(dir, 'http://127.0.0.1:4')
    expect(opened.recovered).toMatch(/damaged/)
    expect(opened.db.prepare('SELECT count(*) FROM artists').pluck().get()).toBe(0)
    opened.db.close()
  })
})

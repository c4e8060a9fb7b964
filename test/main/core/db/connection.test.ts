import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, onTestFinished } from 'vitest'
import { listArtists } from '../../../../src-main/core/db/artists'
import { artistListQuerySchema } from '../../../../src-main/core/shared/arguments'
import { cacheFileFor, openCache } from '../../../../src-main/core/db/connection'
import { InvalidArgumentError, NotSyncedError, ReadOnlyError, SchemaMismatchError } from '../../../../src-main/core/shared/errors'
import { openLibrary } from '../../../../src-main/core/library/library'
import { parseArguments } from '../../../../src-main/core/shared/validation'
import { QUICK_RETRIES, catalogueTest } from '../../support/fixtures'
import { mountReadOnly, readOnlyMountRefusal, readOnlyMountSkipNote } from '../../support/mounts'

const test = catalogueTest({ artists: 40, seed: 12, maxFileMb: 1 })

const digest = (file: string): string => createHash('sha256').update(fs.readFileSync(file)).digest('hex')

describe('the cache file', () => {
  test('is one file per service, the same for equivalent spellings of its URL', ({ tempDir }) => {
    const dir = tempDir()
    expect(cacheFileFor(dir, 'HTTP://Example.COM:8080/api/')).toBe(cacheFileFor(dir, 'http://example.com:8080/api'))
    expect(cacheFileFor(dir, 'http://example.com:8080')).not.toBe(cacheFileFor(dir, 'http://example.com:8081'))
    expect(cacheFileFor(dir, 'http://example.com/a')).not.toBe(cacheFileFor(dir, 'http://example.com/b'))
    expect(path.basename(cacheFileFor(dir, 'http://127.0.0.1:8787'))).toMatch(/^127\.0\.0\.1_8787-[0-9a-f]{12}\.sqlite$/)
    expect(path.dirname(cacheFileFor('relative/data', 'http://127.0.0.1:8787'))).toBe(path.resolve('relative/data', 'catalogues'))
    // One URL rule: what the client would refuse has no cache either.
    expect(() => cacheFileFor(dir, 'ftp://host')).toThrow(InvalidArgumentError)
    expect(() => cacheFileFor(dir, 'ftp://host')).toThrow(/http or https/)
    expect(() => cacheFileFor(dir, 'not a url')).toThrow(/not a valid address/)
    expect(() => cacheFileFor(dir, 'https://host/x/?q=1#h')).toThrow(/query or a fragment/)
  })

  test('is shared by the password variants of a URL, and the password is stored nowhere', ({ tempDir }) => {
    const dir = tempDir()
    const secret = 'Sup3r-Secret-Pw'
    const withPassword = `http://ann:${secret}@127.0.0.1:5/catalogue`
    const file = cacheFileFor(dir, withPassword)
    expect(cacheFileFor(dir, 'http://ann:another-password@127.0.0.1:5/catalogue/')).toBe(file)
    expect(cacheFileFor(dir, 'http://ann@127.0.0.1:5/catalogue')).toBe(file)
    expect(cacheFileFor(dir, 'http://bob:x@127.0.0.1:5/catalogue')).not.toBe(file) // another account, another catalogue
    expect(file).not.toContain(secret)

    const cache = openCache(dir, withPassword)
    expect(cache.file).toBe(file)
    expect(cache.db.prepare(`SELECT value FROM meta WHERE key = 'base_url'`).pluck().get()).toBe('http://ann@127.0.0.1:5/catalogue')
    cache.close()
    const again = openCache(dir, 'http://ann:changed@127.0.0.1:5/catalogue')
    expect(again.file).toBe(file)
    expect(again.db.prepare(`SELECT value FROM meta`).pluck().all()).not.toContain(expect.stringContaining(secret))
    again.close()
    // Not in any byte of any file the cache left behind.
    const folder = path.dirname(file)
    for (const name of fs.readdirSync(folder)) {
      expect(name).not.toContain(secret)
      expect(fs.readFileSync(path.join(folder, name)).includes(secret), name).toBe(false)
    }
    expect(fs.readFileSync(file).includes('http://ann@127.0.0.1:5/catalogue')).toBe(true) // what is stored is readable
  })

  test('opens in WAL mode with the schema, and keeps two services apart', ({ tempDir }) => {
    const dir = tempDir()
    const a = openCache(dir, 'http://127.0.0.1:1')
    const b = openCache(dir, 'http://127.0.0.1:2')
    expect(a.readOnly).toBe(false)
    expect(a.db.pragma('journal_mode', { simple: true })).toBe('wal')
    a.db.prepare(`INSERT INTO access_levels VALUES (1, 'Free', 100, 0, 30, 2)`).run()
    expect(b.db.prepare('SELECT count(*) FROM access_levels').pluck().get()).toBe(0)
    expect(a.db.prepare(`SELECT value FROM meta WHERE key = 'base_url'`).pluck().get()).toBe('http://127.0.0.1:1')
    a.close()
    b.close()
    const again = openCache(dir, 'http://127.0.0.1:1')
    expect(again.recovered).toBeUndefined()
    expect(again.db.prepare('SELECT count(*) FROM access_levels').pluck().get()).toBe(1)
    again.close()
  })

  test('is never created by a reader: mustExist gives NotSyncedError and leaves the folder empty', ({ tempDir }) => {
    const dir = tempDir()
    let refusal: unknown
    try {
      openCache(dir, 'http://ann:pw@127.0.0.1:6', { mustExist: true })
    } catch (error) {
      refusal = error
    }
    expect(refusal).toBeInstanceOf(NotSyncedError)
    expect(refusal).toMatchObject({ code: 'not_synced' })
    expect((refusal as Error).message).toMatch(/nothing has been synced from http:\/\/ann@127\.0\.0\.1:6/)
    expect((refusal as Error).message).not.toContain(':pw@')
    expect(fs.readdirSync(dir)).toEqual([])
  })

  test('moves a corrupt file aside and starts afresh, with a message', ({ tempDir }) => {
    const dir = tempDir()
    const first = openCache(dir, 'http://127.0.0.1:3')
    first.db.prepare(`INSERT INTO access_levels VALUES (1, 'Free', 100, 0, 30, 2)`).run()
    first.close()
    // Scribble over the middle of the file, past the header.
    const fd = fs.openSync(first.file, 'r+')
    const size = fs.fstatSync(fd).size
    fs.writeSync(fd, Buffer.alloc(Math.min(8192, size - 4096), 0x5a), 0, undefined, 4096)
    fs.closeSync(fd)
    const opened = openCache(dir, 'http://127.0.0.1:3')
    expect(opened.recovered).toMatch(/damaged[\s\S]*moved to [\s\S]*\.corrupt-/)
    expect(opened.db.prepare('SELECT count(*) FROM access_levels').pluck().get()).toBe(0)
    expect(opened.db.pragma('quick_check', { simple: true })).toBe('ok')
    opened.close()
    const aside = fs.readdirSync(path.dirname(first.file)).filter((name) => name.includes('.corrupt-'))
    expect(aside.length).toBeGreaterThan(0)
  })

  test('recovers from a file that is not a database at all', ({ tempDir }) => {
    const dir = tempDir()
    const file = cacheFileFor(dir, 'http://127.0.0.1:4')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, 'this is not SQLite, just text that happens to be here'.repeat(100))
    const opened = openCache(dir, 'http://127.0.0.1:4')
    expect(opened.recovered).toMatch(/damaged/)
    expect(opened.db.prepare('SELECT count(*) FROM artists').pluck().get()).toBe(0)
    opened.close()
  })
})

const mountRefused = readOnlyMountRefusal()
const skipNote = readOnlyMountSkipNote()

describe('a data folder the app may only read', () => {
  test.skipIf(mountRefused !== undefined)(
    `is opened read-only from a snapshot: browsing works, writing is refused with read_only${skipNote}`,
    async ({ demo, openLibrary: openTestLibrary, tempDir }) => {
      const synced = openTestLibrary()
      await synced.sync.start({ skipAvatars: true })
      const artists = synced.catalogue.list({ includeBlank: true, perPage: 100 })
      expect(artists.total).toBe(40)
      const { dataDir } = synced
      const file = synced.cacheFile
      await synced.dispose()
      const before = digest(file)

      const readOnlyDir = tempDir()
      onTestFinished(mountReadOnly(dataDir, readOnlyDir))
      const readOnlyFile = cacheFileFor(readOnlyDir, demo.baseUrl)
      expect(fs.existsSync(readOnlyFile)).toBe(true)
      expect(() => fs.writeFileSync(path.join(readOnlyDir, 'probe'), 'x')).toThrow(/EROFS/)

      const cache = openCache(readOnlyDir, demo.baseUrl, { mustExist: true })
      try {
        expect(cache.readOnly).toBe(true)
        expect(cache.file).toBe(readOnlyFile)
        expect(cache.db.prepare('SELECT count(*) FROM artists').pluck().get()).toBe(40)
        expect(listArtists(cache.db, parseArguments(artistListQuerySchema, { includeBlank: true, perPage: 100 }))).toEqual(artists)
      } finally {
        cache.close()
      }

      const library = openLibrary({ dataDir: readOnlyDir, baseUrl: demo.baseUrl, mustExist: true, client: QUICK_RETRIES })
      try {
        expect(library.readOnly).toBe(true)
        expect(library.catalogue.status()).toMatchObject({ readOnly: true, artists: 40, baseUrl: demo.baseUrl })
        expect(library.catalogue.list({ includeBlank: true, perPage: 100 })).toEqual(artists)
        const someone = artists.artists[0]!.username
        expect(library.catalogue.artist(someone).username).toBe(someone)
        const refusal = library.sync.start({ skipAvatars: true })
        await expect(refusal).rejects.toBeInstanceOf(ReadOnlyError)
        await expect(refusal).rejects.toMatchObject({ code: 'read_only', message: expect.stringContaining(readOnlyDir) })
        await expect(library.downloads.enqueue({ artist: someone })).rejects.toMatchObject({ code: 'read_only' })
        expect(() => library.follows.follow(someone)).toThrow(expect.objectContaining({ code: 'read_only' }))
        expect(library.follows.list()).toEqual([])
        expect(library.sync.state.status).toBe('idle')
      } finally {
        await library.dispose()
      }
      // The snapshot took all the reading: the file in the read-only folder is as the sync left it.
      expect(digest(file)).toBe(before)
      expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)])
    },
  )

  test.skipIf(mountRefused !== undefined)(
    `names the user's file, not the snapshot, when it refuses a cache there${skipNote}`,
    ({ tempDir }) => {
      const dataDir = tempDir()
      const baseUrl = 'http://127.0.0.1:7'
      const cache = openCache(dataDir, baseUrl)
      cache.close()
      const tamper = new Database(cache.file)
      tamper.prepare(`UPDATE schema_migrations SET checksum = 'edited' WHERE version = 1`).run()
      tamper.close()
      const readOnlyDir = tempDir()
      onTestFinished(mountReadOnly(dataDir, readOnlyDir))
      let refusal: unknown
      try {
        openCache(readOnlyDir, baseUrl)
      } catch (error) {
        refusal = error
      }
      expect(refusal).toBeInstanceOf(SchemaMismatchError)
      expect((refusal as Error).message).toContain(`Move the cache file ${cacheFileFor(readOnlyDir, baseUrl)} aside`)
      expect((refusal as Error).message).not.toContain(os.tmpdir() + path.sep + 'tuneshelf-read-only-')
    },
  )
})

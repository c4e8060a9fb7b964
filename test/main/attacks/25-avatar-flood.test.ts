/**
 * Attack 25: a service filled the cache through its avatar thumbnails. Each
 * thumbnail could be 2 MiB, was kept on its Content-Type alone (the bytes were
 * 0x07..., no image at all), and stayed when the artist's address changed: with
 * 69 artists whose `?v=` changed at every sync, the cache grew by 138 MB a
 * sync, unattended on the scheduled check. Now a thumbnail is kept only when
 * its bytes are an image the window shows and it is small; a changed address
 * replaces the old image; the store has a budget, least recently used out first.
 *
 * The hostile service: the demo catalogue behind a front of the test's, which
 * adds `?v=<sync>` to every thumbnail address and answers the thumbnails itself.
 */
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { openCache } from '../../../src-main/core/db/connection'
import { syncCatalogue } from '../../../src-main/core/sync/sync'
import { formatBytes } from '../../../src-main/core/shared/format'
import { startRawServer, type RawServer } from '../core/api/helpers'
import { test, testClient } from '../support/fixtures'
import { startRelativeCatalogue, type RelativeCatalogue } from './relative-catalogue'

const ARTISTS = 69
const MIB = 1024 * 1024
const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex')

/** What the front answers for a thumbnail; every one comes as `image/png`. */
type Thumbnails = 'junk' | 'small-junk' | 'huge-png' | 'png'
const BODIES: Record<Thumbnails, Buffer> = {
  // The bytes of the report: 2 MiB of 0x07, no image of any kind.
  junk: Buffer.alloc(2 * MIB, 0x07),
  // The same, of a size a thumbnail may have.
  'small-junk': Buffer.alloc(100 * 1024, 0x07),
  // An image's magic, and far more than a thumbnail shown at 40-112 px ever needs.
  'huge-png': Buffer.concat([PNG_SIGNATURE, Buffer.alloc(2 * MIB - PNG_SIGNATURE.length)]),
  // An image of a size a thumbnail may have.
  png: Buffer.concat([PNG_SIGNATURE, Buffer.alloc(100 * 1024 - PNG_SIGNATURE.length, 1)]),
}

let inner: RelativeCatalogue
let front: RawServer
let version = 1
let thumbnails: Thumbnails = 'junk'

beforeAll(async () => {
  inner = await startRelativeCatalogue({ artists: ARTISTS, seed: 25, maxFileMb: 1 })
  front = await startRawServer((request, response) => {
    const url = request.url ?? '/'
    if (url.startsWith('/avatars/')) {
      response.writeHead(200, { 'content-type': 'image/png' }).end(BODIES[thumbnails])
      return
    }
    void fetch(`${inner.baseUrl}${url}`).then(async (answer) => {
      // Every thumbnail address gets this sync's `?v=`: a new address for every artist, every sync.
      const text = (await answer.text()).replace(/-thumb\.svg"/g, `-thumb.svg?v=${version}"`)
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text)
    })
  })
})

afterAll(async () => {
  await front?.close()
  await inner?.close()
})

/** The cache file and its log, as the disk holds them. */
function cacheFileBytes(file: string): number {
  return [file, `${file}-wal`].reduce((sum, name) => sum + (fs.statSync(name, { throwIfNoEntry: false })?.size ?? 0), 0)
}

/** Syncs (four by default), each with new thumbnail addresses; the avatar store and the cache's size after each. */
async function syncsOf(dataDir: string, kind: Thumbnails, count = 4) {
  thumbnails = kind
  const cache = openCache(dataDir, front.url)
  try {
    const after = []
    for (let sync = 1; sync <= count; sync++) {
      version++
      const report = await syncCatalogue({ db: cache.db, client: testClient(front.url) })
      const store = cache.db.prepare('SELECT count(*) AS rows, coalesce(sum(length(body)), 0) AS bytes FROM avatars').get() as { rows: number; bytes: number }
      const urls = cache.db.prepare('SELECT url FROM avatars').pluck().all() as string[]
      after.push({ report, ...store, urls, cacheBytes: cacheFileBytes(cache.file) })
    }
    return after
  } finally {
    cache.close()
  }
}

describe('a service whose avatar thumbnails would fill the disk', () => {
  test('2 MiB thumbnails of bytes that are no image are refused: the cache stays small over four syncs', { timeout: 120_000 }, async ({ tempDir }) => {
    const syncs = await syncsOf(tempDir(), 'junk')
    const sizes = syncs.map((sync) => formatBytes(sync.cacheBytes)).join(' → ')
    console.info(`attack 25: the cache after four syncs of 2 MiB non-image thumbnails with a new ?v= each: ${sizes}`)
    for (const sync of syncs) {
      expect(sync.rows).toBe(0)
      expect(sync.report.avatarsFetched).toBe(0)
      expect(sync.report.avatarFailures).toHaveLength(ARTISTS)
    }
    // It was 146 → 313 → 469 → 582 MB (cache and log): now the catalogue alone, a few megabytes.
    expect(syncs[3]!.cacheBytes).toBeLessThan(16 * MIB)
  })

  test('a small thumbnail of bytes that are no image is refused, whatever its Content-Type says', { timeout: 120_000 }, async ({ tempDir }) => {
    const [first] = await syncsOf(tempDir(), 'small-junk', 1)
    expect(first!.rows).toBe(0)
    expect(first!.report.avatarFailures).toHaveLength(ARTISTS)
    expect(first!.report.avatarFailures[0]!.message).toMatch(/is not an image/)
  })

  test('an image header in front of 2 MiB is refused as too large for a thumbnail', { timeout: 120_000 }, async ({ tempDir }) => {
    const [first] = await syncsOf(tempDir(), 'huge-png', 1)
    expect(first!.rows).toBe(0)
    expect(first!.report.avatarFailures).toHaveLength(ARTISTS)
    expect(first!.report.avatarFailures[0]!.message).toMatch(/larger than/)
  })

  test('an artist whose thumbnail address changes keeps one image: the new one replaces the old', { timeout: 120_000 }, async ({ tempDir }) => {
    const syncs = await syncsOf(tempDir(), 'png')
    const sizes = syncs.map((sync) => `${sync.rows} images, ${formatBytes(sync.bytes)} (file ${formatBytes(sync.cacheBytes)})`).join(' → ')
    console.info(`attack 25: the avatar store after four syncs of 100 KiB thumbnails with a new ?v= each: ${sizes}`)
    syncs.forEach((sync, index) => {
      expect(sync.report.avatarsFetched).toBe(ARTISTS)
      // One image an artist, each at this sync's address; none of the addresses before it.
      expect(sync.rows).toBe(ARTISTS)
      expect(sync.bytes).toBe(ARTISTS * BODIES.png.length)
      expect(sync.urls.every((url) => url.endsWith(`?v=${version - 3 + index}`))).toBe(true)
    })
    // The file reuses the room the replaced images left: no growth with every sync. (It holds two sets
    // once: a sync's new thumbnails come while its lists do, before the old ones are let go.)
    expect(syncs[3]!.cacheBytes).toBeLessThan(syncs[1]!.cacheBytes + 2 * MIB)
  })
})

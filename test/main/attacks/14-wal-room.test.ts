/**
 * Attack 14: a disk with little room. A sync let its write-ahead log grow to
 * 32 MB before copying it into the cache, so even a cache of a few megabytes
 * needed some 33 MB free, and a full disk's message did not say how much room
 * a sync takes. Now the log is checkpointed as the sync goes, in proportion to
 * the cache, and the disk-full message names the room a sync needs.
 */
import fs from 'node:fs'
import { describe, expect } from 'vitest'
import { cacheBytes } from '../../../src-main/core/db/wal'
import { DiskFullError } from '../../../src-main/core/shared/errors'
import { catalogueTest, smallDiskFixture } from '../support/fixtures'
import { integrityCheck, withCache } from '../core/sync/cache-file'

const MB = 1024 * 1024
const test = catalogueTest({ artists: 1500, seed: 14, maxFileMb: 2 }).extend('smallDisk', smallDiskFixture)

const NO_TMPFS = 'cannot mount a small tmpfs here (needs root): the full-disk test is skipped'

/** The size of a file now, 0 when it does not exist. */
function sizeOf(file: string): number {
  return fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0
}

/** What is written on the file system of folder. */
function usedBytes(folder: string): number {
  const { blocks, bfree, bsize } = fs.statfsSync(folder)
  return (blocks - bfree) * bsize
}

describe('the room a sync takes on its disk', () => {
  // Two syncs of a cache of several megabytes (the size is the point): more than 30 s on a busy machine.
  test('the write-ahead log stays a small part of what a sync writes, first sync and resync alike, and a clear gives the room back', { timeout: 120_000 }, async ({ openLibrary }) => {
    const library = openLibrary({ syncProgressIntervalMs: 0 })
    const wal = `${library.cacheFile}-wal`
    let largest = 0
    library.sync.onDidProgress(() => (largest = Math.max(largest, sizeOf(wal))))

    await library.sync.start()
    largest = Math.max(largest, sizeOf(wal))
    // A cache of some megabytes (counting what its log still holds), so its sync wrote many times the log's limit.
    const cache = withCache(library.cacheFile, cacheBytes)
    expect(cache).toBeGreaterThan(6 * MB)
    // The log's limit for a cache this size (4 MB), and one transaction beyond it; it was 32 MB.
    expect(largest).toBeLessThanOrEqual(8 * MB)

    // A resync that fetches every detail again rewrites the catalogue: its log stays as small.
    withCache(library.cacheFile, (db) => db.prepare('UPDATE artists SET detail_signature = NULL').run())
    largest = 0
    await library.sync.start()
    largest = Math.max(largest, sizeOf(wal))
    expect(largest).toBeLessThanOrEqual(8 * MB)
    expect(integrityCheck(library.cacheFile)).toBe('ok')

    // Clearing the catalogue gives its room back at once, log and all, not at the next checkpoint.
    await library.catalogue.clear()
    expect(sizeOf(library.cacheFile) + sizeOf(wal)).toBeLessThan(cache / 8)
  })

  test('a full disk says how much room a sync of the cache needs, and that room is enough', async ({ openLibrary, smallDisk, skip }) => {
    const disk = smallDisk(64 * 1024)
    if (!disk) return skip(NO_TMPFS)
    const library = openLibrary({ dataDir: disk.folder })
    await library.sync.start({ skipAvatars: true })
    // The disk is left with next to no room, and every detail is to be fetched again.
    withCache(library.cacheFile, (db) => {
      db.prepare('UPDATE artists SET detail_signature = NULL').run()
      // The log emptied first: a log left large by the first sync (a checkpoint that a busy machine
      // delayed) would lend the resync its room, and the disk would not be full when it should be.
      db.pragma('wal_checkpoint(TRUNCATE)')
    })
    expect(sizeOf(`${library.cacheFile}-wal`)).toBe(0)
    disk.resize(Math.ceil(usedBytes(disk.folder) / 1024) + 256)

    const failure = await library.sync.start({ skipAvatars: true }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(DiskFullError)
    const message = (failure as Error).message
    expect(message).toMatch(/^syncing the catalogue: the disk is full/)
    const room = /needs about (\d+) MB free/.exec(message)
    expect(room, message).not.toBeNull()
    // A log of 32 MB asked for 33 MB free, whatever the cache.
    expect(Number(room![1])).toBeLessThanOrEqual(16)

    // With the room the message asked for, the sync goes on to its end.
    disk.resize(Math.ceil(usedBytes(disk.folder) / 1024) + Number(room![1]) * 1024)
    const resumed = await library.sync.start({ skipAvatars: true })
    expect(resumed).toMatchObject({ resumed: true, detailFailures: [] })
    expect(library.catalogue.status()).toMatchObject({ detailsPending: 0, lastRun: { state: 'completed' } })
    expect(integrityCheck(library.cacheFile)).toBe('ok')
  })
})

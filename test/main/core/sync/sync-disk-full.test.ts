/**
 * A sync into a disk that fills (a real tmpfs; mounting needs root, as here
 * and in CI): it fails with a clear disk-full error and no stack trace,
 * leaves a sound cache, and resumes once there is space.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, onTestFinished } from 'vitest'
import { cacheFileFor, openCache } from '../../../../src-main/core/db/connection'
import { DiskFullError } from '../../../../src-main/core/shared/errors'
import type { Library } from '../../../../src-main/core/library/library'
import { syncCatalogue } from '../../../../src-main/core/sync/sync'
import { dumpCache } from '../../support/cache'
import { cli } from '../../support/cli'
import { catalogueTest, smallDiskFixture, testClient } from '../../support/fixtures'
import { integrityCheck, withCache } from './cache-file'

const ARTISTS = 300
const test = catalogueTest({ artists: ARTISTS, seed: 77, maxFileMb: 8 }).extend('smallDisk', smallDiskFixture)
test.afterEach(({ demo }) => demo.faults.clear())

const NO_TMPFS = 'cannot mount a small tmpfs here (needs root): the full-disk sync test is skipped'

/** Writes a file until the disk refuses one more byte; only ever on a small disk of the test's. */
function fillDisk(file: string): void {
  const { blocks, bsize } = fs.statfsSync(path.dirname(file))
  if (blocks * bsize > 64 * 1024 * 1024) throw new Error(`refusing to fill ${path.dirname(file)}: it is not a small test disk`)
  const fd = fs.openSync(file, 'w')
  try {
    for (const size of [1024 * 1024, 64 * 1024, 4096, 1]) {
      const chunk = Buffer.alloc(size)
      try {
        for (;;) fs.writeSync(fd, chunk)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
      }
    }
  } finally {
    fs.closeSync(fd)
  }
}

/** A message a person reads: no stack frames, no error class names. */
function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/^\s+at /m)
  expect(text).not.toMatch(/SqliteError|\.ts:\d+/)
}

/** Every artist of the service with its detail stored: every track, nothing pending. */
function expectEveryDetail(library: Library, demo: { catalogue: { artists: { username: string; numTracks: number }[] } }): void {
  expect(library.catalogue.status()).toMatchObject({ detailsPending: 0, detailErrors: [] })
  for (const artist of demo.catalogue.artists) {
    const cached = library.catalogue.artist(artist.username)
    expect(cached.detailFetchedAt, artist.username).not.toBeNull()
    expect(cached.tracks, artist.username).toHaveLength(artist.numTracks)
  }
}

describe('a sync on a full disk', () => {
  test('fails with a clear disk-full error, keeps a sound cache, and resumes once there is space', async ({ openLibrary, smallDisk, skip }) => {
    const disk = smallDisk(1200)
    if (!disk) return skip(NO_TMPFS)
    const library = openLibrary({ dataDir: disk.folder })
    const failure = await library.sync.start().catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(DiskFullError)
    expect(failure).toMatchObject({ code: 'disk_full', message: expect.stringMatching(/disk is full/) })
    expectNoStackTrace((failure as Error).message)
    expect(library.sync.state).toMatchObject({ status: 'idle', lastError: { code: 'disk_full' } })

    disk.resize(64 * 1024)
    expect(integrityCheck(library.cacheFile)).toBe('ok')
    expect(library.catalogue.status().lastRun?.state).not.toBe('completed')
    // The same library, in the same process, goes on at once: the failed run left no lock to wait for.
    const statuses: string[] = []
    library.sync.onDidChangeState((state) => statuses.push(state.status))
    const resumed = await library.sync.start()
    expect(resumed).toMatchObject({ resumed: true, joined: false })
    expect(statuses).not.toContain('waiting')

    const reference = openLibrary()
    await reference.sync.start()
    expect(withCache(library.cacheFile, dumpCache)).toEqual(withCache(reference.cacheFile, dumpCache))
    expect(integrityCheck(library.cacheFile)).toBe('ok')
  })

  test('fails cleanly when the disk fills in the details phase, whose writes only a timer flushes', async ({ demo, openLibrary, smallDisk, skip }) => {
    const disk = smallDisk(16 * 1024)
    if (!disk) return skip(NO_TMPFS)
    // Slow details: a detail arrives now and then, so what arrived is stored by the batch's 100 ms timer,
    // never by the end of the phase (the first flush comes long before the last detail).
    demo.faults.add({ path: '/api/v1/artists/*', times: 10_000, fault: { kind: 'slow', bytesPerSecond: 10_000 } })
    const library = openLibrary({ dataDir: disk.folder, syncProgressIntervalMs: 0 })
    const filler = path.join(disk.folder, 'filler')
    let filled = false
    let detailsDone = 0
    const watching = library.sync.onDidProgress((progress) => {
      if (progress.phase !== 'details') return
      if (!filled) fillDisk(filler)
      filled = true
      detailsDone = progress.done
    })
    demo.requests.reset()
    const uncaught: unknown[] = []
    const onUncaught = (error: unknown): void => void uncaught.push(error)
    process.on('uncaughtException', onUncaught)
    onTestFinished(() => void process.off('uncaughtException', onUncaught))
    const failure = await library.sync.start({ skipAvatars: true }).catch((error: unknown) => error)
    expect(uncaught).toEqual([])
    expect(failure).toBeInstanceOf(DiskFullError)
    expect(failure).toMatchObject({ code: 'disk_full', message: expect.stringMatching(/^syncing the catalogue: the disk is full/) })
    expectNoStackTrace((failure as Error).message)
    // It stopped at the first flush, far from the end of the phase: the timer's write failed, and the run with it.
    expect(detailsDone).toBeGreaterThan(0)
    expect(demo.requests.artist).toBeLessThan(ARTISTS / 2)
    expect(library.sync.state).toMatchObject({ status: 'idle', lastError: { code: 'disk_full' } })

    watching.dispose()
    fs.rmSync(filler)
    demo.faults.clear()
    expect(integrityCheck(library.cacheFile)).toBe('ok')
    expect(library.catalogue.status().lastRun).toMatchObject({ phase: 'details' })
    const resumed = await library.sync.start({ skipAvatars: true })
    expect(resumed).toMatchObject({ resumed: true, joined: false, listPages: 0 })
    expectEveryDetail(library, demo)
    expect(integrityCheck(library.cacheFile)).toBe('ok')
  })

  test('syncCatalogue on a disk already full rejects with a disk-full error, even before its run starts', async ({ demo, smallDisk, skip }) => {
    const disk = smallDisk(4 * 1024)
    if (!disk) return skip(NO_TMPFS)
    const cache = openCache(disk.folder, demo.baseUrl)
    try {
      fillDisk(path.join(disk.folder, 'filler'))
      demo.requests.reset()
      const failure = await syncCatalogue({ db: cache.db, client: testClient(demo.baseUrl) }).catch((error: unknown) => error)
      // Refused at its first write, the lock's row: still a core error with its code, not a bare SqliteError.
      expect(failure).toBeInstanceOf(DiskFullError)
      expect(failure).toMatchObject({ code: 'disk_full', message: expect.stringMatching(/^syncing the catalogue: the disk is full/) })
      expect(demo.requests.total).toBe(0)
    } finally {
      cache.close()
    }
  })

  test('the CLI exits with a clear disk-full message and no stack trace, and the same command then resumes', async ({ demo, smallDisk, skip }) => {
    const disk = smallDisk(1200)
    if (!disk) return skip(NO_TMPFS)
    const args = ['sync', '--base-url', demo.baseUrl, '--data-dir', disk.folder]
    const failed = await cli(args)
    expect(failed.code, failed.stderr).toBe(1)
    expect(failed.stderr).toMatch(/sync failed: .*the disk is full/)
    expect(failed.stderr).toMatch(/run the same command again to resume/)
    expectNoStackTrace(failed.stderr)
    // Room again, past the 256 MiB the sync leaves free as the downloads do (the CLI probes the real disk;
    // a tmpfs takes memory only for what is written).
    disk.resize(300 * 1024)
    expect(integrityCheck(cacheFileFor(disk.folder, demo.baseUrl))).toBe('ok')
    const resumed = await cli(args)
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toMatch(/\(resumed\)/)
  })
})

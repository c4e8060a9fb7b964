import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect } from 'vitest'
import { smallDiskFixture } from '../../support/fixtures'
import { collect, queueTest, until } from './queue-fixtures'
import { sourceSha256 } from './source'

const test = queueTest({ artists: 30, seed: 13, maxFileMb: 4 }).extend('smallDisk', smallDiskFixture)

function sha256File(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex')
}

/** Fills the file system of folder to the last byte with one file, and returns it. */
function fillDisk(folder: string): string {
  const filler = path.join(folder, 'filler')
  const fd = fs.openSync(filler, 'w')
  try {
    for (const size of [1024 * 1024, 4096, 1]) {
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
  return filler
}

describe('a full disk', () => {
  test('pauses the queue with a clear reason, loses nothing, and resumes only what it paused once there is space', async ({
    demo,
    synced,
    syncedLibrary,
    smallDisk,
    skip,
  }) => {
    const disk = smallDisk(1024)
    if (!disk) return skip('cannot mount a small tmpfs here (needs root): the full-disk test is skipped')
    // The cache lives elsewhere; only the files go to the small disk. The free-space probe
    // claims plenty (the fixture's), as on a volume other writers fill meanwhile.
    const library = syncedLibrary()
    const downloads = library.downloads
    const pausedMessages = collect(downloads.onDidPauseQueue)
    const [first, second, third] = synced.uploads(3, 1_500_000)
    // Queued before the queue runs, so the third can be paused by the user before it starts.
    const queued = (await downloads.enqueue({ uploadIds: [first!, second!, third!], folder: disk.folder })).downloads
    const [byDisk1, byDisk2, byUser] = queued
    await downloads.pause([byUser!.id])
    downloads.start()
    await downloads.whenIdle()

    expect(pausedMessages).toHaveLength(1)
    expect(pausedMessages[0]).toMatch(/^the disk holding .* is full; free some space, then resume the queue$/)
    expect(downloads.state.pausedBecause).toBe(pausedMessages[0])
    for (const download of [byDisk1!, byDisk2!]) {
      const row = downloads.get(download.id)
      expect(row.state).toBe('paused')
      expect(row.pauseReason).toBe('disk_full')
      expect(row.error).toBe(pausedMessages[0])
      expect(row.bytesDone).toBe(fs.statSync(`${download.targetPath}.part`).size)
    }
    expect(downloads.get(byUser!.id)).toMatchObject({ state: 'paused', pauseReason: 'user', error: null })
    // The reason is its own column, not a prefix of the error text.
    const db = new Database(library.cacheFile, { readonly: true })
    try {
      expect(db.prepare('SELECT id, pause_reason FROM downloads ORDER BY id').all()).toEqual([
        { id: byDisk1!.id, pause_reason: 'disk_full' },
        { id: byDisk2!.id, pause_reason: 'disk_full' },
        { id: byUser!.id, pause_reason: 'user' },
      ])
    } finally {
      db.close()
    }
    // What was written is kept: together the partial files fill the disk.
    const kept = [byDisk1!, byDisk2!].map((download) => fs.statSync(`${download.targetPath}.part`).size)
    expect(kept.some((size) => size > 0)).toBe(true)
    expect(kept.reduce((sum, size) => sum + size, 0)).toBeGreaterThan(512 * 1024)

    disk.resize(16 * 1024)
    downloads.resumeQueue()
    expect(downloads.state.pausedBecause).toBeNull()
    // Only what the disk paused goes on; the user's pause stands.
    expect(downloads.get(byUser!.id)).toMatchObject({ state: 'paused', pauseReason: 'user' })
    await downloads.whenIdle()
    for (const download of [byDisk1!, byDisk2!]) {
      const row = downloads.get(download.id)
      expect(row).toMatchObject({ state: 'completed', pauseReason: null, error: null })
      expect(row.sha256).toBe(sourceSha256(demo, download.uploadId))
      expect(sha256File(download.targetPath)).toBe(row.sha256)
      expect(fs.statSync(download.targetPath).size).toBe(download.bytesTotal)
      expect(fs.existsSync(`${download.targetPath}.part`)).toBe(false)
    }
    expect(downloads.get(byUser!.id).state).toBe('paused')
    expect(pausedMessages).toHaveLength(1)

    downloads.resume([byUser!.id])
    await downloads.whenIdle()
    expect(downloads.get(byUser!.id).state).toBe('completed')
    expect(sha256File(byUser!.targetPath)).toBe(sourceSha256(demo, byUser!.uploadId))
  })

  test('pauses the queue cleanly when the disk of the cache fills mid-download, and goes on once there is space', async ({
    demo,
    smallDisk,
    synced,
    syncedLibrary,
    tempDir,
    skip,
  }) => {
    const disk = smallDisk(16 * 1024)
    if (!disk) return skip('cannot mount a small tmpfs here (needs root): the full-disk test is skipped')
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 1_000_000 } })
    // The cache on the small disk, the files elsewhere: it is the progress the queue records that no longer fits.
    const library = syncedLibrary({ dataDir: disk.folder })
    try {
      const downloads = library.downloads
      const pausedMessages = collect(downloads.onDidPauseQueue)
      const [uploadId] = synced.uploads(1, 1_500_000)
      const [queued] = (await downloads.enqueue({ uploadIds: [uploadId!], folder: tempDir() })).downloads
      downloads.start()
      await until(downloads.onDidProgress, (event) => event.bytes > 0, 'bytes on disk')
      const filler = fillDisk(disk.folder)
      // Were the failed write thrown from the progress timer, it would be an uncaught exception (this test would fail for it).
      await until(downloads.onDidPauseQueue, () => true, 'the queue to pause')
      await downloads.whenIdle()
      expect(pausedMessages).toHaveLength(1)
      expect(pausedMessages[0]).toMatch(/the disk is full.*; free some space, then resume the queue$/)
      expect(downloads.state).toMatchObject({ running: 0, pausedBecause: pausedMessages[0] })
      // Its pause could not be written either: it stays "downloading", shown as interrupted, its bytes kept.
      expect(downloads.get(queued!.id).state).toBe('downloading')
      expect(downloads.interruptedIds()).toEqual([queued!.id])
      expect(fs.statSync(`${queued!.targetPath}.part`).size).toBeGreaterThan(0)

      fs.rmSync(filler)
      downloads.resumeQueue()
      await downloads.whenIdle()
      const done = downloads.get(queued!.id)
      expect(done).toMatchObject({ state: 'completed', error: null })
      expect(done.sha256).toBe(sourceSha256(demo, uploadId!))
      expect(sha256File(done.targetPath)).toBe(done.sha256)
      // Stopping on a full cache disk still stops (the lock it cannot release goes stale with the process).
      fillDisk(disk.folder)
      await downloads.stop()
      expect(downloads.state.started).toBe(false)
    } finally {
      // Room to close the cache, before the disk under it is unmounted.
      fs.rmSync(path.join(disk.folder, 'filler'), { force: true })
      await library.dispose()
    }
  })
})

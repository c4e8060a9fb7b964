import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect } from 'vitest'
import { defaultRelativePath } from '../../../../src-main/core/downloads/file-names'
import type { DownloadProgress } from '../../../../src-main/core/downloads/manager'
import { BusyError, InsufficientSpaceError, InvalidArgumentError, NotFoundError, TuneshelfError } from '../../../../src-main/core/shared/errors'
import { formatBytes } from '../../../../src-main/core/shared/format'
import type { Library } from '../../../../src-main/core/library/library'
import { QUICK_TRANSFERS, collect, queueTest, until } from './queue-fixtures'
import { sourceSha256 } from './source'

const test = queueTest({ artists: 40, seed: 12, maxFileMb: 3 })
test.afterEach(({ demo }) => demo.faults.clear())

function sha256File(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex')
}

function sizeOf(file: string): number {
  return fs.existsSync(file) ? fs.statSync(file).size : 0
}

function totalBytes(library: Library): number {
  return library.downloads.monthlyBytes().months.reduce((sum, month) => sum + month.bytes, 0)
}

/** The error action throws or rejects with (a test fails if it succeeds). */
async function failureOf(action: () => unknown): Promise<TuneshelfError> {
  try {
    await action()
  } catch (error) {
    expect(error).toBeInstanceOf(TuneshelfError)
    return error as TuneshelfError
  }
  throw new Error('expected the action to fail')
}

/** Writes to the cache as another process would (a crashed one's lock, its rows). */
function withCache(library: Library, work: (db: Database.Database) => void): void {
  const db = new Database(library.cacheFile)
  try {
    db.pragma('busy_timeout = 5000')
    work(db)
  } finally {
    db.close()
  }
}

describe('the download queue', () => {
  test('downloads, verifies and names files <artist>/<title> [<id>].<ext> inside the folder', async ({ demo, synced, syncedLibrary, tempDir }) => {
    const library = syncedLibrary()
    const downloads = library.downloads
    const folder = tempDir()
    downloads.start()
    const [uploadId] = synced.uploads(1, 100_000)
    const enqueued = await downloads.enqueue({ uploadIds: [uploadId!], folder })
    expect(enqueued.folder).toBe(folder)
    const [queued] = enqueued.downloads
    await downloads.whenIdle()
    const done = downloads.get(queued!.id)
    expect(done.state).toBe('completed')
    expect(done.sha256).toBe(sourceSha256(demo, uploadId!))
    expect(sha256File(done.targetPath)).toBe(done.sha256)
    const { artist, track } = demo.catalogue.findUpload(uploadId!)!
    expect(path.relative(fs.realpathSync(folder), done.targetPath)).toBe(defaultRelativePath(artist.pfName, track.title, uploadId!, track.ext))
    expect(path.basename(done.targetPath)).toMatch(new RegExp(` \\[${uploadId}\\]\\.${track.ext}$`))
    expect(fs.existsSync(`${done.targetPath}.part`)).toBe(false)
    expect(totalBytes(library)).toBe(track.bytes)
    // Already downloaded and verified: not downloaded again, and an id given twice is queued once.
    const again = await downloads.enqueue({ uploadIds: [uploadId!, uploadId!], folder })
    expect(again.downloads).toEqual([done])
    expect(downloads.list()).toHaveLength(1)
    // Once the file is gone, the upload downloads again, to the same name, in the same row.
    fs.rmSync(done.targetPath)
    const [fresh] = (await downloads.enqueue({ uploadIds: [uploadId!], folder })).downloads
    expect(fresh!.id).toBe(queued!.id)
    expect(fresh!.targetPath).toBe(done.targetPath)
    await downloads.whenIdle()
    expect(downloads.get(queued!.id).state).toBe('completed')
    expect(sha256File(done.targetPath)).toBe(done.sha256)
    expect(downloads.list()).toHaveLength(1)
  })

  test('enqueueing an artist of N tracks is one change event carrying the N downloads', async ({ synced, syncedLibrary }) => {
    const library = syncedLibrary()
    const downloads = library.downloads
    const artist = synced.artistWithTracks(5, 15)
    const tracks = library.catalogue.artist(artist).tracks
    const changes = collect(downloads.onDidChange)
    const queued = (await downloads.enqueue({ artist })).downloads
    expect(queued).toHaveLength(tracks.length)
    expect(changes).toHaveLength(1)
    expect(changes[0]!.removed).toEqual([])
    expect(changes[0]!.downloads).toEqual(queued)
    expect(new Set(queued.map((download) => download.uploadId))).toEqual(new Set(tracks.map((track) => track.uploadId)))
    expect(queued.every((download) => download.state === 'queued')).toBe(true)
    // Asking again changes nothing, so says nothing.
    expect((await downloads.enqueue({ artist: artist.toUpperCase() })).downloads).toEqual(queued)
    expect(changes).toHaveLength(1)
    // An action on all of them is one event too.
    await downloads.pause(queued.map((download) => download.id))
    expect(changes).toHaveLength(2)
    expect(changes[1]!.downloads.map((download) => [download.id, download.state, download.pauseReason])).toEqual(
      queued.map((download) => [download.id, 'paused', 'user']),
    )
  })

  test('signals idle with an event once the queue drains, and whenIdle resolves on it without polling', async ({ synced, syncedLibrary }) => {
    const library = syncedLibrary()
    const downloads = library.downloads
    downloads.setConcurrency(2)
    const idles: number[] = []
    let macrotaskAfterIdle = false
    downloads.onDidBecomeIdle(() => {
      idles.push(downloads.list('completed').length)
      setImmediate(() => (macrotaskAfterIdle = true))
    })
    downloads.start()
    await downloads.enqueue({ uploadIds: synced.uploads(4, 50_000) })
    expect(downloads.state.running).toBe(2)
    expect(idles).toEqual([])
    const seen = await downloads.whenIdle().then(() => ({ idles: [...idles], macrotaskAfterIdle, completed: downloads.list('completed').length }))
    // Resolved by the event itself, before any later turn of the event loop (a poll would come after).
    expect(seen).toEqual({ idles: [4], macrotaskAfterIdle: false, completed: 4 })
    expect(downloads.state.running).toBe(0)
    // Already idle: at once, and no new event.
    await downloads.whenIdle()
    await new Promise((resolve) => setImmediate(resolve))
    expect(idles).toEqual([4])
  })

  test('never runs more transfers at once than the setting, and applies a change at once', async ({ demo, synced, syncedLibrary }) => {
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 2_000_000 } })
    const library = syncedLibrary()
    const downloads = library.downloads
    downloads.setConcurrency(3)
    let most = 0
    const watch = (): void => {
      most = Math.max(most, downloads.list('downloading').length)
    }
    downloads.onDidChange(watch)
    downloads.onDidProgress(watch)
    downloads.start()
    await downloads.enqueue({ uploadIds: synced.uploads(10, 200_000) })
    expect(downloads.state.running).toBe(3)
    expect(downloads.list('downloading')).toHaveLength(3)
    const started = performance.now()
    downloads.setConcurrency(1)
    await until(downloads.onDidChange, () => downloads.list('downloading').length === 1, 'one transfer left')
    expect(performance.now() - started).toBeLessThan(2000)
    // The other two went back to the queue, not to an error.
    expect(downloads.list('queued').length + downloads.list('completed').length).toBe(9)
    most = 1
    downloads.setConcurrency(2)
    await downloads.whenIdle()
    expect(most).toBe(2)
    expect(downloads.list('completed')).toHaveLength(10)
    for (const download of downloads.list()) expect(download.sha256).toBe(sourceSha256(demo, download.uploadId))
    const refused = await failureOf(() => downloads.setConcurrency(9))
    expect(refused).toBeInstanceOf(InvalidArgumentError)
    expect(refused.message).toMatch(/1 to 8/)
  })

  test('pauses and resumes against a slow server, keeping and reusing the bytes', async ({ demo, synced, syncedLibrary }) => {
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 500_000 } })
    const library = syncedLibrary({ downloads: { transferSettings: QUICK_TRANSFERS, freeSpace: async () => 1024 ** 4, progressIntervalMs: 50 } })
    const downloads = library.downloads
    const progress = collect(downloads.onDidProgress)
    downloads.start()
    const [uploadId] = synced.uploads(1, 1_000_000)
    const [queued] = (await downloads.enqueue({ uploadIds: [uploadId!] })).downloads
    await until(downloads.onDidProgress, (event) => event.bytes > 200_000, 'bytes on disk')
    await downloads.pause([queued!.id])
    const paused = downloads.get(queued!.id)
    expect(paused.state).toBe('paused')
    expect(paused.pauseReason).toBe('user')
    const kept = sizeOf(`${queued!.targetPath}.part`)
    expect(kept).toBeGreaterThan(200_000)
    expect(kept).toBeLessThan(queued!.bytesTotal)
    // What the row says is what is on disk.
    expect(paused.bytesDone).toBe(kept)
    // Still slow after the resume, so the resumed transfer reports progress several times.
    demo.faults.clear()
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 1_500_000 } })
    const before = progress.length
    downloads.resume([queued!.id])
    await downloads.whenIdle()
    const done = downloads.get(queued!.id)
    expect(done.state).toBe('completed')
    expect(done.pauseReason).toBeNull()
    expect(done.sha256).toBe(sourceSha256(demo, uploadId!))
    const resumed = progress.slice(before)
    expect(resumed.length).toBeGreaterThanOrEqual(2)
    expect(resumed[0]!.bytes).toBeGreaterThan(kept)
    expect(resumed.every((event) => event.id === queued!.id && event.bytes > kept)).toBe(true)
    expect(resumed.at(-1)!.bytes).toBe(queued!.bytesTotal)
    // Resumed from the kept bytes: no byte was fetched twice.
    expect(totalBytes(library)).toBe(queued!.bytesTotal)
    const first = progress[1]!
    expect(first.speed).toBeGreaterThan(0)
    expect(first.etaSeconds).toBeGreaterThan(0)
    expect(first.percent).toBeGreaterThan(0)
    // The queue's speed beside it: one transfer at a time here, so about its own.
    expect(first.queueSpeed).toBeGreaterThan(0)
  })

  test('cancels (deleting the partial file), retries from zero, and removes without touching the file', async ({ demo, synced, syncedLibrary }) => {
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 300_000 } })
    const library = syncedLibrary()
    const downloads = library.downloads
    downloads.start()
    const [uploadId] = synced.uploads(1, 1_000_000)
    const [queued] = (await downloads.enqueue({ uploadIds: [uploadId!] })).downloads
    await until(downloads.onDidProgress, (event) => event.bytes > 0, 'bytes on disk')
    expect(sizeOf(`${queued!.targetPath}.part`)).toBeGreaterThan(0)
    await downloads.cancel([queued!.id])
    expect(downloads.get(queued!.id).state).toBe('cancelled')
    expect(downloads.get(queued!.id).bytesDone).toBe(0)
    expect(fs.existsSync(`${queued!.targetPath}.part`)).toBe(false)
    demo.faults.clear()
    downloads.retry([queued!.id])
    await downloads.whenIdle()
    expect(downloads.get(queued!.id).state).toBe('completed')
    expect(sha256File(queued!.targetPath)).toBe(sourceSha256(demo, uploadId!))
    const changes = collect(downloads.onDidChange)
    await downloads.remove([queued!.id])
    expect(changes).toEqual([{ downloads: [], removed: [queued!.id] }])
    expect(await failureOf(() => downloads.get(queued!.id))).toBeInstanceOf(NotFoundError)
    expect(downloads.list()).toEqual([])
    expect(fs.existsSync(queued!.targetPath)).toBe(true)

    // The removed download's id is never given again (the window and the player know downloads by id).
    const [next] = (await downloads.enqueue({ uploadIds: synced.uploads(2, 1_000_000).filter((id) => id !== uploadId) })).downloads
    expect(next!.id).toBeGreaterThan(queued!.id)
  })

  test('cancelling a running and a queued download together starts neither again', async ({ demo, synced, syncedLibrary }) => {
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 300_000 } })
    const library = syncedLibrary()
    const downloads = library.downloads
    downloads.setConcurrency(1)
    downloads.start()
    const queued = (await downloads.enqueue({ uploadIds: synced.uploads(2, 1_000_000) })).downloads
    await until(downloads.onDidProgress, (event) => event.bytes > 0, 'bytes on disk')
    expect(queued.map((download) => downloads.get(download.id).state)).toEqual(['downloading', 'queued'])
    await downloads.cancel(queued.map((download) => download.id))
    await downloads.whenIdle()
    for (const download of queued) {
      expect(downloads.get(download.id).state).toBe('cancelled')
      expect(fs.existsSync(`${download.targetPath}.part`)).toBe(false)
      expect(fs.existsSync(download.targetPath)).toBe(false)
    }
    expect(downloads.state.running).toBe(0)
  })

  test('removing a running and a queued download together starts neither again', async ({ demo, synced, syncedLibrary }) => {
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 300_000 } })
    const library = syncedLibrary()
    const downloads = library.downloads
    downloads.setConcurrency(1)
    downloads.start()
    const queued = (await downloads.enqueue({ uploadIds: synced.uploads(2, 1_000_000) })).downloads
    await until(downloads.onDidProgress, (event) => event.bytes > 0, 'bytes on disk')
    const files = demo.requests.file
    await downloads.remove(queued.map((download) => download.id))
    await downloads.whenIdle()
    expect(downloads.list()).toEqual([])
    expect(downloads.state.running).toBe(0)
    expect(demo.requests.file).toBe(files)
    // The running one keeps its partial file (remove never deletes); the queued one never started.
    expect(sizeOf(`${queued[0]!.targetPath}.part`)).toBeGreaterThan(0)
    expect(fs.existsSync(`${queued[1]!.targetPath}.part`)).toBe(false)
    expect(fs.existsSync(queued[1]!.targetPath)).toBe(false)
  })

  test('refuses an action on one download its state does not allow; on a list, applies it to those that allow it and says which it skipped', async ({
    synced,
    syncedLibrary,
  }) => {
    const library = syncedLibrary()
    const downloads = library.downloads
    const [small, other, third] = synced.uploads(3, 10_000)
    downloads.start()
    const [done] = (await downloads.enqueue({ uploadIds: [small!] })).downloads
    await downloads.whenIdle()
    await downloads.stop()
    expect(downloads.get(done!.id).state).toBe('completed')
    // The queue is stopped: these stay queued, and one is paused.
    const [queued, paused] = (await downloads.enqueue({ uploadIds: [other!, third!] })).downloads
    await downloads.pause([paused!.id])
    const states = (): string[] => [done!, queued!, paused!].map((download) => downloads.get(download.id).state)
    expect(states()).toEqual(['completed', 'queued', 'paused'])
    const changes = collect(downloads.onDidChange)

    const refusals: [string, () => unknown, RegExp][] = [
      ['pause a completed download', () => downloads.pause([done!.id]), /download \d+ is completed: only a queued or downloading download can be paused/],
      ['resume a queued download', () => downloads.resume([queued!.id]), /download \d+ is queued: only a paused download can be resumed/],
      ['retry a completed download', () => downloads.retry([done!.id]), /download \d+ is completed: only a failed or cancelled download can be retried/],
      ['retry a queued download', () => downloads.retry([queued!.id]), /is queued: only a failed or cancelled download can be retried/],
      ['cancel a completed download', () => downloads.cancel([done!.id]), /is completed: only .* download can be cancelled/],
      ['pause a paused download', () => downloads.pause([paused!.id]), /is paused: only a queued or downloading download can be paused/],
      ['download again a queued download', () => downloads.redownload([queued!.id]), /is queued: only a completed download can be downloaded again/],
      ['download again a completed one whose file is there', () => downloads.redownload([done!.id]), /is still at .*: nothing to download again/],
      ['the same id twice is one id', () => downloads.pause([done!.id, done!.id]), /is completed/],
    ]
    for (const [what, action, message] of refusals) {
      const error = await failureOf(action)
      expect(error, what).toBeInstanceOf(InvalidArgumentError)
      expect(error, what).toMatchObject({ code: 'invalid_argument', field: 'ids', retryable: false })
      expect(error.message, what).toMatch(message)
      expect(states(), what).toEqual(['completed', 'queued', 'paused'])
    }
    // An unknown id alone: not found.
    for (const action of [() => downloads.remove([999_999]), () => downloads.cancel([999_999])]) {
      expect(await failureOf(action)).toBeInstanceOf(NotFoundError)
    }
    expect(states()).toEqual(['completed', 'queued', 'paused'])
    expect(changes).toEqual([])

    // A list: what allows the action is done (in one event), the rest skipped with the reason, nothing thrown.
    const completedRefusal = (verb: string): RegExp => new RegExp(`^download ${done!.id} is completed: only .* download can be ${verb}$`)
    expect(await downloads.pause([queued!.id, done!.id])).toEqual({
      changed: [queued!.id],
      skipped: [{ id: done!.id, state: 'completed', reason: expect.stringMatching(completedRefusal('paused')) }],
    })
    expect(states()).toEqual(['completed', 'paused', 'paused'])
    expect(downloads.resume([queued!.id, paused!.id, done!.id, 999_999])).toEqual({
      changed: [queued!.id, paused!.id],
      skipped: [
        { id: done!.id, state: 'completed', reason: expect.stringMatching(completedRefusal('resumed')) },
        { id: 999_999, state: null, reason: 'no download 999999: it was removed' },
      ],
    })
    expect(states()).toEqual(['completed', 'queued', 'queued'])
    // Nothing in the list allows it: nothing changes, and nothing is refused either.
    expect(await downloads.cancel([done!.id, 999_999])).toMatchObject({ changed: [], skipped: [{ id: done!.id }, { id: 999_999 }] })
    expect(changes.map((change) => change.downloads.length)).toEqual([1, 2])
    expect(await downloads.remove([queued!.id, 999_999])).toMatchObject({ changed: [queued!.id], skipped: [{ id: 999_999, state: null }] })
    expect(changes.at(-1)).toEqual({ downloads: [], removed: [queued!.id] })
  })

  test('pauses and resumes the whole queue; downloads a completed one again once its file is gone', async ({ synced, syncedLibrary }) => {
    const library = syncedLibrary()
    const downloads = library.downloads
    const [small, other, third] = synced.uploads(3, 10_000)
    downloads.start()
    const [done] = (await downloads.enqueue({ uploadIds: [small!] })).downloads
    await downloads.whenIdle()
    await downloads.stop()
    const [queued, paused] = (await downloads.enqueue({ uploadIds: [other!, third!] })).downloads
    await downloads.pause([paused!.id])

    // Pause all: every queued or running download; the paused and completed ones are not in it.
    expect(await downloads.pauseAll()).toEqual({ changed: [queued!.id], skipped: [] })
    expect(downloads.list('paused').map((download) => download.id)).toEqual([queued!.id, paused!.id])
    // Resume all: every paused one.
    const resumed = downloads.resumeAll()
    expect(resumed.changed.toSorted()).toEqual([queued!.id, paused!.id].toSorted())
    expect(downloads.list('queued').map((download) => download.id)).toEqual([queued!.id, paused!.id])

    // A row names its artist as the catalogue does now (the name, not only the username).
    const row = downloads.get(done!.id)
    expect(row.artistName).toBe(library.catalogue.artist(row.artistUsername).name)
    expect(row.artistName).not.toBe('')

    // The file of the completed one goes: the list says so, and "download again" fetches it into the same row and file.
    const file = downloads.get(done!.id).targetPath
    expect(downloads.list().find((view) => view.id === done!.id)).toMatchObject({ fileMissing: false })
    fs.rmSync(file)
    expect(downloads.list().find((view) => view.id === done!.id)).toMatchObject({ state: 'completed', fileMissing: true })
    expect(downloads.redownload([done!.id])).toEqual({ changed: [done!.id], skipped: [] })
    expect(downloads.get(done!.id)).toMatchObject({ state: 'queued', bytesDone: 0, sha256: null, targetPath: file })
    downloads.start()
    await downloads.whenIdle()
    expect(downloads.get(done!.id).state).toBe('completed')
    expect(fs.existsSync(file)).toBe(true)
  })

  test('keeps one row per file: a cancelled, a failed or a deleted download asked for again reuses its row', async ({
    demo,
    synced,
    syncedLibrary,
  }) => {
    const library = syncedLibrary()
    const downloads = library.downloads
    const [first, second] = synced.uploads(2, 10_000)
    // Cancelled before it ran, then asked for again.
    const [cancelled] = (await downloads.enqueue({ uploadIds: [first!] })).downloads
    await downloads.cancel([cancelled!.id])
    expect(downloads.get(cancelled!.id).state).toBe('cancelled')
    const [again] = (await downloads.enqueue({ uploadIds: [first!] })).downloads
    expect(again!.id).toBe(cancelled!.id)
    expect(again!.state).toBe('queued')
    expect(again!.targetPath).toBe(cancelled!.targetPath)
    // Failed, then asked for again.
    demo.faults.add({ path: `/hotlink/${second}.*`, fault: { kind: 'status', status: 404 } })
    const [failing] = (await downloads.enqueue({ uploadIds: [second!] })).downloads
    downloads.start()
    await downloads.whenIdle()
    expect(downloads.get(failing!.id).state).toBe('failed')
    expect(downloads.get(failing!.id).error).toMatch(/404/)
    expect((await downloads.enqueue({ uploadIds: [second!] })).downloads.map((download) => download.id)).toEqual([failing!.id])
    await downloads.whenIdle()
    // Completed, its file deleted, asked for again: three times over.
    for (let round = 0; round < 3; round++) {
      for (const download of downloads.list()) {
        expect(download.state, `round ${round}`).toBe('completed')
        fs.rmSync(download.targetPath)
      }
      const requeued = (await downloads.enqueue({ uploadIds: [first!, second!] })).downloads
      expect(requeued.map((download) => [download.id, download.state])).toEqual([
        [cancelled!.id, 'queued'],
        [failing!.id, 'queued'],
      ])
      await downloads.whenIdle()
    }
    expect(downloads.list()).toHaveLength(2)
    for (const download of downloads.list()) {
      expect(download.state).toBe('completed')
      expect(sha256File(download.targetPath)).toBe(sourceSha256(demo, download.uploadId))
    }
  })

  test('downloads into folder B an upload complete in folder A, and says so; asked into A again, downloads nothing', async ({
    demo,
    synced,
    syncedLibrary,
    tempDir,
  }) => {
    const library = syncedLibrary()
    const downloads = library.downloads
    const [uploadId] = synced.uploads(1, 100_000)
    const folderA = tempDir()
    const folderB = tempDir()
    downloads.start()
    const [inA] = (await downloads.enqueue({ uploadIds: [uploadId!], folder: folderA })).downloads
    await downloads.whenIdle()
    expect(downloads.get(inA!.id).state).toBe('completed')
    const files = demo.requests.file

    const toB = await downloads.enqueue({ uploadIds: [uploadId!], folder: folderB })
    expect(toB.folder).toBe(folderB)
    const [inB] = toB.downloads
    expect(inB!.id).not.toBe(inA!.id)
    expect(inB!.state).toBe('queued')
    expect(path.relative(fs.realpathSync(folderB), inB!.targetPath)).toBe(path.relative(fs.realpathSync(folderA), inA!.targetPath))
    await downloads.whenIdle()
    expect(downloads.get(inB!.id).state).toBe('completed')
    expect(sha256File(inB!.targetPath)).toBe(sourceSha256(demo, uploadId!))
    expect(sha256File(inA!.targetPath)).toBe(sourceSha256(demo, uploadId!))
    expect(demo.requests.file).toBe(files + 1)

    const changes = collect(downloads.onDidChange)
    const toA = await downloads.enqueue({ uploadIds: [uploadId!], folder: folderA })
    expect(toA.folder).toBe(folderA)
    expect(toA.downloads).toEqual([downloads.get(inA!.id)])
    expect(toA.downloads[0]!.state).toBe('completed')
    await downloads.whenIdle()
    expect(demo.requests.file).toBe(files + 1)
    expect(changes).toEqual([])
    expect(downloads.list()).toHaveLength(2)
  })

  test('refuses to start what does not fit, naming both figures', async ({ synced, syncedLibrary }) => {
    const library = syncedLibrary({
      downloads: { transferSettings: QUICK_TRANSFERS, freeSpace: async () => 300 * 1024 * 1024, reserveBytes: 299 * 1024 * 1024 },
    })
    const artist = synced.artistWithTracks(4, 1000)
    const needed = library.catalogue.artist(artist).tracks.reduce((sum, track) => sum + track.bytes!, 0)
    const refusal = await failureOf(() => library.downloads.enqueue({ artist }))
    expect(refusal).toBeInstanceOf(InsufficientSpaceError)
    expect(refusal.code).toBe('insufficient_space')
    expect(refusal.message).toContain(`${formatBytes(needed)} needed, 1.05 MB free`)
    expect(library.downloads.list()).toEqual([])
  })

  test('downloads every track of an artist, hostile titles included, each inside the folder', async ({ demo, synced, syncedLibrary, tempDir }) => {
    // The real free-space check of the volume, this time.
    const library = syncedLibrary({ downloads: { transferSettings: QUICK_TRANSFERS } })
    const downloads = library.downloads
    downloads.setConcurrency(4)
    const folder = tempDir()
    downloads.start()
    const artist = synced.artistWithTracks(5, 15)
    const queued = (await downloads.enqueue({ artist: artist.toUpperCase(), folder })).downloads
    expect(queued).toHaveLength(library.catalogue.artist(artist).tracks.length)
    await downloads.whenIdle()
    const root = fs.realpathSync(folder)
    for (const download of downloads.list()) {
      expect(download.state).toBe('completed')
      const relative = path.relative(root, download.targetPath)
      expect(relative.startsWith('..') || path.isAbsolute(relative)).toBe(false)
      expect(relative.split(path.sep)).toHaveLength(2)
      expect(sha256File(download.targetPath)).toBe(sourceSha256(demo, download.uploadId))
    }
    expect(new Set(downloads.list().map((download) => download.targetPath)).size).toBe(queued.length)
  })

  test('stops with transfers left "downloading", shown as interrupted elsewhere, resumed by the next start; reports stray partial files', async ({
    demo,
    openLibrary,
    synced,
    syncedLibrary,
    tempDir,
  }) => {
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 400_000 } })
    const folder = tempDir()
    const first = syncedLibrary()
    const [uploadId] = synced.uploads(1, 1_500_000)
    first.downloads.start()
    const [queued] = (await first.downloads.enqueue({ uploadIds: [uploadId!], folder })).downloads
    // Another library on the same cache, as another process would open it; it does not run the queue.
    const second = openLibrary({ dataDir: first.dataDir })
    await until(first.downloads.onDidProgress, (event) => event.bytes > 100_000, 'bytes on disk')
    // Running in a live process: not interrupted.
    expect(second.downloads.interruptedIds()).toEqual([])
    expect(second.downloads.state.runElsewhere?.pid).toBe(process.pid)

    await first.downloads.stop()
    expect(first.downloads.state.started).toBe(false)
    expect(first.downloads.get(queued!.id).state).toBe('downloading')
    const kept = sizeOf(`${queued!.targetPath}.part`)
    expect(kept).toBeGreaterThan(100_000)
    expect(first.downloads.get(queued!.id).bytesDone).toBe(kept)
    expect(first.downloads.interruptedIds()).toEqual([queued!.id])
    expect(second.downloads.interruptedIds()).toEqual([queued!.id])
    expect(second.downloads.state).toMatchObject({ started: false, interrupted: 1, runElsewhere: null })

    fs.writeFileSync(path.join(folder, 'stray.mp3.part'), 'left by someone else')
    expect((await second.downloads.strayPartFiles(folder)).map((file) => path.basename(file))).toEqual(['stray.mp3.part'])
    demo.faults.clear()
    second.downloads.start()
    expect(second.downloads.interruptedIds()).toEqual([])
    await second.downloads.whenIdle()
    const done = second.downloads.get(queued!.id)
    expect(done.state).toBe('completed')
    expect(done.sha256).toBe(sourceSha256(demo, uploadId!))
    expect(sha256File(done.targetPath)).toBe(done.sha256)
    // Resumed from the partial file: no byte was fetched twice.
    expect(totalBytes(second)).toBe(done.bytesTotal)
    expect(fs.existsSync(path.join(folder, 'stray.mp3.part'))).toBe(true)
  })

  test('runs a cache\'s queue in one process at a time: a second start is a BusyError', async ({ openLibrary, syncedLibrary }) => {
    const first = syncedLibrary()
    const second = openLibrary({ dataDir: first.dataDir })
    first.downloads.start()
    const busy = await failureOf(() => second.downloads.start())
    expect(busy).toBeInstanceOf(BusyError)
    expect(busy).toMatchObject({ code: 'busy', retryable: true })
    expect(busy.message).toMatch(new RegExp(`pid ${process.pid} on ${os.hostname()}`))
    expect(second.downloads.state.started).toBe(false)
    // Once the first lets go, the second may run it.
    await first.downloads.stop()
    second.downloads.start()
    expect(second.downloads.state.started).toBe(true)
    expect((await failureOf(() => first.downloads.start())).code).toBe('busy')
  })

  test('lets go of the queue at once when its lock was taken over (this process stalled past the stale limit)', async ({
    demo,
    synced,
    syncedLibrary,
  }) => {
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 200_000 } })
    const library = syncedLibrary()
    const downloads = library.downloads
    const paused = until(downloads.onDidPauseQueue, () => true, 'the queue let go', 15_000)
    downloads.start()
    const [queued] = (await downloads.enqueue({ uploadIds: synced.uploads(1, 1_000_000) })).downloads
    await until(downloads.onDidProgress, (progress) => progress.bytes > 0, 'the first bytes')
    // Another process takes the lock, as it would once this one's heartbeat went stale.
    withCache(library, (db) => db.prepare(`UPDATE locks SET token = 'someone else', pid = 1 WHERE name = 'downloads'`).run())
    expect(await paused).toMatch(/another Tuneshelf process took over/)
    await downloads.whenIdle()
    expect(downloads.state.started).toBe(false)
    expect(downloads.state.running).toBe(0)
    // Its transfer stopped where it was, left for the queue's new owner; the new owner's lock is untouched.
    expect(downloads.get(queued!.id).state).toBe('downloading')
    withCache(library, (db) => expect(db.prepare(`SELECT token FROM locks WHERE name = 'downloads'`).pluck().get()).toBe('someone else'))
  })

  test('takes over at once a queue lock left by a process that is gone, and resumes its downloads', async ({
    demo,
    onTestFinished,
    synced,
    syncedLibrary,
  }) => {
    const library = syncedLibrary()
    const downloads = library.downloads
    const [queued] = (await downloads.enqueue({ uploadIds: synced.uploads(1, 100_000) })).downloads
    const lock = (pid: number) => (db: Database.Database) => {
      db.prepare(`INSERT OR REPLACE INTO locks (name, token, pid, host, acquired_at, heartbeat_at) VALUES ('downloads', 'other', ?, ?, ?, ?)`).run(
        pid,
        os.hostname(),
        Date.now(),
        Date.now(),
      )
    }
    // A live process holds it: busy, and its downloads are not interrupted.
    const live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    const exited = new Promise((resolve) => live.once('exit', resolve))
    onTestFinished(async () => {
      live.kill()
      await exited
    })
    withCache(library, (db) => {
      lock(live.pid!)(db)
      db.prepare(`UPDATE downloads SET state = 'downloading' WHERE id = ?`).run(queued!.id)
    })
    expect(downloads.state.runElsewhere?.pid).toBe(live.pid)
    expect(downloads.interruptedIds()).toEqual([])
    const busy = await failureOf(() => downloads.start())
    expect(busy).toBeInstanceOf(BusyError)
    expect(busy.message).toContain(`pid ${live.pid}`)

    // A process that has exited (its heartbeat still fresh): the lock is stale at once.
    const dead = spawnSync(process.execPath, ['-e', '']).pid
    withCache(library, lock(dead))
    expect(downloads.state.runElsewhere).toBeNull()
    expect(downloads.interruptedIds()).toEqual([queued!.id])
    downloads.start()
    expect(downloads.state.started).toBe(true)
    withCache(library, (db) => expect(db.prepare(`SELECT pid FROM locks WHERE name = 'downloads'`).pluck().get()).toBe(process.pid))
    await downloads.whenIdle()
    expect(downloads.get(queued!.id).state).toBe('completed')
    expect(downloads.get(queued!.id).sha256).toBe(sourceSha256(demo, queued!.uploadId))
  })

  test('lists without side effects: no download folder is made until something is queued', async ({ synced, syncedLibrary }) => {
    const library = syncedLibrary()
    const folder = path.join(library.dataDir, 'downloads')
    expect(library.downloads.state.folder).toBe(folder)
    expect(library.downloads.list()).toEqual([])
    expect(library.downloads.interruptedIds()).toEqual([])
    expect(library.downloads.monthlyBytes().months).toEqual([])
    expect(await library.downloads.strayPartFiles()).toEqual([])
    expect(fs.existsSync(folder)).toBe(false)
    const enqueued = await library.downloads.enqueue({ uploadIds: synced.uploads(1) })
    expect(enqueued.folder).toBe(folder)
    expect(fs.statSync(folder).isDirectory()).toBe(true)
    expect(enqueued.downloads[0]!.targetPath.startsWith(fs.realpathSync(folder) + path.sep)).toBe(true)
  })

  test('marks a download failed with a clear message when the server refuses it', async ({ demo, synced, syncedLibrary }) => {
    demo.faults.add({ path: '/hotlink/*', times: 1, fault: { kind: 'respond', status: 302, headers: { Location: 'file:///etc/passwd' } } })
    const library = syncedLibrary()
    const downloads = library.downloads
    downloads.start()
    const [queued] = (await downloads.enqueue({ uploadIds: synced.uploads(1) })).downloads
    await downloads.whenIdle()
    const failed = downloads.get(queued!.id)
    expect(failed.state).toBe('failed')
    expect(failed.error).toMatch(/file:\/\/\/etc\/passwd.*not an http or https address/)
    downloads.retry([queued!.id])
    await downloads.whenIdle()
    expect(downloads.get(queued!.id).state).toBe('completed')
    expect(downloads.get(queued!.id).error).toBeNull()
  })

  test('refuses unknown uploads and artists, and a request naming both or neither', async ({ syncedLibrary }) => {
    const library = syncedLibrary()
    const unknownUpload = await failureOf(() => library.downloads.enqueue({ uploadIds: ['999999999'] }))
    expect(unknownUpload).toBeInstanceOf(NotFoundError)
    expect(unknownUpload.message).toMatch(/no upload 999999999 in the cache/)
    // Which of the ids it was, as a field: what the CLI matches, rather than the message's text.
    expect(unknownUpload).toMatchObject({ code: 'not_found', field: 'uploadIds.0' })
    const held = library.catalogue.artist(library.catalogue.list({ perPage: 1 }).artists[0]!.username).tracks[0]!.uploadId
    const second = await failureOf(() => library.downloads.enqueue({ uploadIds: [held, held, '999999999'] }))
    expect(second.toJSON()).toMatchObject({ code: 'not_found', field: 'uploadIds.2' })
    const unknownArtist = await failureOf(() => library.downloads.enqueue({ artist: 'nobody-here' }))
    expect(unknownArtist).toBeInstanceOf(NotFoundError)
    expect(unknownArtist.message).toMatch(/no artist named "nobody-here"/)
    for (const request of [{ uploadIds: ['1'], artist: 'x' }, {}]) {
      expect(await failureOf(() => library.downloads.enqueue(request))).toBeInstanceOf(InvalidArgumentError)
    }
    expect(library.downloads.list()).toEqual([])
  })

  test('never overwrites a different file already at the target: it adds a suffix', async ({ demo, synced, syncedLibrary, tempDir }) => {
    const library = syncedLibrary()
    const downloads = library.downloads
    const folder = tempDir()
    downloads.start()
    const [uploadId] = synced.uploads(1, 50_000)
    const { artist, track } = demo.catalogue.findUpload(uploadId!)!
    const expected = path.join(fs.realpathSync(folder), defaultRelativePath(artist.pfName, track.title, uploadId!, track.ext))
    fs.mkdirSync(path.dirname(expected), { recursive: true })
    fs.writeFileSync(expected, 'a file the user made')
    const [queued] = (await downloads.enqueue({ uploadIds: [uploadId!], folder })).downloads
    await downloads.whenIdle()
    expect(fs.readFileSync(expected, 'utf8')).toBe('a file the user made')
    expect(queued!.targetPath).toBe(expected.replace(/(\.[a-z0-9]+)$/, ' (2)$1'))
    expect(sha256File(queued!.targetPath)).toBe(sourceSha256(demo, uploadId!))
  })

  test('writes a running download\'s progress to the cache about once a second, not with every event, and exactly at its end', async ({
    demo,
    synced,
    syncedLibrary,
  }) => {
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 1_000_000 } })
    const library = syncedLibrary()
    // Every write of a download's bytes, as the cache sees it (whoever makes it).
    withCache(library, (db) =>
      db.exec(`CREATE TABLE progress_writes (id INTEGER, bytes INTEGER, at REAL);
        CREATE TRIGGER progress_written AFTER UPDATE OF bytes_done ON downloads
        BEGIN INSERT INTO progress_writes VALUES (new.id, new.bytes_done, unixepoch('subsec')); END`),
    )
    const downloads = library.downloads
    const events = collect(downloads.onDidProgress)
    downloads.start()
    const [queued] = (await downloads.enqueue({ uploadIds: synced.uploads(1, 2_500_000) })).downloads
    await downloads.whenIdle()
    const done = downloads.get(queued!.id)
    expect(done.state).toBe('completed')
    let writes: { bytes: number; at: number }[] = []
    withCache(library, (db) => (writes = db.prepare('SELECT bytes, at FROM progress_writes WHERE id = ? ORDER BY rowid').all(queued!.id) as typeof writes))
    const seconds = writes.at(-1)!.at - writes[0]!.at
    // Some 2.5 seconds of transfer: about a dozen progress events, at most one write a second and the last.
    expect(events.length).toBeGreaterThanOrEqual(10)
    expect(writes.length).toBeLessThanOrEqual(Math.ceil(seconds) + 2)
    expect(writes.length).toBeLessThan(events.length / 2)
    for (let i = 1; i < writes.length - 1; i++) expect(writes[i]!.at - writes[i - 1]!.at, `gap before write ${i}`).toBeGreaterThanOrEqual(0.95)
    // The last write is the completion, with the whole file; the month's total counts every byte once.
    expect(writes.at(-1)!.bytes).toBe(queued!.bytesTotal)
    expect(done.bytesDone).toBe(queued!.bytesTotal)
    expect(totalBytes(library)).toBe(queued!.bytesTotal)
  })

  test('reports a download completed only once its file is whole, in place under its name, and no partial file is left', async ({
    demo,
    synced,
    syncedLibrary,
  }) => {
    const library = syncedLibrary()
    const downloads = library.downloads
    const seen: string[] = []
    const early: string[] = []
    downloads.onDidChange((change) => {
      for (const download of change.downloads) {
        if (download.state !== 'completed') continue
        // Looked at in the change event itself: nothing may say "completed" before the file is there.
        const whole = !fs.existsSync(`${download.targetPath}.part`) && sizeOf(download.targetPath) === download.bytesTotal
        if (!whole || sha256File(download.targetPath) !== download.sha256) early.push(download.uploadId)
        seen.push(download.uploadId)
      }
    })
    downloads.setConcurrency(4)
    downloads.start()
    const uploadIds = synced.uploads(12, 100_000)
    await downloads.enqueue({ uploadIds })
    await downloads.whenIdle()
    expect(seen.sort()).toEqual([...uploadIds].sort())
    expect(early).toEqual([])
    for (const download of downloads.list()) expect(download.sha256).toBe(sourceSha256(demo, download.uploadId))
  })

  test('reports progress about five times a second per download, no more, and the final bytes at the end', async ({ demo, synced, syncedLibrary }) => {
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 2_000_000 } })
    const library = syncedLibrary()
    const downloads = library.downloads
    const events: { at: number; progress: DownloadProgress }[] = []
    downloads.onDidProgress((progress) => events.push({ at: performance.now(), progress }))
    downloads.start()
    const [queued] = (await downloads.enqueue({ uploadIds: synced.uploads(1, 2_500_000) })).downloads
    await downloads.whenIdle()
    expect(events.length).toBeGreaterThanOrEqual(4)
    // Events follow a 200 ms interval timer, but the last: the final bytes are reported as soon as
    // the transfer ends. A tick the machine delays comes late and the next one on time, so a gap may
    // be shorter than the interval, never a burst: none under half of it, and five a second in all.
    const regular = events.slice(0, -1)
    for (let i = 1; i < regular.length; i++) expect(regular[i]!.at - regular[i - 1]!.at, `gap before event ${i}`).toBeGreaterThanOrEqual(100)
    const perSecond = (regular.length - 1) / ((regular.at(-1)!.at - regular[0]!.at) / 1000)
    expect(perSecond).toBeLessThanOrEqual(5.5)
    expect(events.at(-1)!.progress).toMatchObject({ id: queued!.id, bytes: queued!.bytesTotal, total: queued!.bytesTotal, percent: 100 })
    expect(events.map((event) => event.progress.bytes)).toEqual([...events.map((event) => event.progress.bytes)].sort((a, b) => a - b))
  })
})

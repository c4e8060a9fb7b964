/**
 * Attack 23: the download writer trusted the target path stored in the cache. Containment was
 * checked when a download was planned, never when its `.part` was opened, written or renamed. An
 * artist folder swapped for a link to a folder outside (after planning, or in the middle of the
 * transfer), a `.part` planted as a link to a file outside, or a trigger planted in the cache that
 * rewrote target_path: each time the file was written or put in place outside the download folder,
 * and the CLI said "complete and verified in <the download folder>".
 *
 * Now the folder each download was queued into is kept in the cache (migration 0015), and the
 * target must be `<that folder>/<artist>/<file>` as planned; the `.part` is opened without
 * following a link; and before it is opened, and again just before the rename, the real path of
 * its folder must lie inside the real path of the download folder. Otherwise the download fails
 * with an unsafe_path error naming the path and the folder, nothing is put in place outside, and
 * the CLI says it failed.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect } from 'vitest'
import { openNoFollow } from '../../../src-main/core/downloads/part-file'
import { openLibrary } from '../../../src-main/core/library/library'
import type { Library } from '../../../src-main/core/library/library'
import { UnsafePathError } from '../../../src-main/core/shared/errors'
import { cliInProcess as cli } from '../support/cli'
import { QUICK_DOWNLOADS, syncedDataDir } from '../support/core'
import { QUICK_RETRIES, type TempDir } from '../support/fixtures'
import { queueTest } from '../core/downloads/queue-fixtures'

const test = queueTest({ artists: 12, seed: 23, maxFileMb: 1 })

/** Work on the cache through a connection of its own, as another process (or an attacker) would. */
function withCache(file: string, work: (db: Database.Database) => void): void {
  const db = new Database(file)
  try {
    db.pragma('busy_timeout = 5000')
    work(db)
  } finally {
    db.close()
  }
}

/** The download folder and a folder outside it, both real paths. */
function folders(tempDir: TempDir): { root: string; outside: string } {
  return { root: fs.realpathSync(tempDir()), outside: fs.realpathSync(tempDir()) }
}

/** Every file below folder, relative to it (links listed, not followed). */
function filesBelow(folder: string): string[] {
  return (fs.readdirSync(folder, { recursive: true }) as string[]).sort()
}

/** One upload queued into root with the queue not started: the plan is made, nothing is written yet. */
async function queueOne(library: Library, uploadId: string, root: string) {
  const [queued] = (await library.downloads.enqueue({ uploadIds: [uploadId], folder: root })).downloads
  expect(queued!.state).toBe('queued')
  return { id: queued!.id, target: queued!.targetPath, artistDir: path.dirname(queued!.targetPath), part: `${queued!.targetPath}.part` }
}

async function runQueue(library: Library): Promise<void> {
  library.downloads.start()
  await library.downloads.whenIdle()
}

describe('the writer checks where it writes, not only the planner', () => {
  test('an artist folder swapped for a link after planning: refused before the .part is opened', async ({ synced, syncedLibrary, tempDir }) => {
    const { root, outside } = folders(tempDir)
    const library = syncedLibrary()
    const queued = await queueOne(library, synced.uploads(1, 50_000)[0]!, root)

    fs.rmSync(queued.artistDir, { recursive: true, force: true })
    fs.symlinkSync(outside, queued.artistDir)
    await runQueue(library)

    const after = library.downloads.get(queued.id)
    expect(after.state).toBe('failed')
    expect(after.error).toContain(queued.artistDir)
    expect(after.error).toContain(root)
    expect(filesBelow(outside)).toEqual([])
  })

  test('an artist folder moved out and replaced by a link mid-download: the file is not put in place outside', async ({
    synced,
    syncedLibrary,
    tempDir,
    onTestFinished,
  }) => {
    const { root, outside } = folders(tempDir)
    const library = syncedLibrary()
    const queued = await queueOne(library, synced.uploads(1, 200_000)[0]!, root)
    const size = library.downloads.get(queued.id).bytesTotal
    const half = Math.floor(size / 2)

    // A loopback server that sends half the file, then waits until the folder is swapped to send the rest.
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const server = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-length': String(size), etag: '"v1"' })
      response.write(Buffer.alloc(half, 1))
      void released.then(() => response.end(Buffer.alloc(size - half, 2)))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => {
      release()
      server.closeAllConnections()
      server.close()
    })
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/file.mp3`
    withCache(library.cacheFile, (db) => db.prepare('UPDATE downloads SET url = ? WHERE id = ?').run(url, queued.id))

    library.downloads.start()
    await expect.poll(() => (fs.existsSync(queued.part) ? fs.statSync(queued.part).size : 0), { timeout: 10_000 }).toBe(half)
    // The attacker: the artist folder (with the open .part in it) moved outside, a link to it in its place.
    const moved = path.join(outside, 'moved')
    fs.renameSync(queued.artistDir, moved)
    fs.symlinkSync(moved, queued.artistDir)
    release()
    await library.downloads.whenIdle()

    const after = library.downloads.get(queued.id)
    expect(after.state).toBe('failed')
    expect(after.error).toContain(root)
    // What the attacker moved out is theirs; no complete file was put in place there.
    expect(fs.existsSync(path.join(moved, path.basename(queued.target)))).toBe(false)
    expect(filesBelow(outside).filter((name) => !name.endsWith('.part'))).toEqual(['moved'])
  })

  test('a target rewritten in the cache cannot name a .part outside to delete: cancel leaves it', async ({ synced, syncedLibrary, tempDir }) => {
    const { root, outside } = folders(tempDir)
    const library = syncedLibrary()
    const queued = await queueOne(library, synced.uploads(1, 50_000)[0]!, root)
    const victim = path.join(outside, 'thesis.doc')
    fs.writeFileSync(`${victim}.part`, 'hours of work')
    withCache(library.cacheFile, (db) => db.prepare('UPDATE downloads SET target_path = ? WHERE id = ?').run(victim, queued.id))

    await library.downloads.cancel([queued.id])
    expect(library.downloads.get(queued.id).state).toBe('cancelled')
    expect(fs.readFileSync(`${victim}.part`, 'utf8')).toBe('hours of work')
  })

  test('a .part planted as a link to a file outside: not followed, the file outside untouched', async ({ synced, syncedLibrary, tempDir }) => {
    const { root, outside } = folders(tempDir)
    const library = syncedLibrary()
    const queued = await queueOne(library, synced.uploads(1, 50_000)[0]!, root)

    // An empty file outside (an empty one is not started over: the writer opens it and writes).
    const victim = path.join(outside, 'victim.mp3')
    fs.writeFileSync(victim, '')
    fs.mkdirSync(queued.artistDir, { recursive: true })
    fs.symlinkSync(victim, queued.part)
    await runQueue(library)

    const after = library.downloads.get(queued.id)
    expect(after.state).toBe('failed')
    expect(after.error).toContain(queued.part)
    expect(fs.statSync(victim).size).toBe(0)
    expect(fs.existsSync(queued.target)).toBe(false)
  })

  test('a link swapped in for the .part after the check is not followed either (O_NOFOLLOW)', async ({ tempDir, skip }) => {
    if (fs.constants.O_NOFOLLOW === undefined) return skip('this system has no O_NOFOLLOW (Windows): the check before the open stands alone')
    const { root, outside } = folders(tempDir)
    const victim = path.join(outside, 'victim.mp3')
    fs.writeFileSync(victim, '')
    const part = path.join(root, 'x.mp3.part')
    fs.symlinkSync(victim, part)
    await expect(openNoFollow(part, fs.constants.O_WRONLY | fs.constants.O_TRUNC)).rejects.toThrow(UnsafePathError)
    await expect(openNoFollow(part, fs.constants.O_WRONLY | fs.constants.O_TRUNC)).rejects.toThrow(`${part} is a link`)
  })

  test('downloads queued into a folder the setting no longer names still go there, each into its own', async ({ synced, syncedLibrary, tempDir }) => {
    const [first, second] = [folders(tempDir).root, folders(tempDir).root]
    const library = syncedLibrary()
    const [a, b] = synced.uploads(2, 50_000)
    const one = await queueOne(library, a!, first!)
    library.settings.update({ downloadFolder: second! })
    const [two] = (await library.downloads.enqueue({ uploadIds: [b!] })).downloads
    await runQueue(library)
    expect(library.downloads.get(one.id)).toMatchObject({ state: 'completed', targetPath: one.target })
    expect(library.downloads.get(two!.id)).toMatchObject({ state: 'completed' })
    expect(path.dirname(path.dirname(two!.targetPath))).toBe(second)
    expect(fs.existsSync(one.target) && fs.existsSync(two!.targetPath)).toBe(true)
  })

  test('a trigger in the cache that rewrites target_path: the download fails, the CLI says so, nothing is written outside', async ({
    demo,
    tempDir,
  }) => {
    const { root, outside } = folders(tempDir)
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    const uploadId = demo.catalogue.artists.flatMap((artist) => demo.catalogue.tracksOf(artist)).find((track) => track.bytes > 50_000)!.uploadId

    // A download paused in the app; then the trigger, planted while the app is closed.
    const library = openLibrary({ dataDir, client: QUICK_RETRIES, downloads: QUICK_DOWNLOADS })
    let cacheFile: string
    try {
      const [queued] = (await library.downloads.enqueue({ uploadIds: [uploadId], folder: root })).downloads
      await library.downloads.pause([queued!.id])
      cacheFile = library.cacheFile
    } finally {
      await library.dispose()
    }
    const elsewhere = path.join(outside, 'x.mp3')
    withCache(cacheFile, (db) =>
      db.exec(`CREATE TRIGGER elsewhere AFTER UPDATE OF state ON downloads WHEN new.state = 'queued'
               BEGIN UPDATE downloads SET target_path = '${elsewhere}' WHERE id = new.id; END`),
    )

    // `download ID` resumes the paused download: its state changes, and the trigger rewrites its target.
    const run = await cli(['download', uploadId, '--data-dir', dataDir, '--to', root])
    expect(run.stderr).toContain(`${uploadId} failed`)
    expect(run.stderr).toContain(elsewhere)
    expect(run.stderr).toContain(`0 of 1 files complete and verified in ${root}`)
    expect(run.code).toBe(1)
    expect(filesBelow(outside)).toEqual([])
  })
})

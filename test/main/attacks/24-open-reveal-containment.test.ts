/**
 * Attack 24: Open and Show in folder trusted the stored target path. `downloads:open` and
 * `downloads:reveal` asked only whether a file was there; the media route alone checked that it
 * lay in its download folder, and read that folder from the same stored path (its parent's
 * parent). A completed download whose target_path was rewritten in the cache to a file outside,
 * whose file was replaced by a link to one, or whose artist folder was moved out and a link left in
 * its place, was handed to the system to open or show; the rewritten one was even played.
 *
 * Now open, reveal and playbackAddress hold the file to the folder the download was queued into
 * (kept in the cache apart from the target: migration 0015), by its real path, and refuse with
 * unsafe_path naming the path and the folder: the system is never asked. The media route reads the
 * same folder, so it refuses the rewritten path too. An intact download opens, by its real path.
 */
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect } from 'vitest'
import type { Channel, Tagged } from '../../../src-main/core/shared/contract'
import type { CoreClient } from '../../../src-main/main-process/core-client'
import { createDispatch } from '../../../src-main/main-process/dispatch'
import { mediaResponse } from '../../../src-main/main-process/media'
import { windowHandlers, type Platform } from '../../../src-main/main-process/window-handlers'
import { startInProcessCore } from '../support/core'
import { catalogueTest, type TempDir } from '../support/fixtures'
import type { RunningCatalogueService } from '../../../src-main/demo/index'

const test = catalogueTest({ artists: 12, seed: 24, maxFileMb: 1 })

interface CompletedApp {
  core: CoreClient
  call: (channel: Channel, ...args: unknown[]) => Promise<Tagged<unknown>>
  /** What the system was asked to do. */
  asked: string[]
  id: number
  /** The download's file, and the folder it was queued into (the settings' default). */
  file: string
  folder: string
  /** A folder outside, with a file in it the attacker wants opened. */
  outside: string
  secret: string
  cacheFile: string
}

const opened: CoreClient[] = []
afterEach(async () => {
  for (const core of opened.splice(0)) await core.close()
})

/** The app, as a window reaches it, with one completed download. */
async function completedApp(demo: RunningCatalogueService, tempDir: TempDir): Promise<CompletedApp> {
  const dataDir = fs.realpathSync(tempDir())
  const { core, session } = await startInProcessCore({ dataDir, baseUrl: demo.baseUrl })
  opened.push(core)
  await session.library.sync.start({ skipAvatars: true })
  const track = demo.catalogue.artists.flatMap((artist) => demo.catalogue.tracksOf(artist)).find((candidate) => candidate.bytes > 10_000 && candidate.ext === 'mp3')!
  const { downloads, folder } = await session.library.downloads.enqueue({ uploadIds: [track.uploadId] })
  await session.library.downloads.whenIdle()
  const download = session.library.downloads.get(downloads[0]!.id)
  expect(download.state).toBe('completed')

  const asked: string[] = []
  const platform = {
    openPath: async (file: string) => void asked.push(`open ${file}`),
    showInFolder: async (file: string) => void asked.push(`show ${file}`),
    playbackAddress: (id: number) => `tuneshelf-media://app/downloads/${id}`,
  } as Platform
  const dispatch = createDispatch(core, windowHandlers(core, platform, dataDir))
  const outside = fs.realpathSync(tempDir())
  const secret = path.join(outside, 'secret.mp3')
  fs.writeFileSync(secret, 'SECRET-OUTSIDE')
  return {
    core,
    call: (channel, ...args) => dispatch(channel, args) as Promise<Tagged<unknown>>,
    asked,
    id: download.id,
    file: download.targetPath,
    folder,
    outside,
    secret,
    cacheFile: session.library.cacheFile,
  }
}

/** Open, reveal and playbackAddress of the download, each refused as unsafe, naming `named` and the folder; the system asked nothing. */
async function expectRefused(app: CompletedApp, named: string): Promise<void> {
  for (const channel of ['downloads:open', 'downloads:reveal', 'downloads:playbackAddress'] as const) {
    const result = await app.call(channel, app.id)
    expect(result, channel).toMatchObject({ ok: false, error: { code: 'unsafe_path' } })
    const message = (result as { error: { message: string } }).error.message
    expect(message, channel).toContain(named)
    expect(message, channel).toContain(app.folder)
  }
  expect(app.asked).toEqual([])
}

describe('open and reveal hold the file to its download folder', () => {
  test('a target_path rewritten in the cache to a file outside: refused, and not played either', async ({ demo, tempDir }) => {
    const app = await completedApp(demo, tempDir)
    const db = new Database(app.cacheFile)
    try {
      db.pragma('busy_timeout = 5000')
      db.prepare('UPDATE downloads SET target_path = ? WHERE id = ?').run(app.secret, app.id)
    } finally {
      db.close()
    }
    await expectRefused(app, app.secret)
    const played = await mediaResponse(app.core, new Request(`tuneshelf-media://app/downloads/${app.id}`))
    expect(played.status).toBe(403)
    expect(await played.text()).not.toContain('SECRET')
  })

  test('a file replaced by a link to a file outside: refused', async ({ demo, tempDir }) => {
    const app = await completedApp(demo, tempDir)
    fs.rmSync(app.file)
    fs.symlinkSync(app.secret, app.file)
    await expectRefused(app, app.file)
  })

  test('an artist folder moved outside, a link left in its place: refused', async ({ demo, tempDir }) => {
    const app = await completedApp(demo, tempDir)
    const artistDir = path.dirname(app.file)
    const moved = path.join(app.outside, 'moved')
    fs.renameSync(artistDir, moved)
    fs.symlinkSync(moved, artistDir)
    await expectRefused(app, app.file)
  })

  test('an intact download opens and is shown, by its real path', async ({ demo, tempDir }) => {
    const app = await completedApp(demo, tempDir)
    expect(await app.call('downloads:open', app.id)).toEqual({ ok: true, value: undefined })
    expect(await app.call('downloads:reveal', app.id)).toEqual({ ok: true, value: undefined })
    expect(app.asked).toEqual([`open ${app.file}`, `show ${app.file}`])
  })
})

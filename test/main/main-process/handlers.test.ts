/**
 * Every IPC channel through the main process's dispatch, as a window calls it:
 * the window channels answered in main, the others by the core's host (its
 * reader and its writer, run in this thread: the same code as in their process,
 * over in-memory ports), over a real session on a synced cache of the demo
 * catalogue, with a stub platform that records what the handlers ask of it.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, onTestFinished, vi } from 'vitest'
import Database from 'better-sqlite3'
import { cacheFileFor, openCache } from '../../../src-main/core/db/connection'
import { MIB } from '../../../src-main/demo/catalogue'
import { startCatalogueService, type RunningCatalogueService } from '../../../src-main/demo/index'
import { AppSession, type SessionEvent, type SessionOptions } from '../../../src-main/core/session/session'
import type { Track } from '../../../src-main/core/shared/types'
import { APP_VERSION } from '../../../src-main/core/base/version'
import { CoreClient } from '../../../src-main/main-process/core-client'
import { inProcessHost } from '../../../src-main/core/host/in-process'
import { CHANNELS, type Channel, type ResultOf, type Tagged } from '../../../src-main/core/shared/contract'
import { createDispatch } from '../../../src-main/main-process/dispatch'
import { windowHandlers, type Platform } from '../../../src-main/main-process/window-handlers'
import { syncedDataDir } from '../support/core'
import { QUICK_RETRIES, catalogueTest } from '../support/fixtures'

/** The largest upload is 150 MiB (157.3 MB): more than the Free level's 100 MB. */
const DEMO = { artists: 40, seed: 23, maxFileMb: 150 } as const
const LIBRARY: SessionOptions['library'] = {
  client: QUICK_RETRIES,
  downloads: { transferSettings: { backoffMs: 5, maxDelayMs: 20 }, freeSpace: async () => 1024 ** 4 },
}

/** What the handlers asked of the platform, in order. */
type PlatformCall = { method: keyof Platform; args: unknown[] }

interface App {
  /** The session the core's writer runs (in this thread, so a test can look inside). */
  session: AppSession
  core: CoreClient
  dataDir: string
  calls: PlatformCall[]
  /** What the folder picker answers (a folder, or null when cancelled). */
  pick: { folder: string | null }
  /** Every event of the session since it opened. */
  events: SessionEvent[]
  /** Calls a channel as a window would. */
  call<C extends Channel>(channel: C, ...args: unknown[]): Promise<Tagged<ResultOf<C>>>
  /** Calls a channel that must answer; its value. */
  value<C extends Channel>(channel: C, ...args: unknown[]): Promise<ResultOf<C>>
  /** Calls a channel that must fail; its error's code. */
  failure(channel: Channel, ...args: unknown[]): Promise<string>
}

/** Channels that answered at least once in this file. */
const answered = new Set<Channel>()

const test = catalogueTest(DEMO)
  .extend('synced', { scope: 'file' }, ({ demo, tempDir }): Promise<string> => syncedDataDir(demo.baseUrl, tempDir()))
  .extend('openApp', async ({ synced, tempDir }, { onCleanup }): Promise<(options?: Partial<SessionOptions>) => Promise<App>> => {
    const cores: CoreClient[] = []
    onCleanup(async () => {
      for (const core of cores) await core.close()
    })
    return async ({ startDemo, ...options } = {}) => {
      // A session over a copy of the synced cache: fresh, so it does not sync on open.
      const dataDir = tempDir()
      fs.cpSync(synced, dataDir, { recursive: true })
      let session!: AppSession
      const core = await CoreClient.start({
        launch: inProcessHost({
          dataDir,
          startDemo: startDemo ?? (() => Promise.reject(new Error('these tests name their service'))),
          session: { library: LIBRARY, ...options },
          onSession: (opened) => (session = opened),
        }),
      })
      cores.push(core)
      const events: SessionEvent[] = []
      core.onDidEmit((event) => events.push(event))
      const calls: PlatformCall[] = []
      const pick = { folder: '/chosen/by/the/user' as string | null }
      const platform: Platform = {
        transport: 'web',
        versions: { electron: '45.4.1', chrome: '142.0.0.0', node: process.versions.node },
        avatarBase: 'tuneshelf-media://avatars/',
        logFile: '/logs/tuneshelf.log',
        playbackAddress: (downloadId) => {
          calls.push({ method: 'playbackAddress', args: [downloadId] })
          return `tuneshelf-media://downloads/${downloadId}`
        },
        openPath: async (file) => void calls.push({ method: 'openPath', args: [file] }),
        showInFolder: async (file) => void calls.push({ method: 'showInFolder', args: [file] }),
        openExternal: async (address) => {
          calls.push({ method: 'openExternal', args: [address] })
          return true
        },
        pickFolder: async (startIn) => {
          calls.push({ method: 'pickFolder', args: [startIn] })
          return pick.folder
        },
        openLog: async () => void calls.push({ method: 'openLog', args: [] }),
      }
      const dispatch = createDispatch(core, windowHandlers(core, platform, dataDir))
      const call = async <C extends Channel>(channel: C, ...args: unknown[]): Promise<Tagged<ResultOf<C>>> => {
        const result = (await dispatch(channel, args)) as Tagged<ResultOf<C>>
        // What crosses IPC is plain JSON: the same after a round trip.
        expect(JSON.parse(JSON.stringify(result ?? null))).toEqual(result)
        if (result.ok) answered.add(channel)
        return result
      }
      return {
        session,
        core,
        dataDir,
        calls,
        pick,
        events,
        call,
        value: async (channel, ...args) => {
          const result = await call(channel, ...args)
          if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`)
          return result.value
        },
        failure: async (channel, ...args) => {
          const result = await call(channel, ...args)
          if (result.ok) throw new Error(`${channel} answered ${JSON.stringify(result.value)}; it should have failed`)
          expect(result.error).toMatchObject({ name: expect.any(String), message: expect.any(String), code: expect.any(String) })
          return result.error.code
        },
      }
    }
  })

/** Every track of the cache with a file to download, smallest first. */
function tracksOf(session: AppSession): (Track & { artist: string })[] {
  const { artists } = session.library.catalogue.list({ includeBlank: true, perPage: 100 })
  return artists
    .flatMap(({ username }) => session.library.catalogue.artist(username).tracks.map((track) => ({ ...track, artist: username })))
    .filter((track) => track.bytes !== null && track.hotlinkPath !== null)
    .sort((a, b) => a.bytes! - b.bytes! || a.uploadId.localeCompare(b.uploadId))
}

/** Resolves once the downloads given are all in one of these states. */
async function settledIn(app: App, ids: number[], states: string[]): Promise<void> {
  const done = (): boolean => ids.every((id) => states.includes(app.session.library.downloads.get(id).state))
  if (done()) return
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`downloads ${ids.join(', ')} did not reach ${states.join(' or ')}`)), 20_000)
    const subscription = app.session.onDidEmit(() => {
      if (!done()) return
      clearTimeout(timer)
      subscription.dispose()
      resolve()
    })
  })
}

describe('the catalogue channels', () => {
  test('list: filters, sorts, pages by offset and limit, searches; bad queries are invalid_argument', async ({ demo, openApp }) => {
    const app = await openApp()
    const all = await app.value('catalogue:list', { includeBlank: true, perPage: 100 })
    expect(all.total).toBe(DEMO.artists)
    expect(all.artists).toHaveLength(DEMO.artists)
    const firstPage = await app.value('catalogue:list')
    expect(firstPage.total).toBe(demo.catalogue.artists.filter((artist) => artist.numTracks > 0).length)

    const podcasts = await app.value('catalogue:list', { kind: 'podcasts', includeBlank: true, perPage: 100 })
    expect(podcasts.total).toBe(demo.catalogue.artists.filter((artist) => artist.isPodcaster).length)
    expect(podcasts.total).toBeGreaterThan(0)
    expect(podcasts.artists.every((artist) => artist.isPodcaster)).toBe(true)
    const musicians = await app.value('catalogue:list', { kind: 'musicians', includeBlank: true, perPage: 100 })
    expect(musicians.total + podcasts.total).toBe(DEMO.artists)
    expect(musicians.artists.some((artist) => artist.isPodcaster)).toBe(false)

    const slice = await app.value('catalogue:list', { includeBlank: true, offset: 5, limit: 7 })
    expect(slice).toEqual({ total: DEMO.artists, pages: 1, artists: all.artists.slice(5, 12) })
    const page2 = await app.value('catalogue:list', { includeBlank: true, page: 2, perPage: 7 })
    expect(page2.artists).toEqual(all.artists.slice(7, 14))
    expect(page2.pages).toBe(Math.ceil(DEMO.artists / 7))

    const top = await app.value('catalogue:list', { includeBlank: true, perPage: 100, sort: 'top' })
    const reversed = await app.value('catalogue:list', { includeBlank: true, perPage: 100, sort: 'top', reverse: true })
    expect(reversed.artists.map((artist) => artist.username)).toEqual(top.artists.map((artist) => artist.username).reverse())

    const someone = all.artists[3]!
    const found = await app.value('catalogue:list', { q: someone.username, includeBlank: true })
    expect(found.artists.map((artist) => artist.username)).toContain(someone.username)
    expect(found.total).toBeLessThan(DEMO.artists)

    for (const bad of [{ limit: 0 }, { perPage: 'ten' }, { bogus: true }, { offset: 1, page: 2 }, { kind: 'robots' }, 'artists']) {
      expect(await app.failure('catalogue:list', bad), JSON.stringify(bad)).toBe('invalid_argument')
    }
    expect(await app.failure('catalogue:list', {}, {})).toBe('invalid_argument')
  })

  test('artist: one artist with its tracks, by username without regard to case; an unknown one is not_found', async ({ openApp }) => {
    const app = await openApp()
    const [someone] = (await app.value('catalogue:list', { perPage: 1 })).artists
    const artist = await app.value('catalogue:artist', someone!.username.toUpperCase())
    expect(artist.username).toBe(someone!.username)
    expect(artist.tracks.length).toBeGreaterThan(0)
    expect(await app.failure('catalogue:artist', 'no-such-artist-here')).toBe('not_found')
    expect(await app.failure('catalogue:artist', '')).toBe('invalid_argument')
    expect(await app.failure('catalogue:artist')).toBe('invalid_argument')
    expect(await app.failure('catalogue:artist', 42)).toBe('invalid_argument')
  })

  test('refreshArtist picks up a change on the service, and says gone for an artist the service removed', async ({ demo, openApp }) => {
    const app = await openApp()
    const [edited, removed] = (await app.value('catalogue:list', { perPage: 2 })).artists
    const original = demo.catalogue.findArtist(edited!.username)!
    const before = { pfName: original.pfName, pfBio: original.pfBio }
    demo.catalogue.editArtist(edited!.username, { pfName: 'A Name Edited Just Now', pfBio: 'A bio edited just now.' })
    onTestFinished(() => void demo.catalogue.editArtist(edited!.username, before))
    expect((await app.value('catalogue:artist', edited!.username)).name).toBe(edited!.name)

    const changed = new Promise<SessionEvent>((resolve) => app.session.onDidEmit((event) => event.type === 'catalogue-changed' && resolve(event)))
    const refreshed = await app.value('catalogue:refreshArtist', edited!.username)
    expect(refreshed).toMatchObject({ gone: false, artist: { username: edited!.username, name: 'A Name Edited Just Now', bio: 'A bio edited just now.' } })
    await changed
    expect((await app.value('catalogue:artist', edited!.username)).name).toBe('A Name Edited Just Now')

    demo.catalogue.removeArtist(removed!.username)
    onTestFinished(() => demo.catalogue.restoreArtist(removed!.username))
    const gone = await app.value('catalogue:refreshArtist', removed!.username)
    expect(gone.gone).toBe(true)
    expect(gone.artist).toMatchObject({ username: removed!.username, goneAt: expect.any(Number) })
    // Kept in the cache, marked gone.
    expect((await app.value('catalogue:artist', removed!.username)).goneAt).toEqual(expect.any(Number))
    expect(await app.failure('catalogue:refreshArtist', 'no-such-artist-here')).toBe('not_found')
  })

  test('levels, and the tier fit of an artist against each level', async ({ openApp }) => {
    const app = await openApp()
    const levels = await app.value('catalogue:levels')
    expect(levels).toEqual([
      { id: 1, name: 'Free', maxsize: 100, price: 0, bandwidth: 30, storage: 2 },
      { id: 2, name: 'Silver', maxsize: 4096, price: 8, bandwidth: 100, storage: 60 },
      { id: 3, name: 'Gold', maxsize: 4096, price: 15, bandwidth: 250, storage: 100 },
      { id: 4, name: 'Platinum', maxsize: 4096, price: 59, bandwidth: 1000, storage: 250 },
    ])
    const tracks = tracksOf(app.session)
    // The artist of the largest upload, 150 MiB = 157,286,400 bytes: over Free's 100 MB (10^8 bytes), within the others' 4096 MB.
    const big = tracks.at(-1)!
    expect(big.bytes).toBe(150 * MIB)
    const bigTracks = (await app.value('catalogue:artist', big.artist)).tracks
    const total = bigTracks.reduce((sum, track) => sum + (track.bytes ?? 0), 0)
    const fits = await app.value('catalogue:tierFit', big.artist)
    expect(fits.map((fit) => fit.level.name)).toEqual(['Free', 'Silver', 'Gold', 'Platinum'])
    const [free, silver] = fits
    expect(free).toMatchObject({ largestBytes: 157_286_400, maxFileBytes: 100_000_000, fitsFileSize: false, totalBytes: total, storageBytes: 2_000_000_000, fits: false })
    expect(free!.fitsStorage).toBe(total <= 2_000_000_000)
    expect(silver).toMatchObject({ largestBytes: 157_286_400, maxFileBytes: 4_096_000_000, fitsFileSize: true, storageBytes: 60_000_000_000, fitsStorage: true, fits: true })

    // An artist whose uploads are all within 100 MB fits every level.
    const largestOf = (artist: string): number => Math.max(0, ...tracks.filter((track) => track.artist === artist).map((track) => track.bytes!))
    const small = tracks.find((track) => largestOf(track.artist) <= 100_000_000)!.artist
    const smallTracks = (await app.value('catalogue:artist', small)).tracks
    const smallFits = await app.value('catalogue:tierFit', small)
    expect(smallFits.map((fit) => fit.fits)).toEqual([true, true, true, true])
    expect(smallFits[0]).toMatchObject({
      largestBytes: Math.max(...smallTracks.map((track) => track.bytes ?? 0)),
      totalBytes: smallTracks.reduce((sum, track) => sum + (track.bytes ?? 0), 0),
    })
    expect(await app.failure('catalogue:tierFit', 'no-such-artist-here')).toBe('not_found')
  })

  test('status', async ({ demo, openApp }) => {
    const app = await openApp()
    const status = await app.value('catalogue:status')
    expect(status).toMatchObject({ baseUrl: demo.baseUrl, artists: DEMO.artists, readOnly: false, lastFullSyncAt: expect.any(Number) })
    expect(status.cacheBytes).toBeGreaterThan(0)
    expect(await app.failure('catalogue:status', 'extra')).toBe('invalid_argument')
  })

  test("what's new: the newest uploads after the first sync of a cache; a limit is checked", async ({ openApp }) => {
    const app = await openApp()
    expect(await app.value('catalogue:whatsNew')).toMatchObject({ mode: 'newest', artists: [], totalArtists: 0 })
    expect((await app.value('catalogue:whatsNew', 10)).tracks).toHaveLength(10)
    expect(await app.failure('catalogue:whatsNew', 0)).toBe('invalid_argument')
    expect(await app.failure('catalogue:whatsNew', 'ten')).toBe('invalid_argument')
  })

  test('follows, and the counts of the Following and Downloaded filters', async ({ openApp }) => {
    const app = await openApp()
    const [artist] = (await app.value('catalogue:list', { perPage: 1 })).artists
    expect(await app.value('follows:list')).toEqual([])
    expect(await app.value('follows:follow', artist!.username.toUpperCase(), { autoDownload: true })).toMatchObject({
      username: artist!.username,
      autoDownload: true,
      gone: false,
      inCache: true,
    })
    expect(await app.value('follows:setAutoDownload', artist!.username, false)).toMatchObject({ autoDownload: false })
    // Read from the host's own connection, as every query is.
    expect(await app.value('follows:list')).toEqual([expect.objectContaining({ username: artist!.username, autoDownload: false })])
    expect(await app.value('catalogue:filterCounts')).toEqual({ following: 1, downloaded: 0 })
    expect(await app.value('catalogue:filterCounts', { kind: 'all', q: artist!.username })).toEqual({ following: 1, downloaded: 0 })
    expect((await app.value('catalogue:list', { only: 'following' })).artists.map((row) => row.username)).toEqual([artist!.username])
    expect(await app.value('follows:unfollow', artist!.username)).toBe(true)
    expect(await app.value('follows:list')).toEqual([])
    // Nothing held back by auto-download here (test/main/attacks/27-auto-download-flood.test.ts holds some back).
    expect(await app.value('follows:downloadHeldBack')).toMatchObject({ downloads: [] })
    expect(await app.failure('follows:follow', 'no-such-artist-here')).toBe('not_found')
    expect(await app.failure('follows:setAutoDownload', artist!.username, true)).toBe('not_found')
    expect(await app.failure('follows:follow', artist!.username, { autoDownload: 'yes' })).toBe('invalid_argument')
    expect(await app.failure('follows:unfollow')).toBe('invalid_argument')
    expect(await app.failure('catalogue:list', { only: 'liked' })).toBe('invalid_argument')
  })
})

describe('the sync channels', () => {
  test('start, state and cancel', async ({ demo, openApp }) => {
    const app = await openApp()
    const report = await app.value('sync:start', { skipAvatars: true })
    expect(report).toMatchObject({ runId: expect.any(Number), joined: false })
    expect(await app.value('sync:state')).toMatchObject({ status: 'idle', lastRun: { id: report.runId, state: 'completed' }, lastError: null })

    // A sync slowed by the service, cancelled while it runs.
    demo.faults.add({ path: '/api/v1/artists', times: 1000, fault: { kind: 'slow', bytesPerSecond: 2_000 } })
    onTestFinished(() => demo.faults.clear())
    const running = app.call('sync:start', {})
    // The state says so once the writer has begun it (its event reached the host): no read waits for a command.
    await vi.waitFor(async () => expect((await app.value('sync:state')).status).toBe('running'))
    expect(await app.value('sync:cancel')).toBeUndefined()
    const cancelled = await running
    expect(cancelled).toMatchObject({ ok: false, error: { code: 'cancelled' } })
    expect(await app.value('sync:state')).toMatchObject({ status: 'idle', lastError: { code: 'cancelled' } })
    expect(await app.value('sync:cancel')).toBeUndefined()

    for (const bad of [{ concurrency: 0 }, { concurrency: 17 }, { skipAvatars: 'yes' }, { everything: true }]) {
      expect(await app.failure('sync:start', bad), JSON.stringify(bad)).toBe('invalid_argument')
    }
    expect((await app.value('sync:state')).status).toBe('idle')
  })
})

describe('the download channels', () => {
  test('estimate, enqueue, list (with interrupted), pause, resume, cancel, retry, remove, state, resumeQueue', async ({ demo, openApp }) => {
    const app = await openApp()
    const folder = path.join(app.dataDir, 'downloads')
    const tracks = tracksOf(app.session)
    const [a, b, c] = tracks
    const ids = [a!.uploadId, b!.uploadId, c!.uploadId]
    const estimate = await app.value('downloads:estimate', { uploadIds: ids })
    expect(estimate).toMatchObject({ files: 3, bytes: a!.bytes! + b!.bytes! + c!.bytes!, fits: true, folder })
    const ofArtist = tracks.filter((track) => track.artist === a!.artist)
    expect(await app.value('downloads:estimate', { artist: a!.artist })).toMatchObject({
      files: ofArtist.length,
      bytes: ofArtist.reduce((sum, track) => sum + track.bytes!, 0),
    })
    // Estimating queues nothing and makes no folder.
    expect(await app.value('downloads:list')).toEqual([])
    expect(fs.existsSync(folder)).toBe(false)
    for (const bad of [{}, { uploadIds: [] }, { uploadIds: ids, artist: a!.artist }, { uploadIds: [1] }, { artist: a!.artist, folder: '' }]) {
      expect(await app.failure('downloads:estimate', bad), JSON.stringify(bad)).toBe('invalid_argument')
      expect(await app.failure('downloads:enqueue', bad), JSON.stringify(bad)).toBe('invalid_argument')
    }

    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 4_000 } })
    onTestFinished(() => demo.faults.clear())
    const enqueued = await app.value('downloads:enqueue', { uploadIds: ids })
    expect(enqueued.folder).toBe(folder)
    expect(enqueued.downloads.map((download) => download.uploadId)).toEqual(ids)
    const [da, db, dc] = enqueued.downloads.map((download) => download.id) as [number, number, number]
    const listed = await app.value('downloads:list')
    expect(listed.map((download) => [download.id, download.interrupted])).toEqual([
      [da, false],
      [db, false],
      [dc, false],
    ])
    expect(await app.value('downloads:state')).toMatchObject({ started: true, folder, interrupted: 0 })

    await app.value('downloads:pause', [da])
    expect((await app.value('downloads:list', 'paused')).map((download) => [download.id, download.pauseReason])).toEqual([[da, 'user']])
    expect(await app.failure('downloads:resume', [db])).toBe('invalid_argument') // not paused
    await app.value('downloads:resume', [da])
    expect(['queued', 'downloading']).toContain(app.session.library.downloads.get(da).state)
    await app.value('downloads:cancel', [db])
    expect((await app.value('downloads:list', 'cancelled')).map((download) => download.id)).toEqual([db])
    await app.value('downloads:retry', [db])
    expect(['queued', 'downloading']).toContain(app.session.library.downloads.get(db).state)
    await app.value('downloads:remove', [dc])
    expect((await app.value('downloads:list')).map((download) => download.id)).toEqual([da, db])
    expect(await app.failure('downloads:pause', [dc])).toBe('not_found')
    // A list: applied to those that allow it, the others skipped with the reason; the whole queue at once.
    expect(await app.value('downloads:pause', [da, dc])).toEqual({ changed: [da], skipped: [{ id: dc, state: null, reason: `no download ${dc}: it was removed` }] })
    expect(await app.value('downloads:resumeAll')).toEqual({ changed: [da], skipped: [] })
    expect((await app.value('downloads:pauseAll')).changed.toSorted()).toEqual([da, db])
    expect((await app.value('downloads:list', 'paused')).map((download) => download.id)).toEqual([da, db])
    expect((await app.value('downloads:resumeAll')).changed.toSorted()).toEqual([da, db])
    for (const bad of [[], [0], ['1'], 1, [1.5]]) expect(await app.failure('downloads:pause', bad), JSON.stringify(bad)).toBe('invalid_argument')
    expect(await app.failure('downloads:list', 'stuck')).toBe('invalid_argument')

    // The queue stopped (as by an app that quit): what says downloading is interrupted.
    await settledIn(app, [da, db], ['downloading'])
    await app.session.library.downloads.stop()
    // A queue stopped with no event (as by an app that quit) is said within a second of the state's refresh.
    await expect.poll(async () => (await app.value('downloads:list')).map((download) => [download.id, download.state, download.interrupted]), { timeout: 5000 }).toEqual([
      [da, 'downloading', true],
      [db, 'downloading', true],
    ])
    await expect.poll(() => app.value('downloads:state'), { timeout: 5000 }).toMatchObject({ started: false, interrupted: 2 })
    demo.faults.clear()
    app.session.library.downloads.start()
    expect(await app.value('downloads:resumeQueue')).toBeUndefined()
    await app.session.library.downloads.whenIdle()
    const done = await app.value('downloads:list', 'completed')
    expect(done.map((download) => [download.id, download.interrupted])).toEqual([
      [da, false],
      [db, false],
    ])
    for (const download of done) expect(fs.statSync(download.targetPath).size).toBe(download.bytesTotal)
    await expect.poll(() => app.value('downloads:state')).toMatchObject({ started: true, interrupted: 0, running: 0 })
  })

  test('move: paused downloads to the top, the bottom, or before another; clearCompleted takes completed rows off the list and leaves their files', async ({ demo, openApp }) => {
    const app = await openApp()
    const [a, b, c, d] = tracksOf(app.session)
    // Held paused, so their places in the queue are what the test sees, not what the queue did meanwhile.
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 2_000 } })
    onTestFinished(() => demo.faults.clear())
    const ids = (await app.value('downloads:enqueue', { uploadIds: [a!.uploadId, b!.uploadId, c!.uploadId] })).downloads.map((download) => download.id)
    await app.value('downloads:pause', ids)
    const order = async (): Promise<number[]> =>
      (await app.value('downloads:list', 'paused')).toSorted((x, y) => x.queueOrder - y.queueOrder).map((download) => download.id)
    expect(await order()).toEqual(ids)
    expect(await app.value('downloads:move', [ids[2]!], { to: 'top' })).toEqual({ changed: [ids[2]], skipped: [] })
    expect(await order()).toEqual([ids[2], ids[0], ids[1]])
    await app.value('downloads:move', [ids[2]!], { to: 'bottom' })
    expect(await order()).toEqual(ids)
    await app.value('downloads:move', [ids[1]!], { before: ids[0]! })
    expect(await order()).toEqual([ids[1], ids[0], ids[2]])
    for (const bad of [[[ids[0]], { to: 'middle' }], [[ids[0]], {}], [[], { to: 'top' }], [[ids[0]], { before: ids[0] }]]) {
      expect(await app.failure('downloads:move', ...(bad as [number[], { to: 'top' }])), JSON.stringify(bad)).toBe('invalid_argument')
    }
    expect(await app.failure('downloads:move', [999_999], { to: 'top' })).toBe('not_found')

    demo.faults.clear()
    const done = (await app.value('downloads:enqueue', { uploadIds: [d!.uploadId] })).downloads[0]!
    await settledIn(app, [done.id], ['completed'])
    expect(await app.value('downloads:clearCompleted')).toEqual({ removed: 1 })
    expect((await app.value('downloads:list')).map((download) => download.id).toSorted()).toEqual(ids.toSorted())
    expect(fs.existsSync(done.targetPath)).toBe(true)
    expect(await app.value('downloads:clearCompleted')).toEqual({ removed: 0 })
  })

  test('page, summary and ofUploads read the queue a group at a time; a selection of groups is resolved by the core', async ({ demo, openApp }) => {
    const app = await openApp()
    const tracks = tracksOf(app.session).slice(0, 4)
    // Slow, so what the test paused stays paused and what it reads stays put.
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 2_000 } })
    onTestFinished(() => demo.faults.clear())
    const ids = (await app.value('downloads:enqueue', { uploadIds: tracks.map((track) => track.uploadId) })).downloads.map((download) => download.id)
    const bytes = tracks.reduce((sum, track) => sum + track.bytes!, 0)

    // "All" of what runs and waits, paused without naming a download.
    expect((await app.value('downloads:pause', { groups: ['downloading', 'queued'] })).changed.toSorted()).toEqual(ids.toSorted())
    const page = await app.value('downloads:page', { group: 'paused', offset: 1, limit: 2 })
    expect(page).toMatchObject({ group: 'paused', offset: 1, total: 4 })
    expect(page.downloads.map((download) => [download.id, download.state, download.interrupted, download.fileMissing])).toEqual([
      [ids[1], 'paused', false, false],
      [ids[2], 'paused', false, false],
    ])
    expect(await app.value('downloads:page', { group: 'queued', offset: 0, limit: 10 })).toEqual({ group: 'queued', offset: 0, total: 0, downloads: [] })
    const summary = await app.value('downloads:summary')
    expect(summary.groups.paused).toMatchObject({ files: 4, bytes })
    expect(summary.groups.queued).toEqual({ files: 0, bytes: 0, bytesDone: 0 })
    expect(summary.batch).toMatchObject({ files: 4, filesDone: 0, pending: 4, bytes })

    // All of a group but one, and one more by id: the core resolves it as the queue is now.
    const resumed = await app.value('downloads:resume', { groups: ['paused'], except: [ids[0]!, ids[1]!], ids: [ids[1]!] })
    expect(resumed.changed.toSorted()).toEqual(ids.slice(1).toSorted())
    expect((await app.value('downloads:summary')).groups.paused.files).toBe(1)
    expect(await app.value('downloads:move', { groups: ['paused'] }, { to: 'bottom' })).toEqual({ changed: [ids[0]], skipped: [] })

    const found = await app.value('downloads:ofUploads', [tracks[0]!.uploadId, 'no-such-upload'])
    expect(found).toHaveLength(1)
    expect(found[0]).toMatchObject({ id: ids[0], uploadId: tracks[0]!.uploadId, state: 'paused', interrupted: false })
    expect(await app.value('downloads:ofUploads', [])).toEqual([])

    for (const bad of [{ groups: [] }, { groups: ['stuck'] }, { groups: ['paused'], also: 1 }, { groups: ['paused'], except: [0] }, {}]) {
      expect(await app.failure('downloads:pause', bad), JSON.stringify(bad)).toBe('invalid_argument')
    }
    for (const bad of [{ group: 'stuck', offset: 0, limit: 1 }, { group: 'paused', offset: -1, limit: 1 }, { group: 'paused', offset: 0, limit: 0 }, { group: 'paused' }]) {
      expect(await app.failure('downloads:page', bad), JSON.stringify(bad)).toBe('invalid_argument')
    }
    expect(await app.failure('downloads:ofUploads', [1])).toBe('invalid_argument')
  })

  test('monthlyBytes: this month by the session clock, and every month', async ({ openApp }) => {
    const now = Date.UTC(2031, 0, 15, 12)
    const app = await openApp({ now: () => now })
    expect(await app.value('downloads:monthlyBytes')).toEqual({ month: '2031-01', bytes: 0, months: [] })
    const [track] = tracksOf(app.session)
    const { downloads } = await app.value('downloads:enqueue', { uploadIds: [track!.uploadId] })
    await settledIn(app, [downloads[0]!.id], ['completed'])
    expect(await app.value('downloads:monthlyBytes')).toEqual({ month: '2031-01', bytes: track!.bytes, months: [{ month: '2031-01', bytes: track!.bytes }] })
  })

  test('open, reveal and playbackAddress: only a completed download whose file is there, passed to the platform', async ({ demo, openApp }) => {
    const app = await openApp()
    const [done, waiting] = tracksOf(app.session)
    const { downloads } = await app.value('downloads:enqueue', { uploadIds: [done!.uploadId] })
    const id = downloads[0]!.id
    await settledIn(app, [id], ['completed'])
    const file = app.session.library.downloads.get(id).targetPath

    expect(await app.value('downloads:open', id)).toBeUndefined()
    expect(await app.value('downloads:reveal', id)).toBeUndefined()
    expect(await app.value('downloads:playbackAddress', id)).toBe(`tuneshelf-media://downloads/${id}`)
    expect(app.calls).toEqual([
      { method: 'openPath', args: [file] },
      { method: 'showInFolder', args: [file] },
      { method: 'playbackAddress', args: [id] },
    ])
    app.calls.length = 0

    // Not completed: refused before the platform is asked.
    demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 2_000 } })
    onTestFinished(() => demo.faults.clear())
    const pending = (await app.value('downloads:enqueue', { uploadIds: [waiting!.uploadId] })).downloads[0]!.id
    await app.value('downloads:pause', [pending])
    for (const channel of ['downloads:open', 'downloads:reveal', 'downloads:playbackAddress'] as const) {
      expect(await app.failure(channel, pending), channel).toBe('invalid_argument')
      expect(await app.failure(channel, 999_999), channel).toBe('not_found')
      expect(await app.failure(channel, 0), channel).toBe('invalid_argument')
      expect(await app.failure(channel, '1'), channel).toBe('invalid_argument')
    }
    // Completed, but its file was deleted since.
    fs.rmSync(file)
    for (const channel of ['downloads:open', 'downloads:reveal', 'downloads:playbackAddress'] as const) {
      expect(await app.failure(channel, id), channel).toBe('not_found')
    }
    expect(app.calls).toEqual([])
    // The list says so, and it can be downloaded again (a download whose file is there cannot).
    expect((await app.value('downloads:list', 'completed')).map((download) => [download.id, download.fileMissing])).toEqual([[id, true]])
    expect(await app.failure('downloads:redownload', [pending])).toBe('invalid_argument')
    expect(await app.value('downloads:redownload', [id])).toEqual({ changed: [id], skipped: [] })
    demo.faults.clear()
    await settledIn(app, [id], ['completed'])
    expect(fs.existsSync(file)).toBe(true)
  })
})

describe('the settings channels', () => {
  test('get and set; a bad value is invalid_argument and writes nothing', async ({ demo, openApp }) => {
    const app = await openApp()
    const file = path.join(app.dataDir, 'settings.json')
    expect(await app.value('settings:get')).toEqual({
      baseUrl: demo.baseUrl,
      downloadFolder: null,
      syncConcurrency: 4,
      downloadConcurrency: 3,
      downloadSpeedLimit: null,
      theme: 'system',
      syncOnStart: true,
      checkForNewTracks: 'every-15-minutes',
      autoDownloadMaxTracks: 50,
      autoDownloadMaxBytes: 2_000_000_000,
    })
    const changed = await app.value('settings:set', { theme: 'dark', downloadConcurrency: 2 })
    expect(changed).toMatchObject({ theme: 'dark', downloadConcurrency: 2 })
    expect(await app.value('settings:get')).toEqual(changed)
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ theme: 'dark', downloadConcurrency: 2 })
    expect(app.session.snapshot().downloads.concurrency).toBe(2)

    const saved = fs.readFileSync(file, 'utf8')
    const events = app.events.length
    for (const bad of [
      { theme: 'blue' },
      { downloadConcurrency: 0 },
      { downloadConcurrency: 9 },
      { syncConcurrency: 2.5 },
      { downloadFolder: 'relative/folder' },
      { baseUrl: 'ftp://example.com' },
      { baseUrl: 'javascript:alert(1)' },
      { baseUrl: 'http://example.com/?q=1' },
      { syncOnStart: 'yes' },
      { theme: 'dark', unknown: 1 },
      'dark',
      null,
    ]) {
      expect(await app.failure('settings:set', bad), JSON.stringify(bad)).toBe('invalid_argument')
    }
    expect(await app.failure('settings:set')).toBe('invalid_argument')
    expect(fs.readFileSync(file, 'utf8')).toBe(saved)
    expect(app.events.slice(events)).toEqual([])
    expect(await app.value('settings:get')).toEqual(changed)
  })

  test('pickDownloadFolder asks the platform, starting in the current download folder', async ({ openApp, tempDir }) => {
    const app = await openApp()
    expect(await app.value('settings:pickDownloadFolder')).toBe('/chosen/by/the/user')
    const chosen = tempDir()
    await app.value('settings:set', { downloadFolder: chosen })
    app.pick.folder = null
    expect(await app.value('settings:pickDownloadFolder')).toBeNull()
    expect(app.calls).toEqual([
      { method: 'pickFolder', args: [path.join(app.dataDir, 'downloads')] },
      { method: 'pickFolder', args: [chosen] },
    ])
    // Picking is not choosing: the setting stays until set.
    expect((await app.value('settings:get')).downloadFolder).toBe(chosen)
  })
})

describe('the cache channels', () => {
  test('list the caches of the data folder, and clear another one (its files go); an unknown file is not_found', async ({ demo, openApp }) => {
    const app = await openApp()
    const current = app.session.library.cacheFile
    const [only] = await app.value('caches:list')
    expect(only).toEqual({ file: current, baseUrl: demo.baseUrl, bytes: expect.any(Number), current: true })
    expect(only!.bytes).toBeGreaterThan(0)

    const other = openCache(app.dataDir, 'http://ann:Secret-pw@127.0.0.1:9/catalogue')
    other.db.prepare(`INSERT INTO access_levels VALUES (1, 'Free', 100, 0, 30, 2)`).run()
    other.close()
    const listed = await app.value('caches:list')
    expect(listed).toHaveLength(2)
    expect(listed.find((cache) => cache.file === other.file)).toEqual({ file: other.file, baseUrl: 'http://ann@127.0.0.1:9/catalogue', bytes: expect.any(Number), current: false })
    expect(JSON.stringify(listed)).not.toContain('Secret-pw')

    const settings = path.join(app.dataDir, 'settings.json')
    for (const unknown of [
      path.join(path.dirname(current), 'nothing-here.sqlite'),
      path.join(path.dirname(current), '..', 'settings.json'),
      settings,
      `${other.file}-wal`,
      path.relative(process.cwd(), other.file),
      '/etc/passwd',
    ]) {
      expect(await app.failure('caches:clear', unknown), unknown).toBe('not_found')
    }
    expect(fs.existsSync(settings)).toBe(true)
    expect(await app.failure('caches:clear', '')).toBe('invalid_argument')
    expect(await app.failure('caches:clear', 7)).toBe('invalid_argument')

    expect(await app.value('caches:clear', other.file)).toBeUndefined()
    expect(fs.readdirSync(path.dirname(current)).filter((name) => name.startsWith(path.basename(other.file)))).toEqual([])
    expect((await app.value('caches:list')).map((cache) => cache.file)).toEqual([current])
    // The current catalogue was not touched.
    expect((await app.value('catalogue:status')).artists).toBe(DEMO.artists)
  })

  test('clearing the current cache empties the catalogue and keeps the downloads', async ({ openApp, tempDir }) => {
    const app = await openApp()
    // All of an artist whose uploads are small, in a folder the user chose (a request names none of its own).
    const tracks = tracksOf(app.session)
    const totals = new Map<string, number>()
    for (const track of tracks) totals.set(track.artist, (totals.get(track.artist) ?? 0) + track.bytes!)
    const artist = [...totals].find(([, bytes]) => bytes < 3 * MIB)![0]
    const folder = tempDir()
    await app.value('settings:set', { downloadFolder: folder })
    const { downloads } = await app.value('downloads:enqueue', { artist })
    expect(downloads.map((download) => download.uploadId).sort()).toEqual(tracks.filter((track) => track.artist === artist).map((track) => track.uploadId).sort())
    expect(downloads.every((download) => download.targetPath.startsWith(folder + path.sep))).toBe(true)
    await settledIn(app, downloads.map((download) => download.id), ['completed'])
    const before = await app.value('downloads:list')
    const changed = new Promise<SessionEvent>((resolve) => app.session.onDidEmit((event) => event.type === 'catalogue-changed' && resolve(event)))

    expect(await app.value('caches:clear')).toBeUndefined()
    await changed
    expect(await app.value('catalogue:list', { includeBlank: true })).toEqual({ total: 0, pages: 0, artists: [] })
    expect(await app.value('catalogue:status')).toMatchObject({ artists: 0, lastFullSyncAt: null, lastCheckAt: null, lastRun: null })
    expect(await app.value('catalogue:levels')).toEqual([])
    // The downloads stay; the artist's name they showed was the catalogue's, which is gone until the next sync.
    expect(await app.value('downloads:list')).toEqual(before.map((download) => ({ ...download, artistName: '' })))
    for (const download of before) expect(fs.statSync(download.targetPath).size).toBe(download.bytesTotal)
    // Cleared by its own file name too, the same; and the next sync fills it again.
    expect(await app.value('caches:clear', app.session.library.cacheFile)).toBeUndefined()
    await app.value('sync:start', { skipAvatars: true })
    expect((await app.value('catalogue:status')).artists).toBe(DEMO.artists)
    // The search index too.
    const found = await app.value('catalogue:list', { q: artist, includeBlank: true })
    expect(found.artists.map((listed) => listed.username)).toContain(artist)
  })
})

describe('the app channels', () => {
  test('info, online, openLog and the snapshot on subscribe', async ({ openApp }) => {
    const app = await openApp()
    expect(await app.value('app:info')).toEqual({
      name: 'Tuneshelf',
      version: APP_VERSION,
      platform: process.platform,
      versions: { electron: '45.4.1', chrome: '142.0.0.0', node: process.versions.node },
      transport: 'web',
      avatarBase: 'tuneshelf-media://avatars/',
      dataDir: app.dataDir,
      logFile: '/logs/tuneshelf.log',
    })
    expect(await app.value('app:online')).toBe(true)
    expect(await app.value('app:openLog')).toBeUndefined()
    expect(app.calls).toEqual([{ method: 'openLog', args: [] }])
    // The state the host holds, made of the session's events, is the session's own.
    expect((await app.core.snapshot()).snapshot).toEqual(app.session.snapshot())
    expect(await app.failure('app:info', 'extra')).toBe('invalid_argument')
  })

  test('openLink: handles and websites become https addresses passed to the platform', async ({ openApp }) => {
    const app = await openApp()
    for (const [kind, value, address] of [
      ['facebook', 'the.band', 'https://www.facebook.com/the.band'],
      ['facebook', '@theband', 'https://www.facebook.com/theband'],
      ['twitter', '@the_band', 'https://twitter.com/the_band'],
      ['twitter', 'https://twitter.com/the_band', 'https://twitter.com/the_band'],
      ['website', 'example.com/band', 'https://example.com/band'],
      ['website', 'http://example.com/', 'http://example.com/'],
    ] as const) {
      app.calls.length = 0
      expect(await app.value('app:openLink', { kind, value })).toEqual({ address, opened: true })
      expect(app.calls).toEqual([{ method: 'openExternal', args: [address] }])
    }
  })

  test('openLink refuses what is not a safe http(s) link, and never reaches the platform', async ({ openApp }) => {
    const app = await openApp()
    const refused: [string, string][] = [
      ['website', 'javascript:alert(1)'],
      ['website', 'file:///etc/passwd'],
      ['website', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
      ['website', 'tuneshelf-media://downloads/1'],
      ['website', 'vbscript:msgbox(1)'],
      ['website', 'https://user:password@example.com/'],
      ['website', 'user:password@example.com'],
      ['website', ''],
      ['facebook', 'the/band'],
      ['facebook', 'the band'],
      ['twitter', 'the/band'],
      ['twitter', 'the band'],
      ['twitter', 'javascript:alert(1)'],
      ['facebook', '..'],
    ]
    for (const [kind, value] of refused) {
      const result = await app.call('app:openLink', { kind, value })
      expect(result, `${kind} ${value}`).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    }
    for (const bad of [{ kind: 'mailto', value: 'a@example.com' }, { kind: 'website' }, { kind: 'website', value: 'example.com', extra: 1 }, 'example.com']) {
      expect(await app.failure('app:openLink', bad), JSON.stringify(bad)).toBe('invalid_argument')
    }
    expect(app.calls).toEqual([])
  })

  test('dispatch: an unknown channel or arguments that are not a list are invalid_argument, never a throw', async ({ openApp }) => {
    const app = await openApp()
    const dispatch = createDispatch(app.core, windowHandlers(app.core, {} as Platform, app.dataDir))
    for (const [channel, args] of [
      ['catalogue:drop', []],
      ['__proto__', []],
      ['constructor', []],
      [undefined, []],
      ['catalogue:list', undefined],
      ['catalogue:list', { 0: {} }],
      ['catalogue:list', 'x'],
    ] as const) {
      await expect(dispatch(channel, args)).resolves.toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    }
  })
})

describe('a service switch', () => {
  test('one that fails (a cache made by a newer Tuneshelf) says why, queries say so too instead of waiting, and switching back works', async ({ demo, openApp }) => {
    const app = await openApp()
    const other = 'http://127.0.0.1:9/other'
    const file = cacheFileFor(app.dataDir, other)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    const newer = new Database(file)
    newer.pragma('user_version = 999')
    newer.close()
    expect(await app.failure('settings:set', { baseUrl: other })).toBe('schema_too_new')
    const refused = await app.call('catalogue:list')
    expect(refused).toMatchObject({ ok: false, error: { code: 'schema_too_new' } })
    expect(await app.value('settings:set', { baseUrl: demo.baseUrl })).toMatchObject({ baseUrl: demo.baseUrl })
    expect((await app.value('catalogue:list')).total).toBeGreaterThan(0)
  })

  test('queries made while it runs wait for the new service and answer from it; the state says the new one once the switch answered', async ({ openApp }) => {
    let entered!: () => void
    const switching = new Promise<void>((resolve) => (entered = resolve))
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let started: RunningCatalogueService | undefined
    const app = await openApp({
      startDemo: async () => {
        entered()
        await gate
        started = await startCatalogueService({ artists: 5, seed: 2, maxFileMb: 1 })
        return started
      },
    })
    onTestFinished(() => started?.close())
    const set = app.call('settings:set', { baseUrl: null })
    // The old service is closed, the demo not started yet.
    await switching
    const status = app.call('catalogue:status')
    const levels = app.call('catalogue:levels')
    release()
    expect(await set).toMatchObject({ ok: true, value: { baseUrl: null } })
    expect(await status).toMatchObject({ ok: true, value: { baseUrl: started!.baseUrl } })
    expect(await levels).toMatchObject({ ok: true, value: [] })
    // The switch answered after the state that follows it: main's copy already says the new service.
    expect((await app.core.snapshot()).snapshot.service).toMatchObject({ baseUrl: started!.baseUrl, demo: true })
    expect(await app.value('settings:get')).toMatchObject({ baseUrl: null })
  })
})

describe('the contract', () => {
  // Runs last: the tests above called every channel, and each answered at least once.
  test('every channel answered', () => {
    expect(CHANNELS.filter((channel) => !answered.has(channel))).toEqual([])
  })
})

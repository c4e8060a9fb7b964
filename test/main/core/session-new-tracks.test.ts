/**
 * New tracks that come by themselves, in the app session, against a real demo service on
 * loopback that changes while the session runs: after a sync, one new-tracks event for the new
 * tracks of followed artists and the auto-download ones queued and downloaded; a refused queue
 * a notice; a sync on the "Check for new tracks" schedule; and the sync that runs when the
 * network comes back bringing them too.
 */
import { describe, expect, vi } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../src-main/core/demo/index'
import type { ArtistRecord } from '../../../src-main/core/demo/catalogue'
import { AppSession, type SessionEvent, type SessionOptions } from '../../../src-main/core/session'
import { nextEvent, syncedDataDir } from '../support/core'
import { QUICK_RETRIES, test as base } from '../support/fixtures'

const DEMO = { artists: 30, seed: 47, maxFileMb: 2 } as const
const LIBRARY: SessionOptions['library'] = {
  client: QUICK_RETRIES,
  downloads: { transferSettings: { backoffMs: 5, maxDelayMs: 20 }, freeSpace: async () => 1024 ** 4 },
}

type OpenSession = (options?: Partial<SessionOptions>) => Promise<AppSession>

const test = base
  .extend('demo', async ({}, { onCleanup }): Promise<RunningCatalogueService> => {
    const service = await startCatalogueService(DEMO)
    onCleanup(() => service.close())
    return service
  })
  .extend('openSession', async ({ demo, tempDir }, { onCleanup }): Promise<OpenSession> => {
    // Synced before the session opens, so it does not sync on start: each test's syncs are its own.
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    return async (options = {}) => {
      const session = await AppSession.open({ dataDir, startDemo: () => Promise.reject(new Error('no demo here')), library: LIBRARY, ...options })
      onCleanup(() => session.close())
      return session
    }
  })

/** Artists of the demo with a few tracks. */
function artists(demo: RunningCatalogueService, count: number): ArtistRecord[] {
  return demo.catalogue.artists.filter((artist) => !artist.removed && artist.numTracks >= 2 && artist.numTracks < 40).slice(0, count)
}

/** Every event of a type from now on. */
function collect<T extends SessionEvent['type']>(session: AppSession, type: T): Extract<SessionEvent, { type: T }>[] {
  const events: Extract<SessionEvent, { type: T }>[] = []
  session.onDidEmit((event) => {
    if (event.type === type) events.push(event as Extract<SessionEvent, { type: T }>)
  })
  return events
}

describe('after a sync', () => {
  test('one new-tracks event for the followed artists, and their auto-download tracks queued and downloaded', async ({ demo, openSession }) => {
    const session = await openSession()
    const [auto, manual, stranger] = artists(demo, 3)
    session.library.follows.follow(auto!.username, { autoDownload: true })
    session.library.follows.follow(manual!.username)
    const [autoAdded] = demo.addUploads({ artists: [auto!.username], perArtist: 2 })
    demo.addUploads({ artists: [manual!.username, stranger!.username] })
    const told = collect(session, 'new-tracks')

    const report = await session.library.sync.start()
    await vi.waitFor(() => expect(told).toHaveLength(1))
    expect(told[0]).toEqual({
      type: 'new-tracks',
      runId: report.runId,
      total: 3,
      artists: [
        { username: auto!.username, name: expect.any(String), count: 2 },
        { username: manual!.username, name: expect.any(String), count: 1 },
      ],
    })
    // Queued through the usual queue, and downloaded into the download folder.
    await vi.waitFor(
      () => expect(session.library.downloads.list().map((download) => [download.uploadId, download.state])).toEqual(autoAdded!.uploadIds.map((id) => [id, 'completed'])),
      { timeout: 15_000 },
    )
    expect(session.library.downloads.list().every((download) => download.targetPath.startsWith(session.library.downloads.state.folder))).toBe(true)

    // A sync that brings nothing new tells nothing, and queues nothing again.
    await session.library.sync.start()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(told).toHaveLength(1)
    expect(session.library.downloads.list()).toHaveLength(2)
  })

  test('tells nothing when the new tracks are not of followed artists', async ({ demo, openSession }) => {
    const session = await openSession()
    const [followed, stranger] = artists(demo, 2)
    session.library.follows.follow(followed!.username, { autoDownload: true })
    demo.addUploads({ artists: [stranger!.username], perArtist: 3 })
    const told = collect(session, 'new-tracks')
    const idle = nextEvent(session, 'sync-state', (event) => event.state.status === 'idle')
    await session.library.sync.start()
    await idle
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(told).toEqual([])
    expect(session.library.downloads.list()).toEqual([])
  })

  test('a queue refused for want of room is a notice, the news is still told, and the tracks are queued by a later sync', async ({ demo, openSession }) => {
    let free = 0
    const session = await openSession({ library: { ...LIBRARY, downloads: { ...LIBRARY!.downloads, freeSpace: async () => free } } })
    const [artist] = artists(demo, 1)
    session.library.follows.follow(artist!.username, { autoDownload: true })
    const [added] = demo.addUploads({ artists: [artist!.username] })
    const notice = nextEvent(session, 'notice')
    const told = nextEvent(session, 'new-tracks')
    await session.library.sync.start()
    expect(await notice).toMatchObject({ message: expect.stringMatching(/^the new tracks of followed artists could not be queued: .*(space|room)/i), error: { code: 'insufficient_space' } })
    expect(await told).toMatchObject({ total: 1 })
    expect(session.library.downloads.list()).toEqual([])

    free = 1024 ** 4
    await session.library.sync.start()
    await vi.waitFor(() => expect(session.library.downloads.list().map((download) => download.uploadId)).toEqual(added!.uploadIds))
  })
})

describe('the "Check for new tracks" schedule', () => {
  test('syncs at the interval after the last sync ended, and no more once off', async ({ demo, openSession }) => {
    // "hourly" made short; the windows below are multiples of it (the checks, not the clock, matter).
    const hourlyMs = 300
    const session = await openSession({ newTracksCheckMs: { hourly: hourlyMs } })
    const [artist] = artists(demo, 1)
    session.library.follows.follow(artist!.username)
    demo.addUploads({ artists: [artist!.username] })
    // Each start and end of a sync, when it happened (a running sync reports each of its phases too).
    const states: { status: string; at: number }[] = []
    session.onDidEmit((event) => {
      if (event.type !== 'sync-state' || event.state.status === states.at(-1)?.status) return
      states.push({ status: event.state.status, at: performance.now() })
    })
    const told = nextEvent(session, 'new-tracks')
    // The last sync (the data folder's) ended long enough ago: the first scheduled one runs at once.
    await session.updateSettings({ checkForNewTracks: 'hourly' })
    expect(await told).toMatchObject({ total: 1, artists: [{ username: artist!.username, count: 1 }] })
    // Then the next one hourlyMs after that one's end.
    await vi.waitFor(() => expect(states.filter((state) => state.status === 'running').length).toBeGreaterThanOrEqual(2), { timeout: 5_000 })
    const firstEnd = states.find((state) => state.status === 'idle')!.at
    const secondStart = states.filter((state) => state.status === 'running')[1]!.at
    expect(secondStart - firstEnd).toBeGreaterThanOrEqual(hourlyMs - 50)

    await session.updateSettings({ checkForNewTracks: 'off' })
    await vi.waitFor(() => expect(session.library.sync.state.status).toBe('idle'))
    const runs = states.filter((state) => state.status === 'running').length
    // Two and a half intervals with none: it stopped.
    await new Promise((resolve) => setTimeout(resolve, hourlyMs * 2.5))
    expect(states.filter((state) => state.status === 'running')).toHaveLength(runs)
  })

  test('does not sync before the interval is up, and is re-armed for the service switched to', async ({ demo, openSession }) => {
    const other = await startCatalogueService({ ...DEMO, seed: 48 })
    try {
      const session = await openSession({ newTracksCheckMs: { 'every-6-hours': 60_000, hourly: 200 } })
      const before = demo.requests.list
      // Twice the hourly interval: long enough for a sync had the wrong interval been armed.
      await new Promise((resolve) => setTimeout(resolve, 400))
      // every-6-hours (here a minute) has not come round: nothing was asked of the service.
      expect(demo.requests.list).toBe(before)

      await session.updateSettings({ checkForNewTracks: 'hourly', baseUrl: other.baseUrl })
      // The new service's cache was never synced: its first scheduled sync is due at once, then again and again.
      await vi.waitFor(() => expect(other.requests.list).toBeGreaterThan(0), { timeout: 5_000 })
      await vi.waitFor(() => expect(session.library.sync.state.lastRun?.id).toBeGreaterThanOrEqual(2), { timeout: 5_000 })
      expect(demo.requests.list).toBe(before)
    } finally {
      await other.close()
    }
  })
})

describe('the network back', () => {
  test('the sync that runs when the service answers again brings the new tracks too', async ({ demo, openSession }) => {
    const session = await openSession({ waitingCheckMs: 150, onlineCheckMs: 60_000 })
    const [artist] = artists(demo, 1)
    session.library.follows.follow(artist!.username, { autoDownload: true })
    const [added] = demo.addUploads({ artists: [artist!.username] })
    // Every list request fails for a moment, as a network gone would: the sync fails for the network...
    demo.faults.add({ path: '/api/v1/*', times: 10_000, fault: { kind: 'drop', afterBytes: 0 } })
    const offline = nextEvent(session, 'online', (event) => !event.online)
    await expect(session.library.sync.start()).rejects.toMatchObject({ code: 'network' })
    await offline
    // ...and once the service answers again (its checks too), the session catches up by itself.
    const told = nextEvent(session, 'new-tracks')
    demo.faults.clear()
    expect(await told).toMatchObject({ total: 1, artists: [{ username: artist!.username }] })
    await vi.waitFor(() => expect(session.library.downloads.list().map((download) => download.uploadId)).toEqual(added!.uploadIds))
  })
})

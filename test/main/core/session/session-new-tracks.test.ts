/**
 * New tracks that come by themselves, in the app session, against a real demo service on
 * loopback that changes while the session runs: after a sync, one new-tracks event for the new
 * tracks of followed artists and the auto-download ones queued and downloaded; a refused queue
 * a notice; a sync on the "Check for new tracks" schedule; and the sync that runs when the
 * network comes back bringing them too.
 */
import { describe, expect, vi } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/demo/index'
import type { ArtistRecord } from '../../../../src-main/demo/catalogue'
import { AppSession, type SessionEvent, type SessionOptions } from '../../../../src-main/core/session/session'
import { NEW_TRACKS_CHECK_MS } from '../../../../src-main/core/session/new-tracks-watch'
import { nextEvent, syncedDataDir } from '../../support/core'
import { QUICK_RETRIES, test as base } from '../../support/fixtures'

const DEMO = { artists: 30, seed: 47, maxFileMb: 2 } as const
const LIBRARY: SessionOptions['library'] = {
  client: QUICK_RETRIES,
  downloads: { transferSettings: { backoffMs: 5, maxDelayMs: 20 }, freeSpace: async () => 1024 ** 4 },
}

const HOUR_MS = NEW_TRACKS_CHECK_MS.hourly
const DAY_MS = NEW_TRACKS_CHECK_MS.daily

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

/**
 * The session's follow-ups of its syncs from now on. A follow-up queues the run's auto-download
 * tracks, then reads the run's new tracks (newTracks.ofRun) and tells them in the same turn, if
 * any: once that read is made, everything the follow-up would do is done, or was wrongly done.
 */
function watchFollowUps(session: AppSession): { of(runId: number): Promise<void> } {
  const ofRun = vi.spyOn(session.library.newTracks, 'ofRun')
  return {
    of: async (runId) => {
      await vi.waitFor(() => expect(ofRun).toHaveBeenCalledWith(runId), { timeout: 10_000 })
    },
  }
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
    const followUps = watchFollowUps(session)
    const { runId } = await session.library.sync.start()
    await followUps.of(runId)
    expect(told).toHaveLength(1)
    expect(session.library.downloads.list()).toHaveLength(2)
  })

  test('a quick check that met more changes than it reads is followed by a full refresh, which brings the rest', async ({ demo, openSession }) => {
    // This demo's list is one page: a check allowed no page at all stands for one that met more changes than it reads.
    const session = await openSession({ library: { ...LIBRARY, quickPageLimit: 0 } })
    const added = demo.addUploads({ artistCount: 3 })
    const kinds: string[] = []
    session.onDidEmit((event) => {
      if (event.type === 'sync-state' && event.state.lastRun?.state === 'completed' && event.state.status === 'idle') kinds.push(event.state.lastRun.kind)
    })
    session.syncInBackground('quick')
    // The check stopped at its limit: the full refresh follows by itself.
    await vi.waitFor(() => expect(kinds).toEqual(['quick', 'full']), { timeout: 15_000 })
    for (const { username, uploadIds } of added) {
      expect(session.library.catalogue.artist(username).tracks.map((track) => track.uploadId)).toEqual(expect.arrayContaining(uploadIds))
    }
  })

  test('tells nothing when the new tracks are not of followed artists', async ({ demo, openSession }) => {
    const session = await openSession()
    const [followed, stranger] = artists(demo, 2)
    session.library.follows.follow(followed!.username, { autoDownload: true })
    demo.addUploads({ artists: [stranger!.username], perArtist: 3 })
    const told = collect(session, 'new-tracks')
    const followUps = watchFollowUps(session)
    const { runId } = await session.library.sync.start()
    await followUps.of(runId)
    expect(told).toEqual([])
    expect(session.library.downloads.list()).toEqual([])
  })

  test('a queue refused for want of room is a notice, the news is still told, and the tracks are queued by a later sync', async ({ demo, openSession }) => {
    let free = 0
    // The probe is the downloads' and the sync's (which keeps the same reserve): only the download folder's disk is full.
    const freeSpace = async (folder: string): Promise<number> => (folder.includes('catalogues') ? 1024 ** 4 : free)
    const session = await openSession({ library: { ...LIBRARY, downloads: { ...LIBRARY!.downloads, freeSpace } } })
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
  // The schedule keeps its time with the global timers and clock (setTimeout, Date.now): they are
  // faked here, so the real intervals are used and "not yet" is exact, an hour taking no time. The
  // syncs themselves are real (loopback HTTP, SQLite); the usual online check is put out of the way.
  const AWAY_FOR_MS = 20 * DAY_MS
  /** How long each sync takes by the fake clock, so that "after the last sync ended" is not "after it started". */
  const SYNC_TAKES_MS = 10 * 60_000

  /** Fakes the timers and the clock for this test. */
  function fakeClock(onTestFinished: (fn: () => void) => void): void {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    onTestFinished(() => void vi.useRealTimers())
  }

  /** Moves the fake clock on to `at` (ms since the epoch), firing every timer due by then. */
  async function clockTo(at: number): Promise<void> {
    await vi.advanceTimersByTimeAsync(at - Date.now())
  }

  /**
   * The syncs of the session from now on: how many started, and a wait for the end of one. Each
   * takes SYNC_TAKES_MS of the fake clock: it is moved on at the run's first progress, after the
   * run's start was recorded.
   */
  function watchSyncs(session: AppSession): { started(): number; completed(runId: number): Promise<void>; lastEnd(): number } {
    let started = 0
    let status = session.library.sync.state.status
    let toMoveOn = false
    session.onDidEmit((event) => {
      if (event.type === 'sync-state') {
        if (event.state.status === 'running' && status !== 'running') {
          started++
          toMoveOn = true
        }
        status = event.state.status
      } else if (event.type === 'sync-progress' && toMoveOn) {
        toMoveOn = false
        vi.setSystemTime(Date.now() + SYNC_TAKES_MS)
      }
    })
    return {
      started: () => started,
      completed: async (runId) => {
        await vi.waitFor(() => expect(session.library.sync.state).toMatchObject({ status: 'idle', lastRun: { id: runId, state: 'completed' } }), { timeout: 15_000 })
        const { startedAt, finishedAt } = session.library.sync.state.lastRun!
        expect(finishedAt! - startedAt).toBeGreaterThanOrEqual(SYNC_TAKES_MS)
      },
      lastEnd: () => session.library.sync.state.lastRun!.finishedAt!,
    }
  }

  test('syncs at the interval after the last sync ended, and no more once off', async ({ demo, openSession, onTestFinished }) => {
    fakeClock(onTestFinished)
    const session = await openSession({ onlineCheckMs: AWAY_FOR_MS })
    const [artist] = artists(demo, 1)
    session.library.follows.follow(artist!.username)
    demo.addUploads({ artists: [artist!.username] })
    const syncs = watchSyncs(session)
    const told = collect(session, 'new-tracks')
    const firstRun = session.library.sync.state.lastRun!.id

    // Hourly: the next sync an hour after the last one's end (the data folder's sync), not a moment before.
    await session.settings.set({ checkForNewTracks: 'hourly' })
    await clockTo(syncs.lastEnd() + HOUR_MS - 1)
    expect(syncs.started()).toBe(0)
    await clockTo(syncs.lastEnd() + HOUR_MS)
    await syncs.completed(firstRun + 1)
    expect(syncs.started()).toBe(1)
    await vi.waitFor(() => expect(told).toHaveLength(1))
    expect(told[0]).toMatchObject({ total: 1, artists: [{ username: artist!.username, count: 1 }] })

    // Then the next one an hour after that one's end.
    await clockTo(syncs.lastEnd() + HOUR_MS - 1)
    expect(syncs.started()).toBe(1)
    await clockTo(syncs.lastEnd() + HOUR_MS)
    await syncs.completed(firstRun + 2)
    expect(syncs.started()).toBe(2)

    // Off: more than a day (the longest interval) goes by with none.
    await session.settings.set({ checkForNewTracks: 'off' })
    await clockTo(syncs.lastEnd() + 2 * DAY_MS)
    expect(syncs.started()).toBe(2)
    expect(session.library.sync.state).toMatchObject({ status: 'idle', lastRun: { id: firstRun + 2 } })
  })

  test('does not sync before the interval is up, and is re-armed for the service switched to', async ({ demo, openSession, onTestFinished }) => {
    const other = await startCatalogueService({ ...DEMO, seed: 48 })
    onTestFinished(() => other.close())
    fakeClock(onTestFinished)
    const session = await openSession({ onlineCheckMs: AWAY_FOR_MS })
    const syncs = watchSyncs(session)
    const before = demo.requests.list
    // Every 15 minutes (the default): a moment before they are up, nothing was asked of the service,
    // as it would have been had a shorter interval been armed.
    expect(session.settings.get().checkForNewTracks).toBe('every-15-minutes')
    await clockTo(syncs.lastEnd() + 15 * 60_000 - 1)
    expect(syncs.started()).toBe(0)
    expect(demo.requests.list).toBe(before)
    // Then a quick check: one list page, since nothing changed.
    await clockTo(syncs.lastEnd() + 15 * 60_000)
    await vi.waitFor(() => expect(session.library.sync.state).toMatchObject({ status: 'idle', lastRun: { kind: 'quick', state: 'completed' } }), { timeout: 15_000 })
    expect(demo.requests.list).toBe(before + 1)
    const checks = syncs.started()

    await session.settings.set({ checkForNewTracks: 'hourly', baseUrl: other.baseUrl })
    // The new service's cache was never synced: it syncs at once (as the session does on opening a
    // stale cache), then on the new schedule, an hour after that sync's end.
    await syncs.completed(1)
    expect(other.requests.list).toBeGreaterThan(0)
    await clockTo(syncs.lastEnd() + HOUR_MS - 1)
    expect(syncs.started()).toBe(checks + 1)
    await clockTo(syncs.lastEnd() + HOUR_MS)
    await syncs.completed(2)
    expect(syncs.started()).toBe(checks + 2)
    expect(demo.requests.list).toBe(before + 1)
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

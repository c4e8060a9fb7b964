/**
 * The app session over a data folder, against real demo services on loopback:
 * the demo when no service is set, the background sync on start, switching
 * services, the password never shown, the online state, failures as notices,
 * a read-only data folder, and a graceful close.
 */
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, onTestFinished, vi } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/demo/index'
import { AppSession, type SessionEvent, type SessionOptions } from '../../../../src-main/core/session/session'
import { SettingsStore } from '../../../../src-main/core/library/settings'
import { nextEvent } from '../../support/core'
import { QUICK_RETRIES, catalogueTest } from '../../support/fixtures'
import { mountReadOnly, readOnlyMountRefusal, readOnlyMountSkipNote } from '../../support/mounts'

/** The demo catalogue a session starts: small, so a sync takes a moment. */
const DEMO = { artists: 24, seed: 31, maxFileMb: 2 } as const
/** Library options for tests: quick retries, and a disk that is never full. */
const LIBRARY: SessionOptions['library'] = {
  client: QUICK_RETRIES,
  downloads: { transferSettings: { backoffMs: 5, maxDelayMs: 20 }, freeSpace: async () => 1024 ** 4 },
}

interface Demos {
  /**
   * A startDemo for sessions: each call starts a small demo service and records
   * it. With `samePort`, every start after the first takes the port of the
   * first (as the app's demo takes its usual port); otherwise any free port.
   */
  starter(options?: { samePort?: boolean }): () => Promise<RunningCatalogueService>
  /** Every demo started, in order. */
  readonly started: RunningCatalogueService[]
  /** Starts a service that no session owns (a configured one, to stop and restart). */
  service(port?: number): Promise<RunningCatalogueService>
}

type OpenSession = (options: Partial<SessionOptions> & { dataDir: string }) => Promise<AppSession>

const test = catalogueTest(DEMO)
  .extend('demos', async ({}, { onCleanup }): Promise<Demos> => {
    const started: RunningCatalogueService[] = []
    const services: RunningCatalogueService[] = []
    onCleanup(async () => {
      for (const service of [...started, ...services]) await service.close()
    })
    return {
      started,
      starter: ({ samePort = false } = {}) => {
        let port = 0
        return async () => {
          const service = await startCatalogueService({ ...DEMO, port })
          if (samePort) port = portOf(service.baseUrl)
          started.push(service)
          return service
        }
      },
      service: async (port = 0) => {
        const service = await startCatalogueService({ ...DEMO, port })
        services.push(service)
        return service
      },
    }
  })
  .extend('openSession', async ({ demos }, { onCleanup }): Promise<OpenSession> => {
    const sessions: AppSession[] = []
    onCleanup(async () => {
      for (const session of sessions) await session.close()
    })
    return async (options) => {
      const session = await AppSession.open({ startDemo: demos.starter(), library: LIBRARY, ...options })
      sessions.push(session)
      return session
    }
  })

const portOf = (baseUrl: string): number => Number(new URL(baseUrl).port)

/** Every event of the session from now on. */
function record(session: AppSession): SessionEvent[] {
  const events: SessionEvent[] = []
  session.onDidEmit((event) => events.push(event))
  return events
}


/** Resolves once the sync under way (started by open) is back to idle; fails when it failed. */
async function syncSettled(session: AppSession): Promise<void> {
  expect(session.library.sync.state.status).toBe('running')
  const { state } = await nextEvent(session, 'sync-state', (event) => event.state.status === 'idle')
  expect(state.lastError).toBeNull()
}

/** True when nothing listens on the address's port any more. */
function connectionRefused(baseUrl: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(portOf(baseUrl), '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })
}

/** The downloads of a closed cache file, as its rows say. */
function downloadRows(cacheFile: string): { id: number; state: string; bytesDone: number; targetPath: string }[] {
  const db = new Database(cacheFile, { readonly: true })
  try {
    return db.prepare('SELECT id, state, bytes_done AS bytesDone, target_path AS targetPath FROM downloads ORDER BY id').all() as {
      id: number
      state: string
      bytesDone: number
      targetPath: string
    }[]
  } finally {
    db.close()
  }
}

/** An upload of the session's catalogue of at least minBytes, with a file to download. */
function uploadOf(session: AppSession, minBytes: number): { uploadId: string; bytes: number } {
  const { artists } = session.library.catalogue.list({ perPage: 100 })
  for (const { username } of artists) {
    const track = session.library.catalogue.artist(username).tracks.find((candidate) => (candidate.bytes ?? 0) >= minBytes && candidate.hotlinkPath)
    if (track) return { uploadId: track.uploadId, bytes: track.bytes! }
  }
  throw new Error(`no upload of ${minBytes} bytes or more`)
}

/** Queues an upload and waits until bytes of it are on disk. */
async function startSlowDownload(session: AppSession, demo: RunningCatalogueService): Promise<number> {
  demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 250_000 } })
  const { uploadId } = uploadOf(session, 600_000)
  const progressed = nextEvent(session, 'download-progress', (event) => event.progress.bytes > 50_000)
  const [queued] = (await session.library.downloads.enqueue({ uploadIds: [uploadId] })).downloads
  await progressed
  return queued!.id
}

describe('the demo catalogue', () => {
  test('is started when no service is set, and its cache is catalogues/demo.sqlite whatever its port', async ({ demos, openSession, tempDir }) => {
    const dataDir = tempDir()
    const first = await openSession({ dataDir, startDemo: demos.starter() })
    expect(demos.started).toHaveLength(1)
    const [demo] = demos.started
    expect(first.snapshot().service).toEqual({ baseUrl: demo!.baseUrl, demo: true, readOnly: false })
    expect(first.library.cacheFile).toBe(path.join(dataDir, 'catalogues', 'demo.sqlite'))
    await syncSettled(first)
    const artists = first.library.catalogue.list({ includeBlank: true, perPage: 100 })
    expect(artists.total).toBe(DEMO.artists)
    await first.close()
    expect(await connectionRefused(demo!.baseUrl)).toBe(true)

    // The next start finds the demo on another port: the same cache, synced already.
    const second = await openSession({ dataDir, startDemo: demos.starter() })
    expect(demos.started).toHaveLength(2)
    expect(portOf(demos.started[1]!.baseUrl)).not.toBe(portOf(demo!.baseUrl))
    expect(second.snapshot().service).toEqual({ baseUrl: demos.started[1]!.baseUrl, demo: true, readOnly: false })
    expect(second.library.cacheFile).toBe(path.join(dataDir, 'catalogues', 'demo.sqlite'))
    expect(second.library.sync.state.status).toBe('idle')
    expect(second.library.catalogue.list({ includeBlank: true, perPage: 100 })).toEqual(artists)
    expect(fs.readdirSync(path.join(dataDir, 'catalogues')).filter((name) => name.endsWith('.sqlite'))).toEqual(['demo.sqlite'])
  })
})

describe('the background sync on start', () => {
  test('runs for an empty cache, not again within staleAfterMs, and again after it', async ({ demos, openSession, tempDir }) => {
    const dataDir = tempDir()
    const staleAfterMs = 60 * 60 * 1000
    const startDemo = demos.starter({ samePort: true })
    const first = await openSession({ dataDir, startDemo, staleAfterMs })
    await syncSettled(first)
    const { lastFullSyncAt } = first.library.catalogue.status()
    expect(lastFullSyncAt).toEqual(expect.any(Number))
    await first.close()

    const fresh = await openSession({ dataDir, startDemo, staleAfterMs })
    expect(fresh.library.sync.state.status).toBe('idle')
    expect(fresh.snapshot().sync.lastFullSyncAt).toBe(lastFullSyncAt)
    await fresh.close()

    const later = Date.now() + staleAfterMs + 1000
    const stale = await openSession({ dataDir, startDemo, staleAfterMs, now: () => later })
    await syncSettled(stale)
    expect(stale.library.catalogue.status().lastFullSyncAt).toBe(later)
  })

  test('never runs with syncOnStart off', async ({ demo, openSession, tempDir }) => {
    const dataDir = tempDir()
    const settings = new SettingsStore(dataDir)
    settings.update({ syncOnStart: false, baseUrl: demo.baseUrl })
    settings.dispose()
    const requestsBefore = demo.requests.list
    const session = await openSession({ dataDir, staleAfterMs: 0 })
    expect(session.library.sync.state).toMatchObject({ status: 'idle', lastRun: null, lastFullSyncAt: null })
    expect(session.snapshot().sync.status).toBe('idle')
    // Set on again by the user: the next session syncs.
    await session.settings.set({ syncOnStart: true })
    await session.close()
    expect(demo.requests.list).toBe(requestsBefore)
    const next = await openSession({ dataDir, staleAfterMs: 0 })
    await syncSettled(next)
  })

  test('that fails becomes a notice, and the session goes on from the cache', async ({ demos, openSession, tempDir }) => {
    const service = await demos.service()
    service.faults.add({ path: '/api/v1/artists', times: 1000, fault: { kind: 'status', status: 404 } })
    const dataDir = tempDir()
    const settings = new SettingsStore(dataDir)
    settings.update({ baseUrl: service.baseUrl })
    settings.dispose()
    const session = await openSession({ dataDir })
    const notice = nextEvent(session, 'notice')
    await expect(nextEvent(session, 'sync-state', (event) => event.state.status === 'idle')).resolves.toMatchObject({
      state: { lastError: { code: 'not_found' } },
    })
    const { message, error } = await notice
    expect(message).toContain(service.baseUrl)
    expect(message).toMatch(/sync .* failed/)
    expect(error).toMatchObject({ code: 'not_found', name: 'NotFoundError' })
    expect(session.snapshot().notices).toContain(message)
    // A service that answers, wrongly, is not offline.
    expect(session.snapshot().online).toBe(true)
    expect(session.library.catalogue.list().total).toBe(0)
  })
})

describe('switching the service', () => {
  test('closes the old library (its transfers paused), opens the new one, and finds the old cache as it was on the way back', async ({
    demo,
    demos,
    openSession,
    tempDir,
  }) => {
    const dataDir = tempDir()
    const session = await openSession({ dataDir, startDemo: demos.starter({ samePort: true }) })
    await syncSettled(session)
    const [ownDemo] = demos.started
    const before = session.library
    const artists = before.catalogue.list({ includeBlank: true, perPage: 100 })
    const downloadId = await startSlowDownload(session, ownDemo!)

    const events = record(session)
    const settings = await session.settings.set({ baseUrl: demo.baseUrl })
    expect(settings.baseUrl).toBe(demo.baseUrl)
    expect(session.library).not.toBe(before)
    expect(session.snapshot().service).toEqual({ baseUrl: demo.baseUrl, demo: false, readOnly: false })
    expect(events.filter((event) => event.type === 'service')).toEqual([{ type: 'service', service: { baseUrl: demo.baseUrl, demo: false, readOnly: false } }])
    expect(events.findIndex((event) => event.type === 'settings')).toBeLessThan(events.findIndex((event) => event.type === 'service'))
    // The old library is closed, its demo stopped, its transfer paused where it was.
    expect(() => before.catalogue.list()).toThrow()
    expect(await connectionRefused(ownDemo!.baseUrl)).toBe(true)
    const [paused] = downloadRows(before.cacheFile)
    expect(paused).toMatchObject({ id: downloadId, state: 'downloading' })
    expect(paused!.bytesDone).toBeGreaterThan(50_000)
    expect(fs.statSync(`${paused!.targetPath}.part`).size).toBe(paused!.bytesDone)
    // The new service has a cache of its own, synced in the background.
    expect(session.library.cacheFile).not.toBe(before.cacheFile)
    await syncSettled(session)
    expect(session.library.downloads.list()).toEqual([])

    // Back to the demo: the same cache, the same artists, and the transfer resumes where it stopped.
    const completed = nextEvent(session, 'downloads-changed', (event) => event.downloads.some((download) => download.state === 'completed'))
    const service = nextEvent(session, 'service')
    await session.settings.set({ baseUrl: null })
    expect((await service).service).toEqual({ baseUrl: ownDemo!.baseUrl, demo: true, readOnly: false })
    expect(session.library.cacheFile).toBe(before.cacheFile)
    expect(session.library.sync.state.status).toBe('idle')
    expect(session.library.catalogue.list({ includeBlank: true, perPage: 100 })).toEqual(artists)
    await completed
    const done = session.library.downloads.get(downloadId)
    expect(done).toMatchObject({ state: 'completed', bytesDone: done.bytesTotal })
    expect(fs.statSync(done.targetPath).size).toBe(done.bytesTotal)
  })

  test('a base URL with a password: shown masked, and given back masked it keeps the real one', async ({ demo, openSession, tempDir }) => {
    const dataDir = tempDir()
    const secret = 'S3cret-pw'
    const settings = new SettingsStore(dataDir)
    settings.update({ syncOnStart: false })
    settings.dispose()
    const session = await openSession({ dataDir })
    const events = record(session)
    const real = `http://ann:${secret}@127.0.0.1:${portOf(demo.baseUrl)}/`
    const shown = `http://ann:***@127.0.0.1:${portOf(demo.baseUrl)}`
    const returned = await session.settings.set({ baseUrl: real })
    expect(returned.baseUrl).toBe(shown)
    const snapshot = session.snapshot()
    expect(snapshot.settings.baseUrl).toBe(shown)
    expect(snapshot.service.baseUrl).toBe(shown)
    expect(JSON.stringify(events)).not.toContain(secret)
    expect(JSON.stringify(snapshot)).not.toContain(secret)
    expect(session.library.baseUrl).toContain(secret)

    // The settings screen gives the URL back as shown, with another change: the real one stays, the service too.
    const library = session.library
    const again = await session.settings.set({ baseUrl: shown, theme: 'dark' })
    expect(again).toMatchObject({ baseUrl: shown, theme: 'dark' })
    expect(session.library).toBe(library)
    expect(events.filter((event) => event.type === 'service')).toHaveLength(1)
    const saved = JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')) as { baseUrl: string }
    // Kept as given, in its one canonical form (no trailing slash).
    expect(saved.baseUrl).toBe(real.replace(/\/$/, ''))
    expect(JSON.stringify(events)).not.toContain(secret)
    // Another password is another URL.
    await session.settings.set({ baseUrl: real.replace(secret, 'other') })
    expect((JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')) as { baseUrl: string }).baseUrl).toContain(':other@')
  })
})

describe('the online state', () => {
  test('makes no probe of its own while a sync runs: the sync\'s requests say whether the service answers', async ({ demos, openSession, tempDir }) => {
    const service = await demos.service()
    // A sync of a few seconds, with the online check every 30 ms beside it.
    service.faults.add({ path: '/api/v1/artists', times: 1000, fault: { kind: 'slow', bytesPerSecond: 40_000 } })
    const dataDir = tempDir()
    const settings = new SettingsStore(dataDir)
    settings.update({ baseUrl: service.baseUrl })
    settings.dispose()
    const session = await openSession({ dataDir, onlineCheckMs: 30 })
    const levelsAtEnd = new Promise<number>((resolve) => {
      session.onDidEmit((event) => {
        if (event.type === 'sync-state' && event.state.status === 'idle' && event.state.lastRun?.state === 'completed') resolve(service.requests.levels)
      })
    })
    // The access levels, which the probe asks for too, were asked once: by the sync.
    expect(await levelsAtEnd).toBe(1)
    expect(session.snapshot().online).toBe(true)
    // Once it ended, the checks go on.
    await vi.waitFor(() => expect(service.requests.levels).toBeGreaterThan(1))
  })

  test('goes false when the service stops and true when it is back, one event each', async ({ demos, openSession, tempDir }) => {
    const service = await demos.service()
    const port = portOf(service.baseUrl)
    const dataDir = tempDir()
    const settings = new SettingsStore(dataDir)
    settings.update({ baseUrl: service.baseUrl, syncOnStart: false })
    settings.dispose()
    const session = await openSession({ dataDir, onlineCheckMs: 30 })
    const checks = vi.spyOn(session.library.catalogue, 'reachable')
    const events = record(session)
    expect(session.snapshot().online).toBe(true)
    await vi.waitFor(() => expect(checks.mock.calls.length).toBeGreaterThanOrEqual(2))
    expect(events.filter((event) => event.type === 'online')).toEqual([])

    const offline = nextEvent(session, 'online')
    await service.close()
    expect(await offline).toEqual({ type: 'online', online: false })
    expect(session.snapshot().online).toBe(false)
    const checked = checks.mock.calls.length
    await vi.waitFor(() => expect(checks.mock.calls.length).toBeGreaterThanOrEqual(checked + 3))

    const online = nextEvent(session, 'online')
    const back = await demos.service(port)
    expect(await online).toEqual({ type: 'online', online: true })
    expect(session.snapshot().online).toBe(true)
    await vi.waitFor(() => expect(back.requests.levels).toBeGreaterThanOrEqual(3))
    expect(events.filter((event) => event.type === 'online')).toEqual([
      { type: 'online', online: false },
      { type: 'online', online: true },
    ])
  })

  test('is checked at once when the service changes', async ({ demo, demos, openSession, tempDir }) => {
    const service = await demos.service()
    const dataDir = tempDir()
    const settings = new SettingsStore(dataDir)
    settings.update({ baseUrl: service.baseUrl, syncOnStart: false })
    settings.dispose()
    // Checked once at open, then not for a long while.
    const session = await openSession({ dataDir, onlineCheckMs: 60_000 })
    await vi.waitFor(() => expect(service.requests.levels).toBe(1))
    await service.close()
    // A sync that cannot reach the service says it is offline.
    const offline = nextEvent(session, 'online')
    session.syncInBackground()
    expect(await offline).toEqual({ type: 'online', online: false })

    const online = nextEvent(session, 'online', undefined, 5_000)
    await session.settings.set({ baseUrl: demo.baseUrl })
    expect(await online).toEqual({ type: 'online', online: true })
  })

  test('follows a sync the window started, without waiting for the next check', async ({ demos, openSession, tempDir }) => {
    const service = await demos.service()
    const port = portOf(service.baseUrl)
    const dataDir = tempDir()
    const settings = new SettingsStore(dataDir)
    settings.update({ baseUrl: service.baseUrl, syncOnStart: false })
    settings.dispose()
    const session = await openSession({ dataDir, onlineCheckMs: 60_000 })
    await vi.waitFor(() => expect(service.requests.levels).toBe(1))
    await service.close()
    const offline = nextEvent(session, 'online')
    await expect(session.library.sync.start()).rejects.toMatchObject({ code: 'network' })
    expect(await offline).toEqual({ type: 'online', online: false })

    await demos.service(port)
    const online = nextEvent(session, 'online')
    await session.library.sync.start()
    expect(await online).toEqual({ type: 'online', online: true })
  })
})

describe('the online state, by the answers of every request', () => {
  test("stays online when a check gets no answer while the service answers a sync's requests", async ({ demos, openSession, tempDir }) => {
    const service = await demos.service()
    const dataDir = tempDir()
    const settings = new SettingsStore(dataDir)
    settings.update({ baseUrl: service.baseUrl, syncOnStart: false })
    settings.dispose()
    const session = await openSession({ dataDir, onlineCheckMs: 100 })
    const checks = vi.spyOn(session.library.catalogue, 'reachable')
    await vi.waitFor(() => expect(service.requests.levels).toBeGreaterThanOrEqual(1))
    const events = record(session)
    // The next check waits 6 s for an answer (it gives up after 5); the sync started meanwhile gets its
    // list pages slowly, each one's headers at once.
    service.faults.add({ path: '/api/v1/access_levels', times: 1, fault: { kind: 'delay', ms: 6_000 } })
    service.faults.add({ path: '/api/v1/artists', times: 1000, fault: { kind: 'slow', bytesPerSecond: 2_000 } })
    await vi.waitFor(() => expect(service.faults.pending()).toBe(1000))
    const synced = session.library.sync.start()
    await vi.waitFor(() => expect(checks.mock.settledResults).toContainEqual({ type: 'fulfilled', value: false }), { timeout: 10_000 })
    expect(session.library.sync.state.status).toBe('running')
    expect(session.snapshot().online).toBe(true)
    expect(events.filter((event) => event.type === 'online')).toEqual([])
    session.library.sync.cancel()
    await expect(synced).rejects.toMatchObject({ code: 'cancelled' })
  })

  test("is online again at the service's first answer to a sync, not at the sync's end", async ({ demos, openSession, tempDir }) => {
    const service = await demos.service()
    const port = portOf(service.baseUrl)
    const dataDir = tempDir()
    const settings = new SettingsStore(dataDir)
    settings.update({ baseUrl: service.baseUrl, syncOnStart: false })
    settings.dispose()
    // Checked once at open and once at the sync's failure, then not for a long while.
    const session = await openSession({ dataDir, onlineCheckMs: 60_000, waitingCheckMs: 60_000 })
    const checks = vi.spyOn(session.library.catalogue, 'reachable')
    await vi.waitFor(() => expect(service.requests.levels).toBe(1))
    await service.close()
    const offline = nextEvent(session, 'online')
    await expect(session.library.sync.start()).rejects.toMatchObject({ code: 'network' })
    expect(await offline).toEqual({ type: 'online', online: false })
    await vi.waitFor(() => expect(checks.mock.settledResults).toContainEqual({ type: 'fulfilled', value: false }))

    // Back, and slow to send its list pages: the sync gets their headers at once, its end is far off.
    const back = await demos.service(port)
    back.faults.add({ path: '/api/v1/artists', times: 1000, fault: { kind: 'slow', bytesPerSecond: 2_000 } })
    const online = nextEvent(session, 'online')
    const synced = session.library.sync.start()
    expect(await online).toEqual({ type: 'online', online: true })
    expect(session.library.sync.state.status).toBe('running')
    session.library.sync.cancel()
    await expect(synced).rejects.toMatchObject({ code: 'cancelled' })
  })
})

describe('what the sync state says of the cache', () => {
  test('holds artists from the first list page on, before any sync completed; a cleared cache holds none', async ({ demos, openSession, tempDir }) => {
    const service = await demos.service()
    const dataDir = tempDir()
    const settings = new SettingsStore(dataDir)
    settings.update({ baseUrl: service.baseUrl, syncOnStart: false })
    settings.dispose()
    const session = await openSession({ dataDir, onlineCheckMs: 60_000 })
    expect(session.snapshot().sync).toMatchObject({ hasArtists: false, lastFullSyncAt: null })
    // The details never come in time: the lists are in, the sync is not complete.
    service.faults.add({ path: '/api/v1/artists/*', times: 1000, fault: { kind: 'delay', ms: 30_000 } })
    const holds = nextEvent(session, 'sync-state', (event) => event.state.hasArtists)
    const synced = session.library.sync.start()
    expect((await holds).state).toMatchObject({ hasArtists: true, lastFullSyncAt: null })
    session.library.sync.cancel()
    await expect(synced).rejects.toMatchObject({ code: 'cancelled' })
    expect(session.library.sync.state).toMatchObject({ status: 'idle', hasArtists: true, lastFullSyncAt: null })

    const emptied = nextEvent(session, 'sync-state', (event) => !event.state.hasArtists)
    await session.caches.clear()
    expect((await emptied).state.hasArtists).toBe(false)
  })
})

describe('a read-only data folder', () => {
  test.skipIf(mountRefused !== undefined)(`opens browse-only, with no sync and no download queue started${skipNote}`, async ({
    demos,
    openSession,
    tempDir,
  }) => {
    const dataDir = tempDir()
    const startDemo = demos.starter({ samePort: true })
    const writable = await openSession({ dataDir, startDemo })
    await syncSettled(writable)
    const artists = writable.library.catalogue.list({ includeBlank: true, perPage: 100 })
    await writable.close()

    const readOnlyDir = tempDir()
    onTestFinished(mountReadOnly(dataDir, readOnlyDir))
    const session = await openSession({ dataDir: readOnlyDir, startDemo, staleAfterMs: 0 })
    const events = record(session)
    expect(session.snapshot().service).toMatchObject({ demo: true, readOnly: true })
    expect(session.library.sync.state.status).toBe('idle')
    expect(session.snapshot().downloads.started).toBe(false)
    expect(session.library.catalogue.list({ includeBlank: true, perPage: 100 })).toEqual(artists)
    await expect(session.settings.set({ theme: 'dark' })).rejects.toMatchObject({ code: 'read_only' })
    expect(session.snapshot().settings.theme).toBe('system')
    await session.close()
    expect(events.filter((event) => event.type === 'sync-state')).toEqual([])
    expect(fs.readdirSync(path.join(dataDir, 'catalogues')).sort()).toEqual(['demo.sqlite'])
  })
})

describe('close()', () => {
  test('stops the demo and pauses running transfers, which resume in the next session', async ({ demos, openSession, tempDir }) => {
    const dataDir = tempDir()
    const startDemo = demos.starter({ samePort: true })
    const session = await openSession({ dataDir, startDemo })
    await syncSettled(session)
    const [demo] = demos.started
    const downloadId = await startSlowDownload(session, demo!)
    const { cacheFile } = session.library

    await session.close()
    expect(await connectionRefused(demo!.baseUrl)).toBe(true)
    const [row] = downloadRows(cacheFile)
    expect(row).toMatchObject({ id: downloadId, state: 'downloading' })
    expect(row!.bytesDone).toBeGreaterThan(50_000)
    expect(fs.statSync(`${row!.targetPath}.part`).size).toBe(row!.bytesDone)
    await expect(session.close()).resolves.toBeUndefined()

    const next = await openSession({ dataDir, startDemo })
    const done = await nextEvent(next, 'downloads-changed', (event) => event.downloads.some((download) => download.state === 'completed'))
    const download = done.downloads.find((candidate) => candidate.id === downloadId)!
    expect(download).toMatchObject({ state: 'completed', bytesDone: download.bytesTotal })
    expect(fs.statSync(download.targetPath).size).toBe(download.bytesTotal)
    // Resumed, not started over: the second demo served only the rest of the file.
    expect(demos.started[1]!.requests.file).toBe(1)
  })
})

const mountRefused = readOnlyMountRefusal()
const skipNote = readOnlyMountSkipNote()

/**
 * The session when the service goes away and comes back: a download that cannot
 * reach it waits for the network (not failed, within seconds), the session looks
 * for the service more often while something waits, and once it answers the
 * download goes on from its bytes on disk and a sync that failed for the network
 * runs again, by themselves.
 */
import fs from 'node:fs'
import { describe, expect, vi } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/demo/index'
import { AppSession, type SessionEvent, type SessionOptions } from '../../../../src-main/core/session/session'
import { SettingsStore } from '../../../../src-main/core/library/settings'
import { nextEvent } from '../../support/core'
import { QUICK_RETRIES, test as base } from '../../support/fixtures'

const DEMO = { artists: 24, seed: 31, maxFileMb: 2 } as const
const LIBRARY: SessionOptions['library'] = {
  client: QUICK_RETRIES,
  downloads: { transferSettings: { backoffMs: 5, maxDelayMs: 20 }, freeSpace: async () => 1024 ** 4 },
}
/** The usual check, far away: only the quicker one while something waits can explain what the tests see. */
const ONLINE_CHECK_MS = 60_000
const WAITING_CHECK_MS = 100

interface Service {
  /** The service now running (another object after restart). */
  readonly now: RunningCatalogueService
  stop(): Promise<void>
  /** The same catalogue again, on the same port. */
  restart(): Promise<void>
}

const test = base
  /** The usual check's interval of the session a test opens. */
  .extend('onlineCheckMs', ONLINE_CHECK_MS)
  .extend('service', async ({}, { onCleanup }): Promise<Service> => {
    let running: RunningCatalogueService | undefined = await startCatalogueService(DEMO)
    let current = running
    const port = Number(new URL(running.baseUrl).port)
    onCleanup(async () => running?.close())
    return {
      get now() {
        return current
      },
      stop: async () => {
        await running?.close()
        running = undefined
      },
      restart: async () => {
        running = current = await startCatalogueService({ ...DEMO, port })
      },
    }
  })
  .extend('session', async ({ service, tempDir, onlineCheckMs }, { onCleanup }): Promise<AppSession> => {
    const dataDir = tempDir()
    const settings = new SettingsStore(dataDir)
    settings.update({ baseUrl: service.now.baseUrl })
    settings.dispose()
    const session = await AppSession.open({
      dataDir,
      startDemo: () => Promise.reject(new Error('no demo here')),
      library: LIBRARY,
      onlineCheckMs,
      waitingCheckMs: WAITING_CHECK_MS,
    })
    onCleanup(() => session.close())
    // The first sync, started by the open.
    await vi.waitFor(() => expect(session.library.sync.state).toMatchObject({ status: 'idle', lastError: null, lastFullSyncAt: expect.any(Number) }), {
      timeout: 20_000,
    })
    return session
  })

/**
 * The session's checks of the service from now on (each a call of the catalogue's reachable()):
 * answered(true) counts those that found it answering, answered(false) those that did not.
 */
function watchChecks(session: AppSession): { answered(reachable: boolean): number } {
  const reachable = vi.spyOn(session.library.catalogue, 'reachable')
  return {
    answered: (wanted) => reachable.mock.settledResults.filter((result) => result.type === 'fulfilled' && result.value === wanted).length,
  }
}

/** An upload of at least minBytes with a file. */
function uploadOf(session: AppSession, minBytes: number): string {
  for (const { username } of session.library.catalogue.list({ perPage: 100 }).artists) {
    const track = session.library.catalogue.artist(username).tracks.find((candidate) => (candidate.bytes ?? 0) >= minBytes && candidate.hotlinkPath)
    if (track) return track.uploadId
  }
  throw new Error(`no upload of ${minBytes} bytes or more`)
}

describe('a download with the service gone', () => {
  test('waits for the network within seconds, then goes on by itself from its bytes once the service is back', async ({ service, session }) => {
    service.now.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 250_000 } })
    const progressed = nextEvent(session, 'download-progress', (event) => event.progress.bytes > 50_000)
    const [queued] = (await session.library.downloads.enqueue({ uploadIds: [uploadOf(session, 600_000)] })).downloads
    await progressed

    const waiting = nextEvent(session, 'downloads-changed', (event) => event.downloads.some((download) => download.waitingFor === 'network'))
    const stopped = performance.now()
    await service.stop()
    const [row] = (await waiting).downloads
    // Not failed, and not after half a minute of back-off: a few quick tries, then it waits.
    expect(performance.now() - stopped).toBeLessThan(5_000)
    expect(row).toMatchObject({ id: queued!.id, state: 'queued', waitingFor: 'network', error: expect.stringMatching(/ECONNREFUSED/) })
    expect(session.snapshot().downloads.waitingFor).toBe('network')
    const kept = row!.bytesDone
    expect(kept).toBeGreaterThan(50_000)
    expect(fs.statSync(`${row!.targetPath}.part`).size).toBe(kept)
    // Nothing fails meanwhile, while several of the quicker checks find the service away.
    const states: string[] = []
    session.onDidEmit((event) => {
      if (event.type === 'downloads-changed') states.push(...event.downloads.map((download) => download.state))
    })
    const checks = watchChecks(session)
    await vi.waitFor(() => expect(checks.answered(false)).toBeGreaterThanOrEqual(3), { timeout: 10_000 })

    await service.restart()
    const done = await nextEvent(session, 'downloads-changed', (event) => event.downloads.some((download) => download.state === 'completed'))
    const download = done.downloads.find((candidate) => candidate.id === queued!.id)!
    expect(download).toMatchObject({ state: 'completed', waitingFor: null, error: null, bytesDone: download.bytesTotal })
    expect(fs.statSync(download.targetPath).size).toBe(download.bytesTotal)
    expect(session.snapshot().downloads.waitingFor).toBeNull()
    // Resumed, not started over: the service that came back served only the rest.
    expect(service.now.requests.file).toBe(1)
    expect(states).not.toContain('failed')
  })
})

describe('a sync that failed for the network', () => {
  test('runs again by itself once the service answers, and the session is online again', async ({ service, session }) => {
    await service.stop()
    const checks = watchChecks(session)
    const offline = nextEvent(session, 'online')
    await expect(session.library.sync.start()).rejects.toMatchObject({ code: 'network' })
    expect(await offline).toEqual({ type: 'online', online: false })
    // Away for a moment at least: the check made at the failure finds it so.
    await vi.waitFor(() => expect(checks.answered(false)).toBeGreaterThanOrEqual(1), { timeout: 5_000 })

    const online = nextEvent(session, 'online')
    const synced = nextEvent(session, 'sync-state', (event) => event.state.status === 'idle' && event.state.lastError === null)
    await service.restart()
    expect(await online).toEqual({ type: 'online', online: true })
    await synced
    expect(service.now.requests.list).toBeGreaterThan(0)
  })

  test('is not run again while the service stays away', async ({ service, session }) => {
    await service.stop()
    const checks = watchChecks(session)
    await expect(session.library.sync.start()).rejects.toMatchObject({ code: 'network' })
    const runs: SessionEvent[] = []
    session.onDidEmit((event) => {
      if (event.type === 'sync-state' && event.state.status === 'running') runs.push(event)
    })
    // Several quick checks go by (each one's answer is what would start a sync): the service does not answer, so nothing runs.
    await vi.waitFor(() => expect(checks.answered(false)).toBeGreaterThanOrEqual(6), { timeout: 10_000 })
    expect(runs).toEqual([])
    expect(session.snapshot().online).toBe(false)
  })

  describe('with the usual check as quick as the waiting one', () => {
    test.override('onlineCheckMs', WAITING_CHECK_MS)

    test('is not run again and again when the service answers its checks but its lists fail', async ({ service, session }) => {
      service.now.faults.add({ path: '/api/v1/artists*', times: 10_000, fault: { kind: 'drop', afterBytes: 0 } })
      const checks = watchChecks(session)
      await expect(session.library.sync.start()).rejects.toMatchObject({ code: 'network' })
      const runs: SessionEvent[] = []
      session.onDidEmit((event) => {
        if (event.type === 'sync-state' && event.state.status === 'running') runs.push(event)
      })
      // The check made at the failure, and several after it, find the service answering: each could start a sync, none does.
      const before = checks.answered(true)
      await vi.waitFor(() => expect(checks.answered(true)).toBeGreaterThanOrEqual(before + 6), { timeout: 10_000 })
      expect(session.snapshot().online).toBe(true)
      expect(runs).toEqual([])
    })
  })
})

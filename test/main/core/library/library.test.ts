/**
 * The library façade as the app drives it: the sync's state snapshot and its
 * events (progress, state, catalogue changed), disposable subscriptions,
 * listeners that fail, cancellation, argument checks and dispose().
 */
import { describe, expect, vi } from 'vitest'
import { CancelledError, InvalidArgumentError } from '../../../../src-main/core/shared/errors'
import type { Library } from '../../../../src-main/core/library/library'
import type { SyncProgress } from '../../../../src-main/core/sync/sync'
import { catalogueTest } from '../../support/fixtures'

const ARTISTS = 30
const test = catalogueTest({ artists: ARTISTS, seed: 71, maxFileMb: 4 })

type Logged = { event: 'progress'; value: SyncProgress } | { event: 'state'; status: string } | { event: 'catalogue'; version: string }

/** Every event of the library's sync and catalogue, in order; dispose() stops the log. */
function logEvents(library: Library): { log: Logged[]; dispose: () => void } {
  const log: Logged[] = []
  const subscriptions = [
    library.sync.onDidProgress((value) => log.push({ event: 'progress', value })),
    library.sync.onDidChangeState((state) => log.push({ event: 'state', status: state.status })),
    library.catalogue.onDidChange(({ version }) => log.push({ event: 'catalogue', version })),
  ]
  return { log, dispose: () => subscriptions.forEach((subscription) => subscription.dispose()) }
}

/** Lets every pending callback and one turn of the event loop run: anything still due would have been delivered. */
function aTurnLater(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

describe('the sync state', () => {
  test('goes idle → running → idle, with the progress while it runs and the outcome after', async ({ openLibrary }) => {
    const library = openLibrary({ syncProgressIntervalMs: 0 })
    expect(library.sync.state).toEqual({ status: 'idle', progress: null, waitingFor: null, lastRun: null, lastFullSyncAt: null, lastCheckAt: null, hasArtists: false, lastError: null })
    const statuses: string[] = []
    library.sync.onDidChangeState((state) => statuses.push(state.status))
    const seenWhileRunning: unknown[] = []
    library.sync.onDidProgress((progress) => {
      const state = library.sync.state
      seenWhileRunning.push(state.status)
      expect(state.progress).toEqual(progress)
    })
    const started = library.sync.start()
    expect(library.sync.state.status).toBe('running')
    const report = await started
    expect(statuses[0]).toBe('running')
    expect(statuses.at(-1)).toBe('idle')
    expect(statuses.filter((status) => status === 'idle')).toHaveLength(1)
    expect(new Set(seenWhileRunning)).toEqual(new Set(['running']))
    expect(library.sync.state).toMatchObject({
      status: 'idle',
      progress: null,
      waitingFor: null,
      lastRun: { id: report.runId, state: 'completed', phase: 'avatars' },
      lastFullSyncAt: expect.any(Number),
      lastError: null,
    })
  })

  test('keeps the last failure, as plain JSON, until the next run', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    demo.faults.add({ path: '/api/v1/artists', times: 100, fault: { kind: 'status', status: 404 } })
    try {
      await expect(library.sync.start()).rejects.toMatchObject({ code: 'not_found' })
    } finally {
      demo.faults.clear()
    }
    const { lastError } = library.sync.state
    expect(lastError).toMatchObject({ name: 'NotFoundError', code: 'not_found', retryable: false, message: expect.stringMatching(/404/) })
    expect(JSON.parse(JSON.stringify(lastError))).toEqual(lastError)
    await library.sync.start()
    expect(library.sync.state.lastError).toBeNull()
  })
})

describe('events', () => {
  test('progress, state and catalogue changes fire during a sync, and stop once their subscription is disposed', async ({ openLibrary }) => {
    const library = openLibrary({ syncProgressIntervalMs: 0 })
    const kept = logEvents(library)
    const dropped = logEvents(library)
    await library.sync.start()
    for (const { log } of [kept, dropped]) {
      const progress = log.flatMap((entry) => (entry.event === 'progress' ? [entry.value.phase] : []))
      expect([...new Set(progress)]).toEqual(['lists', 'details', 'levels', 'avatars', 'done'])
      expect(log.filter((entry) => entry.event === 'state').map((entry) => (entry as { status: string }).status)).toContain('running')
      const versions = log.flatMap((entry) => (entry.event === 'catalogue' ? [entry.version] : []))
      expect(versions.length).toBeGreaterThan(0)
      expect(new Set(versions).size).toBe(versions.length)
    }
    expect(dropped.log).toEqual(kept.log)

    dropped.dispose()
    const before = { kept: kept.log.length, dropped: dropped.log.length }
    // A second sync stores every list page again: the catalogue changes, and every event fires again.
    await library.sync.start()
    expect(kept.log.length).toBeGreaterThan(before.kept)
    for (const event of ['progress', 'state', 'catalogue']) expect(kept.log.slice(before.kept).some((entry) => entry.event === event), event).toBe(true)
    expect(dropped.log).toHaveLength(before.dropped)
  })

  test('a listener that throws breaks neither the sync nor the other listeners, and is reported', async ({ openLibrary }) => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      const library = openLibrary({ syncProgressIntervalMs: 0 })
      const failing = new Error('a listener with a bug')
      library.sync.onDidProgress(() => {
        throw failing
      })
      library.sync.onDidChangeState(() => {
        throw failing
      })
      library.catalogue.onDidChange(() => {
        throw failing
      })
      const others = logEvents(library)
      const report = await library.sync.start()
      expect(report).toMatchObject({ detailsFetched: ARTISTS, detailFailures: [] })
      expect(library.catalogue.status()).toMatchObject({ detailsPending: 0, lastRun: { state: 'completed' } })
      for (const event of ['progress', 'state', 'catalogue']) expect(others.log.some((entry) => entry.event === event), event).toBe(true)
      expect(reported).toHaveBeenCalledWith(expect.stringMatching(/listener failed/), failing)
    } finally {
      reported.mockRestore()
    }
  })
})

describe('cancel', () => {
  test('mid-sync rejects with cancelled, reports nothing after, and the next start resumes', async ({ openLibrary }) => {
    const library = openLibrary({ syncProgressIntervalMs: 0 })
    const { log } = logEvents(library)
    const cancelAt = library.sync.onDidProgress((progress) => {
      if (progress.phase === 'details' && progress.done === 5) library.sync.cancel()
    })
    const failure = await library.sync.start().catch((error: unknown) => error)
    cancelAt.dispose()
    expect(failure).toBeInstanceOf(CancelledError)
    expect(failure).toMatchObject({ name: 'CancelledError', code: 'cancelled', retryable: false })
    await aTurnLater()
    // The run is over once it says idle: no progress of it after that, and no progress in its state.
    const idleAt = log.findLastIndex((entry) => entry.event === 'state' && entry.status === 'idle')
    expect(idleAt).toBeGreaterThan(0)
    expect(log.slice(idleAt + 1)).toEqual([])
    expect(library.sync.state).toMatchObject({ status: 'idle', progress: null, lastRun: { state: 'cancelled', phase: 'details' } })
    const doneBefore = Math.max(...log.flatMap((entry) => (entry.event === 'progress' && entry.value.phase === 'details' ? [entry.value.done] : [])))
    expect(doneBefore).toBeLessThan(ARTISTS)

    const resumed = await library.sync.start()
    expect(resumed).toMatchObject({ resumed: true, joined: false, listPages: 0 })
    expect(resumed.detailsFetched).toBeGreaterThan(0)
    expect(resumed.detailsFetched).toBeLessThan(ARTISTS)
    expect(library.catalogue.status()).toMatchObject({ detailsPending: 0, lastRun: { state: 'completed' } })
  })

  test('dispose() during a sync cancels it, and a library opened later resumes it', async ({ openLibrary, tempDir }) => {
    const dataDir = tempDir()
    const library = openLibrary({ dataDir, syncProgressIntervalMs: 0 })
    let disposed: Promise<void> | undefined
    library.sync.onDidProgress((progress) => {
      if (progress.phase === 'details') disposed ??= library.dispose()
    })
    await expect(library.sync.start()).rejects.toMatchObject({ code: 'cancelled' })
    await disposed
    const again = openLibrary({ dataDir })
    expect(again.catalogue.status().lastRun).toMatchObject({ state: 'cancelled', phase: 'details' })
    expect(await again.sync.start()).toMatchObject({ resumed: true, listPages: 0 })
  })
})

describe('arguments', () => {
  test('sync.start refuses options its schema does not allow, before doing anything', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    demo.requests.reset()
    const tooMany = await library.sync.start({ concurrency: 0 }).catch((error: unknown) => error)
    expect(tooMany).toBeInstanceOf(InvalidArgumentError)
    expect(tooMany).toMatchObject({ code: 'invalid_argument', field: 'concurrency', message: 'concurrency must be an integer from 1 to 16' })
    const unknown = await library.sync.start({ skipAvatar: true } as never).catch((error: unknown) => error)
    expect(unknown).toMatchObject({ code: 'invalid_argument', field: 'skipAvatar' })
    expect(demo.requests.total).toBe(0)
    expect(library.sync.state).toMatchObject({ status: 'idle', lastRun: null })
  })
})

describe('a cache kept under a fixed name (the built-in demo)', () => {
  test('downloads queued while the service was on one port finish after it moved to another', async ({ tempDir }) => {
    const { startCatalogueService } = await import('../../../../src-main/demo/index')
    const { openLibrary } = await import('../../../../src-main/core/library/library')
    const dataDir = tempDir()
    const options = { dataDir, cacheName: 'demo', client: { backoffMs: 5, maxDelayMs: 40, retries: 2 }, downloads: { freeSpace: async () => 1024 ** 4 } }
    const first = await startCatalogueService({ artists: 15, seed: 72, maxFileMb: 2 })
    const before = openLibrary({ ...options, baseUrl: first.baseUrl })
    let queued: number[]
    try {
      await before.sync.start({ skipAvatars: true })
      const uploads = before.catalogue.list({ perPage: 50 }).artists.flatMap((artist) => artist.listedItems.map((item) => item.upload.id)).slice(0, 3)
      queued = (await before.downloads.enqueue({ uploadIds: uploads })).downloads.map((download) => download.id)
      expect(before.downloads.get(queued[0]!).url.startsWith(first.baseUrl)).toBe(true)
    } finally {
      await before.dispose()
      await first.close()
    }
    // The same catalogue comes back on another port: no sync yet, the cached addresses still name the old one.
    const second = await startCatalogueService({ artists: 15, seed: 72, maxFileMb: 2 })
    const after = openLibrary({ ...options, baseUrl: second.baseUrl })
    try {
      expect(second.baseUrl).not.toBe(first.baseUrl)
      after.downloads.start()
      await after.downloads.whenIdle()
      for (const id of queued) expect(after.downloads.get(id).state, `download ${id}`).toBe('completed')
      expect(second.requests.file).toBeGreaterThanOrEqual(3)
      // Enqueued now, from the old addresses in the cache: also on the new port.
      const more = after.catalogue.list({ perPage: 50 }).artists.flatMap((artist) => artist.listedItems.map((item) => item.upload.id)).slice(3, 4)
      const [download] = (await after.downloads.enqueue({ uploadIds: more })).downloads
      await after.downloads.whenIdle()
      expect(after.downloads.get(download!.id).state).toBe('completed')
    } finally {
      await after.dispose()
      await second.close()
    }
  })
})

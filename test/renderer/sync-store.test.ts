// The sync as every screen sees it: one start and one cancel (a failure is a notice named by its
// cause), the phase in words, the last failure (a cancelled sync did not fail), and no start
// while one runs or in a read-only data folder.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { SessionEvent, SessionSnapshot, SyncState } from '../../src-main/core/shared/types'
import type { MockApi, MockVerb } from './support/mock-api'

const calls = vi.hoisted(() => ({
  start: vi.fn<MockVerb<'sync', 'start'>>(),
  cancel: vi.fn<MockVerb<'sync', 'cancel'>>(),
  listener: undefined as { snapshot(snapshot: SessionSnapshot): void; events(events: SessionEvent[]): void } | undefined,
}))

vi.mock('../../src-renderer/api', () => ({
  api: {
    subscribe: (listener: typeof calls.listener) => {
      calls.listener = listener
      return { dispose: () => undefined }
    },
    app: { info: async () => ({ version: '0.0.0' }) },
    sync: { start: calls.start, cancel: calls.cancel },
  } satisfies MockApi,
}))

const { useSessionStore } = await import('../../src-renderer/stores/session')
const { CANCEL_GRACE_MS, useSyncStore } = await import('../../src-renderer/stores/sync')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')
const { offlineCacheText, syncStatusText } = await import('../../src-renderer/format/sync')

/** A sync state; its last check is its last full refresh unless told otherwise. */
function syncState(fields: Partial<SyncState> = {}): SyncState {
  return { status: 'idle', progress: null, waitingFor: null, lastRun: null, lastFullSyncAt: 1, hasArtists: true, lastError: null, ...fields, lastCheckAt: fields.lastCheckAt !== undefined ? fields.lastCheckAt : fields.lastFullSyncAt !== undefined ? fields.lastFullSyncAt : 1 }
}

async function opened(sync: SyncState, readOnly = false): Promise<void> {
  const started = useSessionStore().start()
  calls.listener!.snapshot({
    service: { baseUrl: 'http://127.0.0.1:1', demo: false, readOnly },
    settings: null as unknown as SessionSnapshot['settings'],
    sync,
    downloads: {} as SessionSnapshot['downloads'],
    online: true,
    notices: [],
  })
  await started
}

const network = { name: 'NetworkError', code: 'network', message: 'connect ECONNREFUSED 127.0.0.1:1', retryable: true } as const

beforeEach(() => {
  setActivePinia(createPinia())
  calls.start.mockReset()
  calls.cancel.mockReset()
})

describe('the sync store', () => {
  it('names the phase of the running sync, and its count', async () => {
    await opened(syncState({ status: 'running', progress: { phase: 'details', done: 3, total: 10 } }))
    const sync = useSyncStore()
    expect(sync).toMatchObject({ running: true, busy: true, phase: 'Artist details', progress: { done: 3, total: 10 }, canStart: false })
    expect(sync.counted).toEqual({ done: 3, total: 10 })
    calls.listener!.events([{ type: 'sync-progress', progress: { phase: 'avatars', done: 1, total: 2 } }])
    expect(sync.phase).toBe('Avatars')
    // The finish (the search index's upkeep) is one step of unknown length: named, not counted.
    calls.listener!.events([{ type: 'sync-progress', progress: { phase: 'done', done: 0, total: 1 } }])
    expect(sync).toMatchObject({ phase: 'Finishing', counted: null })
    calls.listener!.events([{ type: 'sync-state', state: syncState() }])
    expect(sync).toMatchObject({ running: false, busy: false, phase: null, progress: null, canStart: true })
  })

  it('holds a retry of the running sync until the next progress without one', async () => {
    await opened(syncState({ status: 'running', progress: { phase: 'lists', done: 1, total: 5 } }))
    const sync = useSyncStore()
    expect(sync.retry).toBeNull()
    const retry = { what: 'http://127.0.0.1:1/api/v1/artists?page=2', why: 'no complete answer within 60000 ms', attempt: 2, inMs: 4_000 }
    calls.listener!.events([{ type: 'sync-progress', progress: { phase: 'lists', done: 1, total: 5, retry } }])
    expect(sync.retry).toEqual(retry)
    calls.listener!.events([{ type: 'sync-progress', progress: { phase: 'lists', done: 2, total: 5 } }])
    expect(sync.retry).toBeNull()
  })

  it('gives the last failure while none runs; a cancelled sync did not fail', async () => {
    await opened(syncState({ lastError: network }))
    const sync = useSyncStore()
    expect(sync.lastError).toEqual(network)
    calls.listener!.events([{ type: 'sync-state', state: syncState({ status: 'running', lastError: network }) }])
    expect(sync.lastError).toBeNull()
    calls.listener!.events([{ type: 'sync-state', state: syncState({ lastError: { name: 'CancelledError', code: 'cancelled', message: 'cancelled', retryable: false } }) }])
    expect(sync.lastError).toBeNull()
  })

  it('starts once at a time; a refusal is a notice named by its cause, in its own words', async () => {
    await opened(syncState())
    const sync = useSyncStore()
    let refuse!: (error: unknown) => void
    calls.start.mockReturnValue(new Promise((_resolve, reject) => (refuse = reject)))
    const first = sync.start()
    expect(sync.busy).toBe(true)
    expect(sync.canStart).toBe(false)
    expect(await sync.start()).toBe(false)
    expect(calls.start).toHaveBeenCalledTimes(1)
    refuse(network)
    expect(await first).toBe(false)
    expect(sync.busy).toBe(false)
    expect(useNoticesStore().shown.map(({ title, message }) => ({ title, message }))).toEqual([
      { title: 'Sync: The service cannot be reached', message: 'connect ECONNREFUSED 127.0.0.1:1' },
    ])
  })

  it('takes back the notice of a failed sync once a sync completes, and not before', async () => {
    await opened(syncState())
    const sync = useSyncStore()
    const notices = useNoticesStore()
    calls.start.mockRejectedValue(network)
    expect(await sync.start()).toBe(false)
    notices.error({ code: 'io', message: 'another failure' }, 'Could not open')
    expect(notices.shown).toHaveLength(2)
    // The service is back: the sync that runs by itself fails first, then one completes.
    calls.listener!.events([{ type: 'sync-state', state: syncState({ status: 'running' }) }])
    calls.listener!.events([{ type: 'sync-state', state: syncState({ lastError: network }) }])
    expect(notices.shown.map(({ title }) => title)).toEqual(['Sync: The service cannot be reached', 'Could not open: File error'])
    calls.listener!.events([{ type: 'sync-state', state: syncState() }])
    expect(notices.shown.map(({ title }) => title)).toEqual(['Could not open: File error'])
  })

  it('cancels, and says so when it cannot', async () => {
    await opened(syncState({ status: 'running' }))
    const sync = useSyncStore()
    calls.cancel.mockRejectedValue({ code: 'internal', message: 'the core is gone' })
    await sync.cancelNow()
    expect(calls.cancel).toHaveBeenCalledTimes(1)
    expect(sync.stoppingIn).toBeNull()
    expect(useNoticesStore().shown.map((notice) => notice.title)).toEqual(['Cancelling the sync: Something went wrong'])
  })

  describe('Cancel sync can be taken back for a few seconds (a clock of its own)', () => {
    beforeEach(() => {
      vi.useFakeTimers({ now: 1_000_000 })
      return () => vi.useRealTimers()
    })

    it('counts down, then stops the sync; until it has stopped, it says so', async () => {
      await opened(syncState({ status: 'running' }))
      const sync = useSyncStore()
      calls.cancel.mockResolvedValue(undefined)
      sync.cancel()
      expect(sync.stoppingIn).toBe(CANCEL_GRACE_MS / 1000)
      // A second click does not start another countdown.
      sync.cancel()
      vi.advanceTimersByTime(2_100)
      expect(sync.stoppingIn).toBe(3)
      expect(calls.cancel).not.toHaveBeenCalled()
      vi.advanceTimersByTime(CANCEL_GRACE_MS - 2_100)
      expect(calls.cancel).toHaveBeenCalledTimes(1)
      // Stopping: no more taking back, until the state says it stopped.
      expect(sync.stoppingIn).toBe(0)
      calls.listener!.events([{ type: 'sync-state', state: syncState({ lastError: { name: 'CancelledError', code: 'cancelled', message: 'the sync was cancelled', retryable: false } }) }])
      expect(sync.stoppingIn).toBeNull()
      // Stopped, not failed: the next sync resumes it.
      expect(sync).toMatchObject({ stopped: true, lastError: null, canStart: true })
      calls.listener!.events([{ type: 'sync-state', state: syncState() }])
      expect(sync.stopped).toBe(false)
    })

    it('Keep syncing takes it back: nothing is cancelled, then or later', async () => {
      await opened(syncState({ status: 'running' }))
      const sync = useSyncStore()
      sync.cancel()
      vi.advanceTimersByTime(3_000)
      sync.keepSyncing()
      expect(sync.stoppingIn).toBeNull()
      vi.advanceTimersByTime(60_000)
      expect(calls.cancel).not.toHaveBeenCalled()
      expect(sync.running).toBe(true)
    })

    it('a sync that ends meanwhile leaves nothing to cancel', async () => {
      await opened(syncState({ status: 'running' }))
      const sync = useSyncStore()
      sync.cancel()
      calls.listener!.events([{ type: 'sync-state', state: syncState() }])
      expect(sync.stoppingIn).toBeNull()
      vi.advanceTimersByTime(60_000)
      expect(calls.cancel).not.toHaveBeenCalled()
    })
  })

  it('cannot start in a read-only data folder', async () => {
    await opened(syncState(), true)
    expect(useSyncStore().canStart).toBe(false)
  })
})

describe('what the status bar and the offline banner say of the cache', () => {
  const now = Date.UTC(2026, 0, 10, 12)
  const hourAgo = now - 60 * 60 * 1000

  it('holds a synced catalogue, part of one (a first sync not complete), or nothing: as the sync state says', async () => {
    await opened(syncState({ lastFullSyncAt: null, hasArtists: false }))
    const session = useSessionStore()
    expect(session.cached).toBe('nothing')
    // The first list page is in: the cache holds artists, though no sync completed.
    calls.listener!.events([{ type: 'sync-state', state: syncState({ status: 'running', lastFullSyncAt: null, hasArtists: true }) }])
    expect(session.cached).toBe('partial')
    calls.listener!.events([{ type: 'sync-state', state: syncState({ lastFullSyncAt: hourAgo, hasArtists: true }) }])
    expect(session.cached).toBe('synced')
    // Cleared.
    calls.listener!.events([{ type: 'sync-state', state: syncState({ lastFullSyncAt: null, hasArtists: false }) }])
    expect(session.cached).toBe('nothing')
  })

  it('says "nothing cached" only of a cache that holds nothing', () => {
    expect(syncStatusText('nothing', null, false, now)).toBe('Not synced yet')
    expect(syncStatusText('nothing', null, true, now)).toBe('Sync failed · nothing cached yet')
    expect(syncStatusText('partial', null, false, now)).toBe('First sync not complete')
    expect(syncStatusText('partial', null, true, now)).toBe('Sync failed · first sync not complete')
    expect(syncStatusText('synced', hourAgo, false, now)).toBe('Synced 1 hour ago')
    expect(syncStatusText('synced', hourAgo, true, now)).toBe('Sync failed · last synced 1 hour ago')
    expect(offlineCacheText('nothing', null, now)).toBe('nothing is cached yet')
    expect(offlineCacheText('partial', null, now)).toBe('part of the catalogue: the first sync is not complete')
    expect(offlineCacheText('synced', hourAgo, now)).toBe('the catalogue was synced 1 hour ago')
  })
})

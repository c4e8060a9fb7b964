// The sync as every screen sees it: one start and one cancel (a failure is a notice named by its
// cause), the phase in words, the last failure (a cancelled sync did not fail), and no start
// while one runs or in a read-only data folder.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { SessionEvent, SessionSnapshot, SyncState } from '../../src-main/core/shared/types'

const calls = vi.hoisted(() => ({
  start: vi.fn<() => Promise<unknown>>(),
  cancel: vi.fn<() => Promise<void>>(),
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
  },
}))

const { useSessionStore } = await import('../../src-renderer/stores/session')
const { useSyncStore } = await import('../../src-renderer/stores/sync')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')

function syncState(fields: Partial<SyncState> = {}): SyncState {
  return { status: 'idle', progress: null, waitingFor: null, lastRun: null, lastFullSyncAt: 1, lastError: null, ...fields }
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
    await sync.cancel()
    expect(calls.cancel).toHaveBeenCalledTimes(1)
    expect(useNoticesStore().shown.map((notice) => notice.title)).toEqual(['Cancelling the sync: Something went wrong'])
  })

  it('cannot start in a read-only data folder', async () => {
    await opened(syncState(), true)
    expect(useSyncStore().canStart).toBe(false)
  })
})

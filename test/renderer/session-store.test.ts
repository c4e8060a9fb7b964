// The renderer's session store, behind the bridge API the preload builds: events that arrive
// before the snapshot (Electron's stream can overtake its reply) are applied to it once it comes,
// so a sync that ends while the window subscribes never stays "running"; a snapshot that comes
// again (the web bridge reconnected) replaces the state and the other stores read theirs again; a
// stream lost for a while (the bridge stopped) or refused once open says so until it comes back;
// a notice of the session shows the core's own words.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { SessionEvent, SessionSnapshot, SyncState } from '../../src-main/core/shared/types'
import type { SessionListener } from '../../src-preload/api'
import type { MockApi } from './support/mock-api'

const bridge = vi.hoisted(() => ({
  listener: undefined as SessionListener | undefined,
}))

vi.mock('../../src-renderer/api', async () => {
  const { buildBridgeApi } = await import('../../src-preload/api')
  const built = buildBridgeApi({
    invoke: async () => ({ ok: true, value: { version: '0.0.0' } }),
    subscribe: (listener) => {
      bridge.listener = listener
      return { dispose: () => undefined }
    },
  })
  return { api: { subscribe: built.subscribe, app: { info: async () => ({ version: '0.0.0' }) } } satisfies MockApi }
})

const { useSessionStore } = await import('../../src-renderer/stores/session')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')

function syncState(status: SyncState['status'], phase?: 'avatars' | 'done'): SyncState {
  return {
    status, progress: phase ? { phase, done: 0, total: 120 } : null, waitingFor: null, lastRun: null,
    lastFullSyncAt: status === 'idle' ? 1 : null, lastCheckAt: status === 'idle' ? 1 : null, hasArtists: true, lastError: null,
  }
}

function snapshotWith(sync: SyncState): SessionSnapshot {
  return {
    service: { baseUrl: 'http://127.0.0.1:1', demo: false, readOnly: false },
    settings: null as unknown as SessionSnapshot['settings'],
    sync,
    downloads: { running: 0, queued: 0, pausedBecause: null } as unknown as SessionSnapshot['downloads'],
    online: true,
    notices: [],
  }
}

beforeEach(() => {
  setActivePinia(createPinia())
  bridge.listener = undefined
})

describe('the session store', () => {
  it('applies the events that came before the snapshot to it, in order', async () => {
    const session = useSessionStore()
    const started = session.start()
    expect(bridge.listener).toBeDefined()
    // The snapshot was taken while the sync ran; its end reaches the window first.
    bridge.listener!.events([
      { type: 'sync-progress', progress: { phase: 'done', done: 1, total: 1 } },
      { type: 'sync-state', state: syncState('idle') },
      { type: 'online', online: false },
    ])
    expect(session.snapshot).toBeNull()
    bridge.listener!.snapshot(snapshotWith(syncState('running', 'avatars')))
    await started
    expect(session.sync?.status).toBe('idle')
    expect(session.online).toBe(false)
  })

  it('applies the events that come after the snapshot as they come', async () => {
    const session = useSessionStore()
    const started = session.start()
    bridge.listener!.snapshot(snapshotWith(syncState('running', 'avatars')))
    await started
    expect(session.sync?.status).toBe('running')
    bridge.listener!.events([{ type: 'sync-state', state: syncState('idle') }])
    expect(session.sync?.status).toBe('idle')
  })

  it('takes a snapshot that comes again as the state, and tells the other stores to read theirs again', async () => {
    const session = useSessionStore()
    const heard: SessionEvent[] = []
    session.onDidEmit((event) => heard.push(event))
    const started = session.start()
    bridge.listener!.snapshot(snapshotWith(syncState('running', 'avatars')))
    await started
    expect(heard).toEqual([])
    bridge.listener!.snapshot({ ...snapshotWith(syncState('idle')), online: false })
    expect(session.sync?.status).toBe('idle')
    expect(session.online).toBe(false)
    expect(heard).toEqual([{ type: 'service', service: snapshotWith(syncState('idle')).service }])
  })

  it('says when the stream is lost once open, and that it is back when a snapshot comes again', async () => {
    const session = useSessionStore()
    const started = session.start()
    bridge.listener!.snapshot(snapshotWith(syncState('idle')))
    await started
    expect(session.connection).toBe('open')
    bridge.listener!.lost!({ name: 'NetworkError', code: 'network', message: 'the web bridge (npm run web) does not answer', retryable: true })
    expect(session.connection).toBe('lost')
    expect(session.startError).toBeNull()
    bridge.listener!.snapshot(snapshotWith(syncState('idle')))
    expect(session.connection).toBe('open')
  })

  it('says when the stream is refused once open (another run of the bridge); refused before, the session could not open', async () => {
    const session = useSessionStore()
    const refused = { name: 'NetworkError', code: 'network', message: 'the web bridge (npm run web) refused or lost the event stream', retryable: true } as const
    const started = session.start()
    bridge.listener!.snapshot(snapshotWith(syncState('idle')))
    await started
    bridge.listener!.failed(refused)
    expect(session.connection).toBe('closed')
    expect(session.startError).toBeNull()

    setActivePinia(createPinia())
    const fresh = useSessionStore()
    const failing = fresh.start()
    bridge.listener!.failed(refused)
    await failing
    expect(fresh.startError).toBe(refused.message)
    expect(fresh.connection).toBe('open')
  })

  it("shows a notice of the session with the core's own words, never an object", async () => {
    const session = useSessionStore()
    const started = session.start()
    bridge.listener!.snapshot(snapshotWith(syncState('idle')))
    await started
    const message = 'the sync of http://127.0.0.1:1 failed: GET http://127.0.0.1:1/api/v1/artists: network error: connect ECONNREFUSED 127.0.0.1:1'
    bridge.listener!.events([
      { type: 'notice', message, error: { name: 'NetworkError', code: 'network', message, retryable: true } },
      { type: 'notice', message: 'a setting was not understood' },
    ])
    expect(useNoticesStore().shown.map(({ title, message: text }) => ({ title, text }))).toEqual([
      { title: 'The service cannot be reached', text: message },
      { title: 'Something went wrong', text: 'a setting was not understood' },
    ])
  })

  it('shows one note per sync that brought followed artists new tracks, offering What\'s new', async () => {
    vi.useFakeTimers()
    try {
      const session = useSessionStore()
      const started = session.start()
      bridge.listener!.snapshot(snapshotWith(syncState('idle')))
      await started
      bridge.listener!.events([
        { type: 'new-tracks', runId: 4, total: 3, artists: [{ username: 'Hungry_Lucy', name: 'Hungry Lucy', count: 3 }] },
      ])
      const notices = useNoticesStore()
      expect(notices.shown).toEqual([
        expect.objectContaining({ kind: 'info', title: '3 new tracks from Hungry Lucy', message: 'From artists you follow.', action: { label: "Open What's new", to: '/whats-new' } }),
      ])
      // It waits to be read, unlike other notes; reaching What's new is reading it.
      vi.advanceTimersByTime(60_000)
      expect(notices.shown).toHaveLength(1)
      notices.reached('/whats-new')
      expect(notices.shown).toEqual([])

      // What auto-download held back over its limits is said in the same note, with where to get it.
      const heldBack = { total: 900, bytes: 1_800_000_000, artists: [{ username: 'Hungry_Lucy', name: 'Hungry Lucy', count: 900, bytes: 1_800_000_000 }] }
      bridge.listener!.events([{ type: 'new-tracks', runId: 5, total: 950, artists: [{ username: 'Hungry_Lucy', name: 'Hungry Lucy', count: 950 }], heldBack }])
      expect(notices.shown).toEqual([
        expect.objectContaining({
          title: '950 new tracks from Hungry Lucy',
          message: "From artists you follow. Auto-download held back 900 new tracks of Hungry Lucy (1.8 GB) over the auto-download limit: Download the rest in What's new.",
          action: { label: "Open What's new", to: '/whats-new' },
        }),
      ])
    } finally {
      vi.useRealTimers()
    }
  })
})

// The renderer's session store, behind the bridge API the preload builds: events that arrive
// before the snapshot (Electron's stream can overtake its reply) are applied to it once it comes,
// so a sync that ends while the window subscribes never stays "running"; a snapshot that comes
// again (the web bridge reconnected) replaces the state and the other stores read theirs again.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { SessionEvent, SessionSnapshot, SyncState } from '../../src-main/core/shared/types'

const bridge = vi.hoisted(() => ({
  listener: undefined as { snapshot(snapshot: SessionSnapshot): void; events(events: SessionEvent[]): void } | undefined,
}))

vi.mock('../../src-renderer/api', async () => {
  const { buildBridgeApi } = await import('../../src-preload/api')
  const built = buildBridgeApi({
    invoke: async () => ({ ok: true, value: { version: '0.0.0' } }),
    subscribe: (listener) => {
      bridge.listener = listener
      return () => undefined
    },
  })
  return { api: { subscribe: built.subscribe, app: { info: async () => ({ version: '0.0.0' }) } } }
})

const { useSessionStore } = await import('../../src-renderer/stores/session')

function syncState(status: SyncState['status'], phase?: 'avatars' | 'done'): SyncState {
  return {
    status, progress: phase ? { phase, done: 0, total: 120 } : null, waitingFor: null, lastRun: null,
    lastFullSyncAt: status === 'idle' ? 1 : null, lastError: null,
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
    session.onEvent((event) => heard.push(event))
    const started = session.start()
    bridge.listener!.snapshot(snapshotWith(syncState('running', 'avatars')))
    await started
    expect(heard).toEqual([])
    bridge.listener!.snapshot({ ...snapshotWith(syncState('idle')), online: false })
    expect(session.sync?.status).toBe('idle')
    expect(session.online).toBe(false)
    expect(heard).toEqual([{ type: 'service', service: snapshotWith(syncState('idle')).service }])
  })
})

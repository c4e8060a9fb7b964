// The renderer's session store: events that arrive before the snapshot are applied to it
// once it comes, so a sync that ends while the window subscribes never stays "running".
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { SessionEvent, SessionSnapshot, SyncState } from '../../src-main/core/shared/types'

const bridge = vi.hoisted(() => ({
  listener: undefined as ((events: SessionEvent[]) => void) | undefined,
  snapshot: undefined as ((snapshot: SessionSnapshot) => void) | undefined,
}))

vi.mock('../../src-renderer/api', () => ({
  api: {
    onEvents: (listener: (events: SessionEvent[]) => void) => {
      bridge.listener = listener
      return () => undefined
    },
    events: { subscribe: () => new Promise((resolve) => (bridge.snapshot = resolve)) },
    app: { info: async () => ({ version: '0.0.0' }) },
  },
}))

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
  bridge.snapshot = undefined
})

describe('the session store', () => {
  it('applies the events that came before the snapshot to it, in order', async () => {
    const session = useSessionStore()
    const started = session.start()
    expect(bridge.listener).toBeDefined()
    // The snapshot was taken while the sync ran; its end reaches the window first.
    bridge.listener!([
      { type: 'sync-progress', progress: { phase: 'done', done: 1, total: 1 } },
      { type: 'sync-state', state: syncState('idle') },
      { type: 'online', online: false },
    ])
    await vi.waitFor(() => expect(bridge.snapshot).toBeDefined())
    bridge.snapshot!(snapshotWith(syncState('running', 'avatars')))
    await started
    expect(session.sync?.status).toBe('idle')
    expect(session.online).toBe(false)
  })

  it('applies the events that come after the snapshot as they come', async () => {
    const session = useSessionStore()
    const started = session.start()
    await vi.waitFor(() => expect(bridge.snapshot).toBeDefined())
    bridge.snapshot!(snapshotWith(syncState('running', 'avatars')))
    await started
    expect(session.sync?.status).toBe('running')
    bridge.listener!([{ type: 'sync-state', state: syncState('idle') }])
    expect(session.sync?.status).toBe('idle')
  })
})

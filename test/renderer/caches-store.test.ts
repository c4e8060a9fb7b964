// The caches store: the caches read when asked, read again when a sync ends or the service changes
// (their sizes move), and cleared with a note, or a notice by its cause; the list is read again after.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { CacheInfo, SessionEvent, SessionSnapshot } from '../../src-main/core/shared/types'
import type { MockApi } from './support/mock-api'

const core = vi.hoisted(() => ({
  listener: undefined as { snapshot(snapshot: SessionSnapshot): void; events(events: SessionEvent[]): void } | undefined,
  caches: [] as CacheInfo[],
  lists: 0,
  clearFails: false,
}))

vi.mock('../../src-renderer/api', async () => {
  const { deserializeError } = await import('../../src-main/core/shared/errors')
  return {
    api: {
      subscribe: (listener: typeof core.listener) => {
        core.listener = listener
        return { dispose: () => undefined }
      },
      app: { info: async () => ({ transport: 'web' }) },
      caches: {
        list: async () => {
          core.lists++
          return core.caches
        },
        clear: async (file?: string) => {
          if (core.clearFails) throw deserializeError({ name: 'BusyError', code: 'busy', message: 'a sync is writing it', retryable: true })
          core.caches = core.caches.filter((cache) => cache.file !== file)
        },
      },
    } satisfies MockApi,
  }
})

const { useSessionStore } = await import('../../src-renderer/stores/session')
const { useCachesStore, cacheServiceName } = await import('../../src-renderer/stores/caches')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')

const DEMO = { file: '/data/caches/demo.sqlite', baseUrl: 'http://127.0.0.1:4000', bytes: 4_000_000, current: true } as CacheInfo
const OTHER = { file: '/data/caches/other.sqlite', baseUrl: 'https://catalogue.example.com', bytes: 9_000_000, current: false } as CacheInfo

beforeEach(async () => {
  setActivePinia(createPinia())
  core.caches = [DEMO, OTHER]
  core.lists = 0
  core.clearFails = false
  const session = useSessionStore()
  const started = session.start()
  core.listener!.snapshot({ service: { baseUrl: DEMO.baseUrl, demo: true, readOnly: false }, sync: { status: 'idle' } } as SessionSnapshot)
  await started
})

describe('the caches store', () => {
  it('names the demo cache after the demo, and the others by their service', () => {
    expect(cacheServiceName(DEMO)).toBe('Demo catalogue')
    expect(cacheServiceName(OTHER)).toBe('https://catalogue.example.com')
    expect(cacheServiceName({ ...OTHER, baseUrl: null } as CacheInfo)).toBe('A cache that cannot be read')
  })

  it('reads the caches when asked, and again when a sync ends, once read', async () => {
    const store = useCachesStore()
    core.listener!.events([{ type: 'sync-state', state: { status: 'idle' } } as SessionEvent])
    expect(core.lists).toBe(0)
    await store.load()
    expect(store.caches).toEqual([DEMO, OTHER])
    core.listener!.events([{ type: 'sync-state', state: { status: 'idle' } } as SessionEvent])
    await vi.waitFor(() => expect(core.lists).toBe(2))
  })

  it('clears a cache with a note and reads the list again; a failure is a notice by its cause', async () => {
    const store = useCachesStore()
    const notices = useNoticesStore()
    await store.load()
    await store.clear(OTHER)
    expect(store.caches).toEqual([DEMO])
    expect(store.clearing).toBeNull()
    expect(notices.notices.at(-1)).toMatchObject({ kind: 'info', title: 'Cache cleared', message: 'https://catalogue.example.com is no longer cached.' })

    core.clearFails = true
    await store.clear(DEMO)
    expect(store.caches).toEqual([DEMO])
    expect(notices.notices.at(-1)).toMatchObject({ kind: 'error', message: 'a sync is writing it' })
    expect(notices.notices.at(-1)?.title).toMatch(/^Clearing the cache: /)
  })
})

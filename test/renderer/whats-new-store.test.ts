// What's new, behind a mocked api: read when a screen shows it, read again once a burst of
// changes settles (only while shown), one read at a time (changes meanwhile make one more read,
// never a late answer over a newer one), another service's news never shown; and the sentences.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SessionSnapshot, WhatsNew } from '../../src-main/core/shared/types'

const mock = vi.hoisted(() => ({
  listener: undefined as { snapshot(snapshot: unknown): void; events(events: unknown[]): void } | undefined,
  whatsNew: undefined as unknown as ReturnType<typeof vi.fn<(...args: unknown[]) => Promise<unknown>>>,
}))

vi.mock('../../src-renderer/api', () => ({
  api: {
    subscribe: (listener: typeof mock.listener) => {
      mock.listener = listener
      return () => undefined
    },
    app: { info: async () => ({ version: '0.0.0' }) },
    catalogue: { whatsNew: (...args: unknown[]) => mock.whatsNew(...args) },
  },
}))

const { RELOAD_DELAY_MS, WHATS_NEW_LIMIT, useWhatsNewStore } = await import('../../src-renderer/stores/whats-new')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')
const { useSessionStore } = await import('../../src-renderer/stores/session')
const { whatsNewCut, whatsNewSummary } = await import('../../src-renderer/format/whats-new')

function news(runs: number[], artists = 0, tracks = 0, totals = { artists, tracks }): WhatsNew {
  return {
    runs: runs.map((id) => ({ id, finishedAt: id * 1000 })),
    artists: Array.from({ length: artists }, (_, i) => ({ artist: { username: `a${i}` }, change: 'new', runId: runs[i % runs.length]! })),
    tracks: Array.from({ length: tracks }, (_, i) => ({ track: { uploadId: `t${i}` }, artistUsername: 'a0', artistName: '', change: 'changed', runId: runs[0]! })),
    totalArtists: totals.artists,
    totalTracks: totals.tracks,
  } as unknown as WhatsNew
}

async function opened() {
  const session = useSessionStore()
  const started = session.start()
  mock.listener!.snapshot({ service: { baseUrl: 'http://x', demo: true, readOnly: false }, settings: null, sync: { status: 'running', progress: null, waitingFor: null, lastRun: null, lastFullSyncAt: 1, lastError: null }, downloads: {}, online: true, notices: [] } as unknown as SessionSnapshot)
  await started
  return { store: useWhatsNewStore(), events: (...events: unknown[]) => mock.listener!.events(events) }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

beforeEach(() => {
  setActivePinia(createPinia())
  mock.whatsNew = vi.fn(async () => news([2, 1], 3, 2))
})
afterEach(() => vi.useRealTimers())

describe("the What's new store", () => {
  it('reads the news when a screen shows them, with the syncs in order and what each brought', async () => {
    const { store } = await opened()
    const stop = store.watchNews()
    await settle()
    expect(mock.whatsNew).toHaveBeenCalledWith(WHATS_NEW_LIMIT)
    expect(store.runs.map((run) => [run.title, run.artists.length, run.tracks.length])).toEqual([
      ['The last sync', 2, 2],
      ['The sync before', 1, 0],
    ])
    expect(store.nothingNew).toBe(false)
    stop()
  })

  it('reads again once a burst of changes settles, and only while a screen shows the news', async () => {
    vi.useFakeTimers()
    const { store, events } = await opened()
    const stop = store.watchNews()
    await settle()
    expect(mock.whatsNew).toHaveBeenCalledTimes(1)
    events({ type: 'catalogue-changed' }, { type: 'catalogue-changed' })
    events({ type: 'sync-state', state: { status: 'running' } })
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS / 2)
    events({ type: 'sync-state', state: { status: 'idle' } })
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS + 10)
    expect(mock.whatsNew).toHaveBeenCalledTimes(2)
    stop()
    events({ type: 'catalogue-changed' })
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS * 3)
    expect(mock.whatsNew).toHaveBeenCalledTimes(2)
  })

  it('reads one at a time: a change meanwhile makes one more read, and the newest answer is the one shown', async () => {
    const { store } = await opened()
    let answer!: (value: WhatsNew) => void
    mock.whatsNew.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)))
    const stop = store.watchNews()
    void store.load()
    void store.load()
    expect(mock.whatsNew).toHaveBeenCalledTimes(1)
    mock.whatsNew.mockResolvedValueOnce(news([3, 2], 1, 0))
    answer(news([2, 1], 3, 2))
    await settle()
    expect(mock.whatsNew).toHaveBeenCalledTimes(2)
    expect(store.news?.runs[0]?.id).toBe(3)
    stop()
  })

  it('shows no other service’s news; a failed read is told and keeps what was read', async () => {
    const { store, events } = await opened()
    const stop = store.watchNews()
    await settle()
    expect(store.news).not.toBeNull()
    events({ type: 'service', service: { baseUrl: 'http://other', demo: false, readOnly: false } })
    expect(store.news).toBeNull()
    mock.whatsNew.mockRejectedValueOnce({ code: 'io', message: 'the cache is locked' })
    await store.load()
    expect(store.failed).toBe(true)
    expect(useNoticesStore().notices.map((notice) => notice.title)).toEqual(["What's new: File error"])
    await store.load()
    expect(store.failed).toBe(false)
    stop()
  })

  it('says what the syncs brought, and where the lists stop short', () => {
    expect(whatsNewSummary(news([2, 1], 3, 2))).toBe('3 artists and 2 tracks appeared or changed in the last two syncs.')
    expect(whatsNewSummary(news([2], 1, 1))).toBe('1 artist and 1 track appeared or changed in the last sync.')
    expect(whatsNewCut(news([2], 1, 1))).toBe('')
    expect(whatsNewCut(news([2], 200, 200, { artists: 1500, tracks: 4000 }))).toBe('Showing the first 200 artists and the first 200 tracks.')
  })
})

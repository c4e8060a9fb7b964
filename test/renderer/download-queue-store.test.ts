// The queue's order as the window keeps it, behind a mocked api: the list in queue order (by the
// events' queueOrder), Move and Clear completed through the store with what they skipped told, and
// the pure parts the downloads screen builds on: the row menu, the totals at the top, the speed limits.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { DownloadView, SessionEvent, SessionSnapshot } from '../../src-main/core/shared/types'

const mock = vi.hoisted(() => ({
  listener: undefined as { snapshot(snapshot: unknown): void; events(events: unknown[]): void } | undefined,
  downloads: {} as Record<string, ReturnType<typeof vi.fn>>,
}))

vi.mock('../../src-renderer/api', () => ({
  api: {
    subscribe: (listener: typeof mock.listener) => {
      mock.listener = listener
      return { dispose: () => undefined }
    },
    app: { info: async () => ({ version: '0.0.0', transport: 'web' }) },
    downloads: new Proxy({}, { get: (_target, verb: string) => mock.downloads[verb] }),
  },
}))

const { useDownloadsStore } = await import('../../src-renderer/stores/downloads')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')
const { useSessionStore } = await import('../../src-renderer/stores/session')
const { downloadMenuEntries } = await import('../../src-renderer/format/download-menu')
const { queueTotals } = await import('../../src-renderer/format/queue-totals')
const { describeSpeedLimit, presetOf } = await import('../../src-renderer/format/speed-limit')

const queueState = { started: true, running: 0, concurrency: 1, pausedBecause: null, waitingFor: null, interrupted: 0, runElsewhere: null, folder: '/d' }

function row(id: number, state: DownloadView['state'], extra: Partial<DownloadView> = {}): DownloadView {
  return {
    id, uploadId: `u${id}`, artistUsername: 'someone', artistName: 'Some One', title: `Song ${id}`, url: `http://x/${id}.mp3`,
    targetPath: `/d/${id}.mp3`, state, pauseReason: state === 'paused' ? 'user' : null, waitingFor: null, bytesDone: state === 'completed' ? 100 : 0,
    bytesTotal: 100, validator: null, sha256: null, error: null, createdAt: 1000, startedAt: null, finishedAt: null, queueOrder: id,
    interrupted: false, fileMissing: false, ...extra,
  }
}

async function storeWith(rows: DownloadView[]) {
  mock.downloads.list = vi.fn(async () => rows)
  mock.downloads.monthlyBytes = vi.fn(async () => ({ month: '2031-01', bytes: 0, months: [] }))
  mock.downloads.state = vi.fn(async () => queueState)
  const session = useSessionStore()
  const started = session.start()
  mock.listener!.snapshot({ service: { baseUrl: 'http://x', demo: true, readOnly: false }, settings: null, sync: null, downloads: queueState, online: true, notices: [] } as unknown as SessionSnapshot)
  await started
  const store = useDownloadsStore()
  await store.load()
  return { store, notices: useNoticesStore(), events: (...events: SessionEvent[]) => mock.listener!.events(events) }
}

beforeEach(() => {
  setActivePinia(createPinia())
  mock.downloads = {}
})

describe('the queue order in the window', () => {
  it('lists downloads in queue order, and follows the order the core sends after a move', async () => {
    const { store, events } = await storeWith([row(1, 'queued', { queueOrder: 5 }), row(2, 'queued', { queueOrder: 2 }), row(3, 'queued', { queueOrder: 2 })])
    expect(store.list.map((download) => download.id)).toEqual([2, 3, 1])
    mock.downloads.move = vi.fn(async () => ({ changed: [1], skipped: [] }))
    expect(await store.move([1], { to: 'top' })).toBe(true)
    expect(mock.downloads.move).toHaveBeenCalledWith([1], { to: 'top' })
    events({ type: 'downloads-changed', downloads: [row(1, 'queued', { queueOrder: 1 })], removed: [] })
    expect(store.list.map((download) => download.id)).toEqual([1, 2, 3])
  })

  it('tells what a move skipped, and a failed move in the core words', async () => {
    const { store, notices } = await storeWith([row(1, 'queued'), row(2, 'completed')])
    mock.downloads.move = vi.fn(async () => ({ changed: [1], skipped: [{ id: 2, state: 'completed', reason: 'download 2 is completed: only a queued or paused download can be moved in the queue' }] }))
    await store.move([1, 2], { to: 'bottom' })
    expect(notices.notices.at(-1)).toMatchObject({ title: 'Moved 1 of 2 downloads' })
    expect(JSON.stringify(notices.notices.at(-1))).toContain('only a queued or paused download can be moved')
    mock.downloads.move = vi.fn(async () => {
      throw Object.assign(new Error('no download 1'), { code: 'not_found' })
    })
    expect(await store.move([1], { before: 2 })).toBe(false)
    expect(JSON.stringify(notices.notices.at(-1))).toContain('Could not move the download')
    expect(store.busy.size).toBe(0)
  })

  it('clears the completed downloads through the core, which sends their removal', async () => {
    const { store, events } = await storeWith([row(1, 'completed'), row(2, 'queued'), row(3, 'completed')])
    mock.downloads.clearCompleted = vi.fn(async () => ({ removed: 2 }))
    expect(await store.clearCompleted()).toBe(2)
    events({ type: 'downloads-changed', downloads: [], removed: [1, 3] })
    expect(store.list.map((download) => download.id)).toEqual([2])
    mock.downloads.clearCompleted = vi.fn(async () => {
      throw new Error('the cache is read-only')
    })
    expect(await store.clearCompleted()).toBeNull()
  })
})

describe('the downloads screen vocabulary', () => {
  it('offers in a row menu exactly the row buttons, then the moves of a queued row', () => {
    expect(downloadMenuEntries([row(1, 'queued')], true).map((entry) => entry.key)).toEqual(['pause', 'cancel', 'remove', 'move-top', 'move-bottom'])
    expect(downloadMenuEntries([row(1, 'queued')], true).find((entry) => entry.key === 'move-top')?.separator).toBe(true)
    expect(downloadMenuEntries([row(1, 'paused')], true).map((entry) => entry.key)).toEqual(['resume', 'cancel', 'remove'])
    expect(downloadMenuEntries([row(1, 'failed')], true).map((entry) => entry.key)).toEqual(['retry', 'cancel', 'remove'])
    // Open and Show in folder in a browser: there, but disabled with the reason.
    const completed = downloadMenuEntries([row(1, 'completed')], false)
    expect(completed.map((entry) => entry.key)).toEqual(['open', 'reveal', 'remove'])
    expect(completed[0]!.disabled).toMatch(/desktop app/)
    expect(downloadMenuEntries([row(1, 'completed', { fileMissing: true })], true).map((entry) => entry.key)).toEqual(['redownload', 'remove'])
  })

  it('offers on a selection what the selection bar does, with how many each applies to', () => {
    const entries = downloadMenuEntries([row(1, 'queued'), row(2, 'paused'), row(3, 'queued')], true)
    expect(entries.map((entry) => entry.label)).toEqual(['Pause (2)', 'Resume (1)', 'Cancel (3)', 'Remove (3)', 'Move to top (2)', 'Move to bottom (2)'])
    expect(entries.find((entry) => entry.key === 'cancel')?.danger).toBe(true)
  })

  it('totals what runs and waits: speed together, and the time left at that speed', () => {
    const rows = [
      row(1, 'downloading', { bytesTotal: 1000 }),
      row(2, 'downloading', { bytesTotal: 1000 }),
      row(3, 'queued', { bytesTotal: 2000, bytesDone: 500 }),
      row(4, 'downloading', { interrupted: true, bytesTotal: 9999 }),
      row(5, 'completed'),
    ]
    const progress = new Map([
      [1, { id: 1, bytes: 500, total: 1000, percent: 50, speed: 100, etaSeconds: 5 }],
      [2, { id: 2, bytes: 0, total: 1000, percent: 0, speed: 150, etaSeconds: null }],
    ])
    expect(queueTotals(rows, progress)).toEqual({ running: 2, queued: 1, speed: 250, bytesLeft: 500 + 1000 + 1500, secondsLeft: 3000 / 250 })
    expect(queueTotals(rows, new Map()).secondsLeft).toBeNull()
  })

  it('names the speed limits the settings offer', () => {
    expect(describeSpeedLimit(null)).toBe('No limit')
    expect(describeSpeedLimit(1_000_000)).toBe('1 MB/s')
    expect(describeSpeedLimit(256_000)).toBe('256 kB/s')
    expect(presetOf(5_000_000)).toBe(5_000_000)
    expect(presetOf(null)).toBeNull()
    expect(presetOf(1_500_000)).toBe('custom')
  })
})

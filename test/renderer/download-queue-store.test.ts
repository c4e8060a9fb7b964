// The queue's order as the window keeps it, behind a fake core (support/fake-queue.ts, typed against
// the contract): the rows of the queued group in queue order, Move (to the top or bottom at once, before
// another when the core has it) and Clear completed through the store with what they skipped told, and
// the pure parts the downloads screen builds on: the row menu, the totals at the top, the speed limits.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { DownloadSummary, DownloadView, SessionSnapshot } from '../../src-main/core/shared/types'
import { FakeQueue, row } from './support/fake-queue'
import type { MockApi } from './support/mock-api'

const mock = vi.hoisted(() => ({
  listener: undefined as { snapshot(snapshot: unknown): void; events(events: unknown[]): void } | undefined,
  queue: undefined as unknown as FakeQueue,
}))

vi.mock('../../src-renderer/api', () => ({
  api: {
    subscribe: (listener: typeof mock.listener) => {
      mock.listener = listener
      return { dispose: () => undefined }
    },
    app: { info: async () => ({ version: '0.0.0', transport: 'web' }) },
    downloads: new Proxy({}, { get: (_target, verb: string) => mock.queue.api[verb as keyof FakeQueue['api']] }),
  } satisfies MockApi,
}))

const { useDownloadsStore } = await import('../../src-renderer/stores/downloads')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')
const { useSessionStore } = await import('../../src-renderer/stores/session')
const { countsOfRows, downloadMenuEntries } = await import('../../src-renderer/format/download-menu')
const { queueTotals } = await import('../../src-renderer/format/queue-totals')
const { describeSpeedLimit, presetOf } = await import('../../src-renderer/format/speed-limit')

const queueState = { started: true, running: 0, concurrency: 1, pausedBecause: null, waitingFor: null, interrupted: 0, runElsewhere: null, folder: '/d' }

const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 120))

async function storeWith(rows: DownloadView[]) {
  mock.queue = new FakeQueue(rows)
  mock.queue.emit = (event) => mock.listener!.events([event])
  const session = useSessionStore()
  const started = session.start()
  mock.listener!.snapshot({ service: { baseUrl: 'http://x', demo: true, readOnly: false }, settings: null, sync: null, downloads: queueState, online: true, notices: [] } as unknown as SessionSnapshot)
  await started
  const store = useDownloadsStore()
  store.show()
  await settled()
  for (const group of ['queued', 'completed'] as const) store.ensureRange(group, 0, 20)
  await settled()
  return { store, queue: mock.queue, notices: useNoticesStore() }
}

const queued = (store: ReturnType<typeof useDownloadsStore>): number[] => Array.from({ length: store.countOf('queued') }, (_, at) => store.rowAt('queued', at)?.id ?? -1)

beforeEach(() => {
  setActivePinia(createPinia())
})

describe('the queue order in the window', () => {
  it('lists the queued group in queue order, moves a row to the top at once, and follows the order the core sends', async () => {
    const { store, queue } = await storeWith([row(1, 'queued', { queueOrder: 5 }), row(2, 'queued', { queueOrder: 2 }), row(3, 'queued', { queueOrder: 2 })])
    expect(queued(store)).toEqual([2, 3, 1])
    const release = queue.hold('move')
    const moving = store.move([1], { to: 'top' })
    expect(queued(store)).toEqual([1, 2, 3])
    release()
    expect(await moving).toBe(true)
    expect(queue.callsOf('move')).toEqual([[[1], { to: 'top' }]])
    expect(queued(store)).toEqual([1, 2, 3])
    // Before another (a drag): the row takes its place when the core has it.
    expect(await store.move([3], { before: 2 })).toBe(true)
    expect(queued(store)).toEqual([1, 3, 2])
  })

  it('tells what a move skipped, and a failed move in the core words', async () => {
    const { store, queue, notices } = await storeWith([row(1, 'queued'), row(2, 'queued')])
    const release = queue.hold('move')
    const moving = store.move([1, 2], { to: 'bottom' })
    // Row 2 starts before the core moves it: the core skips it.
    queue.rows[1] = row(2, 'downloading')
    release()
    await moving
    expect(notices.notices.at(-1)).toMatchObject({ title: 'Moved 1 of 2 downloads' })
    expect(JSON.stringify(notices.notices.at(-1))).toContain('only a queued or paused download can be moved')
    queue.refuse('move', { name: 'NotFoundError', code: 'not_found', message: 'no download 1' })
    expect(await store.move([1], { before: 2 })).toBe(false)
    expect(JSON.stringify(notices.notices.at(-1))).toContain('Could not move the download')
    expect(store.busy.size).toBe(0)
  })

  it('clears the completed downloads at once, through the core; a refusal puts them back', async () => {
    const { store, queue } = await storeWith([row(1, 'completed'), row(2, 'queued'), row(3, 'completed')])
    queue.refuse('clearCompleted', { name: 'ReadOnlyError', code: 'read_only', message: 'the cache is read-only' })
    expect(await store.clearCompleted()).toBeNull()
    expect(store.countOf('completed')).toBe(2)
    const release = queue.hold('clearCompleted')
    const clearing = store.clearCompleted()
    expect(store.countOf('completed')).toBe(0)
    release()
    expect(await clearing).toBe(2)
    expect(queue.rows.map((each) => each.id)).toEqual([2])
    expect(queued(store)).toEqual([2])
  })
})

describe('the downloads screen vocabulary', () => {
  it('offers in a row menu exactly the row buttons, then the moves of a queued row', () => {
    const entries = (rows: DownloadView[], desktop = true) => downloadMenuEntries(countsOfRows(rows), desktop)
    expect(entries([row(1, 'queued')]).map((entry) => entry.key)).toEqual(['pause', 'cancel', 'remove', 'move-top', 'move-bottom'])
    expect(entries([row(1, 'queued')]).find((entry) => entry.key === 'move-top')?.separator).toBe(true)
    expect(entries([row(1, 'paused')]).map((entry) => entry.key)).toEqual(['resume', 'cancel', 'remove'])
    expect(entries([row(1, 'failed')]).map((entry) => entry.key)).toEqual(['retry', 'cancel', 'remove'])
    // Open and Show in folder in a browser: there, but disabled with the reason.
    const completed = entries([row(1, 'completed')], false)
    expect(completed.map((entry) => entry.key)).toEqual(['open', 'reveal', 'remove'])
    expect(completed[0]!.disabled).toMatch(/desktop app/)
    expect(entries([row(1, 'completed', { fileMissing: true })]).map((entry) => entry.key)).toEqual(['redownload', 'remove'])
  })

  it('offers on a selection what the selection bar does, with how many each applies to, however it was counted', () => {
    const entries = downloadMenuEntries(countsOfRows([row(1, 'queued'), row(2, 'paused'), row(3, 'queued')]), true)
    expect(entries.map((entry) => entry.label)).toEqual(['Pause (2)', 'Resume (1)', 'Cancel (3)', 'Remove (3)', 'Move to top (2)', 'Move to bottom (2)'])
    expect(entries.find((entry) => entry.key === 'cancel')?.danger).toBe(true)
    // A selection of whole groups, counted by their figures.
    const counts = { total: 12_000, of: (action: string) => (action === 'pause' || action === 'cancel' || action === 'remove' ? 12_000 : 0), movable: 12_000 }
    expect(downloadMenuEntries(counts, true).map((entry) => entry.label)).toEqual(['Pause (12,000)', 'Cancel (12,000)', 'Remove (12,000)', 'Move to top (12,000)', 'Move to bottom (12,000)'])
  })

  it('totals what runs and waits: speed together, and the time left at that speed', () => {
    const group = (files: number, bytes: number, bytesDone = 0) => ({ files, bytes, bytesDone })
    const summary: DownloadSummary = {
      groups: {
        downloading: group(2, 2000),
        queued: group(1, 2000, 500),
        interrupted: group(1, 9999),
        paused: group(0, 0),
        failed: group(0, 0),
        completed: group(1, 100, 100),
        cancelled: group(0, 0),
      },
      batch: { files: 4, filesDone: 0, bytes: 4000, bytesDone: 500, pending: 4 },
    }
    // The running ones brought 500 bytes since they last saved, at 250 B/s together.
    expect(queueTotals(summary, { speed: 250, ahead: 500 })).toEqual({ running: 2, queued: 1, paused: 0, speed: 250, bytesLeft: 1500 + 1500, secondsLeft: 3000 / 250 })
    expect(queueTotals(summary, { speed: 0, ahead: 0 }).secondsLeft).toBeNull()
    expect(queueTotals(null, { speed: 0, ahead: 0 })).toMatchObject({ running: 0, queued: 0, paused: 0 })
    expect(queueTotals({ ...summary, groups: { ...summary.groups, paused: group(1_200, 5000) } }, { speed: 0, ahead: 0 }).paused).toBe(1_200)
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

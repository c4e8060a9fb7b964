// The downloads store, the window's one owner of the queue, behind a fake core (support/fake-queue.ts,
// typed against the contract): the figures and the rows in view read a window at a time and kept by the
// session's events, never the whole queue; actions applied at once (the rows in view and the counts) and
// put back when the core refuses, what the core skipped told in its words, the rows settled by a read
// once it answered; "select all" sent as groups, not ids, and answered at once on 10,000 rows; the
// downloads of the uploads other screens show; the batch the overall progress measures; this month.
import { createPinia, setActivePinia } from 'pinia'
import { effectScope } from 'vue'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { DownloadView, SessionEvent, SessionSnapshot } from '../../src-main/core/shared/types'
import { FakeQueue, row } from './support/fake-queue'
import type { MockApi } from './support/mock-api'

const mock = vi.hoisted(() => ({
  listener: undefined as { snapshot(snapshot: unknown): void; events(events: unknown[]): void } | undefined,
  transport: 'electron' as 'electron' | 'web',
  queue: undefined as unknown as FakeQueue,
}))

vi.mock('../../src-renderer/api', () => ({
  api: {
    subscribe: (listener: typeof mock.listener) => {
      mock.listener = listener
      return { dispose: () => undefined }
    },
    app: { info: async () => ({ version: '0.0.0', transport: mock.transport }) },
    downloads: new Proxy({}, { get: (_target, verb: string) => mock.queue.api[verb as keyof FakeQueue['api']] }),
  } satisfies MockApi,
}))

const { useDownloadsStore } = await import('../../src-renderer/stores/downloads')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')
const { useSessionStore } = await import('../../src-renderer/stores/session')
const { useDownloadSelection } = await import('../../src-renderer/composables/use-download-selection')
const { skippedNote } = await import('../../src-renderer/format/download-messages')
const { artistTitle, trackTitle } = await import('../../src-renderer/format/titles')
const { actionsOf, allows, unavailableHere } = await import('../../src-renderer/format/download-actions')
const { WINDOW_ROWS } = await import('../../src-renderer/stores/download-pages')

const queueState = { started: true, interrupted: 0, running: 0, concurrency: 3, pausedBecause: null, waitingFor: null, runElsewhere: null, folder: '/d' }

/** Lets every answer under way land (the fake answers at once; the store reads again a moment after events). */
async function settled(): Promise<void> {
  await vi.waitFor(async () => {
    await new Promise((resolve) => setTimeout(resolve, 60))
  })
  await new Promise((resolve) => setTimeout(resolve, 60))
}

/** A store over these rows, its session started (so events reach it); `shown`: the downloads screen shows rows 0–20 of every group. */
async function storeWith(rows: DownloadView[], options: { shown?: boolean } = {}) {
  mock.queue = new FakeQueue(rows)
  mock.queue.emit = (event) => mock.listener!.events([event])
  const session = useSessionStore()
  const started = session.start()
  mock.listener!.snapshot({ service: { baseUrl: 'http://x', demo: true, readOnly: false }, settings: null, sync: null, downloads: queueState, online: true, notices: [] } as unknown as SessionSnapshot)
  await started
  const store = useDownloadsStore()
  if (options.shown ?? true) {
    store.show()
    await settled()
    for (const group of ['downloading', 'queued', 'paused', 'interrupted', 'failed', 'completed', 'cancelled'] as const) store.ensureRange(group, 0, 20)
    await settled()
  }
  return { store, queue: mock.queue, notices: useNoticesStore(), events: (...events: SessionEvent[]) => mock.listener!.events(events) }
}

/** The ids shown in a group, in order, as far as held. */
function shown(store: ReturnType<typeof useDownloadsStore>, group: Parameters<ReturnType<typeof useDownloadsStore>['countOf']>[0]): number[] {
  return Array.from({ length: Math.min(store.countOf(group), 60) }, (_, at) => store.rowAt(group, at)?.id ?? -1)
}

beforeEach(() => {
  setActivePinia(createPinia())
  mock.transport = 'electron'
})

describe('the downloads store', () => {
  it('reads the figures, this month and the rows in view, and follows the events', async () => {
    const { store, queue } = await storeWith([row(1, 'completed'), row(2, 'queued'), row(3, 'queued', { bytesTotal: 300 })])
    expect(store.summary?.groups).toMatchObject({ completed: { files: 1, bytes: 100 }, queued: { files: 2, bytes: 400 } })
    expect(shown(store, 'queued')).toEqual([2, 3])
    expect(store.month).toBe('2031-01')
    expect(store.monthBytes).toBe(1234)
    expect(store.queue).toMatchObject({ folder: '/d', pausedBecause: null })
    queue.change(row(2, 'downloading'))
    mock.listener!.events([{ type: 'download-progress', progress: { id: 2, bytes: 40, total: 100, percent: 40, speed: 20, etaSeconds: 3, queueSpeed: 20 } }])
    await settled()
    expect(shown(store, 'downloading')).toEqual([2])
    expect(shown(store, 'queued')).toEqual([3])
    expect(store.progress.get(2)?.bytes).toBe(40)
    expect(store.totals).toEqual({ running: 1, queued: 1, paused: 0, speed: 20, bytesLeft: 100 - 40 + 300, secondsLeft: 360 / 20 })
    await store.run('remove', [1])
    expect(store.countOf('completed')).toBe(0)
    // Only what is shown was read: pages of WINDOW_ROWS, never the whole queue.
    expect(queue.callsOf('list')).toEqual([])
    for (const [query] of queue.callsOf('page')) expect((query as { limit: number }).limit).toBe(WINDOW_ROWS)
  })

  it('measures the whole batch since the queue was idle, completed files included, with total speed and time left', async () => {
    const { store, queue } = await storeWith([row(1, 'completed', { finishedAt: 500 }), row(2, 'queued'), row(3, 'queued', { bytesTotal: 300 })])
    // The file completed before the batch was queued is not in it.
    expect(store.overall).toMatchObject({ files: 2, filesDone: 0, bytesTotal: 400, bytesDone: 0, pending: 2 })
    queue.change(row(2, 'completed', { finishedAt: 3000 }), row(3, 'downloading', { bytesTotal: 300 }))
    await settled()
    mock.listener!.events([{ type: 'download-progress', progress: { id: 3, bytes: 100, total: 300, percent: 33, speed: 50, etaSeconds: 4, queueSpeed: 50 } }])
    // The completed file still counts: the bar does not drop back to what is left.
    expect(store.overall).toMatchObject({ files: 2, filesDone: 1, bytesTotal: 400, bytesDone: 200, pending: 1, speed: 50, secondsLeft: 4 })
    // Idle, then something new: a new batch.
    queue.change(row(3, 'completed', { bytesTotal: 300, bytesDone: 300, finishedAt: 4000 }))
    await settled()
    expect(store.overall.pending).toBe(0)
    queue.change(row(4, 'queued', { createdAt: 5000 }))
    await settled()
    expect(store.overall).toMatchObject({ files: 1, filesDone: 0, bytesTotal: 100 })
  })

  it("the total speed and time left are the queue's, as the core weighs them, not the rows' speeds added up; none once nothing runs", async () => {
    const { store, queue } = await storeWith([row(1, 'queued', { bytesTotal: 1000 }), row(2, 'queued', { bytesTotal: 1000 }), row(3, 'queued', { bytesTotal: 1000 })])
    queue.change(row(1, 'downloading', { bytesTotal: 1000 }), row(2, 'downloading', { bytesTotal: 1000 }))
    await settled()
    const progress = (id: number, bytes: number, speed: number, queueSpeed: number): SessionEvent => ({
      type: 'download-progress',
      progress: { id, bytes, total: 1000, percent: bytes / 10, speed, etaSeconds: (1000 - bytes) / speed, queueSpeed },
    })
    // One row just started (its own speed still young), the other well under way: the queue's speed is 40.
    mock.listener!.events([progress(1, 500, 30, 40), progress(2, 100, 90, 40)])
    expect(store.totals).toMatchObject({ running: 2, speed: 40, bytesLeft: 500 + 900 + 1000, secondsLeft: 2400 / 40 })
    expect(store.overall).toMatchObject({ speed: 40, secondsLeft: 2400 / 40 })
    // Paused: nothing runs, no speed, whatever was said last.
    queue.change(row(1, 'paused', { bytesTotal: 1000, bytesDone: 500 }), row(2, 'paused', { bytesTotal: 1000, bytesDone: 100 }))
    await settled()
    expect(store.totals).toMatchObject({ running: 0, speed: 0, secondsLeft: null })
  })

  it('applies an action at once, puts back what the core skipped, saying how many and why, and settles on what the core says', async () => {
    const { store, queue, notices } = await storeWith([row(1, 'queued'), row(2, 'downloading'), row(3, 'downloading')])
    const release = queue.hold('cancel')
    const running = store.run('cancel', [1, 2, 3])
    // At once: the rows in view in their new group, the counts, the buttons waiting.
    expect(shown(store, 'cancelled')).toEqual([1, 2, 3])
    expect([store.countOf('queued'), store.countOf('downloading'), store.countOf('cancelled')]).toEqual([0, 0, 3])
    expect([...store.busy]).toEqual([1, 2, 3])
    // The core's queue moves on meanwhile: 3 completes before the action reaches it.
    queue.rows[2] = row(3, 'completed')
    release()
    expect(await running).toBe(true)
    expect(queue.callsOf('cancel')).toEqual([[[1, 2, 3]]])
    expect(shown(store, 'cancelled')).toEqual([1, 2])
    expect(shown(store, 'completed')).toEqual([3])
    expect(store.busy.size).toBe(0)
    expect(notices.notices.map(({ kind, title, message }) => ({ kind, title, message }))).toEqual([
      { kind: 'info', title: 'Cancelled 2 of 3 downloads', message: '1 skipped: download 3 is completed: only a queued or downloading or paused or failed download can be cancelled.' },
    ])
  })

  it('keeps what an event told meanwhile rather than putting back its guess', async () => {
    const { store, queue } = await storeWith([row(1, 'downloading'), row(2, 'downloading')])
    const release = queue.hold('pause')
    const running = store.run('pause', [1, 2])
    // The file completes before the core takes the action, and says so.
    queue.change(row(2, 'completed'))
    release()
    await running
    expect(shown(store, 'paused')).toEqual([1])
    expect(shown(store, 'completed')).toEqual([2])
  })

  it("puts everything back when the core refuses, and says so in the core's words", async () => {
    const { store, queue, notices } = await storeWith([row(1, 'downloading', { title: '   ' }), row(2, 'queued')])
    queue.refuse('pause', { name: 'InvalidArgumentError', code: 'invalid_argument', message: 'download 1 is completed: only a queued or downloading download can be paused' })
    expect(await store.run('pause', [1])).toBe(false)
    expect(shown(store, 'downloading')).toEqual([1])
    expect(store.countOf('paused')).toBe(0)
    expect(notices.notices.map(({ title, message }) => ({ title, message }))).toEqual([
      { title: 'Could not pause "Untitled": Not accepted', message: 'download 1 is completed: only a queued or downloading download can be paused' },
    ])
    expect(JSON.stringify(notices.notices)).not.toContain('[object Object]')
  })

  it('offers only what a state allows: nothing to act on, no call', async () => {
    const { store, queue } = await storeWith([row(1, 'completed')])
    expect(await store.run('pause', [1])).toBe(false)
    expect(queue.callsOf('pause')).toEqual([])
  })

  it('pauses and resumes the whole queue at once', async () => {
    const { store, queue } = await storeWith([row(1, 'queued'), row(2, 'downloading'), row(3, 'completed')])
    const release = queue.hold('pauseAll')
    const pausing = store.runAll('pause')
    expect(shown(store, 'paused')).toEqual([1, 2])
    release()
    await pausing
    expect(queue.rows.map((each) => each.state)).toEqual(['paused', 'paused', 'completed'])
    await store.runAll('resume')
    expect(shown(store, 'queued')).toEqual([1, 2])
    expect(queue.rows.map((each) => each.state)).toEqual(['queued', 'queued', 'completed'])
    // The queue's own state comes with the session's events, never read again.
    expect(queue.api.state).not.toHaveBeenCalled()
  })

  it('marks a completed download whose file is found gone, which then offers "Download again"', async () => {
    const { store, queue, notices } = await storeWith([row(1, 'completed')])
    queue.refuse('open', { name: 'NotFoundError', code: 'not_found', message: 'the file of download 1 is no longer at /d/1.mp3' })
    expect(await store.run('open', [1])).toBe(false)
    expect(store.rowOf(1)?.fileMissing).toBe(true)
    expect(notices.notices[0]).toMatchObject({ title: 'Could not open "Song 1": Not found', message: 'the file of download 1 is no longer at /d/1.mp3' })
    expect(actionsOf(store.rowOf(1)!).map((button) => button.label)).toEqual(['Download again', 'Remove'])
    queue.rows[0] = { ...queue.rows[0]!, fileMissing: true }
    await store.run('redownload', [1])
    expect(store.rowOf(1)).toMatchObject({ state: 'queued', fileMissing: false, bytesDone: 0 })
  })

  it('opens no file in a browser', async () => {
    mock.transport = 'web'
    const { store, queue } = await storeWith([row(1, 'completed')])
    await vi.waitFor(() => expect(store.desktop).toBe(false))
    expect(await store.run('open', [1])).toBe(false)
    expect(queue.callsOf('open')).toEqual([])
  })

  it("follows the queue's state as the session's events tell it", async () => {
    const { store, events } = await storeWith([row(1, 'queued')])
    events({ type: 'queue-paused', message: 'the disk is full' })
    expect(store.queue?.pausedBecause).toBe('the disk is full')
  })
})

describe('on a queue of 10,000', () => {
  const many = (): DownloadView[] => [row(1, 'downloading'), ...Array.from({ length: 10_000 }, (_, index) => row(index + 2, 'queued'))]

  it('Select all and Pause: the selection is a few words, the rows in view and the counts change at once, the core is sent groups', async () => {
    const { store, queue } = await storeWith(many())
    // The screen read only the windows it showed.
    expect(queue.callsOf('page').length).toBeLessThan(10)
    const scope = effectScope()
    const selection = scope.run(() => useDownloadSelection())!
    const release = queue.hold('pause')
    const start = performance.now()
    selection.selectAll()
    expect(selection.count.value).toBe(10_001)
    expect(selection.counts.value.of('pause')).toBe(10_001)
    const pausing = store.run('pause', selection.pickFor('pause'))
    const elapsed = performance.now() - start
    expect([store.countOf('downloading'), store.countOf('queued'), store.countOf('paused')]).toEqual([0, 0, 10_001])
    expect(shown(store, 'paused').slice(0, 22)).toEqual(Array.from({ length: 22 }, (_, index) => index + 1))
    expect(store.rowAt('paused', 5)).toMatchObject({ id: 6, state: 'paused' })
    // Still selected: the selection is every group, wherever its rows go.
    expect(selection.count.value).toBe(10_001)
    expect(elapsed).toBeLessThan(100)
    expect(queue.callsOf('pause')).toEqual([[{ groups: ['downloading', 'queued', 'interrupted'], except: [], ids: [] }]])
    release()
    await pausing
    expect(queue.rows.every((each) => each.state === 'paused')).toBe(true)
    // Thousands changed: one event said so, and what is shown was read again, no more.
    expect(shown(store, 'paused').slice(0, 3)).toEqual([1, 2, 3])
    expect(queue.callsOf('ofUploads')).toEqual([])
    scope.stop()
  })

  it('an unchecked row is left out of "all", a row named outside the groups is added; Move to top moves the rest at once', async () => {
    const { store, queue } = await storeWith(many())
    const scope = effectScope()
    const selection = scope.run(() => useDownloadSelection())!
    selection.setGroup('queued', true)
    selection.toggle(store.rowAt('queued', 1)!, false)
    expect(selection.count.value).toBe(9_999)
    expect(selection.countIn('queued')).toBe(9_999)
    expect(selection.has(store.rowAt('queued', 1)!)).toBe(false)
    selection.toggle(store.rowAt('downloading', 0)!, true)
    expect(selection.count.value).toBe(10_000)
    const release = queue.hold('move')
    const moving = store.move(selection.pick.value, { to: 'bottom' })
    // The queued ones but row 3 to the bottom: row 3 comes first at once.
    expect(store.rowAt('queued', 0)?.id).toBe(3)
    expect(store.rowAt('queued', 1)?.id).toBe(2)
    expect(queue.callsOf('move')).toEqual([[{ groups: ['queued'], except: [3], ids: [] }, { to: 'bottom' }]])
    release()
    await moving
    await settled()
    expect(shown(store, 'queued').slice(0, 3)).toEqual([3, 2, 4])
    scope.stop()
  })

  it('keeps a bounded number of windows while the list scrolls down the queue', async () => {
    const { store, queue } = await storeWith(many())
    for (let at = 0; at < 10_000; at += 500) {
      store.ensureRange('queued', at, at + 20)
      await settled()
    }
    expect(store.rowAt('queued', 9_500)?.id).toBe(9_502)
    // The first windows were let go as the list went on.
    expect(store.rowAt('queued', 0)).toBeUndefined()
    expect(queue.callsOf('page').length).toBeLessThan(60)
  })
})

describe('the downloads of the uploads a screen shows', () => {
  it('are read when a screen shows them, kept by the events, read again when one is removed, and let go', async () => {
    const { store, queue } = await storeWith([row(1, 'completed', { uploadId: 'a' }), row(2, 'queued', { uploadId: 'b' }), row(3, 'failed', { uploadId: 'a' })], { shown: false })
    store.track('artist', ['a', 'b', 'c'])
    await settled()
    expect([...store.byUpload].map(([upload, download]) => [upload, download.id])).toEqual([
      ['a', 3],
      ['b', 2],
    ])
    expect(store.downloadOfUpload('c')).toBeNull()
    expect(store.downloadOfUpload('z')).toBeUndefined()
    queue.change(row(2, 'downloading', { uploadId: 'b' }))
    expect(store.byUpload.get('b')?.state).toBe('downloading')
    // The newest row of "a" removed: its older one is read.
    await store.run('remove', [3])
    await settled()
    expect(store.byUpload.get('a')?.id).toBe(1)
    store.untrack('artist')
    expect(store.byUpload.size).toBe(0)
    // Nothing of the downloads screen was read: no screen showed it.
    expect(queue.callsOf('page')).toEqual([])
  })
})

describe('an enqueue of a tracked upload', () => {
  it("keeps what an event told before the enqueue's answer came (the answer's row is older)", async () => {
    const { store, queue } = await storeWith([], { shown: false })
    store.track('artist', ['x'])
    await settled()
    const enqueue = queue.api.enqueue
    // The core starts the download before its answer to the enqueue reaches the window: the event comes first.
    queue.api.enqueue = async (request) => {
      const answer = await enqueue(request)
      queue.change(row(answer.downloads[0]!.id, 'downloading', { uploadId: 'x' }))
      return answer
    }
    await store.enqueue({ uploadIds: ['x'] })
    expect(store.byUpload.get('x')?.state).toBe('downloading')
  })
})

describe('the batch and the words', () => {
  it('says how many of a list were skipped, by state, with the first reason', () => {
    expect(skippedNote('pause', { changed: [1], skipped: [] })).toBeNull()
    expect(
      skippedNote('cancel', {
        changed: [1],
        skipped: [
          { id: 2, state: 'completed', reason: 'download 2 is completed: only …' },
          { id: 3, state: 'completed', reason: 'download 3 is completed: only …' },
          { id: 4, state: null, reason: 'no download 4: it was removed' },
        ],
      }),
    ).toEqual({ title: 'Cancelled 1 of 4 downloads', text: '3 skipped (2 completed, 1 removed): download 2 is completed: only …, and so on.' })
  })

  it('titles an artist by name (else username) and a track by title (else "Untitled")', () => {
    expect(artistTitle({ name: ' Some One ', username: 'someone' })).toBe('Some One')
    expect(artistTitle({ name: '', username: 'someone' })).toBe('someone')
    expect(trackTitle(' \t')).toBe('Untitled')
    expect(trackTitle('Song')).toBe('Song')
  })

  it("derives the buttons from the core's table: an interrupted download pauses, a paused one resumes, open needs the desktop", () => {
    expect(allows(row(1, 'downloading', { interrupted: true }), 'pause')).toBe(true)
    expect(actionsOf(row(1, 'paused')).map((button) => button.label)).toEqual(['Resume', 'Cancel', 'Remove'])
    expect(actionsOf(row(1, 'completed')).map((button) => button.label)).toEqual(['Open', 'Show in folder', 'Remove'])
    expect(unavailableHere('open', false)).toMatch(/desktop app/)
    expect(unavailableHere('open', true)).toBeNull()
    expect(unavailableHere('cancel', false)).toBeNull()
  })
})

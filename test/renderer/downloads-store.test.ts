// The downloads store, the window's one owner of the queue, behind a mocked api: rows kept by the
// session's events, actions applied at once and put back when the core refuses (unless an event told
// the row's real state meanwhile), skipped downloads told in the core's words, the batch the overall
// progress measures, this month's bytes and the queue's state; and the pure parts it is made of.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Download, DownloadView, SessionEvent, SessionSnapshot } from '../../src-main/core/shared/types'

const mock = vi.hoisted(() => ({
  listener: undefined as { snapshot(snapshot: unknown): void; events(events: unknown[]): void } | undefined,
  transport: 'electron' as 'electron' | 'web',
  downloads: {} as Record<string, ReturnType<typeof vi.fn>>,
}))

vi.mock('../../src-renderer/api', () => ({
  api: {
    subscribe: (listener: typeof mock.listener) => {
      mock.listener = listener
      return { dispose: () => undefined }
    },
    app: { info: async () => ({ version: '0.0.0', transport: mock.transport }) },
    downloads: new Proxy({}, { get: (_target, verb: string) => mock.downloads[verb] }),
  },
}))

const { useDownloadsStore } = await import('../../src-renderer/stores/downloads')
const { useNoticesStore } = await import('../../src-renderer/stores/notices')
const { useSessionStore } = await import('../../src-renderer/stores/session')
const { batchFigures, nextBatch, startingBatch } = await import('../../src-renderer/stores/download-batch')
const { skippedNote } = await import('../../src-renderer/format/download-messages')
const { artistTitle, trackTitle } = await import('../../src-renderer/format/titles')
const { actionsOf, allows, unavailableHere } = await import('../../src-renderer/format/download-actions')

function row(id: number, state: Download['state'], extra: Partial<DownloadView> = {}): DownloadView {
  return {
    id, uploadId: `u${id}`, artistUsername: 'someone', artistName: 'Some One', title: `Song ${id}`, url: `http://x/${id}.mp3`,
    targetPath: `/d/${id}.mp3`, state, pauseReason: state === 'paused' ? 'user' : null, waitingFor: null, bytesDone: state === 'completed' ? 100 : 0,
    bytesTotal: 100, validator: null, sha256: null, error: null, createdAt: 1000, startedAt: null, finishedAt: state === 'completed' ? 2000 : null, queueOrder: id,
    interrupted: false, fileMissing: false, ...extra,
  }
}

const queueState = { started: true, interrupted: 0, running: 0, concurrency: 3, pausedBecause: null, runElsewhere: null, folder: '/d' }

/** A store over these rows, its session started (so events reach it). */
async function storeWith(rows: DownloadView[]) {
  mock.downloads.list = vi.fn(async () => rows)
  mock.downloads.monthlyBytes = vi.fn(async () => ({ month: '2031-01', bytes: 1234, months: [] }))
  mock.downloads.state = vi.fn(async () => queueState)
  const session = useSessionStore()
  const started = session.start()
  mock.listener!.snapshot({ service: { baseUrl: 'http://x', demo: true, readOnly: false }, settings: null, sync: null, downloads: queueState, online: true, notices: [] } as unknown as SessionSnapshot)
  await started
  const store = useDownloadsStore()
  await store.load()
  return { store, notices: useNoticesStore(), events: (...events: SessionEvent[]) => mock.listener!.events(events) }
}

const changed = (...downloads: DownloadView[]): SessionEvent => ({ type: 'downloads-changed', downloads, removed: [] })

beforeEach(() => {
  setActivePinia(createPinia())
  mock.transport = 'electron'
  mock.downloads = {}
})

describe('the downloads store', () => {
  it('reads the rows, this month and the queue, and keeps the rows by the events', async () => {
    const { store, events } = await storeWith([row(1, 'completed'), row(2, 'queued')])
    expect(store.list.map((download) => download.id)).toEqual([1, 2])
    expect(store.month).toBe('2031-01')
    expect(store.monthBytes).toBe(1234)
    expect(store.queue).toMatchObject({ folder: '/d', pausedBecause: null })
    events(changed(row(2, 'downloading')), { type: 'download-progress', progress: { id: 2, bytes: 40, total: 100, percent: 40, speed: 20, etaSeconds: 3 } })
    expect(store.byId.get(2)?.state).toBe('downloading')
    expect(store.progress.get(2)?.bytes).toBe(40)
    events({ type: 'downloads-changed', downloads: [], removed: [1] })
    expect(store.list.map((download) => download.id)).toEqual([2])
  })

  it('measures the whole batch since the queue was idle, completed files included, with total speed and time left', async () => {
    const { store, events } = await storeWith([row(1, 'completed', { finishedAt: 500 }), row(2, 'queued'), row(3, 'queued', { bytesTotal: 300 })])
    // The file completed before the batch was queued is not in it.
    expect(store.overall).toMatchObject({ files: 2, filesDone: 0, bytesTotal: 400, bytesDone: 0, pending: 2 })
    events(changed(row(2, 'completed', { finishedAt: 3000 })), changed(row(3, 'downloading', { bytesTotal: 300 })))
    events({ type: 'download-progress', progress: { id: 3, bytes: 100, total: 300, percent: 33, speed: 50, etaSeconds: 4 } })
    // The completed file still counts: the bar does not drop back to what is left.
    expect(store.overall).toMatchObject({ files: 2, filesDone: 1, bytesTotal: 400, bytesDone: 200, pending: 1, speed: 50, secondsLeft: 4 })
    // Idle, then something new: a new batch.
    events(changed(row(3, 'completed', { bytesTotal: 300, bytesDone: 300, finishedAt: 4000 })))
    expect(store.overall.pending).toBe(0)
    events(changed(row(4, 'queued', { createdAt: 5000 })))
    expect(store.overall).toMatchObject({ files: 1, filesDone: 0, bytesTotal: 100 })
  })

  it('applies an action at once, and puts back what the core skipped, saying how many and why', async () => {
    const { store, notices } = await storeWith([row(1, 'queued'), row(2, 'downloading'), row(3, 'downloading')])
    let answer!: (value: unknown) => void
    mock.downloads.cancel = vi.fn(() => new Promise((resolve) => (answer = resolve)))
    const running = store.run('cancel', [1, 2, 3])
    expect(store.list.map((download) => download.state)).toEqual(['cancelled', 'cancelled', 'cancelled'])
    expect([...store.busy]).toEqual([1, 2, 3])
    expect(mock.downloads.cancel).toHaveBeenCalledWith([1, 2, 3])
    answer({ changed: [1, 2], skipped: [{ id: 3, state: 'completed', reason: 'download 3 is completed: only a queued or downloading or paused or failed download can be cancelled' }] })
    expect(await running).toBe(true)
    expect(store.byId.get(3)?.state).toBe('downloading')
    expect(store.busy.size).toBe(0)
    expect(notices.notices.map(({ kind, title, message }) => ({ kind, title, message }))).toEqual([
      { kind: 'info', title: 'Cancelled 2 of 3 downloads', message: '1 skipped: download 3 is completed: only a queued or downloading or paused or failed download can be cancelled.' },
    ])
  })

  it('keeps what an event told meanwhile rather than putting back its guess', async () => {
    const { store, events } = await storeWith([row(1, 'downloading'), row(2, 'downloading')])
    let answer!: (value: unknown) => void
    mock.downloads.pause = vi.fn(() => new Promise((resolve) => (answer = resolve)))
    const running = store.run('pause', [1, 2])
    // The file completes before the core takes the action.
    events(changed(row(2, 'completed')))
    answer({ changed: [1], skipped: [{ id: 2, state: 'completed', reason: 'download 2 is completed: only a queued or downloading download can be paused' }] })
    await running
    expect(store.list.map((download) => download.state)).toEqual(['paused', 'completed'])
  })

  it("puts everything back when the core refuses, and says so in the core's words", async () => {
    const { store, notices } = await storeWith([row(1, 'downloading', { title: '   ' })])
    mock.downloads.pause = vi.fn(async () => {
      throw Object.assign(new Error('download 1 is completed: only a queued or downloading download can be paused'), { code: 'invalid_argument' })
    })
    expect(await store.run('pause', [1])).toBe(false)
    expect(store.byId.get(1)?.state).toBe('downloading')
    expect(notices.notices.map(({ title, message }) => ({ title, message }))).toEqual([
      { title: 'Could not pause "Untitled": Not accepted', message: 'download 1 is completed: only a queued or downloading download can be paused' },
    ])
    expect(JSON.stringify(notices.notices)).not.toContain('[object Object]')
  })

  it('offers only what a state allows: nothing to act on, no call', async () => {
    const { store } = await storeWith([row(1, 'completed')])
    mock.downloads.pause = vi.fn()
    expect(await store.run('pause', [1])).toBe(false)
    expect(mock.downloads.pause).not.toHaveBeenCalled()
  })

  it('pauses and resumes the whole queue', async () => {
    const { store } = await storeWith([row(1, 'queued'), row(2, 'downloading'), row(3, 'completed')])
    mock.downloads.pauseAll = vi.fn(async () => ({ changed: [1, 2], skipped: [] }))
    mock.downloads.resumeAll = vi.fn(async () => ({ changed: [1, 2], skipped: [] }))
    await store.runAll('pause')
    expect(store.list.map((download) => download.state)).toEqual(['paused', 'paused', 'completed'])
    await store.runAll('resume')
    expect(store.list.map((download) => download.state)).toEqual(['queued', 'queued', 'completed'])
    expect(mock.downloads.state).toHaveBeenCalled()
  })

  it('marks a completed download whose file is found gone, which then offers "Download again"', async () => {
    const { store, notices } = await storeWith([row(1, 'completed')])
    mock.downloads.open = vi.fn(async () => {
      throw Object.assign(new Error('the file of download 1 is no longer at /d/1.mp3'), { code: 'not_found' })
    })
    expect(await store.run('open', [1])).toBe(false)
    expect(store.byId.get(1)?.fileMissing).toBe(true)
    expect(notices.notices[0]).toMatchObject({ title: 'Could not open "Song 1": Not found', message: 'the file of download 1 is no longer at /d/1.mp3' })
    expect(actionsOf(store.byId.get(1)!).map((button) => button.label)).toEqual(['Download again', 'Remove'])
    mock.downloads.redownload = vi.fn(async () => ({ changed: [1], skipped: [] }))
    await store.run('redownload', [1])
    expect(store.byId.get(1)).toMatchObject({ state: 'queued', fileMissing: false, bytesDone: 0 })
  })

  it('opens no file in a browser', async () => {
    mock.transport = 'web'
    const { store } = await storeWith([row(1, 'completed')])
    mock.downloads.open = vi.fn()
    await vi.waitFor(() => expect(store.desktop).toBe(false))
    expect(await store.run('open', [1])).toBe(false)
    expect(mock.downloads.open).not.toHaveBeenCalled()
  })

  it("reads the queue's state again when it pauses for a full disk", async () => {
    const { store, events } = await storeWith([row(1, 'queued')])
    mock.downloads.state = vi.fn(async () => ({ ...queueState, pausedBecause: 'the disk is full' }))
    events({ type: 'queue-paused', message: 'the disk is full' })
    await vi.waitFor(() => expect(store.queue?.pausedBecause).toBe('the disk is full'))
  })
})

describe('the batch', () => {
  it('starts from the rows read: what is pending, and what completed since the earliest of those was queued', () => {
    expect([...startingBatch([row(1, 'completed', { finishedAt: 900 }), row(2, 'completed', { finishedAt: 1500 }), row(3, 'paused'), row(4, 'failed')])]).toEqual([2, 3])
    expect(startingBatch([row(1, 'completed')]).size).toBe(0)
  })

  it('lets failed and cancelled downloads go, and starts anew when nothing was pending', () => {
    expect([...nextBatch(new Set([1, 2]), false, [row(2, 'failed'), row(3, 'queued')])]).toEqual([1, 3])
    expect([...nextBatch(new Set([1, 2]), true, [row(3, 'queued')])]).toEqual([3])
    expect([...nextBatch(new Set([1, 2]), false, [], [1])]).toEqual([2])
  })

  it('adds up bytes with live progress, and has no time left while nothing moves', () => {
    const rows = new Map([row(1, 'completed'), row(2, 'paused', { bytesDone: 30 })].map((download) => [download.id, download]))
    expect(batchFigures(new Set([1, 2]), rows, new Map())).toEqual({ files: 2, filesDone: 1, bytesTotal: 200, bytesDone: 130, pending: 1, speed: 0, secondsLeft: null })
  })
})

describe('the words', () => {
  it('titles an artist by name (else username) and a track by title (else "Untitled")', () => {
    expect(artistTitle({ name: ' Some One ', username: 'someone' })).toBe('Some One')
    expect(artistTitle({ name: '', username: 'someone' })).toBe('someone')
    expect(trackTitle(' \t')).toBe('Untitled')
    expect(trackTitle('Song')).toBe('Song')
  })

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

  it("derives the buttons from the core's table: an interrupted download pauses, a paused one resumes, open needs the desktop", () => {
    expect(allows(row(1, 'downloading', { interrupted: true }), 'pause')).toBe(true)
    expect(actionsOf(row(1, 'paused')).map((button) => button.label)).toEqual(['Resume', 'Cancel', 'Remove'])
    expect(actionsOf(row(1, 'completed')).map((button) => button.label)).toEqual(['Open', 'Show in folder', 'Remove'])
    expect(unavailableHere('open', false)).toMatch(/desktop app/)
    expect(unavailableHere('open', true)).toBeNull()
    expect(unavailableHere('cancel', false)).toBeNull()
  })
})

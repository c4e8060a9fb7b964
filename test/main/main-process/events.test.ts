/**
 * The session's events as a window receives them: batches at most once per
 * interval, the latest progress only, never a progress after the change that
 * ended it, nothing after dispose. The timing rules run on fake timers over
 * the session's own event type; one test streams a real session's sync.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Emitter } from '../../../src-main/core/base/events'
import { AppSession, type SessionEvent } from '../../../src-main/core/session/session'
import type { Download, SyncState } from '../../../src-main/core/shared/types'
import { streamEvents } from '../../../src-main/main-process/event-stream'
import { startCatalogueService } from '../../../src-main/demo/index'
import { QUICK_RETRIES, test } from '../support/fixtures'

const INTERVAL = 200

/** A source of session events: streamEvents reads nothing but onDidEmit. */
function source(): { session: AppSession; fire: (event: SessionEvent) => void } {
  const emitter = new Emitter<SessionEvent>()
  return { session: { onDidEmit: emitter.event } as unknown as AppSession, fire: (event) => emitter.fire(event) }
}

/** Every batch sent, with the (fake) time it was sent at. */
function receiver(): { batches: { at: number; events: SessionEvent[] }[]; send: (events: SessionEvent[]) => void } {
  const batches: { at: number; events: SessionEvent[] }[] = []
  return { batches, send: (events) => batches.push({ at: performance.now(), events }) }
}

const progress = (id: number, bytes: number): SessionEvent => ({
  type: 'download-progress',
  progress: { id, bytes, total: 1000, percent: bytes / 10, speed: 100, etaSeconds: 1, queueSpeed: 100 },
})
const syncProgress = (done: number): SessionEvent => ({ type: 'sync-progress', progress: { phase: 'details', done, total: 100 } })
const idle: SyncState = { status: 'idle', progress: null, waitingFor: null, lastRun: null, lastFullSyncAt: null, lastCheckAt: null, hasArtists: false, lastError: null }
const download = (id: number, state: Download['state']): Download => ({
  id,
  uploadId: String(id),
  artistUsername: 'someone',
  artistName: 'Someone',
  title: 'A title',
  url: `http://127.0.0.1:1/hotlink/${id}.mp3`,
  targetPath: `/downloads/someone/${id}.mp3`,
  state,
  pauseReason: null,
  waitingFor: null,
  bytesDone: 1000,
  bytesTotal: 1000,
  validator: null,
  sha256: null,
  error: null,
  createdAt: 0,
  startedAt: 0,
  finishedAt: 0,
  queueOrder: id,
})
const changed = (downloads: Download[], removed: number[] = []): SessionEvent => ({ type: 'downloads-changed', downloads, removed })

/** The position of each event of a batch, by a key: what came before what. */
const keys = (events: SessionEvent[]): string[] =>
  events.map((event) => {
    switch (event.type) {
      case 'download-progress':
        return `progress ${event.progress.id}:${event.progress.bytes}`
      case 'sync-progress':
        return `sync ${event.progress.done}`
      case 'sync-state':
        return `sync-state ${event.state.status}`
      case 'downloads-changed':
        return `changed ${event.downloads.map((d) => `${d.id}:${d.state}`).join(',')}${event.removed.length ? ` removed ${event.removed.join(',')}` : ''}`
      default:
        return event.type
    }
  })

describe('streamEvents', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('sends the first event at once and then at most one batch per interval', async () => {
    const { session, fire } = source()
    const { batches, send } = receiver()
    streamEvents(session, send, INTERVAL)
    fire({ type: 'online', online: false })
    expect(batches).toEqual([])
    await vi.advanceTimersByTimeAsync(0)
    expect(batches).toEqual([{ at: 0, events: [{ type: 'online', online: false }] }])

    // An event every 10 ms for two seconds.
    for (let t = 1; t <= 200; t++) {
      fire({ type: 'notice', message: `notice ${t}` })
      await vi.advanceTimersByTimeAsync(10)
    }
    await vi.advanceTimersByTimeAsync(INTERVAL)
    const times = batches.map((batch) => batch.at)
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(INTERVAL)
    expect(batches.length).toBeLessThanOrEqual(2000 / INTERVAL + 2)
    // Nothing lost, nothing twice, in order.
    const notices = batches.flatMap((batch) => batch.events).filter((event) => event.type === 'notice')
    expect(notices.map((event) => (event as { message: string }).message)).toEqual(Array.from({ length: 200 }, (_, i) => `notice ${i + 1}`))
    // Quiet again: the next event goes out at once.
    const sent = batches.length
    await vi.advanceTimersByTimeAsync(5 * INTERVAL)
    fire({ type: 'online', online: true })
    await vi.advanceTimersByTimeAsync(0)
    expect(batches).toHaveLength(sent + 1)
  })

  it('keeps only the latest progress of each download and of the sync', async () => {
    const { session, fire } = source()
    const { batches, send } = receiver()
    streamEvents(session, send, INTERVAL)
    fire({ type: 'online', online: true })
    await vi.advanceTimersByTimeAsync(0)
    for (let bytes = 1; bytes <= 50; bytes++) {
      fire(progress(1, bytes))
      fire(progress(2, bytes * 2))
      fire(syncProgress(bytes))
    }
    await vi.advanceTimersByTimeAsync(INTERVAL)
    expect(batches).toHaveLength(2)
    expect(keys(batches[1]!.events).sort()).toEqual(['progress 1:50', 'progress 2:100', 'sync 50'])
  })

  it('never sends a progress after the state change that ended it', async () => {
    const { session, fire } = source()
    const { batches, send } = receiver()
    streamEvents(session, send, INTERVAL)
    fire({ type: 'online', online: true })
    await vi.advanceTimersByTimeAsync(0)

    fire(syncProgress(99))
    fire({ type: 'sync-state', state: idle })
    fire(progress(1, 900))
    fire(progress(2, 400))
    fire(progress(3, 100))
    fire(changed([download(1, 'completed')]))
    fire(changed([], [3]))
    await vi.advanceTimersByTimeAsync(INTERVAL)
    expect(batches).toHaveLength(2)
    const order = keys(batches[1]!.events)
    expect(order.indexOf('sync 99')).toBeLessThan(order.indexOf('sync-state idle'))
    expect(order.indexOf('progress 1:900')).toBeLessThan(order.indexOf('changed 1:completed'))
    // A removed download's progress goes before its removal, or not at all.
    const removal = order.indexOf('changed  removed 3')
    expect(removal).toBeGreaterThanOrEqual(0)
    expect(order.slice(removal).some((key) => key.startsWith('progress 3:'))).toBe(false)
    // A download whose state did not change keeps its progress.
    expect(order).toContain('progress 2:400')
    // And nothing is sent later.
    await vi.advanceTimersByTimeAsync(5 * INTERVAL)
    expect(batches).toHaveLength(2)
  })

  it('sends the old service’s progress before the service changes', async () => {
    const { session, fire } = source()
    const { batches, send } = receiver()
    streamEvents(session, send, INTERVAL)
    fire({ type: 'online', online: true })
    await vi.advanceTimersByTimeAsync(0)
    // Download 1 of the old service, then the switch: download 1 of the new service is another download.
    fire(progress(1, 500))
    fire(syncProgress(10))
    fire({ type: 'service', service: { baseUrl: 'http://127.0.0.1:2', demo: false, readOnly: false } })
    await vi.advanceTimersByTimeAsync(INTERVAL)
    const order = keys(batches[1]!.events)
    expect(order.at(-1)).toBe('service')
    expect(order.slice(0, -1).sort()).toEqual(['progress 1:500', 'sync 10'])
  })

  it('stops after dispose: nothing pending is sent, nothing new either', async () => {
    const { session, fire } = source()
    const { batches, send } = receiver()
    const stream = streamEvents(session, send, INTERVAL)
    fire({ type: 'online', online: true })
    await vi.advanceTimersByTimeAsync(0)
    fire(progress(1, 10))
    fire({ type: 'notice', message: 'pending' })
    stream.dispose()
    fire({ type: 'notice', message: 'after' })
    await vi.advanceTimersByTimeAsync(5 * INTERVAL)
    expect(batches).toHaveLength(1)
    expect(vi.getTimerCount()).toBe(0)
    stream.dispose()
  })
})

describe('streamEvents over a real session', () => {
  test('a sync arrives in spaced batches, ending with its idle state and no progress after it', async ({ tempDir }) => {
    const session = await AppSession.open({
      dataDir: tempDir(),
      startDemo: () => startCatalogueService({ artists: 60, seed: 4, maxFileMb: 1 }),
      library: { client: QUICK_RETRIES, syncProgressIntervalMs: 0 },
    })
    try {
      const fired: SessionEvent[] = []
      session.onDidEmit((event) => fired.push(event))
      const batches: { at: number; events: SessionEvent[] }[] = []
      let stream: { dispose(): void } | undefined
      await new Promise<void>((resolve) => {
        stream = streamEvents(
          session,
          (events) => {
            batches.push({ at: performance.now(), events })
            if (events.some((event) => event.type === 'sync-state' && event.state.status === 'idle')) resolve()
          },
          50,
        )
      })
      stream!.dispose()
      const streamed = batches.flatMap((batch) => batch.events)
      // Node's timers keep whole milliseconds from the loop's clock: one may fire a little before the interval by performance.now().
      for (let i = 1; i < batches.length; i++) expect(batches[i]!.at - batches[i - 1]!.at).toBeGreaterThanOrEqual(50 - 3)
      // Within a batch, two sync progresses are never next to each other: only the latest of a run is kept.
      for (const { events } of batches) {
        events.forEach((event, i) => {
          if (i > 0 && event.type === 'sync-progress') expect(events[i - 1]!.type).not.toBe('sync-progress')
        })
      }
      const count = (events: SessionEvent[], type: SessionEvent['type']): number => events.filter((event) => event.type === type).length
      expect(count(streamed, 'sync-progress')).toBeGreaterThan(0)
      expect(count(streamed, 'sync-progress')).toBeLessThanOrEqual(count(fired, 'sync-progress'))
      // Every other event passes, in order.
      const others = (events: SessionEvent[]): SessionEvent[] => events.filter((event) => event.type !== 'sync-progress' && event.type !== 'download-progress')
      expect(others(streamed)).toEqual(others(fired).slice(0, others(streamed).length))
      const end = streamed.findIndex((event) => event.type === 'sync-state' && event.state.status === 'idle')
      expect(streamed.slice(end + 1).some((event) => event.type === 'sync-progress')).toBe(false)
      expect(streamed.some((event) => event.type === 'catalogue-changed')).toBe(true)
    } finally {
      await session.close()
    }
  })
})

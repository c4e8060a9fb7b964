// A download queue behind a mocked `api.downloads`, for the stores' tests: the rows in memory, each
// channel answered as the core answers it (pages of a group in its order: queue order, completed
// newest first; the figures and the batch, the downloads of uploads, actions on ids or on a selection of groups, one change event per
// action: the rows, or "many"). Typed against the window's Api, so a change of the contract breaks
// the tests that use it at compile time. A test can hold a call's answer, or have a call refused.
import { vi } from 'vitest'
import type { Api } from '../../../src-renderer/api'
import { allowsAction, DOWNLOAD_ACTIONS, refusalOf, type QueueAction } from '../../../src-main/core/shared/download-actions'
import { compareInGroup, DOWNLOAD_GROUPS, groupOfDownload, type DownloadGroup } from '../../../src-main/core/shared/download-groups'
import type { DownloadActionResult, DownloadSelection, DownloadSummary, DownloadView, GroupTotals, SessionEvent } from '../../../src-main/core/shared/types'
import { MANY_CHANGED } from '../../../src-main/core/shared/types-downloads'

type Downloads = Api['downloads']

/** A download row, queued unless said, its size 100 and its place its id. */
export function row(id: number, state: DownloadView['state'], extra: Partial<DownloadView> = {}): DownloadView {
  return {
    id, uploadId: `u${id}`, artistUsername: 'someone', artistName: 'Some One', title: `Song ${id}`, url: `http://x/${id}.mp3`,
    targetPath: `/d/${id}.mp3`, state, pauseReason: state === 'paused' ? 'user' : null, waitingFor: null, bytesDone: state === 'completed' ? 100 : 0,
    bytesTotal: 100, validator: null, sha256: null, error: null, createdAt: 1000, startedAt: null, finishedAt: state === 'completed' ? 2000 : null, queueOrder: id,
    interrupted: false, fileMissing: false, ...extra,
  }
}

const PENDING: readonly DownloadView['state'][] = ['queued', 'downloading', 'paused']
const byOrder = (a: DownloadView, b: DownloadView): number => a.queueOrder - b.queueOrder || a.id - b.id

export class FakeQueue {
  rows: DownloadView[]
  /** The batch the overall progress measures, as the core keeps it. */
  batch = new Set<number>()
  /** Every call, by verb, with its arguments. */
  readonly calls: { verb: string; args: unknown[] }[] = []
  /** The session's events, as the window's listener gets them. */
  emit: (event: SessionEvent) => void = () => undefined
  private readonly holds = new Map<string, Promise<void>>()
  private readonly refusals = new Map<string, unknown>()
  month = { month: '2031-01', bytes: 1234 }

  constructor(rows: DownloadView[]) {
    this.rows = rows.map((each) => ({ ...each }))
    for (const each of this.rows) if (PENDING.includes(each.state)) this.batch.add(each.id)
    const since = Math.min(...this.rows.filter((each) => PENDING.includes(each.state)).map((each) => each.createdAt))
    for (const each of this.rows) if (each.state === 'completed' && (each.finishedAt ?? 0) >= since) this.batch.add(each.id)
  }

  /** The next calls of verb wait until the returned function is called. */
  hold(verb: string): () => void {
    let release!: () => void
    this.holds.set(verb, new Promise((resolve) => (release = resolve)))
    return () => {
      this.holds.delete(verb)
      release()
    }
  }

  /** The next call of verb fails with error (as the core's error crosses: name, code, message). */
  refuse(verb: string, error: unknown): void {
    this.refusals.set(verb, error)
  }

  /** The calls of a verb, their arguments. */
  callsOf(verb: string): unknown[][] {
    return this.calls.filter((call) => call.verb === verb).map((call) => call.args)
  }

  /** A row as the core has it now. */
  get(id: number): DownloadView | undefined {
    return this.rows.find((each) => each.id === id)
  }

  /** Changes rows as the core does behind the window's back (a download completes), and says so. */
  change(...changed: DownloadView[]): void {
    const wasIdle = !this.rows.some((each) => PENDING.includes(each.state))
    for (const next of changed) {
      const at = this.rows.findIndex((each) => each.id === next.id)
      if (at >= 0) this.rows[at] = { ...next }
      else this.rows.push({ ...next })
    }
    this.rebatch(changed, wasIdle)
    this.emit({ type: 'downloads-changed', downloads: changed.map(({ interrupted: _i, fileMissing: _f, ...download }) => download), removed: [] })
  }

  private rebatch(changed: readonly DownloadView[], wasIdle: boolean): void {
    if (wasIdle && changed.some((each) => PENDING.includes(each.state))) this.batch.clear()
    for (const each of changed) {
      if (PENDING.includes(each.state)) this.batch.add(each.id)
      else if (each.state !== 'completed') this.batch.delete(each.id)
    }
  }

  private inGroup(group: DownloadGroup): DownloadView[] {
    return this.rows.filter((each) => groupOfDownload(each) === group).sort(compareInGroup)
  }

  private resolve(selection: DownloadSelection): number[] {
    if (Array.isArray(selection)) return [...new Set(selection)]
    const except = new Set(selection.except ?? [])
    const ids = DOWNLOAD_GROUPS.filter((group) => selection.groups.includes(group)).flatMap((group) => this.inGroup(group).map((each) => each.id)).filter((id) => !except.has(id))
    for (const id of selection.ids ?? []) if (!ids.includes(id)) ids.push(id)
    return ids
  }

  private async gate(verb: string, args: unknown[]): Promise<void> {
    this.calls.push({ verb, args })
    await this.holds.get(verb)
    if (this.refusals.has(verb)) {
      const error = this.refusals.get(verb)
      this.refusals.delete(verb)
      throw error
    }
  }

  /** Applies a queue action to the rows it names that allow it, and says so in one event (the rows, or how many). */
  private act(action: QueueAction, ids: number[]): DownloadActionResult {
    const changed: DownloadView[] = []
    const skipped: DownloadActionResult['skipped'] = []
    const removed: number[] = []
    const wasIdle = !this.rows.some((each) => PENDING.includes(each.state))
    for (const id of ids) {
      const current = this.get(id)
      if (!current) {
        skipped.push({ id, state: null, reason: `no download ${id}: it was removed` })
        continue
      }
      if (!allowsAction(action, current.state) || (action === 'redownload' && !current.fileMissing)) {
        skipped.push({ id, state: current.state, reason: refusalOf(action, id, current.state) })
        continue
      }
      if (action === 'remove') {
        this.rows = this.rows.filter((each) => each.id !== id)
        this.batch.delete(id)
        removed.push(id)
        continue
      }
      const to = DOWNLOAD_ACTIONS[action].to!
      const next: DownloadView = {
        ...current,
        state: to,
        pauseReason: to === 'paused' ? 'user' : null,
        interrupted: false,
        fileMissing: false,
        bytesDone: action === 'cancel' || action === 'redownload' ? 0 : current.bytesDone,
      }
      this.rows[this.rows.indexOf(current)] = next
      changed.push(next)
    }
    this.rebatch(changed, wasIdle)
    const count = changed.length + removed.length
    if (count > MANY_CHANGED) this.emit({ type: 'downloads-changed', downloads: [], removed: [], many: count })
    else if (count > 0) this.emit({ type: 'downloads-changed', downloads: changed.map(({ interrupted: _i, fileMissing: _f, ...download }) => download), removed })
    return { changed: [...changed.map((each) => each.id), ...removed], skipped }
  }

  private summary(): DownloadSummary {
    const groups = Object.fromEntries(
      DOWNLOAD_GROUPS.map((group): [DownloadGroup, GroupTotals] => {
        const rows = this.inGroup(group)
        return [group, { files: rows.length, bytes: rows.reduce((sum, each) => sum + each.bytesTotal, 0), bytesDone: rows.reduce((sum, each) => sum + each.bytesDone, 0) }]
      }),
    ) as Record<DownloadGroup, GroupTotals>
    const inBatch = this.rows.filter((each) => this.batch.has(each.id))
    const done = inBatch.filter((each) => each.state === 'completed')
    return {
      groups,
      batch: {
        files: inBatch.length,
        filesDone: done.length,
        bytes: inBatch.reduce((sum, each) => sum + each.bytesTotal, 0),
        bytesDone: inBatch.reduce((sum, each) => sum + (each.state === 'completed' ? each.bytesTotal : each.bytesDone), 0),
        pending: inBatch.length - done.length,
      },
    }
  }

  /** The window's `api.downloads`, answered from the rows. */
  readonly api: Downloads = {
    enqueue: async (request) => {
      await this.gate('enqueue', [request])
      const queued = (request.uploadIds ?? []).map((uploadId, index) => {
        const id = Math.max(0, ...this.rows.map((each) => each.id)) + 1 + index
        return row(id, 'queued', { uploadId, queueOrder: id })
      })
      this.change(...queued)
      return { downloads: queued.map(({ interrupted: _i, fileMissing: _f, ...download }) => download), folder: '/d' }
    },
    estimate: async (request) => {
      await this.gate('estimate', [request])
      return { files: 0, bytes: 0, freeBytes: 1e12, fits: true, folder: '/d' }
    },
    pause: async (selection) => (await this.gate('pause', [selection]), this.act('pause', this.resolve(selection))),
    pauseAll: async () => (await this.gate('pauseAll', []), this.act('pause', this.resolve({ groups: ['downloading', 'queued', 'interrupted'] }))),
    resume: async (selection) => (await this.gate('resume', [selection]), this.act('resume', this.resolve(selection))),
    resumeAll: async () => (await this.gate('resumeAll', []), this.act('resume', this.resolve({ groups: ['paused'] }))),
    cancel: async (selection) => (await this.gate('cancel', [selection]), this.act('cancel', this.resolve(selection))),
    retry: async (selection) => (await this.gate('retry', [selection]), this.act('retry', this.resolve(selection))),
    redownload: async (selection) => (await this.gate('redownload', [selection]), this.act('redownload', this.resolve(selection))),
    remove: async (selection) => (await this.gate('remove', [selection]), this.act('remove', this.resolve(selection))),
    move: async (selection, place) => {
      await this.gate('move', [selection, place])
      const ids = this.resolve(selection)
      const skipped: DownloadActionResult['skipped'] = []
      const moving: DownloadView[] = []
      for (const id of ids) {
        const each = this.get(id)
        if (each && (each.state === 'queued' || each.state === 'paused')) moving.push(each)
        else if (each) skipped.push({ id, state: each.state, reason: `download ${id} is ${each.state}: only a queued or paused download can be moved in the queue` })
        else skipped.push({ id, state: null, reason: `no download ${id}: it was removed` })
      }
      moving.sort(byOrder)
      const orders = this.rows.map((each) => each.queueOrder)
      const low = Math.min(...orders)
      const high = Math.max(...orders)
      moving.forEach((each, index) => {
        const next = { ...each, queueOrder: 'to' in place ? (place.to === 'top' ? low - moving.length + index : high + 1 + index) : this.get(place.before)!.queueOrder - 0.5 }
        this.rows[this.rows.indexOf(each)] = next
      })
      this.emit({ type: 'downloads-changed', downloads: moving.map((each) => this.get(each.id)!), removed: [] })
      return { changed: moving.map((each) => each.id), skipped }
    },
    clearCompleted: async () => {
      await this.gate('clearCompleted', [])
      const { changed } = this.act('remove', this.inGroup('completed').map((each) => each.id))
      return { removed: changed.length }
    },
    list: async (state) => (await this.gate('list', [state]), this.rows.filter((each) => state === undefined || each.state === state).sort(byOrder)),
    page: async (query) => {
      await this.gate('page', [query])
      const rows = this.inGroup(query.group)
      return { group: query.group, offset: query.offset, total: rows.length, downloads: rows.slice(query.offset, query.offset + query.limit).map((each) => ({ ...each })) }
    },
    summary: async () => (await this.gate('summary', []), this.summary()),
    ofUploads: async (uploadIds) => {
      await this.gate('ofUploads', [uploadIds])
      return uploadIds.flatMap((uploadId) => {
        const rows = this.rows.filter((each) => each.uploadId === uploadId).sort((a, b) => b.id - a.id)
        return rows[0] ? [{ ...rows[0] }] : []
      })
    },
    state: vi.fn(async () => ({ started: true, interrupted: 0, running: 0, concurrency: 3, pausedBecause: null, waitingFor: null, runElsewhere: null, folder: '/d' })),
    resumeQueue: async () => void (await this.gate('resumeQueue', [])),
    monthlyBytes: async () => (await this.gate('monthlyBytes', []), { ...this.month, months: [] }),
    open: async (id) => void (await this.gate('open', [id])),
    reveal: async (id) => void (await this.gate('reveal', [id])),
    playbackAddress: async (id) => (await this.gate('playbackAddress', [id]), `media://${id}`),
  }
}

/**
 * The download queue as every screen sees it, and the one owner of it on the
 * window: the rows (kept current by the session's events, one per action
 * however many rows), the live progress of each running download, the batch
 * the overall progress measures, the queue's own state (why it waits, who else
 * runs it), and this month's bytes. Every action on downloads goes through it:
 * the rows change at once (optimistically) and go back if the core refuses,
 * failures and skipped downloads are told in the core's own words.
 */
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, triggerRef, watch } from 'vue'
import type { Download, DownloadActionResult, DownloadProgress, DownloadQueueState, DownloadView, EnqueueRequest, QueuePlace } from '@shared/types'
import { isError } from '@shared/errors'
import { api } from '../api'
import { allows, type DownloadAction } from '../format/download-actions'
import { describeDownloads, doingOf, skippedNote } from '../format/download-messages'
import { batchFigures, isPending, nextBatch, startingBatch } from './download-batch'
import { useNoticesStore } from './notices'
import { useSessionStore } from './session'

export type QueueState = DownloadQueueState & { folder: string }

/** A row as an event brings it: the core sends rows it just changed, so none is interrupted or missing its file. */
function toView(download: Download): DownloadView {
  return { ...download, interrupted: false, fileMissing: false }
}

/** How an action changes a row at once, before the core confirms (null: the row leaves the list). */
const OPTIMISTIC: Record<Exclude<DownloadAction, 'open' | 'reveal'>, (row: DownloadView) => DownloadView | null> = {
  pause: (row) => ({ ...row, state: 'paused', pauseReason: 'user', interrupted: false, waitingFor: null }),
  resume: (row) => ({ ...row, state: 'queued', pauseReason: null, error: null }),
  cancel: (row) => ({ ...row, state: 'cancelled', pauseReason: null, bytesDone: 0, interrupted: false, waitingFor: null }),
  retry: (row) => ({ ...row, state: 'queued', error: null }),
  redownload: (row) => ({ ...row, state: 'queued', bytesDone: 0, fileMissing: false }),
  remove: () => null,
}

export const useDownloadsStore = defineStore('downloads', () => {
  const session = useSessionStore()
  const notices = useNoticesStore()
  /** Every download by id; replaced rows keep the map's identity (triggerRef tells the views). */
  const byId = shallowRef(new Map<number, DownloadView>())
  const progress = shallowRef(new Map<number, DownloadProgress>())
  const loaded = ref(false)
  /** This calendar month (`2026-11`) and the bytes downloaded in it. */
  const month = ref('')
  const monthBytes = ref(0)
  /** The queue's own state: why it waits (a full disk), who else runs it, the folder. */
  const queue = shallowRef<QueueState | null>(null)
  /** The downloads the overall progress measures (see download-batch.ts). */
  const batch = shallowRef<ReadonlySet<number>>(new Set())
  /** Ids with an action under way: their buttons wait. */
  const busy = shallowRef<ReadonlySet<number>>(new Set())

  /** In queue order: what the queue starts first comes first (moved to the top, the bottom, or dragged). */
  const list = computed(() => [...byId.value.values()].sort((a, b) => a.queueOrder - b.queueOrder || a.id - b.id))
  /** The live download of each upload (the newest row, whatever its folder). */
  const byUpload = computed(() => {
    const map = new Map<string, DownloadView>()
    for (const download of list.value) map.set(download.uploadId, download)
    return map
  })
  const overall = computed(() => batchFigures(batch.value, byId.value, progress.value))
  /** Whether files can be opened here: not in a browser (`npm run web`). */
  const desktop = computed(() => session.info?.transport !== 'web')

  /** The one way rows change: the map, the live progress, and the batch, together. */
  function put(rows: readonly DownloadView[], removed: readonly number[] = []): void {
    const wasIdle = ![...byId.value.values()].some(isPending)
    for (const row of rows) {
      byId.value.set(row.id, row)
      if (row.state !== 'downloading') progress.value.delete(row.id)
    }
    for (const id of removed) {
      byId.value.delete(id)
      progress.value.delete(id)
    }
    batch.value = nextBatch(batch.value, wasIdle, rows, removed)
    triggerRef(byId)
    triggerRef(progress)
  }

  async function load(): Promise<void> {
    try {
      const rows = await api.downloads.list()
      byId.value = new Map(rows.map((row) => [row.id, row]))
      progress.value = new Map([...progress.value].filter(([id]) => byId.value.get(id)?.state === 'downloading'))
      batch.value = startingBatch(rows)
      loaded.value = true
      await loadMonth()
    } catch (error) {
      notices.error(error, 'Could not read the downloads')
    }
  }

  async function loadMonth(): Promise<void> {
    try {
      const result = await api.downloads.monthlyBytes()
      month.value = result.month
      monthBytes.value = result.bytes
    } catch (error) {
      notices.error(error, "Could not read this month's downloads")
    }
  }

  async function loadQueue(): Promise<void> {
    try {
      queue.value = await api.downloads.state()
    } catch (error) {
      notices.error(error, 'Could not read the download queue')
    }
  }

  // The session's snapshot holds the queue's state as the window subscribed (and again after a reconnect).
  watch(
    () => session.snapshot?.downloads,
    (state) => {
      if (state) queue.value = state
    },
    { immediate: true },
  )

  session.onDidEmit((event) => {
    if (event.type === 'downloads-changed') {
      put(event.downloads.map(toView), event.removed)
      // What this month counts has moved on; read it again, cheaply, once the burst is over.
      refreshMonth()
      if (queue.value?.pausedBecause) void loadQueue()
    } else if (event.type === 'download-progress') {
      progress.value.set(event.progress.id, event.progress)
      triggerRef(progress)
    } else if (event.type === 'queue-paused') {
      void loadQueue()
    } else if (event.type === 'service') {
      void load()
      void loadQueue()
    }
  })

  let monthTimer: ReturnType<typeof setTimeout> | undefined
  function refreshMonth(): void {
    clearTimeout(monthTimer)
    monthTimer = setTimeout(() => void loadMonth(), 500)
  }

  function setBusy(ids: readonly number[], value: boolean): void {
    const next = new Set(busy.value)
    for (const id of ids) {
      if (value) next.add(id)
      else next.delete(id)
    }
    busy.value = next
  }

  /** Changes rows at once as action will; returns what to put back if the core does not. */
  function optimistic(action: keyof typeof OPTIMISTIC, rows: readonly DownloadView[]): Map<number, { before: DownloadView; after: DownloadView | null }> {
    const changes = new Map<number, { before: DownloadView; after: DownloadView | null }>()
    for (const row of rows) {
      // A running download's bytes are in its live progress, not its row: a paused bar stays where it was.
      const live = progress.value.get(row.id)
      changes.set(row.id, { before: row, after: OPTIMISTIC[action](live ? { ...row, bytesDone: live.bytes } : row) })
    }
    const after = [...changes.values()].map((change) => change.after).filter((row): row is DownloadView => row !== null)
    put(after, [...changes.values()].filter((change) => change.after === null).map((change) => change.before.id))
    return changes
  }

  /** Puts back the rows of ids as they were, unless an event has told their real state since. */
  function rollback(changes: Map<number, { before: DownloadView; after: DownloadView | null }>, ids: Iterable<number>): void {
    const back: DownloadView[] = []
    for (const id of ids) {
      const change = changes.get(id)
      if (!change) continue
      const now = byId.value.get(id)
      if (change.after === null ? now === undefined : now === change.after) back.push(change.before)
    }
    if (back.length > 0) put(back)
  }

  /** Tells what a list action skipped, and why, in the core's words. */
  function tellSkipped(action: DownloadAction, result: DownloadActionResult): void {
    const note = skippedNote(action, result)
    if (note) notices.note(note.title, note.text)
  }

  /**
   * Runs an action on those of these downloads (as they are now) that allow it. One download:
   * a refusal is an error, in the core's words; several: those that moved on are skipped and
   * a note says how many and why. False when nothing was done or the action failed.
   */
  async function run(action: DownloadAction, ids: readonly number[]): Promise<boolean> {
    const rows = ids.map((id) => byId.value.get(id)).filter((row): row is DownloadView => row !== undefined && allows(row, action))
    if (rows.length === 0) return false
    const doing = doingOf(action, describeDownloads(rows), rows.length > 1)
    const acted = rows.map((row) => row.id)
    setBusy(acted, true)
    try {
      if (action === 'open' || action === 'reveal') return await openFiles(action, rows, doing)
      const changes = optimistic(action, rows)
      try {
        const result = await api.downloads[action](acted)
        rollback(
          changes,
          result.skipped.map((skip) => skip.id),
        )
        tellSkipped(action, result)
        return result.changed.length > 0
      } catch (error) {
        rollback(changes, acted)
        notices.error(error, doing)
        return false
      }
    } finally {
      setBusy(acted, false)
    }
  }

  /** Opens (or shows in their folder) finished files, one at a time; a file found gone marks its row. */
  async function openFiles(action: 'open' | 'reveal', rows: readonly DownloadView[], doing: string): Promise<boolean> {
    if (!desktop.value) return false
    for (const row of rows) {
      try {
        await api.downloads[action](row.id)
      } catch (error) {
        if (isError(error, 'not_found')) markMissing(row.id)
        notices.error(error, doing)
        return false
      }
    }
    return true
  }

  /** A completed download's file turned out to be gone (opening or playing it failed): it offers "Download again". */
  function markMissing(id: number): void {
    const row = byId.value.get(id)
    if (row?.state === 'completed' && !row.fileMissing) put([{ ...row, fileMissing: true }])
  }

  /** Pause all or Resume all: the whole queue, whatever is selected or shown. */
  async function runAll(action: 'pause' | 'resume'): Promise<boolean> {
    const rows = list.value.filter((row) => allows(row, action))
    const changes = optimistic(action, rows)
    try {
      const result = await (action === 'pause' ? api.downloads.pauseAll() : api.downloads.resumeAll())
      tellSkipped(action, result)
      if (action === 'resume') void loadQueue()
      return true
    } catch (error) {
      rollback(changes, changes.keys())
      notices.error(error, action === 'pause' ? 'Could not pause the queue' : 'Could not resume the queue')
      return false
    }
  }

  /** Lets a queue that waits for disk space go on. */
  async function resumeQueue(): Promise<boolean> {
    try {
      await api.downloads.resumeQueue()
      await loadQueue()
      return true
    } catch (error) {
      notices.error(error, 'Could not resume the queue')
      return false
    }
  }

  /**
   * Moves queued (or paused) downloads to the top or bottom of the queue, or before another; the
   * rows take their new places when the core's event comes. What it skipped is told, as for any action.
   */
  async function move(ids: readonly number[], place: QueuePlace): Promise<boolean> {
    if (ids.length === 0) return false
    setBusy(ids, true)
    try {
      const result = await api.downloads.move([...ids], place)
      const note = skippedNote('move', result)
      if (note) notices.note(note.title, note.text)
      return result.changed.length > 0
    } catch (error) {
      notices.error(error, ids.length === 1 ? 'Could not move the download' : `Could not move ${ids.length} downloads`)
      return false
    } finally {
      setBusy(ids, false)
    }
  }

  /** Takes every completed download off the list (their files stay on disk); how many it took, or null when it failed. */
  async function clearCompleted(): Promise<number | null> {
    try {
      const { removed } = await api.downloads.clearCompleted()
      return removed
    } catch (error) {
      notices.error(error, 'Could not clear the completed downloads')
      return null
    }
  }

  /** Queues uploads (or an artist's tracks); the caller reports a failure. The rows come by event too. */
  async function enqueue(request: EnqueueRequest): Promise<{ downloads: Download[]; folder: string }> {
    const result = await api.downloads.enqueue(request)
    put(result.downloads.filter((download) => !byId.value.has(download.id)).map(toView))
    return result
  }

  /** Queues every track of an artist, saying how many are on their way, or why not; false when refused. */
  async function queueArtist(username: string, title: string): Promise<boolean> {
    let queued = 0
    const ok = await act(`Could not download ${title}'s tracks`, async () => {
      const result = await enqueue({ artist: username })
      queued = result.downloads.filter((download) => download.state !== 'completed').length
    })
    if (ok) notices.note('Queued', queued === 1 ? `1 track of ${title} is queued.` : `${queued} tracks of ${title} are queued.`)
    return ok
  }

  /** What queuing would take (bytes still to download, free space); the caller reports a failure. */
  function estimate(request: EnqueueRequest): ReturnType<typeof api.downloads.estimate> {
    return api.downloads.estimate(request)
  }

  /** Runs any queue call, reporting its failure by cause (kept for callers outside the screen). */
  async function act(what: string, action: () => Promise<unknown>): Promise<boolean> {
    try {
      await action()
      return true
    } catch (error) {
      notices.error(error, what)
      return false
    }
  }

  return {
    byId, progress, list, byUpload, loaded, month, monthBytes, queue, batch, overall, busy, desktop,
    load, loadMonth, loadQueue, run, runAll, resumeQueue, markMissing, enqueue, estimate, act, move, clearCompleted, queueArtist,
  }
})

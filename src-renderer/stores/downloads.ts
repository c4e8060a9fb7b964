/**
 * The download queue as the window sees it, and the one owner of it on the window,
 * without ever holding the whole queue: its figures (each group's files and bytes, the
 * batch the overall progress measures: downloads:summary), the rows of the groups that
 * the downloads screen shows, a window of rows at a time as they come into view
 * (downloads:page, a bounded number kept), and the downloads of the uploads other
 * screens show (an artist's tracks, What's new: downloads:ofUploads), kept current by
 * the session's events. What it costs follows what is on screen, not the queue's length.
 *
 * Every action on downloads goes through it, on rows named one by one or on whole
 * groups but a few ("select all" is a few words, resolved by the core): the rows and
 * the figures change at once (optimistically, download-pages.ts places what it can),
 * go back if the core refuses, and are read again (the figures and the rows in view)
 * once the core has answered. Failures and skipped downloads are told in the core's words.
 */
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, triggerRef } from 'vue'
import { allowsAction } from '@shared/download-actions'
import { DOWNLOAD_GROUPS, groupOfDownload, stateOfGroup, type DownloadGroup } from '@shared/download-groups'
import type {
  Download, DownloadActionResult, DownloadProgress, DownloadSelection, DownloadSummary, DownloadView, EnqueueRequest, GroupTotals, QueuePlace, QueueState,
} from '@shared/types'
import type { Disposable } from '@shared/disposable'
import { isError } from '@shared/errors'
import { api } from '../api'
import { allows, type DownloadAction } from '../format/download-actions'
import { describeDownloads, doingOf, skippedNote } from '../format/download-messages'
import { queueTotals } from '../format/queue-totals'
import { batchFigures, type LiveFigures } from './download-batch'
import { compareRows, heldOf, holdsWindow, project, rowAt as rowIn, WINDOW_ROWS, type Change, type GroupWindows, type Movers } from './download-pages'
import { useNoticesStore } from './notices'
import { useSessionStore } from './session'

export type { QueueState } from '@shared/types'
export type { Movers as DownloadPick } from './download-pages'

/** Windows kept at most, all groups together: the farthest from view go first. */
const MAX_WINDOWS = 16
/** Rows beyond the last one in view that must already be here. */
const AHEAD_ROWS = 10
/** Events come in bursts (a batch of them a few times a second): the rows in view are read again once per burst. */
const SETTLE_MS = 40
/** Groups so small (what runs, what was left running) that their first window is always read with the figures. */
const PINNED: readonly DownloadGroup[] = ['downloading', 'interrupted']
/** Places past either end of the queue, for rows moved to its top or bottom before the core numbers them. */
const FAR = 1e15

/** A row as an event brings it: the core sends rows it just changed, so none is interrupted or missing its file. */
function toView(download: Download): DownloadView {
  return { ...download, interrupted: false, fileMissing: false }
}

type QueueVerb = Exclude<DownloadAction, 'open' | 'reveal'>

/** How an action changes a row at once, before the core confirms (null: the row leaves the list). */
const OPTIMISTIC: Record<QueueVerb, (row: DownloadView) => DownloadView | null> = {
  pause: (row) => ({ ...row, state: 'paused', pauseReason: 'user', interrupted: false, waitingFor: null }),
  resume: (row) => ({ ...row, state: 'queued', pauseReason: null, error: null }),
  cancel: (row) => ({ ...row, state: 'cancelled', pauseReason: null, bytesDone: 0, interrupted: false, waitingFor: null }),
  retry: (row) => ({ ...row, state: 'queued', error: null }),
  redownload: (row) => ({ ...row, state: 'queued', bytesDone: 0, fileMissing: false }),
  remove: () => null,
}

/** Where an action takes the rows of a group (null: off the list). */
const TARGET: Record<QueueVerb, DownloadGroup | null> = { pause: 'paused', resume: 'queued', cancel: 'cancelled', retry: 'queued', redownload: 'queued', remove: null }

/** Whether every download of a group allows an action, by its state alone (Download again needs each file looked at). */
export function groupAllows(group: DownloadGroup, action: DownloadAction): boolean {
  if (action === 'open' || action === 'reveal' || action === 'redownload') return false
  return allowsAction(action, stateOfGroup(group))
}

const PENDING: readonly DownloadGroup[] = ['downloading', 'queued', 'paused', 'interrupted']

/** The figures after an action moved rows between groups (sizes from the projection; bytes moved with the rows). */
function projectSummary(
  summary: DownloadSummary,
  movers: Movers,
  sizes: Record<DownloadGroup, number>,
  targetOf: (group: DownloadGroup) => DownloadGroup | null,
  keepsBytes: boolean,
): DownloadSummary {
  const groups = Object.fromEntries(DOWNLOAD_GROUPS.map((group) => [group, { ...summary.groups[group] }])) as Record<DownloadGroup, GroupTotals>
  const shift = (from: DownloadGroup, bytes: number, bytesDone: number): void => {
    groups[from].bytes -= bytes
    groups[from].bytesDone -= bytesDone
    const to = targetOf(from)
    if (to === null) return
    groups[to].bytes += bytes
    groups[to].bytesDone += keepsBytes ? bytesDone : 0
  }
  for (const group of movers.groups) {
    const kept = movers.except.filter((row) => groupOfDownload(row) === group)
    shift(group, summary.groups[group].bytes - kept.reduce((sum, row) => sum + row.bytesTotal, 0), summary.groups[group].bytesDone - kept.reduce((sum, row) => sum + row.bytesDone, 0))
  }
  for (const row of movers.rows) shift(groupOfDownload(row), row.bytesTotal, row.bytesDone)
  for (const group of DOWNLOAD_GROUPS) {
    groups[group] = { files: Math.max(0, sizes[group]), bytes: Math.max(0, groups[group].bytes), bytesDone: Math.max(0, groups[group].bytesDone) }
  }
  // The batch keeps what completed in it; its pending part is what the groups now say.
  const sum = (of: DownloadSummary['groups'], key: keyof GroupTotals): number => PENDING.reduce((total, group) => total + of[group][key], 0)
  const doneBytes = summary.batch.bytes - sum(summary.groups, 'bytes')
  const pending = sum(groups, 'files')
  return {
    groups,
    batch: {
      files: pending + summary.batch.filesDone,
      filesDone: summary.batch.filesDone,
      bytes: sum(groups, 'bytes') + doneBytes,
      bytesDone: sum(groups, 'bytesDone') + doneBytes,
      pending,
    },
  }
}

export const useDownloadsStore = defineStore('downloads', () => {
  const session = useSessionStore()
  const notices = useNoticesStore()

  /** The queue in figures, as shown: the core's, or what an action under way makes of them. Null until read. */
  const summary = shallowRef<DownloadSummary | null>(null)
  const loaded = computed(() => summary.value !== null)
  /** Bumped whenever rows arrive, change or go, so views reading rowAt() draw again. */
  const version = ref(0)
  /** Live progress of each running download. */
  const progress = shallowRef(new Map<number, DownloadProgress>())
  /** The queue's speed as its latest progress says (read with progress, which is triggered with it). */
  let queueSpeed = 0
  /** This calendar month (`2026-11`) and the bytes downloaded in it. */
  const month = ref('')
  const monthBytes = ref(0)
  /** The queue's own state: why it waits (a full disk), who else runs it, the folder (the session's, kept by its events). */
  const queue = computed<QueueState | null>(() => session.snapshot?.downloads ?? null)
  /** Ids with an action under way: their buttons wait. */
  const busy = shallowRef<ReadonlySet<number>>(new Set())
  /** Actions on whole groups under way: the selection's buttons wait. */
  const bulkBusy = ref(0)
  /** Whether files can be opened here: not in a browser (`npm run web`). */
  const desktop = computed(() => session.info?.transport !== 'web')

  // The rows of the screen: windows of each group, of one generation of reads. Not reactive: version tells.
  let pages = new Map<DownloadGroup, GroupWindows>()
  let generation = 0
  const inFlight = new Set<string>()
  /** The rows each group shows now (overscan included), by the screen. */
  const wanted = new Map<DownloadGroup, { start: number; end: number }>()
  /** Screens showing the queue's rows: without one, no row of it is read or kept. */
  let viewers = 0
  /** Actions sent and not answered: until they are, what the core says is not read over what they showed. */
  let acting = 0
  /** The states events told since the rows were last read (a row told to start is running before it is read again). */
  const told = new Map<number, Download['state']>()
  /** Tracked uploads whose download an action took off the list: read again once it is answered (an older row may be there). */
  const uploadsToRead = new Set<string>()

  // The uploads other screens show, by who asked (an artist page, What's new, a selection), and their downloads.
  const owners = new Map<string, readonly string[]>()
  const ownersVersion = ref(0)
  const tracked = computed(() => {
    void ownersVersion.value
    return new Set([...owners.values()].flat())
  })
  /** The download of each tracked upload that has one (the newest row). */
  const byUpload = shallowRef<ReadonlyMap<string, DownloadView>>(new Map())
  /** Tracked uploads whose download has been read (there or not). */
  const uploadsRead = shallowRef<ReadonlySet<string>>(new Set())

  const countOf = (group: DownloadGroup): number => summary.value?.groups[group].files ?? 0
  const sizes = (): Record<DownloadGroup, number> => Object.fromEntries(DOWNLOAD_GROUPS.map((group) => [group, countOf(group)])) as Record<DownloadGroup, number>

  /** The row at a place of a group, if its window is here (reading it makes the caller draw again when rows arrive). */
  function rowAt(group: DownloadGroup, index: number): DownloadView | undefined {
    void version.value
    return rowIn(pages.get(group), index)
  }

  // Every row held, by id, with its place: rebuilt once per version, from the windows (a few hundred rows) and the tracked uploads.
  let located = { version: -1, rows: new Map<number, { row: DownloadView; group: DownloadGroup | null; at: number }>() }
  function locate(id: number): { row: DownloadView; group: DownloadGroup | null; at: number } | undefined {
    if (located.version !== version.value) {
      const rows = new Map<number, { row: DownloadView; group: DownloadGroup | null; at: number }>()
      for (const row of byUpload.value.values()) rows.set(row.id, { row, group: null, at: -1 })
      for (const [group, windows] of pages) for (const { row, at } of heldOf(windows)) rows.set(row.id, { row, group, at })
      located = { version: version.value, rows }
    }
    return located.rows.get(id)
  }

  /** A download the window holds (in view on the downloads screen, or beside a track shown), as it is now. */
  function rowOf(id: number): DownloadView | undefined {
    void version.value
    void byUpload.value
    return locate(id)?.row
  }

  /** Where a held download is shown on the downloads screen: its group and place. */
  function placeOf(id: number): { group: DownloadGroup; at: number } | undefined {
    const found = locate(id)
    return found && found.group !== null ? { group: found.group, at: found.at } : undefined
  }

  /** Every row of a group, when all of them are held (a small group); null otherwise. Once per version. */
  let wholeGroups = { version: -1, groups: new Map<DownloadGroup, DownloadView[] | null>() }
  function heldGroup(group: DownloadGroup): DownloadView[] | null {
    void version.value
    void summary.value
    if (wholeGroups.version !== version.value) wholeGroups = { version: version.value, groups: new Map() }
    if (!wholeGroups.groups.has(group)) {
      const held = heldOf(pages.get(group))
      wholeGroups.groups.set(group, held.length === countOf(group) ? held.map((entry) => entry.row) : null)
    }
    return wholeGroups.groups.get(group)!
  }

  /** The ids of the held rows of a group around a place, in order, with no gap; and whether they reach the group's end. */
  function runAround(group: DownloadGroup, index: number): { ids: number[]; toEnd: boolean } {
    void version.value
    const held = heldOf(pages.get(group))
    const at = held.findIndex((entry) => entry.at === index)
    if (at < 0) return { ids: [], toEnd: false }
    let first = at
    let last = at
    while (first > 0 && held[first - 1]!.at === held[first]!.at - 1) first--
    while (last < held.length - 1 && held[last + 1]!.at === held[last]!.at + 1) last++
    return { ids: held.slice(first, last + 1).map((entry) => entry.row.id), toEnd: held[last]!.at === countOf(group) - 1 }
  }

  // ---- Reading ----

  function fetchWindow(group: DownloadGroup, index: number): void {
    const flight = `${generation}:${group}:${index}`
    if (inFlight.has(flight)) return
    inFlight.add(flight)
    const gen = generation
    api.downloads.page({ group, offset: index * WINDOW_ROWS, limit: WINDOW_ROWS }).then(
      (page) => {
        inFlight.delete(flight)
        if (gen !== generation || acting > 0 || viewers === 0) return
        const windows = new Map(pages.get(group))
        windows.set(index, page.downloads)
        pages = new Map(pages).set(group, windows)
        evict()
        version.value += 1
        // The group changed size since the figures were read: read them (and the rows in view) again.
        if (page.total !== countOf(group)) settleSoon()
      },
      (error: unknown) => {
        inFlight.delete(flight)
        if (gen === generation) notices.error(error, 'Could not read the downloads')
      },
    )
  }

  /** The windows a group needs for the rows it shows (and a few beyond them). */
  function windowsWanted(group: DownloadGroup): number[] {
    const count = countOf(group)
    if (count === 0) return []
    const range = wanted.get(group) ?? (PINNED.includes(group) ? { start: 0, end: 0 } : undefined)
    if (!range) return []
    const first = Math.floor(Math.min(range.start, count - 1) / WINDOW_ROWS)
    const last = Math.floor(Math.min(range.end + AHEAD_ROWS, count - 1) / WINDOW_ROWS)
    const indices: number[] = []
    for (let index = first; index <= last; index++) indices.push(index)
    return indices
  }

  /** The screen shows rows start..end of a group (overscan included): read the windows they need that are not here. */
  function ensureRange(group: DownloadGroup, start: number, end: number): void {
    wanted.set(group, { start, end: Math.max(start, end) })
    ensureAll()
  }

  /** The screen no longer shows any row of a group. */
  function leaveGroup(group: DownloadGroup): void {
    wanted.delete(group)
  }

  function ensureAll(): void {
    if (viewers === 0 || acting > 0 || summary.value === null) return
    for (const group of DOWNLOAD_GROUPS) {
      for (const index of windowsWanted(group)) if (!holdsWindow(pages.get(group), index, countOf(group))) fetchWindow(group, index)
    }
  }

  /** Keeps the windows nearest to the rows in view, dropping the farthest. */
  function evict(): void {
    const all = [...pages].flatMap(([group, windows]) => [...windows.keys()].map((index) => ({ group, index })))
    if (all.length <= MAX_WINDOWS) return
    const distance = ({ group, index }: { group: DownloadGroup; index: number }): number => {
      if (PINNED.includes(group) && index === 0) return -1
      const range = wanted.get(group)
      if (!range) return Number.MAX_SAFE_INTEGER
      const centre = (range.start + range.end) / 2 / WINDOW_ROWS
      return Math.abs(index - centre)
    }
    const next = new Map([...pages].map(([group, windows]) => [group, new Map(windows)]))
    for (const drop of all.sort((a, b) => distance(b) - distance(a)).slice(0, all.length - MAX_WINDOWS)) next.get(drop.group)!.delete(drop.index)
    pages = next
  }

  let reading: Promise<void> | undefined
  let readAgain = false
  let uploadsAgain = false

  /**
   * Reads the figures and the rows in view again (and, with `uploads`, the tracked uploads' downloads),
   * replacing what is shown at once when the answers come; a read asked for meanwhile follows.
   */
  function refresh(options: { uploads?: boolean } = {}): Promise<void> {
    if (options.uploads) uploadsAgain = true
    if (reading) {
      readAgain = true
      return reading
    }
    reading = (async () => {
      try {
        do {
          readAgain = false
          const withUploads = uploadsAgain
          uploadsAgain = false
          generation += 1
          const gen = generation
          const asked = viewers > 0 ? DOWNLOAD_GROUPS.flatMap((group) => windowsWanted(group).map((index) => ({ group, index }))) : []
          const uploadIds = withUploads ? [...tracked.value] : []
          let answers
          try {
            answers = await Promise.all([
              viewers > 0 || summary.value !== null ? api.downloads.summary() : Promise.resolve(null),
              Promise.all(asked.map(({ group, index }) => api.downloads.page({ group, offset: index * WINDOW_ROWS, limit: WINDOW_ROWS }))),
              uploadIds.length > 0 ? api.downloads.ofUploads(uploadIds) : Promise.resolve([]),
            ])
          } catch (error) {
            notices.error(error, 'Could not read the downloads')
            return
          }
          if (gen !== generation || acting > 0) {
            // An action came meanwhile: what was read may be from before it. Its own answer reads again.
            if (withUploads) uploadsAgain = true
            continue
          }
          const [figures, read, uploads] = answers
          if (withUploads) setUploads(uploadIds, uploads, true)
          if (figures) summary.value = figures
          const next = new Map<DownloadGroup, Map<number, readonly (DownloadView | undefined)[]>>()
          read.forEach((page, at) => {
            const { group, index } = asked[at]!
            if (!next.has(group)) next.set(group, new Map())
            next.get(group)!.set(index, page.downloads)
          })
          pages = next
          told.clear()
          version.value += 1
          pruneProgress()
          if (figures && read.some((page) => page.total !== figures.groups[page.group].files)) readAgain = true
        } while (readAgain)
      } finally {
        reading = undefined
      }
      ensureAll()
    })()
    return reading
  }

  /** Reads again once the burst of events is over, or once the actions under way are answered. */
  let settleTimer: ReturnType<typeof setTimeout> | undefined
  function settleSoon(options: { uploads?: boolean } = {}): void {
    if (options.uploads) uploadsAgain = true
    // While an action is under way, its answer reads again (whileActing).
    if (acting > 0) return
    clearTimeout(settleTimer)
    settleTimer = setTimeout(() => void refresh(), SETTLE_MS)
  }

  /** Progress only of downloads still running, as far as the window knows. */
  function pruneProgress(): void {
    const running = summary.value ? countOf('downloading') : undefined
    let changed = false
    for (const id of progress.value.keys()) {
      const row = locate(id)?.row
      if (running === 0 || (row && row.state !== 'downloading')) {
        progress.value.delete(id)
        changed = true
      }
    }
    if (changed) triggerRef(progress)
  }

  /** The downloads screen shows the queue: its figures and the rows in view are read and kept current until disposed. */
  function show(): Disposable {
    viewers += 1
    void loadMonth()
    void refresh()
    let shown = true
    return {
      dispose: () => {
        if (!shown) return
        shown = false
        viewers -= 1
        if (viewers > 0) return
        // Nothing shows the rows: none is kept (the figures are, small as they are).
        pages = new Map()
        wanted.clear()
        generation += 1
        version.value += 1
      },
    }
  }

  // ---- The uploads other screens show ----

  /**
   * Puts what was read of these uploads' downloads (`replace`: all of them read, those absent have none); else
   * adds rows an answer brought (a newer row of an upload only: an event may have told its row's later state already).
   */
  function setUploads(uploadIds: readonly string[], rows: readonly DownloadView[], replace: boolean): void {
    const next = new Map(byUpload.value)
    if (replace) for (const uploadId of uploadIds) next.delete(uploadId)
    for (const row of rows) {
      const current = next.get(row.uploadId)
      if (!current || replace || row.id > current.id) next.set(row.uploadId, row)
    }
    byUpload.value = next
    uploadsRead.value = new Set([...uploadsRead.value, ...uploadIds])
    version.value += 1
  }

  async function readUploads(uploadIds: readonly string[]): Promise<void> {
    if (uploadIds.length === 0) return
    try {
      setUploads(uploadIds, await api.downloads.ofUploads([...uploadIds]), true)
    } catch (error) {
      notices.error(error, 'Could not read the downloads')
    }
  }

  /**
   * A screen shows these uploads (under its own name: an artist page, What's new, a selection): their
   * downloads are read now and kept current by the events, until it shows others or lets go.
   */
  function track(owner: string, uploadIds: readonly string[]): void {
    const before = tracked.value
    owners.set(owner, [...new Set(uploadIds)])
    ownersVersion.value += 1
    prune()
    void readUploads(uploadIds.filter((uploadId) => !before.has(uploadId)))
  }

  function untrack(owner: string): void {
    if (!owners.delete(owner)) return
    ownersVersion.value += 1
    prune()
  }

  /** Only the uploads someone shows are kept. */
  function prune(): void {
    const keep = tracked.value
    if ([...byUpload.value.keys()].some((uploadId) => !keep.has(uploadId))) byUpload.value = new Map([...byUpload.value].filter(([uploadId]) => keep.has(uploadId)))
    if ([...uploadsRead.value].some((uploadId) => !keep.has(uploadId))) uploadsRead.value = new Set([...uploadsRead.value].filter((uploadId) => keep.has(uploadId)))
  }

  /** The download of a tracked upload: the row, null when it has none, undefined while not read yet. */
  function downloadOfUpload(uploadId: string): DownloadView | null | undefined {
    const row = byUpload.value.get(uploadId)
    if (row) return row
    return uploadsRead.value.has(uploadId) ? null : undefined
  }

  /** The downloads of some uploads, read now (the player's queue of an artist's downloaded tracks). */
  async function downloadsOf(uploadIds: readonly string[]): Promise<ReadonlyMap<string, DownloadView>> {
    const rows = uploadIds.length === 0 ? [] : await api.downloads.ofUploads([...uploadIds])
    return new Map(rows.map((row) => [row.uploadId, row]))
  }

  // ---- The session's events ----

  session.onDidEmit((event) => {
    if (event.type === 'downloads-changed') {
      changed(event)
      // What this month counts has moved on; read it again, cheaply, once the burst is over.
      refreshMonth()
    } else if (event.type === 'download-progress') {
      const state = told.get(event.progress.id) ?? locate(event.progress.id)?.row.state
      // A late progress of a download that stopped meanwhile (paused by an action, say) is not shown.
      if (state !== undefined && state !== 'downloading') return
      progress.value.set(event.progress.id, event.progress)
      queueSpeed = event.progress.queueSpeed
      triggerRef(progress)
    } else if (event.type === 'service') {
      // Another service: other downloads. Everything is read afresh.
      pages = new Map()
      told.clear()
      progress.value = new Map()
      byUpload.value = new Map()
      uploadsRead.value = new Set()
      summary.value = null
      generation += 1
      version.value += 1
      void refresh({ uploads: true })
    }
  })

  /** Rows changed in the core: the tracked uploads take them; the screen's rows in view are read again when rows moved. */
  function changed(event: { downloads: Download[]; removed: number[]; many?: number | undefined }): void {
    for (const download of event.downloads) {
      told.set(download.id, download.state)
      if (download.state !== 'downloading') progress.value.delete(download.id)
    }
    for (const id of event.removed) progress.value.delete(id)
    triggerRef(progress)
    if (event.many !== undefined) {
      // Thousands changed: whatever is shown is read again.
      settleSoon({ uploads: true })
      return
    }
    const uploads = tracked.value
    const next = new Map(byUpload.value)
    let trackedChanged = false
    for (const download of event.downloads) {
      if (!uploads.has(download.uploadId)) continue
      const current = next.get(download.uploadId)
      if (!current || download.id >= current.id) {
        next.set(download.uploadId, toView(download))
        trackedChanged = true
      }
    }
    const lost: string[] = []
    for (const id of event.removed) {
      for (const [uploadId, row] of next) {
        if (row.id !== id) continue
        next.delete(uploadId)
        lost.push(uploadId)
        trackedChanged = true
      }
    }
    if (trackedChanged) {
      byUpload.value = next
      version.value += 1
    }
    // An upload whose download was removed may have another (an older row, in another folder).
    void readUploads(lost)
    if (viewers === 0 || summary.value === null) return
    let moved = event.removed.length > 0
    const patched = new Map<DownloadGroup, Map<number, readonly (DownloadView | undefined)[]>>()
    for (const download of event.downloads) {
      const view = toView(download)
      const place = locate(download.id)
      // Its place is its group and its key in the group's order (its queue place; for completed, when it finished).
      if (!place || place.group === null || place.group !== groupOfDownload(view) || compareRows(place.row, view) !== 0) {
        moved = true
        continue
      }
      // Still in its place: the row itself changes (its bytes, its error), nothing moves.
      const windows = patched.get(place.group) ?? new Map(pages.get(place.group))
      patched.set(place.group, windows)
      const index = Math.floor(place.at / WINDOW_ROWS)
      const rows = [...(windows.get(index) ?? [])]
      rows[place.at % WINDOW_ROWS] = { ...view, fileMissing: place.row.fileMissing && view.state === 'completed' }
      windows.set(index, rows)
    }
    if (patched.size > 0 && acting === 0) {
      pages = new Map([...pages, ...patched])
      version.value += 1
    }
    if (moved || acting > 0) settleSoon()
  }

  let monthTimer: ReturnType<typeof setTimeout> | undefined
  function refreshMonth(): void {
    clearTimeout(monthTimer)
    monthTimer = setTimeout(() => void loadMonth(), 500)
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

  // ---- Acting ----

  function setBusy(ids: readonly number[], value: boolean): void {
    if (ids.length === 0) return
    const next = new Set(busy.value)
    for (const id of ids) {
      if (value) next.add(id)
      else next.delete(id)
    }
    busy.value = next
  }

  interface Shown {
    summary: DownloadSummary | null
    pages: Map<DownloadGroup, GroupWindows>
    uploads: Map<string, { before: DownloadView | undefined; after: DownloadView | undefined }>
  }

  /**
   * Shows an action's outcome at once: the figures, the rows of the screen (those whose place is
   * known), and the tracked uploads' downloads. Returns what to put back if the core refuses.
   */
  function optimistic(movers: Movers, change: Change, targetOf: (group: DownloadGroup) => DownloadGroup | null, keepsBytes: boolean): { before: Shown; after: Shown } {
    const before: Shown = { summary: summary.value, pages, uploads: new Map() }
    if (summary.value) {
      const projected = project(pages, sizes(), movers, change, targetOf)
      pages = projected.pages
      summary.value = projectSummary(summary.value, movers, projected.sizes, targetOf, keepsBytes)
    }
    const named = new Set(movers.rows.map((row) => row.id))
    const whole = new Set(movers.groups)
    const except = new Set(movers.except.map((row) => row.id))
    const uploads = new Map(byUpload.value)
    for (const [uploadId, row] of byUpload.value) {
      if (!named.has(row.id) && !(whole.has(groupOfDownload(row)) && !except.has(row.id))) continue
      const after = change(row, 0, 1) ?? undefined
      if (after) uploads.set(uploadId, after)
      else {
        uploads.delete(uploadId)
        uploadsToRead.add(uploadId)
      }
      before.uploads.set(uploadId, { before: row, after })
    }
    if (before.uploads.size > 0) byUpload.value = uploads
    generation += 1
    version.value += 1
    return { before, after: { summary: summary.value, pages, uploads: before.uploads } }
  }

  /** Puts back what an action showed, unless something has been read or told since. */
  function rollback({ before, after }: { before: Shown; after: Shown }): void {
    if (summary.value === after.summary && pages === after.pages) {
      summary.value = before.summary
      pages = before.pages
    }
    const uploads = new Map(byUpload.value)
    for (const [uploadId, { before: row, after: shown }] of after.uploads) {
      if (uploads.get(uploadId) !== shown) continue
      if (row) uploads.set(uploadId, row)
      else uploads.delete(uploadId)
    }
    byUpload.value = uploads
    generation += 1
    version.value += 1
  }

  /** Counts an action under way; once none is, what the core now says is read. */
  async function whileActing<T>(work: () => Promise<T>): Promise<T> {
    acting += 1
    try {
      return await work()
    } finally {
      acting -= 1
      if (acting === 0) {
        const gone = [...uploadsToRead]
        uploadsToRead.clear()
        if (viewers > 0 || summary.value !== null || uploadsAgain) await refresh()
        else ensureAll()
        await readUploads(gone.filter((uploadId) => tracked.value.has(uploadId)))
      }
    }
  }

  /** What an action applies to: the named rows that allow it, and the groups all of whose rows do. */
  function eligible(action: DownloadAction, pick: Movers): Movers {
    const groups = pick.groups.filter((group) => groupAllows(group, action))
    const whole = new Set(groups)
    return {
      groups,
      except: pick.except.filter((row) => whole.has(groupOfDownload(row))),
      rows: pick.rows.filter((row) => !whole.has(groupOfDownload(row)) && allows(row, action)),
    }
  }

  /** How many downloads a pick names (the groups' sizes now, but the rows excepted). */
  function countPick(pick: Movers): number {
    const whole = new Set(pick.groups)
    return pick.groups.reduce((sum, group) => sum + countOf(group), 0) - pick.except.filter((row) => whole.has(groupOfDownload(row))).length + pick.rows.length
  }

  /** The pick as the contract takes it: ids, or groups but those excepted and the ids besides. */
  function selectionOf(pick: Movers): DownloadSelection {
    const ids = pick.rows.map((row) => row.id)
    if (pick.groups.length === 0) return ids
    return { groups: [...pick.groups], except: pick.except.map((row) => row.id), ids }
  }

  /** Tells what a list action skipped, and why, in the core's words. */
  function tellSkipped(action: DownloadAction | 'move', result: DownloadActionResult): void {
    const note = skippedNote(action, result)
    if (note) notices.note(note.title, note.text)
  }

  /**
   * Runs an action on a pick of downloads (rows named one by one, or whole groups but a few):
   * on those that allow it. One download: a refusal is an error, in the core's words; several:
   * those that moved on are skipped and a note says how many and why. False when nothing was
   * done or the action failed.
   */
  async function run(action: DownloadAction, pick: Movers | readonly number[]): Promise<boolean> {
    const movers = eligible(action, Array.isArray(pick) ? { rows: pick.flatMap((id) => rowOf(id) ?? []), groups: [], except: [] } : (pick as Movers))
    const count = countPick(movers)
    if (count === 0) return false
    const one = count === 1 && movers.rows.length === 1
    const doing = doingOf(action, one ? describeDownloads(movers.rows) : describeDownloads([], count), count > 1)
    if (action === 'open' || action === 'reveal') return openFiles(action, movers.rows, doing)
    const acted = movers.rows.map((row) => row.id)
    setBusy(acted, true)
    if (movers.groups.length > 0) bulkBusy.value += 1
    try {
      return await whileActing(async () => {
        const shown = optimistic(movers, (row) => OPTIMISTIC[action](row), () => TARGET[action], action !== 'cancel' && action !== 'redownload')
        try {
          const result = await api.downloads[action](selectionOf(movers))
          tellSkipped(action, result)
          return result.changed.length > 0
        } catch (error) {
          rollback(shown)
          notices.error(error, doing)
          return false
        }
      })
    } finally {
      setBusy(acted, false)
      if (movers.groups.length > 0) bulkBusy.value -= 1
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
    const found = locate(id)
    if (!found || found.row.state !== 'completed' || found.row.fileMissing) return
    const row = { ...found.row, fileMissing: true }
    if (found.group !== null) {
      const windows = new Map(pages.get(found.group))
      const index = Math.floor(found.at / WINDOW_ROWS)
      const rows = [...(windows.get(index) ?? [])]
      rows[found.at % WINDOW_ROWS] = row
      windows.set(index, rows)
      pages = new Map(pages).set(found.group, windows)
    }
    if (byUpload.value.get(row.uploadId)?.id === id) byUpload.value = new Map(byUpload.value).set(row.uploadId, row)
    version.value += 1
  }

  /** Pause all or Resume all: the whole queue, whatever is selected or shown. */
  async function runAll(action: 'pause' | 'resume'): Promise<boolean> {
    const groups = DOWNLOAD_GROUPS.filter((group) => groupAllows(group, action))
    bulkBusy.value += 1
    try {
      return await whileActing(async () => {
        const shown = optimistic({ rows: [], groups, except: [] }, (row) => OPTIMISTIC[action](row), () => TARGET[action], true)
        try {
          const result = await (action === 'pause' ? api.downloads.pauseAll() : api.downloads.resumeAll())
          tellSkipped(action, result)
          return true
        } catch (error) {
          rollback(shown)
          notices.error(error, action === 'pause' ? 'Could not pause the queue' : 'Could not resume the queue')
          return false
        }
      })
    } finally {
      bulkBusy.value -= 1
    }
  }

  /** Lets a queue that waits for disk space go on. */
  async function resumeQueue(): Promise<boolean> {
    try {
      await api.downloads.resumeQueue()
      return true
    } catch (error) {
      notices.error(error, 'Could not resume the queue')
      return false
    }
  }

  /**
   * Moves queued downloads (rows, or the whole queued group but a few) to the top or bottom of the
   * queue, at once, or one before another (a drag, Alt+arrows: the row takes its place when the core
   * has it). What it skipped is told, as for any action.
   */
  async function move(pick: Movers | readonly number[], place: QueuePlace): Promise<boolean> {
    const given: Movers = Array.isArray(pick) ? { rows: pick.flatMap((id) => rowOf(id) ?? []), groups: [], except: [] } : (pick as Movers)
    const movers: Movers = {
      groups: given.groups.filter((group) => group === 'queued'),
      except: given.except.filter((row) => groupOfDownload(row) === 'queued'),
      rows: given.rows.filter((row) => row.state === 'queued' && !(given.groups.includes('queued') && groupOfDownload(row) === 'queued')),
    }
    // Ids the window does not hold (a key press on a row just moved) go as they are: the core says what they are.
    const unknown = Array.isArray(pick) ? pick.filter((id) => rowOf(id) === undefined) : []
    const count = countPick(movers) + unknown.length
    if (count === 0) return false
    const ids = [...movers.rows.map((row) => row.id), ...unknown]
    setBusy(ids, true)
    if (movers.groups.length > 0) bulkBusy.value += 1
    try {
      return await whileActing(async () => {
        const shown =
          'to' in place
            ? optimistic(movers, (row, at, size) => ({ ...row, queueOrder: place.to === 'top' ? -FAR - size + at : FAR + at }), (group) => group, true)
            : undefined
        try {
          const selection = selectionOf(movers)
          const result = await api.downloads.move(Array.isArray(selection) ? [...selection, ...unknown] : selection, place)
          tellSkipped('move', result)
          return result.changed.length > 0
        } catch (error) {
          if (shown) rollback(shown)
          notices.error(error, count === 1 ? 'Could not move the download' : `Could not move ${count.toLocaleString()} downloads`)
          return false
        }
      })
    } finally {
      setBusy(ids, false)
      if (movers.groups.length > 0) bulkBusy.value -= 1
    }
  }

  /** Takes every completed download off the list (their files stay on disk); how many it took, or null when it failed. */
  async function clearCompleted(): Promise<number | null> {
    return whileActing(async () => {
      const shown = optimistic({ rows: [], groups: ['completed'], except: [] }, () => null, () => null, true)
      try {
        const { removed } = await api.downloads.clearCompleted()
        return removed
      } catch (error) {
        rollback(shown)
        notices.error(error, 'Could not clear the completed downloads')
        return null
      }
    })
  }

  /** Queues uploads (or an artist's tracks); the caller reports a failure. The rows come by event too. */
  async function enqueue(request: EnqueueRequest): Promise<{ downloads: Download[]; folder: string }> {
    const result = await api.downloads.enqueue(request)
    const uploads = tracked.value
    const mine = result.downloads.filter((download) => uploads.has(download.uploadId))
    if (mine.length > 0) setUploads([], mine.map(toView), false)
    if (viewers > 0) settleSoon()
    return result
  }

  /**
   * Queues every track of an artist, saying how many are on their way, or why not: the files on their
   * way (queued now or before, not done) and their bytes still to come; null when refused.
   */
  async function queueArtist(username: string, title: string): Promise<{ files: number; bytes: number } | null> {
    let files = 0
    let bytes = 0
    const ok = await act(`Could not download ${title}'s tracks`, async () => {
      const result = await enqueue({ artist: username })
      const coming = result.downloads.filter((download) => download.state !== 'completed')
      files = coming.length
      bytes = coming.reduce((sum, download) => sum + Math.max(0, download.bytesTotal - download.bytesDone), 0)
    })
    if (!ok) return null
    notices.note('Queued', files === 1 ? `1 track of ${title} is queued.` : `${files} tracks of ${title} are queued.`)
    return { files, bytes }
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

  // ---- Figures ----

  /**
   * What the running transfers add to the figures last read: the queue's speed, and their bytes since
   * last saved. The speed is the core's for the whole queue (weighted over about 10 s), not the sum of
   * the rows' speeds, which falls and climbs as files finish and start; none while nothing runs.
   */
  const live = computed<LiveFigures>(() => {
    void version.value
    let running = false
    let ahead = 0
    for (const [id, figures] of progress.value) {
      const row = locate(id)?.row
      const state = told.get(id) ?? row?.state
      if (state !== undefined && state !== 'downloading') continue
      running = true
      if (row) ahead += Math.max(0, Math.min(figures.total || row.bytesTotal, figures.bytes) - row.bytesDone)
    }
    return { speed: running ? queueSpeed : 0, ahead }
  })
  const overall = computed(() => batchFigures(summary.value, live.value))
  const totals = computed(() => queueTotals(summary.value, live.value))
  /** Downloads in all. */
  const total = computed(() => DOWNLOAD_GROUPS.reduce((sum, group) => sum + countOf(group), 0))

  return {
    summary, loaded, version, progress, month, monthBytes, queue, busy, bulkBusy, desktop, byUpload, overall, totals, total,
    countOf, rowAt, rowOf, placeOf, heldGroup, runAround, ensureRange, leaveGroup, show, refresh,
    track, untrack, downloadOfUpload, downloadsOf,
    loadMonth, run, runAll, resumeQueue, markMissing, enqueue, estimate, act, move, clearCompleted, queueArtist,
  }
})


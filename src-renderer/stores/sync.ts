/**
 * The catalogue's sync as every screen sees it: whether one runs (or waits for
 * another Tuneshelf's), its phase and count, why the last one failed, and the
 * one way to start or cancel it. The state comes with the session's events; a
 * start or cancel that fails is a notice, named by its cause. "Cancel sync" can be
 * taken back for a few seconds ("Keep syncing"): a first sync runs half an hour,
 * and one stray click should not throw that away; a sync that was stopped says the
 * next one resumes where it stopped (the cache keeps what it brought).
 */
import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import { isError } from '@shared/errors'
import type { SyncKind } from '@shared/types'
import { api } from '../api'
import { syncPhaseLabel } from '../format/sync'
import { useNoticesStore } from './notices'
import { useSessionStore } from './session'

/** How long "Cancel sync" waits before it stops the sync, while "Keep syncing" takes it back. */
export const CANCEL_GRACE_MS = 5_000

export const useSyncStore = defineStore('sync', () => {
  const session = useSessionStore()
  const notices = useNoticesStore()
  /** Between a click on "Sync now" and the state that says the sync runs: a second click does nothing. */
  const starting = ref(false)

  const running = computed(() => session.sync?.status === 'running')
  /** Waiting for another Tuneshelf process to finish its sync of this cache. */
  const waiting = computed(() => session.sync?.status === 'waiting')
  const busy = computed(() => running.value || waiting.value || starting.value)
  const progress = computed(() => (running.value ? (session.sync?.progress ?? null) : null))
  /** The sync under way is a quick check for new tracks (the recently updated list until it meets the cache). */
  const quick = computed(() => running.value && session.sync?.lastRun?.state === 'running' && session.sync.lastRun.kind === 'quick')
  /** A request of the running sync being tried again (what, why, when), until the next progress without one. */
  const retry = computed(() => progress.value?.retry ?? null)
  /** The running sync's phase ("Artist lists"), or null before its first progress. */
  const phase = computed(() => (progress.value ? syncPhaseLabel(progress.value.phase) : null))
  /** What the running phase has counted, to show as "3 / 90"; none for the finish, one step of unknown length. */
  const counted = computed(() => {
    const value = progress.value
    return value && value.phase !== 'done' && value.total > 0 ? { done: value.done, total: value.total } : null
  })
  /** Why the last sync failed, while none runs; a cancelled one did not fail. */
  const lastError = computed(() => {
    const error = session.sync?.lastError ?? null
    return busy.value || error === null || isError(error, 'cancelled') ? null : error
  })
  /** The last sync was cancelled (none runs): the next one resumes where it stopped. */
  const stopped = computed(() => !busy.value && isError(session.sync?.lastError ?? null, 'cancelled'))
  /** What was stopped was a quick check: nothing to resume, the next check looks again from the top. */
  const stoppedCheck = computed(() => stopped.value && session.sync?.lastRun?.kind === 'quick')
  /** Whole seconds until a cancelled sync stops, while it can still be taken back (0: stopping now); null when none is. */
  const stoppingIn = ref<number | null>(null)
  /** A "Cancel sync" that can still be taken back ("Keep syncing"). */
  const undoable = computed(() => stoppingIn.value !== null && stoppingIn.value > 0)
  /** A read-only data folder cannot be synced. */
  const canStart = computed(() => !busy.value && session.service?.readOnly !== true)

  /** The notice of a failed "Sync now": it no longer holds once a sync completes (the service came back). */
  let failureNotice: number | undefined
  session.onDidEmit((event) => {
    if (failureNotice === undefined || event.type !== 'sync-state') return
    if (event.state.status === 'idle' && event.state.lastError === null) {
      notices.dismiss(failureNotice)
      failureNotice = undefined
    }
  })

  /**
   * Starts a sync (or joins the one under way); resolves once it ended, true when it succeeded.
   * "Sync now" is a full refresh (every list); "Check now" a quick check for new tracks.
   */
  async function start(kind: SyncKind = 'full'): Promise<boolean> {
    if (starting.value) return false
    starting.value = true
    // The button comes back once the state says the sync runs (or it ended), not when it completes.
    const starts = session.onDidEmit((event) => {
      if (event.type === 'sync-state') starting.value = false
    })
    try {
      await api.sync.start({ kind })
      return true
    } catch (error) {
      failureNotice = notices.error(error, 'Sync')
      return false
    } finally {
      starts.dispose()
      starting.value = false
    }
  }

  let stoppingAt: number | null = null
  let stopTimer: ReturnType<typeof setTimeout> | undefined
  let stopTick: ReturnType<typeof setInterval> | undefined
  function clearStop(): void {
    clearTimeout(stopTimer)
    clearInterval(stopTick)
    stopTimer = stopTick = undefined
    stoppingAt = null
    stoppingIn.value = null
  }

  /** "Cancel sync": stops the sync in CANCEL_GRACE_MS unless keepSyncing() comes first. */
  function cancel(): void {
    if (!busy.value || stoppingAt !== null) return
    stoppingAt = Date.now() + CANCEL_GRACE_MS
    const count = (): void => {
      stoppingIn.value = Math.max(1, Math.ceil((stoppingAt! - Date.now()) / 1000))
    }
    count()
    stopTick = setInterval(count, 250)
    stopTimer = setTimeout(() => void cancelNow(), CANCEL_GRACE_MS)
  }

  /** Takes back a "Cancel sync" that has not stopped the sync yet. */
  function keepSyncing(): void {
    clearStop()
  }

  /** Stops the sync now; what it brought stays, and the next sync resumes from there. Until it has stopped, stoppingIn is 0. */
  async function cancelNow(): Promise<void> {
    clearStop()
    if (!busy.value) return
    stoppingIn.value = 0
    try {
      await api.sync.cancel()
    } catch (error) {
      stoppingIn.value = null
      notices.error(error, 'Cancelling the sync')
    }
  }

  // A sync that ends by itself meanwhile leaves nothing to cancel.
  watch(
    busy,
    (now) => {
      if (!now) clearStop()
    },
    { flush: 'sync' },
  )

  return { running, waiting, busy, progress, retry, quick, phase, counted, lastError, stopped, stoppedCheck, stoppingIn, undoable, canStart, start, cancel, keepSyncing, cancelNow }
})

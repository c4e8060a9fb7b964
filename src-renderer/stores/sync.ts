/**
 * The catalogue's sync as every screen sees it: whether one runs (or waits for
 * another Tuneshelf's), its phase and count, why the last one failed, and the
 * one way to start or cancel it. The state comes with the session's events; a
 * start or cancel that fails is a notice, named by its cause.
 */
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { isError } from '@shared/errors'
import { api } from '../api'
import { syncPhaseLabel } from '../format/sync'
import { useNoticesStore } from './notices'
import { useSessionStore } from './session'

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

  /** Starts a sync (or joins the one under way); resolves once it ended, true when it succeeded. */
  async function start(): Promise<boolean> {
    if (starting.value) return false
    starting.value = true
    // The button comes back once the state says the sync runs (or it ended), not when it completes.
    const starts = session.onDidEmit((event) => {
      if (event.type === 'sync-state') starting.value = false
    })
    try {
      await api.sync.start()
      return true
    } catch (error) {
      failureNotice = notices.error(error, 'Sync')
      return false
    } finally {
      starts.dispose()
      starting.value = false
    }
  }

  async function cancel(): Promise<void> {
    try {
      await api.sync.cancel()
    } catch (error) {
      notices.error(error, 'Cancelling the sync')
    }
  }

  return { running, waiting, busy, progress, phase, counted, lastError, canStart, start, cancel }
})

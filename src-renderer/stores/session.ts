/**
 * The session as the window sees it: the snapshot taken when the window
 * subscribed, kept current by the event stream (the service, settings, sync,
 * the download queue's state, online state), each event carrying what changed:
 * the window never reads the state again. Other stores hear the same events
 * through onDidEmit. (The chosen theme is applied by the settings store, which
 * shows a choice before the core confirms it.)
 */
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import { heldBackText, newTracksText } from '@shared/new-tracks-text'
import { applySessionEvent } from '@shared/session-state'
import type { Disposable } from '@shared/disposable'
import type { AppInfo, SessionEvent, SessionSnapshot } from '@shared/types'
import { api } from '../api'
import type { CacheContents } from '../format/sync'
import { useNoticesStore } from './notices'

export const useSessionStore = defineStore('session', () => {
  const snapshot = ref<SessionSnapshot | null>(null)
  const info = shallowRef<AppInfo | null>(null)
  /** Why the session could not be opened (no snapshot came). */
  const startError = ref<string | null>(null)
  /**
   * The event stream, once the session is open: open; lost (the web bridge stopped answering; the
   * stream keeps trying, and comes back by itself if the bridge does on the same port); closed (the
   * bridge refused it: another run of `npm run web`, with another token).
   */
  const connection = ref<'open' | 'lost' | 'closed'>('open')
  const now = ref(Date.now())
  const listeners = new Set<(event: SessionEvent) => void>()
  const notices = useNoticesStore()

  const online = computed(() => snapshot.value?.online ?? true)
  const sync = computed(() => snapshot.value?.sync ?? null)
  const settings = computed(() => snapshot.value?.settings ?? null)
  const service = computed(() => snapshot.value?.service ?? null)
  /** When the catalogue was last synced, by a quick check or a full refresh. */
  const lastSyncAt = computed(() => sync.value?.lastCheckAt ?? sync.value?.lastFullSyncAt ?? null)
  /**
   * What the cache holds: the catalogue of a completed sync; part of one (a first sync's pages, the
   * sync under way, stopped or failed); or nothing at all. Only "nothing" is "nothing cached".
   */
  const cached = computed<CacheContents>(() => (lastSyncAt.value !== null ? 'synced' : sync.value?.hasArtists ? 'partial' : 'nothing'))

  /** Hear every event of the session; dispose the result to stop. */
  function onDidEmit(listener: (event: SessionEvent) => void): Disposable {
    listeners.add(listener)
    return { dispose: () => listeners.delete(listener) }
  }

  function apply(event: SessionEvent): void {
    const current = snapshot.value
    if (!current) return
    snapshot.value = applySessionEvent(current, event)
    switch (event.type) {
      case 'notice':
        // Titled by the error's cause, in the session's words (they say what failed: "the sync of … failed: …").
        notices.error({ code: 'internal', ...event.error, message: event.message })
        break
      case 'new-tracks':
        // One note per sync that brought followed artists new tracks, however many; it waits to be read.
        // What auto-download held back is said too: What's new has the button that downloads the rest.
        notices.note(
          newTracksText(event),
          event.heldBack ? `From artists you follow. Auto-download ${heldBackText(event.heldBack)}: Download the rest in What's new.` : 'From artists you follow.',
          { label: "Open What's new", to: '/whats-new' },
        )
        break
      default:
        break
    }
  }

  /**
   * Subscribes to the session: its snapshot, then the events that keep it current, in order (the
   * transport opens the stream before it takes the snapshot, so none is missed). A snapshot that
   * comes again (the web bridge's stream reconnected, and events may have been missed meanwhile)
   * replaces the state, and the other stores hear it as a switch of service: they read everything again.
   */
  async function start(): Promise<void> {
    const first = new Promise<void>((resolve) => {
      api.subscribe({
        snapshot: (next) => {
          const again = snapshot.value !== null
          snapshot.value = next
          startError.value = null
          connection.value = 'open'
          resolve()
          if (again) for (const listener of listeners) listener({ type: 'service', service: next.service })
        },
        events: (events) => {
          for (const event of events) {
            apply(event)
            for (const listener of listeners) listener(event)
          }
        },
        failed: (error) => {
          if (snapshot.value) connection.value = 'closed'
          else startError.value = error.message
          resolve()
        },
        lost: () => {
          if (snapshot.value) connection.value = 'lost'
        },
      })
    })
    await first
    try {
      info.value = await api.app.info()
    } catch (error) {
      startError.value = (error as Error).message
    }
    // Ages on screen ("synced 5 minutes ago") move on by themselves.
    setInterval(() => (now.value = Date.now()), 30_000)
  }

  return { snapshot, info, startError, connection, now, online, sync, settings, service, lastSyncAt, cached, onDidEmit, start }
})

/**
 * What the last two syncs brought, as the What's new screen shows it: read
 * from the cache when the screen opens, and again once a burst of changes
 * settles while it is shown (a sync that stored pages, one that ended even
 * with nothing new, another service). One read at a time: changes that come
 * meanwhile make one more read, never a late answer over a newer one.
 */
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { WhatsNew } from '@shared/types'
import { api } from '../api'
import { runTitle } from '../format/whats-new'
import { useNoticesStore } from './notices'
import { useSessionStore } from './session'

/** At most this many artists and this many tracks are listed; the counts say how many there are in all. */
export const WHATS_NEW_LIMIT = 200
/** Events come in bursts while a sync stores its pages: read once the burst settles. */
export const RELOAD_DELAY_MS = 300

export const useWhatsNewStore = defineStore('whats-new', () => {
  const session = useSessionStore()
  const notices = useNoticesStore()
  const news = shallowRef<WhatsNew | null>(null)
  /** The last read failed (what was read before, if anything, stays). */
  const failed = ref(false)
  /** Screens showing the news: events read it again only while one does. */
  let viewers = 0

  let loading: Promise<void> | undefined
  let again = false
  /** Reads the news now, or once the read under way is over. */
  function load(): Promise<void> {
    if (loading) {
      again = true
      return loading
    }
    loading = (async () => {
      do {
        again = false
        try {
          news.value = await api.catalogue.whatsNew(WHATS_NEW_LIMIT)
          failed.value = false
        } catch (error) {
          failed.value = true
          notices.error(error, "What's new")
        }
      } while (again)
      loading = undefined
    })()
    return loading
  }

  let timer: ReturnType<typeof setTimeout> | undefined
  function reloadSoon(): void {
    clearTimeout(timer)
    if (viewers > 0) timer = setTimeout(() => void load(), RELOAD_DELAY_MS)
  }

  session.onEvent((event) => {
    // Another service's news is not this one's: nothing is shown until its own is read.
    if (event.type === 'service') news.value = null
    if (event.type === 'catalogue-changed' || event.type === 'service') reloadSoon()
    else if (event.type === 'sync-state' && event.state.status === 'idle') reloadSoon()
  })

  /** A screen shows the news: read them now and follow the changes; returns the function that stops that. */
  function watchNews(): () => void {
    viewers += 1
    void load()
    let stopped = false
    return () => {
      if (stopped) return
      stopped = true
      viewers -= 1
      if (viewers === 0) clearTimeout(timer)
    }
  }

  /** The syncs shown, newest first, each with what it brought. */
  const runs = computed(() => {
    const value = news.value
    if (!value) return []
    return value.runs.map((run, index) => ({
      ...run,
      title: runTitle(index),
      artists: value.artists.filter((entry) => entry.runId === run.id),
      tracks: value.tracks.filter((entry) => entry.runId === run.id),
    }))
  })
  const nothingNew = computed(() => news.value !== null && news.value.artists.length === 0 && news.value.tracks.length === 0)

  return { news, failed, runs, nothingNew, load, watchNews }
})

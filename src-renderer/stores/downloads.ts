/**
 * The download queue as every screen sees it: the rows, kept current by the
 * session's events (one event per action, however many rows), the live
 * progress of each running download, and the queue's own state. The artist
 * screen asks it for an upload's download; the downloads screen lists it all.
 */
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, triggerRef } from 'vue'
import type { DownloadProgress, DownloadView } from '@shared/types'
import { api } from '../api'
import { useNoticesStore } from './notices'
import { useSessionStore } from './session'

export const useDownloadsStore = defineStore('downloads', () => {
  const session = useSessionStore()
  const notices = useNoticesStore()
  /** Every download by id; replaced rows keep the map's identity (triggerRef tells the views). */
  const byId = shallowRef(new Map<number, DownloadView>())
  const progress = shallowRef(new Map<number, DownloadProgress>())
  const loaded = ref(false)
  const monthBytes = ref(0)

  const list = computed(() => [...byId.value.values()].sort((a, b) => a.id - b.id))
  /** The live download of each upload (the newest row, whatever its folder). */
  const byUpload = computed(() => {
    const map = new Map<string, DownloadView>()
    for (const download of list.value) map.set(download.uploadId, download)
    return map
  })

  async function load(): Promise<void> {
    try {
      const rows = await api.downloads.list()
      byId.value = new Map(rows.map((row) => [row.id, row]))
      monthBytes.value = (await api.downloads.monthlyBytes()).bytes
      loaded.value = true
    } catch (error) {
      notices.error(error, 'Downloads')
    }
  }

  session.onEvent((event) => {
    if (event.type === 'downloads-changed') {
      for (const download of event.downloads) {
        byId.value.set(download.id, { ...download, interrupted: false })
        if (download.state !== 'downloading') progress.value.delete(download.id)
      }
      for (const id of event.removed) {
        byId.value.delete(id)
        progress.value.delete(id)
      }
      triggerRef(byId)
      triggerRef(progress)
      // What this month counts has moved on; read it again, cheaply, once the burst is over.
      void refreshMonth()
    } else if (event.type === 'download-progress') {
      progress.value.set(event.progress.id, event.progress)
      triggerRef(progress)
    } else if (event.type === 'service') {
      void load()
    }
  })

  let monthTimer: ReturnType<typeof setTimeout> | undefined
  function refreshMonth(): Promise<void> {
    clearTimeout(monthTimer)
    return new Promise((resolve) => {
      monthTimer = setTimeout(async () => {
        monthBytes.value = (await api.downloads.monthlyBytes()).bytes
        resolve()
      }, 500)
    })
  }

  /** Runs a queue action, reporting its failure by cause. */
  async function act(what: string, action: () => Promise<unknown>): Promise<boolean> {
    try {
      await action()
      return true
    } catch (error) {
      notices.error(error, what)
      return false
    }
  }

  return { byId, progress, list, byUpload, loaded, monthBytes, load, act }
})

/**
 * The caches of the data folder, one per service, with their sizes: read when
 * the Settings screen asks, and again when a sync ends or the service changes
 * (their sizes move then). Clearing one is reported as a note, or by its cause.
 */
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { CacheInfo } from '@shared/types'
import { api } from '../api'
import { useNoticesStore } from './notices'
import { useSessionStore } from './session'

/** The demo catalogue's cache is named after it, whatever port the demo had. */
export function isDemoCache(cache: CacheInfo): boolean {
  return /[\\/]demo\.sqlite$/.test(cache.file)
}

/** The service a cache holds, in words: "Demo catalogue", or its address. */
export function cacheServiceName(cache: CacheInfo): string {
  if (isDemoCache(cache)) return 'Demo catalogue'
  return cache.baseUrl ?? 'A cache that cannot be read'
}

export const useCachesStore = defineStore('caches', () => {
  const session = useSessionStore()
  const notices = useNoticesStore()
  /** Null until first read. */
  const caches = shallowRef<CacheInfo[] | null>(null)
  /** The file of the cache being cleared. */
  const clearing = ref<string | null>(null)

  async function load(): Promise<void> {
    try {
      caches.value = await api.caches.list()
    } catch (error) {
      caches.value ??= []
      notices.error(error, 'Caches')
    }
  }

  // Sizes move when a sync ends or the service changes; read again once they have been read at all.
  session.onDidEmit((event) => {
    if (caches.value === null) return
    if (event.type === 'service' || (event.type === 'sync-state' && event.state.status === 'idle')) void load()
  })

  async function clear(cache: CacheInfo): Promise<void> {
    clearing.value = cache.file
    try {
      await api.caches.clear(cache.file)
      notices.note('Cache cleared', cache.current ? 'Sync now to fill it again.' : `${cacheServiceName(cache)} is no longer cached.`)
    } catch (error) {
      notices.error(error, 'Clearing the cache')
    } finally {
      clearing.value = null
      await load()
    }
  }

  return { caches, clearing, load, clear }
})

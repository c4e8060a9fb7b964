/**
 * The Tiers screen's state: the service's access levels from the cache, this
 * month's downloaded bytes, and the artist being checked with how their uploads
 * fit each level. Read when the screen opens, and again while it is open when a
 * sync changes the catalogue or the service changes.
 */
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import { isError } from '@shared/errors'
import type { AccessLevel } from '@shared/catalogue'
import { cheapestFit, type TierFit } from '@shared/tiers'
import type { ArtistSummary, ArtistWithTracks } from '@shared/types'
import { api } from '../api'
import { useDownloadsStore } from './downloads'
import { useNoticesStore } from './notices'
import { useSessionStore } from './session'

/** A sync changes the catalogue batch by batch: the screen reads it again once a burst is over. */
const SETTLE_MS = 300
/** Artists the picker offers at most. */
const MATCHES = 8

export const useTiersStore = defineStore('tiers', () => {
  const session = useSessionStore()
  const notices = useNoticesStore()
  const downloads = useDownloadsStore()

  /** The levels, cheapest first; null while they are read. */
  const levels = shallowRef<AccessLevel[] | null>(null)
  /** The month the downloads are counted in ("2026-11"), and its bytes: the downloads store's, which keeps them current. */
  const month = computed(() => downloads.month)
  const monthBytes = computed(() => downloads.monthBytes)

  /** The artist checked (a username, as the address gives it), what the cache has of them, and their fit. */
  const username = ref<string | null>(null)
  const artist = shallowRef<ArtistWithTracks | null>(null)
  const fits = shallowRef<TierFit[] | null>(null)
  const artistError = ref('')
  const loadingArtist = ref(false)

  const cheapest = computed(() => (fits.value ? cheapestFit(fits.value) : undefined))
  /** Uploads whose size the catalogue does not give (counted as 0). */
  const unknownSizes = computed(() => artist.value?.tracks.filter((track) => track.bytes === null).length ?? 0)

  function fitOf(level: AccessLevel): TierFit | undefined {
    return fits.value?.find((fit) => fit.level.id === level.id)
  }

  async function loadLevels(): Promise<void> {
    try {
      levels.value = [...(await api.catalogue.levels())].sort((a, b) => a.price - b.price || a.id - b.id)
    } catch (error) {
      levels.value = []
      notices.error(error, 'Could not read the access levels')
    }
  }

  function loadMonth(): Promise<void> {
    return downloads.loadMonth()
  }

  let latestArtist = 0
  async function loadArtist(): Promise<void> {
    const mine = ++latestArtist
    const name = username.value
    artistError.value = ''
    if (!name) {
      artist.value = null
      fits.value = null
      loadingArtist.value = false
      return
    }
    loadingArtist.value = true
    try {
      const [found, fit] = await Promise.all([api.catalogue.artist(name), api.catalogue.tierFit(name)])
      if (mine !== latestArtist) return
      artist.value = found
      fits.value = fit
    } catch (error) {
      if (mine !== latestArtist) return
      artist.value = null
      fits.value = null
      artistError.value = isError(error, 'not_found') ? `There is no artist "${name}" in the cache.` : (error as Error).message
    } finally {
      if (mine === latestArtist) loadingArtist.value = false
    }
  }

  /** Checks an artist (null: none); what was shown of another goes at once. */
  async function check(name: string | null): Promise<void> {
    if (name !== username.value) {
      artist.value = null
      fits.value = null
    }
    username.value = name
    await loadArtist()
  }

  let latestSearch = 0
  /** The cached artists whose name matches, for the picker; undefined when a later search overtook this one. */
  async function searchArtists(text: string): Promise<ArtistSummary[] | undefined> {
    const mine = ++latestSearch
    try {
      const page = await api.catalogue.list({ q: text, limit: MATCHES, offset: 0, includeBlank: true })
      return mine === latestSearch ? page.artists : undefined
    } catch (error) {
      if (mine === latestSearch) notices.error(error, 'Could not search the artists')
      return mine === latestSearch ? [] : undefined
    }
  }

  // ---- While the screen is open

  let open = false
  let settleTimer: ReturnType<typeof setTimeout> | undefined
  let serviceChanged = false

  /** The screen opened, for an artist or none: everything is read afresh (a sync may have changed it meanwhile). */
  async function start(name: string | null): Promise<void> {
    open = true
    await Promise.all([loadLevels(), loadMonth(), check(name)])
  }

  function stop(): void {
    open = false
    clearTimeout(settleTimer)
  }

  session.onDidEmit((event) => {
    if (!open || (event.type !== 'catalogue-changed' && event.type !== 'service')) return
    // A sync brings the levels (and the artist's tracks); another service brings its own, and its own month.
    serviceChanged ||= event.type === 'service'
    clearTimeout(settleTimer)
    settleTimer = setTimeout(() => {
      void loadLevels()
      void loadArtist()
      if (serviceChanged) void loadMonth()
      serviceChanged = false
    }, SETTLE_MS)
  })


  return {
    levels, month, monthBytes, username, artist, fits, artistError, loadingArtist, cheapest, unknownSizes,
    fitOf, check, searchArtists, start, stop,
  }
})

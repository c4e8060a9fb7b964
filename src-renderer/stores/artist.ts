/**
 * The artist on screen: read from the cache at once, then refreshed from the
 * service in the background when online (a quiet "Updated" note when that
 * changed anything the user had seen: not for the tracks of an artist whose
 * list entry carried only some; nothing said when offline), kept current when a sync
 * changes the catalogue, what "Download all" would take and which tier holds
 * the artist's uploads. Every answer belongs to one open(): an answer for an
 * artist the user has left is dropped.
 */
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { LinkKind } from '@shared/links'
import { cheapestFit, type TierFit } from '@shared/tiers'
import type { ArtistWithTracks, DownloadEstimate } from '@shared/types'
import { errorCode, isError } from '@shared/errors'
import { api } from '../api'
import type { ArtistDownloadState } from '../format/download-all'
import { artistTitle } from '../format/titles'
import { useDownloadsStore } from './downloads'
import { useNoticesStore } from './notices'
import { useSessionStore } from './session'

/** Where the screen is: reading the cache, showing an artist, or unable to. */
export type ArtistStatus = 'idle' | 'loading' | 'ready' | 'missing' | 'failed'

/** Downloads "Download all" would leave as they are (the core's plan: queued, running, paused, or done). */
const ON_THEIR_WAY = new Set(['queued', 'downloading', 'paused', 'completed'])

/** Failures that only mean the service cannot be reached now: the cache is shown without complaint. */
const QUIET_CODES = new Set(['network', 'cancelled', 'read_only'])
/** Downloads finishing one after another move the estimate once the burst is over. */
const ESTIMATE_DELAY_MS = 300

/** What the user sees of an artist: two copies that differ here differ on screen. */
function visible(artist: ArtistWithTracks): string {
  const { detailFetchedAt: _fetched, detailError: _error, goneAt: _gone, avatarCached: _cached, ...shown } = artist
  return JSON.stringify(shown)
}

export const useArtistStore = defineStore('artist', () => {
  const session = useSessionStore()
  const notices = useNoticesStore()
  const downloads = useDownloadsStore()

  /** The username asked for (as in the address). */
  const username = ref<string | null>(null)
  const artist = shallowRef<ArtistWithTracks | null>(null)
  const status = ref<ArtistStatus>('idle')
  /** Why the cache could not be read, when status is failed. */
  const failure = ref<string | null>(null)
  /** True while the background refresh runs. */
  const refreshing = ref(false)
  /** The refresh under way brings the artist's tracks for the first time (the list results carried only some). */
  const fetchingTracks = computed(() => refreshing.value && artist.value !== null && artist.value.detailFetchedAt === null)
  /** Why the last refresh did not happen, when it is worth saying (not for offline). */
  const refreshProblem = ref<string | null>(null)
  const estimate = shallowRef<(DownloadEstimate & { folder: string }) | null>(null)
  /** What the estimate (or its failure) was worked out for (a planKey); null before its first answer. */
  const estimateFor = ref<string | null>(null)
  /** What this visit's "Download all" queued: files on their way, and their bytes still to come. */
  const queued = shallowRef<{ files: number; bytes: number } | null>(null)
  /** Each access level against the artist's uploads; null while unknown. */
  const tierFits = shallowRef<TierFit[] | null>(null)
  /** Each open() gets a number, so answers for an artist left behind are dropped. */
  let generation = 0

  const gone = computed(() => artist.value !== null && artist.value.goneAt !== null)
  /** The cheapest level whose limits hold every upload of the artist. */
  const cheapestTier = computed(() => (tierFits.value ? cheapestFit(tierFits.value) : undefined))
  /**
   * What an estimate depends on, as the window knows it: the artist's tracks, and which of them
   * have a download on its way or done. An estimate worked out for another key is not the answer
   * for what is on screen (the tracks came in, downloads were queued or cancelled since).
   */
  const planKey = computed(() => {
    const current = artist.value
    if (!current) return ''
    const known = downloads.byUpload
    return current.tracks.map((track) => `${track.uploadId}${ON_THEIR_WAY.has(known.get(track.uploadId)?.state ?? '') ? '=' : '+'}`).join(',')
  })
  /**
   * What "Download all" would take, as it stands: being worked out (no answer yet for the tracks and
   * downloads on screen), what this visit just queued, or the estimate (null when it could not be had).
   */
  const downloadAllState = computed<ArtistDownloadState>(() => {
    const current = estimateFor.value === planKey.value
    const left = current ? (estimate.value?.files ?? null) : null
    // What was just queued stands until an estimate says something is left again (a download cancelled since).
    if (queued.value && (!current || left === 0)) return { kind: 'queued', ...queued.value }
    if (!current) return { kind: 'working' }
    return { kind: 'estimate', estimate: estimate.value }
  })

  /** Opens an artist: the cache now, the service in the background. */
  async function open(name: string): Promise<void> {
    const mine = ++generation
    if (username.value?.toLowerCase() !== name.toLowerCase()) {
      artist.value = null
      tierFits.value = null
    }
    // A visit starts afresh: the downloads may have changed since the last one.
    estimate.value = null
    estimateFor.value = null
    queued.value = null
    username.value = name
    failure.value = null
    refreshProblem.value = null
    refreshing.value = false
    status.value = 'loading'
    try {
      const cached = await api.catalogue.artist(name)
      if (mine !== generation) return
      artist.value = cached
      status.value = 'ready'
    } catch (error) {
      if (mine !== generation) return
      artist.value = null
      if (isError(error, 'not_found')) status.value = 'missing'
      else {
        status.value = 'failed'
        failure.value = (error as Error).message
      }
      return
    }
    void updateEstimate()
    void updateTiers()
    if (session.online) await refresh(mine)
  }

  /** Asks the service for the artist now; says "Updated" when what is shown changed. */
  async function refresh(mine = generation): Promise<void> {
    const name = username.value
    if (name === null || artist.value === null) return
    const before = visible(artist.value)
    // The list gave only some of the tracks: this fetch brings them, it does not check what was seen.
    const firstFetch = artist.value.detailFetchedAt === null
    refreshing.value = true
    try {
      const result = await api.catalogue.refreshArtist(name)
      if (mine !== generation) return
      const changed = visible(result.artist) !== before
      // The same artist as shown stays the same object: a thousand rows are not drawn again for nothing.
      const shown = artist.value
      if (changed || !shown || result.artist.goneAt !== shown.goneAt || result.artist.avatarCached !== shown.avatarCached || (shown.detailFetchedAt === null) !== (result.artist.detailFetchedAt === null)) {
        artist.value = result.artist
      }
      if (changed && !result.gone) {
        // "Changed" only of what the user saw before: a first fetch is the tracks coming in, which the page shows.
        if (!firstFetch) notices.note('Updated', `${artistTitle(result.artist)} changed on the service; this page shows the new details.`)
        void updateEstimate()
        void updateTiers()
      }
    } catch (error) {
      if (mine !== generation) return
      const code = errorCode(error) ?? 'internal'
      // Offline, or the service unreachable: the cache is what there is, and the banner says so.
      refreshProblem.value = QUIET_CODES.has(code) ? null : (error as Error).message
    } finally {
      if (mine === generation) refreshing.value = false
    }
  }

  /** Reads the artist from the cache again (a sync changed the catalogue). */
  async function reload(): Promise<void> {
    const name = username.value
    const mine = generation
    if (name === null || status.value !== 'ready') return
    try {
      const cached = await api.catalogue.artist(name)
      const shown = artist.value
      if (mine !== generation || shown === null) return
      if (visible(cached) !== visible(shown) || cached.goneAt !== shown.goneAt) artist.value = cached
      void updateTiers()
    } catch {
      // The artist stays as shown; the next open reads it again.
    }
  }

  /** Estimates asked for, and the latest whose answer is shown: an older answer that comes late is dropped. */
  let estimatesAsked = 0
  let estimateShown = 0

  /** What queuing every track would take: files and bytes still to fetch, against the free space. */
  async function updateEstimate(): Promise<void> {
    const name = username.value
    const mine = generation
    if (name === null) return
    const key = planKey.value
    const asked = ++estimatesAsked
    let result: (DownloadEstimate & { folder: string }) | null
    try {
      result = await downloads.estimate({ artist: name })
    } catch {
      // Without an estimate "Download all" still works: the queue checks the space itself.
      result = null
    }
    if (mine !== generation || asked < estimateShown) return
    estimateShown = asked
    estimate.value = result
    estimateFor.value = key
  }

  /** Which access levels hold the artist's uploads (the levels come with a sync). */
  async function updateTiers(): Promise<void> {
    const name = username.value
    const mine = generation
    if (name === null) return
    try {
      const fits = await api.catalogue.tierFit(name)
      if (mine === generation) tierFits.value = fits
    } catch {
      // The link to Tiers then says nothing of a tier; the Tiers screen has the whole story.
      if (mine === generation) tierFits.value = null
    }
  }

  /** Queues every track of the artist; false when refused (the reason is a notice). Until an estimate says otherwise, the page says what it queued. */
  async function downloadAll(): Promise<boolean> {
    const name = username.value
    if (name === null || artist.value === null) return false
    const mine = generation
    const result = await downloads.queueArtist(name, artistTitle(artist.value))
    if (mine !== generation) return result !== null
    if (result) queued.value = result
    void updateEstimate()
    return result !== null
  }

  /** Opens one of the artist's links in the system's browser; the web bridge leaves that to this page. */
  async function openLink(kind: LinkKind, value: string, label: string): Promise<void> {
    try {
      const { address, opened } = await api.app.openLink({ kind, value })
      if (!opened) window.open(address, '_blank', 'noopener,noreferrer')
    } catch (error) {
      notices.error(error, `Could not open ${label}`)
    }
  }

  session.onDidEmit((event) => {
    if (event.type === 'catalogue-changed') void reload()
  })

  // Back online with an artist on screen that could not be checked: check it now.
  watch(
    () => session.online,
    (online, before) => {
      if (online && !before && status.value === 'ready' && !refreshing.value) void refresh()
    },
  )

  // The downloads of the artist's tracks, read and kept current by the downloads store while the artist is here.
  watch(artist, (current) => {
    if (current) downloads.track('artist', current.tracks.map((track) => track.uploadId))
    else downloads.untrack('artist')
  })

  // What is left to download shrinks as this artist's downloads finish or are cancelled.
  let estimateTimer: ReturnType<typeof setTimeout> | undefined
  watch(
    () => {
      const current = artist.value
      if (!current) return ''
      return current.tracks.map((track) => downloads.byUpload.get(track.uploadId)?.state ?? '').join()
    },
    () => {
      clearTimeout(estimateTimer)
      estimateTimer = setTimeout(() => void updateEstimate(), ESTIMATE_DELAY_MS)
    },
  )

  return {
    username, artist, status, failure, refreshing, fetchingTracks, refreshProblem, estimate, downloadAllState, tierFits, cheapestTier, gone,
    open, refresh, reload, updateEstimate, downloadAll, openLink,
  }
})

/**
 * What the last ten syncs brought (or, after the first sync alone, the newest
 * uploads), as the What's new screen shows it: read from the cache when the
 * screen opens, and again once a burst of changes settles while it is shown
 * (a sync that stored pages, one that ended even with nothing new, another
 * service). One read at a time: changes that come meanwhile make one more
 * read, never a late answer over a newer one.
 *
 * Each track's download is the downloads store's live row (the read's own is
 * only a start), so Play and Download follow the queue as it moves. Play
 * queues every downloaded track of the screen, in the screen's order.
 */
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { DownloadEstimate, WhatsNew, WhatsNewTrack } from '@shared/types'
import type { DownloadState } from '@shared/catalogue'
import type { Disposable } from '@shared/disposable'
import { api } from '../api'
import { artistTitle, trackTitle } from '../format/titles'
import { plural, sectionsOf, tracksInOrder } from '../format/whats-new'
import { useDownloadsStore } from './downloads'
import { useFollowsStore } from './follows'
import { useNoticesStore } from './notices'
import { oneRead, RELOAD_DELAY_MS } from './one-read'
import { usePlayerStore, type QueueTrack } from './player'
import { useSessionStore } from './session'

/** At most this many artists and this many tracks are listed; the counts say how many there are in all. */
export const WHATS_NEW_LIMIT = 200
export { RELOAD_DELAY_MS } from './one-read'

/** A track's download as its buttons need it: the newest row of the upload, or none. */
export interface TrackDownload {
  id: number
  state: DownloadState
}

/** A track can be downloaded when the catalogue gives its file. */
export function downloadable(entry: WhatsNewTrack): boolean {
  return entry.track.hotlinkPath !== null && entry.track.bytes !== null
}

/** Who asks the downloads store to follow the news's tracks. */
const OWNER = 'whats-new'

export const useWhatsNewStore = defineStore('whats-new', () => {
  const session = useSessionStore()
  const notices = useNoticesStore()
  const downloads = useDownloadsStore()
  const player = usePlayerStore()
  const news = shallowRef<WhatsNew | null>(null)
  /** The last read failed (what was read before, if anything, stays). */
  const failed = ref(false)
  /** What queuing every track not yet downloaded would take; null while unknown. */
  const estimate = shallowRef<DownloadEstimate | null>(null)
  /** Screens showing the news: events read it again only while one does. */
  let viewers = 0

  const reads = oneRead(async () => {
    try {
      news.value = await api.catalogue.whatsNew(WHATS_NEW_LIMIT)
      failed.value = false
    } catch (error) {
      failed.value = true
      notices.error(error, "What's new")
    }
  })
  /** Reads the news now, or once the read under way is over. */
  const load = reads.now

  function reloadSoon(): void {
    if (viewers > 0) reads.soon()
  }

  // Following or unfollowing an artist moves it to the top or back among the others: read again.
  const follows = useFollowsStore()
  watch(
    () => [...follows.followed.keys()].sort().join(' '),
    () => reloadSoon(),
  )

  session.onDidEmit((event) => {
    // Another service's news is not this one's: nothing is shown until its own is read.
    if (event.type === 'service') news.value = null
    if (event.type === 'catalogue-changed' || event.type === 'service') reloadSoon()
    else if (event.type === 'sync-state' && event.state.status === 'idle') reloadSoon()
  })

  /** A screen shows the news: read them now and follow the changes, until disposed. */
  function watchNews(): Disposable {
    viewers += 1
    void load()
    followDownloads()
    let stopped = false
    return {
      dispose: () => {
        if (stopped) return
        stopped = true
        viewers -= 1
        if (viewers > 0) return
        reads.cancelSoon()
        downloads.untrack(OWNER)
      },
    }
  }

  /** The syncs shown, newest first, each with what it brought, as the screen lays it out. */
  const sections = computed(() => (news.value ? sectionsOf(news.value) : []))
  /** Kept for the screen's older name: the same sections. */
  const runs = sections
  const nothingNew = computed(() => news.value !== null && news.value.artists.length === 0 && news.value.tracks.length === 0)
  /** Every track listed, in the screen's order. */
  const tracks = computed(() => tracksInOrder(sections.value))

  /** While the news is shown, the downloads of its tracks are followed (the downloads store keeps them current). */
  function followDownloads(): void {
    if (viewers > 0) downloads.track(OWNER, tracks.value.map((entry) => entry.track.uploadId))
  }
  watch(tracks, followDownloads)

  /** The track's download now: the queue's live row (none when the queue has none), else, until that is read, what the news read found. */
  function downloadOf(entry: WhatsNewTrack): TrackDownload | null {
    const live = downloads.downloadOfUpload(entry.track.uploadId)
    if (live) return { id: live.id, state: live.state }
    return live === null ? null : entry.download
  }

  /** The downloaded tracks of the screen, in its order: the player's queue when one of them is played. */
  const playable = computed<QueueTrack[]>(() =>
    tracks.value.flatMap((entry) => {
      const download = downloadOf(entry)
      if (download?.state !== 'completed') return []
      return [{ downloadId: download.id, uploadId: entry.track.uploadId, title: entry.track.title, artistUsername: entry.artistUsername, artistName: artistTitle({ name: entry.artistName, username: entry.artistUsername }) }]
    }),
  )

  /** Plays a downloaded track, the screen's other downloaded tracks queued around it (next and previous walk them). */
  async function play(entry: WhatsNewTrack): Promise<void> {
    const at = playable.value.findIndex((track) => track.uploadId === entry.track.uploadId)
    if (at >= 0) await player.playList(playable.value, at)
  }

  /** Queues one track; false when refused (the reason is a notice). */
  function download(entry: WhatsNewTrack): Promise<boolean> {
    return downloads.act(`Could not download "${trackTitle(entry.track.title)}"`, () => downloads.enqueue({ uploadIds: [entry.track.uploadId] }))
  }

  /** The tracks listed that are neither downloaded nor on their way, and have a file to fetch. */
  const missing = computed(() =>
    tracks.value.filter((entry) => {
      const state = downloadOf(entry)?.state
      return downloadable(entry) && (state === undefined || state === 'cancelled' || state === 'failed')
    }),
  )
  /** Every track's size together, shown while the estimate is unknown. */
  const missingBytes = computed(() => missing.value.reduce((sum, entry) => sum + (entry.track.bytes ?? 0), 0))

  let estimateGeneration = 0
  /** What queuing the missing tracks would take, against the free space (the same check as an artist's "Download all"). */
  async function updateEstimate(): Promise<void> {
    const mine = ++estimateGeneration
    const uploadIds = missing.value.map((entry) => entry.track.uploadId)
    if (uploadIds.length === 0) {
      estimate.value = { files: 0, bytes: 0, freeBytes: 0, fits: true }
      return
    }
    try {
      const result = await downloads.estimate({ uploadIds })
      if (mine === estimateGeneration) estimate.value = result
    } catch {
      // Without an estimate the button still works: the queue checks the space itself.
      if (mine === estimateGeneration) estimate.value = null
    }
  }
  let estimateTimer: ReturnType<typeof setTimeout> | undefined
  // Downloads finishing one after another move the estimate once the burst is over.
  watch(
    () => missing.value.map((entry) => entry.track.uploadId).join(' '),
    () => {
      clearTimeout(estimateTimer)
      estimateTimer = setTimeout(() => void updateEstimate(), RELOAD_DELAY_MS)
    },
  )

  /** Queues every listed track not yet downloaded; false when refused (the reason is a notice). */
  async function downloadAll(): Promise<boolean> {
    const uploadIds = missing.value.map((entry) => entry.track.uploadId)
    if (uploadIds.length === 0) return true
    let queued = 0
    const ok = await downloads.act('Could not download the new tracks', async () => {
      const result = await downloads.enqueue({ uploadIds })
      queued = result.downloads.filter((row) => row.state !== 'completed').length
    })
    if (ok) notices.note('Queued', `${plural(queued, 'new track is', 'new tracks are')} queued.`)
    void updateEstimate()
    return ok
  }

  /** What auto-download held back over its limits, if anything: its line and its "Download the rest". */
  const heldBack = computed(() => news.value?.heldBack ?? null)

  /** Queues what auto-download held back; false when refused (the reason is a notice). The news is read again: nothing is held back then. */
  async function downloadHeldBack(): Promise<boolean> {
    let queued = 0
    const ok = await downloads.act('Could not download the held-back tracks', async () => {
      queued = (await api.follows.downloadHeldBack()).downloads.length
    })
    if (ok) notices.note('Queued', `${plural(queued, 'held-back track is', 'held-back tracks are')} queued.`)
    await load()
    return ok
  }

  return {
    news, failed, sections, runs, nothingNew, tracks, playable, missing, missingBytes, estimate, heldBack,
    load, watchNews, downloadOf, play, download, downloadAll, updateEstimate, downloadHeldBack,
  }
})

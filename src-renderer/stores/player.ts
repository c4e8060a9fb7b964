/**
 * The player for downloaded tracks: one <audio> element (the player bar's),
 * fed from the app's media protocol (downloads:playbackAddress), and what it
 * is doing. "Next" is the next completed download of the same artist, in the
 * artist's track order. A file that cannot be played is a notice.
 */
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import { isError } from '@shared/errors'
import type { ArtistWithTracks, DownloadView } from '@shared/types'
import { api } from '../api'
import { artistTitle, trackTitle } from '../format/titles'
import { useDownloadsStore } from './downloads'
import { messageOf, useNoticesStore } from './notices'

/** The track in the player. */
export interface NowPlaying {
  downloadId: number
  uploadId: string
  title: string
  artistUsername: string
  artistName: string
}

/** The artist a track belongs to, as far as the player needs it. */
type ArtistOrder = Pick<ArtistWithTracks, 'username' | 'name' | 'tracks'>
/** What the player needs of a download. */
type Playable = Pick<DownloadView, 'id' | 'uploadId' | 'title' | 'artistUsername'>

const VOLUME_KEY = 'tuneshelf.player.volume'

/** Why the element gave up on a file, as a user reads it (MediaError codes 2 to 4). */
const MEDIA_ERRORS: Record<number, string> = {
  2: 'the file could not be read; it may have been moved or deleted',
  3: 'the file is damaged, or in a format this player cannot decode',
  4: 'the file is missing, or in a format this player cannot play',
}

function storedVolume(): number {
  const value = Number(localStorage.getItem(VOLUME_KEY))
  return localStorage.getItem(VOLUME_KEY) !== null && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0.8
}

export const usePlayerStore = defineStore('player', () => {
  const downloads = useDownloadsStore()
  const notices = useNoticesStore()

  const current = shallowRef<NowPlaying | null>(null)
  /** The uploads of the current artist, in the artist's track order. */
  const order = shallowRef<string[]>([])
  const playing = ref(false)
  /** Waiting for data (starting, or after a seek). */
  const waiting = ref(false)
  const position = ref(0)
  const duration = ref(0)
  const volume = ref(storedVolume())
  const muted = ref(false)
  let audio: HTMLAudioElement | null = null
  /** Each load gets a number, so a late answer for a track skipped past is dropped. */
  let generation = 0

  /** The next completed download of the artist after the current track, if there is one. */
  const next = computed<DownloadView | null>(() => {
    const playingNow = current.value
    if (!playingNow) return null
    const start = order.value.indexOf(playingNow.uploadId)
    for (const uploadId of order.value.slice(start + 1)) {
      const download = downloads.byUpload.get(uploadId)
      if (download?.state === 'completed') return download
    }
    return null
  })

  /** Hands the store the element it plays through (the player bar's, mounted once). */
  function attach(element: HTMLAudioElement): () => void {
    audio = element
    element.volume = volume.value
    element.muted = muted.value
    const listeners: [string, () => void][] = [
      ['play', () => (playing.value = true)],
      ['playing', () => ((playing.value = true), (waiting.value = false))],
      ['pause', () => (playing.value = false)],
      ['waiting', () => (waiting.value = true)],
      ['canplay', () => (waiting.value = false)],
      ['timeupdate', () => (position.value = element.currentTime)],
      ['seeked', () => (position.value = element.currentTime)],
      ['durationchange', () => (duration.value = Number.isFinite(element.duration) ? element.duration : 0)],
      ['ended', () => void ended()],
      ['error', () => failed(element.error)],
    ]
    for (const [name, listener] of listeners) element.addEventListener(name, listener)
    return () => {
      for (const [name, listener] of listeners) element.removeEventListener(name, listener)
      if (audio === element) audio = null
    }
  }

  /**
   * Plays a completed download from the start. The artist gives the order "next" follows;
   * without it the artist is read from the cache.
   */
  async function play(download: Playable, artist?: ArtistOrder): Promise<void> {
    const mine = ++generation
    const owner = artist ?? (await artistOf(download.artistUsername))
    if (mine !== generation) return
    await load(mine, download, {
      name: owner ? artistTitle(owner) : download.artistUsername,
      order: owner ? owner.tracks.map((track) => track.uploadId) : [download.uploadId],
    })
  }

  async function load(mine: number, download: Playable, artist: { name: string; order: string[] }): Promise<void> {
    if (!audio) return
    const element = audio
    let address: string
    try {
      address = await api.downloads.playbackAddress(download.id)
    } catch (error) {
      // A file gone from the disk: its row offers "Download again" from now on.
      if (isError(error, 'not_found')) downloads.markMissing(download.id)
      if (mine === generation) notices.error(error, `Could not play "${trackTitle(download.title)}"`)
      return
    }
    if (mine !== generation) return
    current.value = {
      downloadId: download.id,
      uploadId: download.uploadId,
      title: download.title,
      artistUsername: download.artistUsername,
      artistName: artist.name,
    }
    order.value = artist.order
    position.value = 0
    duration.value = 0
    waiting.value = true
    element.src = address
    await start(element)
  }

  async function artistOf(username: string): Promise<ArtistOrder | undefined> {
    try {
      return await api.catalogue.artist(username)
    } catch {
      return undefined
    }
  }

  async function start(element: HTMLAudioElement): Promise<void> {
    try {
      await element.play()
    } catch (error) {
      // A newer load or a pause interrupted this one: not a failure. An unplayable file reports through 'error'.
      const name = error instanceof Error ? error.name : ''
      if (name !== 'AbortError' && name !== 'NotSupportedError') {
        notices.error({ code: 'unsupported', message: messageOf(error) || 'the browser refused to play it' }, `Could not play "${trackTitle(current.value?.title)}"`)
      }
    }
  }

  function failed(error: MediaError | null): void {
    playing.value = false
    waiting.value = false
    if (!error || error.code === MediaError.MEDIA_ERR_ABORTED || !current.value) return
    notices.error({ code: 'io', message: MEDIA_ERRORS[error.code] ?? error.message }, `Could not play "${trackTitle(current.value.title)}"`)
  }

  /** Plays or pauses the current track. */
  async function toggle(): Promise<void> {
    if (!audio || !current.value) return
    if (audio.paused) await start(audio)
    else audio.pause()
  }

  function pause(): void {
    audio?.pause()
  }

  /** Moves to a time in seconds within the track. */
  function seek(seconds: number): void {
    if (!audio || !Number.isFinite(seconds)) return
    const target = Math.min(Math.max(0, seconds), duration.value || 0)
    audio.currentTime = target
    position.value = target
  }

  /** Sets the volume, from 0 to 1; kept for the next session. */
  function setVolume(value: number): void {
    volume.value = Math.min(1, Math.max(0, value))
    if (audio) audio.volume = volume.value
    if (volume.value > 0 && muted.value) setMuted(false)
    localStorage.setItem(VOLUME_KEY, String(volume.value))
  }

  function setMuted(value: boolean): void {
    muted.value = value
    if (audio) audio.muted = value
  }

  /** Stops and empties the player (the bar hides). */
  function stop(): void {
    generation++
    if (audio) {
      audio.pause()
      audio.removeAttribute('src')
      audio.load()
    }
    current.value = null
    order.value = []
    playing.value = false
    waiting.value = false
    position.value = 0
    duration.value = 0
  }

  /** Plays the next completed download of the same artist. */
  async function playNext(): Promise<void> {
    const following = next.value
    const playingNow = current.value
    if (!following || !playingNow) return
    await load(++generation, following, { name: playingNow.artistName, order: order.value })
  }

  async function ended(): Promise<void> {
    playing.value = false
    if (next.value) await playNext()
  }

  return {
    current, order, playing, waiting, position, duration, volume, muted, next,
    attach, play, toggle, pause, seek, setVolume, setMuted, playNext, stop,
  }
})

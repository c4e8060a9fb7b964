/**
 * The player for downloaded tracks: one <audio> element (the player bar's),
 * fed from the app's media protocol (downloads:playbackAddress), and the play
 * queue it works through: previous, next, shuffle (the playing track first, the
 * rest at random, and back to the given order without losing the place), repeat
 * (off, all, one). A track that cannot be played is skipped; the tracks skipped
 * while a queue plays are told in ONE notice, updated as more are skipped, and
 * replaced by the next queue's (stores/player-skips.ts).
 * Long tracks resume where they were stopped (stores/player-resume.ts); the
 * system's media keys reach it through MediaSession (player-media-session.ts).
 * The queue, its current track and the place in it are kept across a reload and a
 * restart (player-session.ts): they come back paused, never playing by themselves.
 */
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { Disposable } from '@shared/disposable'
import { isError } from '@shared/errors'
import type { DownloadView } from '@shared/types'
import { api } from '../api'
import { artistTitle, trackTitle } from '../format/titles'
import { useDownloadsStore } from './downloads'
import { messageOf, useNoticesStore } from './notices'
import { after, artistQueue, before, distinct, queueTrackOf, REPEAT_MODES, shuffleAround, type ArtistOrder, type Playable, type QueueTrack, type RepeatMode } from './play-queue'
import { bindMediaSession, type MediaSessionLink } from './player-media-session'
import { forgetPlace, resumePoint, resumes, SAVE_EVERY, savePlace } from './player-resume'
import { keptPlace, keptQueue, restoredLineup, type KeptQueue } from './player-session'
import { mediaErrorOf, QueueSkips } from './player-skips'

export type { QueueTrack, RepeatMode } from './play-queue'
/** The track in the player. */
export type NowPlaying = QueueTrack

const VOLUME_KEY = 'tuneshelf.player.volume'
const SHUFFLE_KEY = 'tuneshelf.player.shuffle'
const REPEAT_KEY = 'tuneshelf.player.repeat'
/** Uploads asked about in one call when a kept queue is put back (the most `downloads:ofUploads` takes). */
const UPLOADS_PER_CALL = 10_000
/** "Previous" this far into a track (seconds) starts it over, as players do; earlier, it goes to the track before. */
export const RESTART_AFTER = 3

function storedVolume(): number {
  const value = Number(localStorage.getItem(VOLUME_KEY))
  return localStorage.getItem(VOLUME_KEY) !== null && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0.8
}

function storedRepeat(): RepeatMode {
  const value = localStorage.getItem(REPEAT_KEY) as RepeatMode | null
  return value && REPEAT_MODES.includes(value) ? value : 'off'
}

/** A queue to play: the entries in play order, and as given (what shuffle off goes back to). */
interface Lineup {
  queue: QueueTrack[]
  given: QueueTrack[]
}

export const usePlayerStore = defineStore('player', () => {
  const downloads = useDownloadsStore()
  const notices = useNoticesStore()

  /** The queue in play order (shuffled when shuffle is on). */
  const queue = shallowRef<QueueTrack[]>([])
  /** The queue as it was given. */
  let given: QueueTrack[] = []
  /** Where the current track is in `queue`; -1 when nothing plays. */
  const index = ref(-1)
  const current = computed<NowPlaying | null>(() => queue.value[index.value] ?? null)
  const shuffle = ref(localStorage.getItem(SHUFFLE_KEY) === 'true')
  const repeat = ref<RepeatMode>(storedRepeat())
  const playing = ref(false)
  /** Waiting for data (starting, or after a seek). */
  const waiting = ref(false)
  const position = ref(0)
  const duration = ref(0)
  const volume = ref(storedVolume())
  const muted = ref(false)
  let audio: HTMLAudioElement | null = null
  let media: MediaSessionLink | null = null
  /** Each load gets a number, so a late answer for a track skipped past is dropped. */
  let generation = 0
  /** The tracks this queue could not play (since the last playList()): told in one notice. */
  const skips = new QueueSkips((error, doing, replaces) => notices.error(error, doing, replaces))
  /** The place last saved of the current track. */
  let savedAt = 0
  /**
   * The last session's queue is taken back once, when the element attaches. Until that is settled, or
   * when it failed (the downloads could not be read), an empty player writes nothing over it: a
   * reload straight after a reload, or after a failure, still finds it. Anything played replaces it.
   */
  let restore: 'waiting' | 'restoring' | 'failed' | 'settled' = 'waiting'
  const keepsLast = (): boolean => restore !== 'settled' && queue.value.length === 0
  /** The current track was put back by a reload and not played since: it waits paused, at `cueAt` once its file opens. */
  let cued = false
  let cueAt: number | null = null
  const queueKept = keptQueue((): KeptQueue | null | undefined => {
    if (keepsLast()) return undefined
    if (queue.value.length === 0 || index.value < 0) return null
    const inGiven = new Map(given.map((track, at) => [track, at]))
    return { tracks: given, order: queue.value.map((track) => inGiven.get(track) ?? -1), index: index.value }
  })
  const placeKept = keptPlace(() => {
    if (keepsLast()) return undefined
    const track = current.value
    return track ? { downloadId: track.downloadId, at: cueAt ?? position.value } : null
  })
  watch([queue, index], () => {
    queueKept.save()
    placeKept.save()
  })

  const nextIndex = computed(() => (index.value < 0 ? null : after(index.value, queue.value.length, repeat.value)))
  /** The track after the current one, if any. */
  const upcoming = computed<QueueTrack | null>(() => (nextIndex.value === null ? null : (queue.value[nextIndex.value] ?? null)))
  const hasNext = computed(() => nextIndex.value !== null)

  function isCurrent(uploadId: string): boolean {
    return current.value?.uploadId === uploadId
  }

  /** Hands the store the element it plays through (the player bar's, mounted once), until disposed. */
  function attach(element: HTMLAudioElement): Disposable {
    audio = element
    element.volume = volume.value
    element.muted = muted.value
    const tellPosition = (): void => media?.position(element.currentTime, duration.value, element.playbackRate)
    const listeners: [string, () => void][] = [
      ['play', () => ((playing.value = true), (cued = false), media?.state(true))],
      ['playing', () => ((playing.value = true), (waiting.value = false), skips.tell(false), tellPosition())],
      ['pause', () => ((playing.value = false), media?.state(false), keepPlace(true), placeKept.flush(), tellPosition())],
      ['waiting', () => (waiting.value = true)],
      ['canplay', () => (waiting.value = false)],
      ['timeupdate', () => cueAt === null && ((position.value = element.currentTime), keepPlace(false), placeKept.save())],
      ['seeked', () => cueAt === null && ((position.value = element.currentTime), placeKept.save(), tellPosition())],
      ['ratechange', tellPosition],
      ['durationchange', () => ((duration.value = Number.isFinite(element.duration) ? element.duration : 0), tellPosition())],
      ['loadedmetadata', () => resume(element)],
      ['ended', () => void ended()],
      ['error', () => void failed(element.error)],
    ]
    for (const [name, listener] of listeners) element.addEventListener(name, listener)
    media = bindMediaSession({
      play: () => void resumePlaying(),
      pause,
      previous: () => void previous(),
      next: () => void next(),
      seekTo: seek,
      seekBy: (seconds) => seek(position.value + seconds),
    })
    const link = media
    if (restore === 'waiting') void restoreSession(element)
    return {
      dispose: () => {
        for (const [name, listener] of listeners) element.removeEventListener(name, listener)
        link.unbind()
        if (audio !== element) return
        audio = null
        media = null
      },
    }
  }

  watch(current, (track) => media?.metadata(track ? { title: trackTitle(track.title), artist: track.artistName } : null))

  /**
   * Puts the last session's queue back, paused at its track and place: the entries whose download is
   * gone or no longer a completed file are left out, quietly (they were not asked to play now), and
   * so is a current track whose file cannot be opened, for the next one that can (from its start).
   */
  async function restoreSession(element: HTMLAudioElement): Promise<void> {
    restore = 'restoring'
    const mine = ++generation
    try {
      const saved = queueKept.read()
      if (!saved) return
      const place = placeKept.read()
      const uploads = [...new Set(saved.tracks.map((track) => track.uploadId))]
      const byUpload = new Map<string, DownloadView>()
      // As many uploads at a time as the core takes in one call.
      for (let from = 0; from < uploads.length; from += UPLOADS_PER_CALL) {
        for (const [uploadId, download] of await downloads.downloadsOf(uploads.slice(from, from + UPLOADS_PER_CALL))) byUpload.set(uploadId, download)
      }
      if (mine !== generation) return
      const lineup = restoredLineup(saved, byUpload, place)
      if (lineup && (await cueFrom(lineup.lineup, lineup.index, lineup.at, mine, element)) === 'failed') restore = 'failed'
    } catch {
      // The downloads could not be read: the player starts empty, the kept session is tried again next time.
      restore = 'failed'
    } finally {
      if (restore === 'restoring') restore = 'settled'
      // What is kept now is what was put back (the entries left out are gone from it), or what was played meanwhile.
      queueKept.flush()
      placeKept.flush()
    }
  }

  /**
   * Loads the lineup's entry at `at` paused at `seconds` (a session put back), or if its file is gone,
   * the next one that can be opened, from its start; those gone are taken off the queue, without a
   * notice. 'none' when none is left; 'failed' when the core could not say (nothing changes then).
   */
  async function cueFrom(lineup: Lineup, at: number, seconds: number, mine: number, element: HTMLAudioElement): Promise<'cued' | 'none' | 'failed'> {
    let { queue: order, given: asGiven } = lineup
    let place = seconds
    // Each entry that cannot be opened leaves the queue: the next one slides into its place.
    for (let track = order[at]; track !== undefined; track = order[at]) {
      try {
        const address = await api.downloads.playbackAddress(track.downloadId)
        if (mine !== generation) return 'failed'
        queue.value = order
        given = asGiven
        index.value = at
        position.value = place
        duration.value = 0
        playing.value = false
        waiting.value = false
        savedAt = place
        cued = true
        cueAt = place > 0 ? place : null
        element.src = address
        media?.state(false)
        return 'cued'
      } catch (error) {
        if (mine !== generation || !isError(error, 'not_found')) return 'failed'
        downloads.markMissing(track.downloadId)
        order = order.filter((entry) => entry !== track)
        asGiven = asGiven.filter((entry) => entry !== track)
        place = 0
      }
    }
    return 'none'
  }

  /** Plays a list of tracks from `start` on, as the new queue. */
  async function playList(tracks: readonly QueueTrack[], start = 0): Promise<void> {
    const list = distinct(tracks)
    if (list.length === 0) return
    const first = list[Math.min(Math.max(0, start), list.length - 1)]!
    const lineup: Lineup = { queue: shuffle.value ? shuffleAround(list, first) : list, given: list }
    // Skips told for the last queue are over: a new one starts counting afresh (its notice replaces the last queue's).
    skips.reset()
    await playFrom(lineup, lineup.queue.indexOf(first), ++generation, forward)
  }

  /**
   * Plays a completed download, and after it the rest of its artist's downloaded tracks in the
   * artist's order (the queue). Without the artist, it is read from the cache.
   */
  async function play(download: Playable, artist?: ArtistOrder): Promise<void> {
    const mine = ++generation
    const owner = artist ?? (await artistOf(download.artistUsername))
    if (mine !== generation) return
    const name = owner ? artistTitle(owner) : download.artistName?.trim() || download.artistUsername
    const tracks = owner ? artistQueue(owner, await downloads.downloadsOf(owner.tracks.map((track) => track.uploadId))) : []
    if (mine !== generation) return
    const start = tracks.findIndex((track) => track.downloadId === download.id)
    // A download the artist's order does not list as playable (the queue's rows not read yet): played on its own.
    await (start < 0 ? playList([queueTrackOf(download, name)]) : playList(tracks, start))
  }

  async function artistOf(username: string): Promise<ArtistOrder | undefined> {
    try {
      return await api.catalogue.artist(username)
    } catch {
      return undefined
    }
  }

  const forward = (at: number, length: number): number | null => after(at, length, repeat.value)
  const backward = (at: number, length: number): number | null => before(at, length, repeat.value)

  /**
   * Plays the lineup's entry at `at`, or if it cannot be played, the next one that can, going
   * `step` by step (each entry tried once). Nothing changes on screen until a track is ready.
   */
  async function playFrom(lineup: Lineup, at: number | null, mine: number, step: typeof forward): Promise<void> {
    let candidate = at
    for (let tried = 0; candidate !== null && tried < lineup.queue.length; tried++) {
      const track = lineup.queue[candidate]!
      if (!skips.failed(track.downloadId)) {
        try {
          const address = await api.downloads.playbackAddress(track.downloadId)
          if (mine !== generation) return
          begin(lineup, candidate, address)
          return
        } catch (error) {
          if (mine !== generation) return
          // A file gone from the disk: its row offers "Download again" from now on.
          if (isError(error, 'not_found')) downloads.markMissing(track.downloadId)
          skips.skip({ track, error })
        }
      }
      candidate = step(candidate, lineup.queue.length)
    }
    giveUp()
  }

  function begin(lineup: Lineup, at: number, address: string): void {
    if (!audio) return
    keepPlace(true)
    cued = false
    cueAt = null
    queue.value = lineup.queue
    given = lineup.given
    index.value = at
    position.value = 0
    duration.value = 0
    waiting.value = true
    savedAt = 0
    audio.src = address
    void start(audio)
  }

  /**
   * Nothing more can be played: one notice for all of it, and playback stops. The player stays as it
   * is (a new list that had nothing playable leaves the old queue alone), so Previous or a click in
   * the queue go on from there.
   */
  function giveUp(): void {
    skips.tell(true)
    playing.value = false
    waiting.value = false
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

  /** The element gave up on the current file: skipped, and the queue goes on. */
  async function failed(error: MediaError | null): Promise<void> {
    playing.value = false
    waiting.value = false
    const track = current.value
    if (!error || error.code === MediaError.MEDIA_ERR_ABORTED || !track) return
    if (cued && audio) {
      // Put back by a reload and not played: taken off the queue quietly, the next one waits in its place.
      cueAt = null
      const lineup = { queue: queue.value.filter((entry) => entry !== track), given: given.filter((entry) => entry !== track) }
      const mine = ++generation
      // The entry after it takes its place; after the last, the one before.
      const cuedNext = lineup.queue.length > 0 && (await cueFrom(lineup, Math.min(index.value, lineup.queue.length - 1), 0, mine, audio)) === 'cued'
      if (!cuedNext && mine === generation) stop()
      return
    }
    skips.skip({ track, error: mediaErrorOf(error) })
    const lineup = { queue: queue.value, given }
    await playFrom(lineup, forward(index.value, queue.value.length), ++generation, forward)
  }

  /** A long track's saved place, once its file is open and its length known. */
  function resume(element: HTMLAudioElement): void {
    const track = current.value
    if (!track) return
    if (cueAt !== null) {
      // The place a reload put back, whatever the track's length (within it).
      const at = Math.min(cueAt, Number.isFinite(element.duration) ? element.duration : cueAt)
      cueAt = null
      element.currentTime = at
      position.value = at
      return
    }
    const at = resumePoint(track.uploadId, element.duration)
    if (at === null) return
    element.currentTime = at
    position.value = at
    savedAt = at
  }

  /** Saves a long track's place: now (`exact`), or when it moved SAVE_EVERY seconds from the last save. */
  function keepPlace(exact: boolean): void {
    const track = current.value
    if (!audio || !track || !resumes(duration.value)) return
    const at = audio.currentTime
    if (!exact && Math.abs(at - savedAt) < SAVE_EVERY) return
    savedAt = at
    savePlace(track.uploadId, at, duration.value)
  }

  /** Plays or pauses the current track. */
  async function toggle(): Promise<void> {
    if (!audio || !current.value) return
    // The element gave up on this file: Play tries it again from its address (and says so if it fails again).
    if (audio.error) await jump(index.value)
    else if (audio.paused) await start(audio)
    else audio.pause()
  }

  async function resumePlaying(): Promise<void> {
    if (audio?.paused && current.value) await start(audio)
  }

  function pause(): void {
    audio?.pause()
  }

  /** Moves to a time in seconds within the track. */
  function seek(seconds: number): void {
    if (!audio || !Number.isFinite(seconds)) return
    const target = Math.min(Math.max(0, seconds), duration.value || 0)
    cueAt = null
    audio.currentTime = target
    position.value = target
  }

  /** The next track in the queue (the first again when repeating all). */
  async function next(): Promise<void> {
    if (nextIndex.value === null) return
    await playFrom({ queue: queue.value, given }, nextIndex.value, ++generation, forward)
  }

  /** Starts the track over after its first seconds; before, goes to the track before (if none, starts over). */
  async function previous(): Promise<void> {
    if (!current.value) return
    const earlier = backward(index.value, queue.value.length)
    if (position.value > RESTART_AFTER || earlier === null) {
      seek(0)
      return
    }
    await playFrom({ queue: queue.value, given }, earlier, ++generation, backward)
  }

  /** Plays the queue's entry at `at` (a click in the queue). */
  async function jump(at: number): Promise<void> {
    if (!queue.value[at]) return
    await playFrom({ queue: queue.value, given }, at, ++generation, forward)
  }

  /** Takes an entry other than the current one off the queue (the current one stops with Close). */
  function remove(at: number): void {
    const track = queue.value[at]
    if (!track || at === index.value) return
    queue.value = queue.value.filter((entry) => entry !== track)
    given = given.filter((entry) => entry !== track)
    if (at < index.value) index.value--
  }

  /** Shuffle on or off, kept for the next session; the current track stays the current one. */
  function setShuffle(on: boolean): void {
    shuffle.value = on
    localStorage.setItem(SHUFFLE_KEY, String(on))
    const playingNow = current.value ?? undefined
    if (queue.value.length === 0) return
    queue.value = on ? shuffleAround(given, playingNow) : given
    index.value = playingNow ? queue.value.indexOf(playingNow) : -1
  }

  /** Repeat off, all, or one, kept for the next session. */
  function setRepeat(mode: RepeatMode): void {
    repeat.value = mode
    localStorage.setItem(REPEAT_KEY, mode)
  }

  /** Off, then all, then one, then off again (the bar's one button). */
  function cycleRepeat(): void {
    setRepeat(REPEAT_MODES[(REPEAT_MODES.indexOf(repeat.value) + 1) % REPEAT_MODES.length]!)
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

  /** Stops and empties the player and its queue (the bar hides). */
  function stop(): void {
    generation++
    // Closed: a session that could not be put back is not wanted any more either.
    restore = 'settled'
    keepPlace(true)
    cued = false
    cueAt = null
    queue.value = []
    given = []
    index.value = -1
    if (audio) {
      audio.pause()
      audio.removeAttribute('src')
      audio.load()
    }
    playing.value = false
    waiting.value = false
    position.value = 0
    duration.value = 0
    media?.state(null)
  }

  async function ended(): Promise<void> {
    playing.value = false
    const track = current.value
    if (track) forgetPlace(track.uploadId)
    savedAt = 0
    if (repeat.value === 'one' && audio) {
      audio.currentTime = 0
      await start(audio)
      return
    }
    if (nextIndex.value !== null) await next()
  }

  return {
    queue, index, current, shuffle, repeat, playing, waiting, position, duration, volume, muted, upcoming, hasNext,
    attach, isCurrent, playList, play, toggle, pause, seek, next, playNext: next, previous, jump, remove,
    setShuffle, setRepeat, cycleRepeat, setVolume, setMuted, stop,
  }
})

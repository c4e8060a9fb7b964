/**
 * The player's session as kept across a reload and a restart (stores/kept-state.ts): the
 * queue (as given, and its play order, which shuffle may have changed), the current entry,
 * and where in it playback was. Two values: the queue changes seldom and may be long, the
 * place changes all the time and is small, so each is written only when it changed.
 * Putting a session back keeps only the entries whose download is still a completed file
 * (the same upload downloaded again is played from its new download), and the place only
 * when it is the place of that same track.
 */
import type { DownloadView } from '@shared/types'
import { keptState, wholeAtLeast, type Kept } from './kept-state'
import { SAVE_EVERY } from './player-resume'
import type { QueueTrack } from './play-queue'

export const KEPT_QUEUE_KEY = 'tuneshelf.player.queue'
export const KEPT_PLACE_KEY = 'tuneshelf.player.place'
/** The versions of the stored shapes: a value of another one is ignored. */
const QUEUE_VERSION = 1
const PLACE_VERSION = 1
/** Entries kept at most: a longer queue than any list the app plays is not one it saved. */
const MAX_ENTRIES = 50_000

export interface KeptQueue {
  /** The queue as it was given (what shuffle off goes back to). */
  tracks: QueueTrack[]
  /** The play order: indices into `tracks`, each once. */
  order: number[]
  /** The current entry, in play order. */
  index: number
}

export interface KeptPlace {
  /** The download playing, so a place is never put on another track. */
  downloadId: number
  /** Seconds into it. */
  at: number
}

function isTrack(value: unknown): value is QueueTrack {
  if (typeof value !== 'object' || value === null) return false
  const track = value as Record<keyof QueueTrack, unknown>
  return (
    wholeAtLeast(track.downloadId, 0) !== null &&
    typeof track.uploadId === 'string' &&
    typeof track.title === 'string' &&
    typeof track.artistUsername === 'string' &&
    typeof track.artistName === 'string'
  )
}

export function checkKeptQueue(stored: unknown): KeptQueue | null {
  if (typeof stored !== 'object' || stored === null) return null
  const { tracks, order, index } = stored as Partial<Record<keyof KeptQueue, unknown>>
  if (!Array.isArray(tracks) || !Array.isArray(order) || tracks.length === 0 || tracks.length > MAX_ENTRIES || order.length !== tracks.length) return null
  if (!tracks.every(isTrack)) return null
  // A permutation of the entries: each index once, each within the queue.
  const seen = new Set<number>()
  for (const at of order) {
    const entry = wholeAtLeast(at, 0)
    if (entry === null || entry >= tracks.length || seen.has(entry)) return null
    seen.add(entry)
  }
  const current = wholeAtLeast(index, 0)
  if (current === null || current >= order.length) return null
  const copy = (track: QueueTrack): QueueTrack => ({
    downloadId: track.downloadId,
    uploadId: track.uploadId,
    title: track.title,
    artistUsername: track.artistUsername,
    artistName: track.artistName,
  })
  return { tracks: tracks.map(copy), order: order as number[], index: current }
}

export function checkKeptPlace(stored: unknown): KeptPlace | null {
  if (typeof stored !== 'object' || stored === null) return null
  const { downloadId, at } = stored as Partial<Record<keyof KeptPlace, unknown>>
  const id = wholeAtLeast(downloadId, 0)
  return id !== null && typeof at === 'number' && Number.isFinite(at) && at >= 0 ? { downloadId: id, at } : null
}

export function keptQueue(snapshot: () => KeptQueue | null | undefined): Kept<KeptQueue> {
  return keptState(KEPT_QUEUE_KEY, QUEUE_VERSION, checkKeptQueue, snapshot)
}

/** The place is written at most every few seconds while a track plays (and at once on pause, and when the page goes). */
export function keptPlace(snapshot: () => KeptPlace | null | undefined): Kept<KeptPlace> {
  return keptState(KEPT_PLACE_KEY, PLACE_VERSION, checkKeptPlace, snapshot, SAVE_EVERY * 1000)
}

/** What a kept session needs to know of a download now. */
export type DownloadNow = Pick<DownloadView, 'id' | 'state' | 'fileMissing'>

/** A queue put back: the entries in play order and as given, the current one, and where in it to wait. */
export interface RestoredLineup {
  lineup: { queue: QueueTrack[]; given: QueueTrack[] }
  index: number
  at: number
}

/**
 * The kept queue as it can be played now (`byUpload`: the downloads of its uploads): only the entries
 * whose upload has a completed download with its file, each download once. The current entry stays
 * current, at the kept place if that is its place; if it is gone, the next one left in play order
 * (else the last one) is current, from its start. Null when none is left.
 */
export function restoredLineup(saved: KeptQueue, byUpload: ReadonlyMap<string, DownloadNow>, place: KeptPlace | null): RestoredLineup | null {
  const seen = new Set<number>()
  const still = saved.tracks.map((track): QueueTrack | null => {
    const download = byUpload.get(track.uploadId)
    if (!download || download.state !== 'completed' || download.fileMissing || seen.has(download.id)) return null
    seen.add(download.id)
    return { ...track, downloadId: download.id }
  })
  const queue = saved.order.flatMap((at) => still[at] ?? [])
  if (queue.length === 0) return null
  const given = still.filter((track): track is QueueTrack => track !== null)
  const was = saved.order[saved.index]!
  const current = still[was]
  if (current) {
    const at = place !== null && place.downloadId === saved.tracks[was]!.downloadId ? place.at : 0
    return { lineup: { queue, given }, index: queue.indexOf(current), at }
  }
  const next = saved.order.slice(saved.index + 1).find((at) => still[at])
  return { lineup: { queue, given }, index: next === undefined ? queue.length - 1 : queue.indexOf(still[next]!), at: 0 }
}

/**
 * The player's queue as plain data: what a track in it is, how an artist's
 * downloads become one, how a shuffled order keeps the track playing first, and
 * which entry comes before or after another under each repeat mode. No state
 * here: the player store (stores/player.ts) holds the queue and plays it.
 */
import type { ArtistWithTracks, DownloadView } from '@shared/types'
import { artistTitle } from '../format/titles'

/** A track in the play queue: a completed download, and the names the player shows for it. */
export interface QueueTrack {
  downloadId: number
  uploadId: string
  title: string
  artistUsername: string
  artistName: string
}

export type RepeatMode = 'off' | 'all' | 'one'
export const REPEAT_MODES: readonly RepeatMode[] = ['off', 'all', 'one']

/** The artist a track belongs to, as far as the queue needs it. */
export type ArtistOrder = Pick<ArtistWithTracks, 'username' | 'name' | 'tracks'>
/** What the queue needs of a download. */
export type Playable = Pick<DownloadView, 'id' | 'uploadId' | 'title' | 'artistUsername'> & { artistName?: string }

/** A download as a queue entry, under its artist's shown name. */
export function queueTrackOf(download: Playable, artistName: string): QueueTrack {
  return {
    downloadId: download.id,
    uploadId: download.uploadId,
    title: download.title,
    artistUsername: download.artistUsername,
    artistName,
  }
}

/** An artist's playable downloads (completed, file still there), in the artist's track order. */
export function artistDownloads(artist: ArtistOrder, byUpload: ReadonlyMap<string, DownloadView>): DownloadView[] {
  return artist.tracks.flatMap((track) => {
    const download = byUpload.get(track.uploadId)
    return download?.state === 'completed' && !download.fileMissing ? [download] : []
  })
}

/** The queue "Play all" plays: every downloaded track of the artist, in the artist's order. */
export function artistQueue(artist: ArtistOrder, byUpload: ReadonlyMap<string, DownloadView>): QueueTrack[] {
  const name = artistTitle(artist)
  return artistDownloads(artist, byUpload).map((download) => queueTrackOf(download, name))
}

/** Each download once (the first time it comes), each entry its own object: the queue tells entries apart by identity. */
export function distinct(tracks: readonly QueueTrack[]): QueueTrack[] {
  const seen = new Set<number>()
  return tracks.flatMap((track) => (seen.has(track.downloadId) ? [] : (seen.add(track.downloadId), [{ ...track }])))
}

/** A new array in random order (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** The shuffled order: the track playing (or about to) first, the others after it at random, so the place is kept. */
export function shuffleAround<T>(items: readonly T[], first: T | undefined, random?: () => number): T[] {
  if (first === undefined) return shuffled(items, random)
  return [first, ...shuffled(items.filter((item) => item !== first), random)]
}

/**
 * The entry after `index`: the next one, else the first again when repeating. Repeating one track
 * is the player's business at a track's end; moving by hand, the queue then loops as with "all".
 */
export function after(index: number, length: number, repeat: RepeatMode): number | null {
  if (length === 0) return null
  if (index + 1 < length) return index + 1
  return repeat !== 'off' ? 0 : null
}

/** The entry before `index`: the one before, else the last when repeating. */
export function before(index: number, length: number, repeat: RepeatMode): number | null {
  if (length === 0) return null
  if (index - 1 >= 0) return index - 1
  return repeat !== 'off' ? length - 1 : null
}

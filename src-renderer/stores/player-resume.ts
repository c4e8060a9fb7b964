/**
 * Where long tracks were stopped, so they resume there (as gPodder does for
 * podcast episodes). Which tracks: any longer than ten minutes, whoever uploaded
 * it. The player knows a track's length for certain once its file is open,
 * whichever list it came from (an artist, What's new, the downloads), while
 * "podcaster" is a flag on the artist, not on the episode, and long uploads of
 * other artists (mixes, talks, readings) are listened to the same way; a short
 * track simply starts over. Kept in localStorage by upload id (the same upload
 * downloaded again keeps its place), the newest few hundred only.
 */

const KEY = 'tuneshelf.player.resume'
/** Tracks longer than this (seconds) resume where they were stopped. */
export const RESUME_LONGER_THAN = 600
/** While playing, the place is saved each time it moved this far (seconds of the track) from the last save. */
export const SAVE_EVERY = 5
/** Closer than this to the end (seconds) is finished: it starts over next time. */
const NEAR_THE_END = 15
/** Places kept at most (the oldest go). */
const KEPT = 200

/** Oldest first; a Map keeps that order for any id (an object would put numeric ids first). */
type Places = Map<string, number>

function read(): Places {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]')
    return new Map(Array.isArray(parsed) ? parsed.filter((entry): entry is [string, number] => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number') : [])
  } catch {
    return new Map()
  }
}

function write(places: Places): void {
  try {
    localStorage.setItem(KEY, JSON.stringify([...places]))
  } catch {
    // Storage full or refused: the track starts over next time, nothing worse.
  }
}

/** Whether a track of this length resumes. */
export function resumes(duration: number): boolean {
  return Number.isFinite(duration) && duration > RESUME_LONGER_THAN
}

/** Where to resume an upload of this length, if anywhere. */
export function resumePoint(uploadId: string, duration: number): number | null {
  if (!resumes(duration)) return null
  const seconds = read().get(uploadId)
  return seconds !== undefined && seconds > 0 && seconds < duration - NEAR_THE_END ? seconds : null
}

/** Remembers where an upload was; near its end, forgets it instead (finished). */
export function savePlace(uploadId: string, seconds: number, duration: number): void {
  if (!resumes(duration)) return
  if (seconds >= duration - NEAR_THE_END) {
    forgetPlace(uploadId)
    return
  }
  const places = read()
  places.delete(uploadId)
  places.set(uploadId, Math.floor(seconds))
  for (const old of [...places.keys()].slice(0, Math.max(0, places.size - KEPT))) places.delete(old)
  write(places)
}

export function forgetPlace(uploadId: string): void {
  const places = read()
  if (places.delete(uploadId)) write(places)
}

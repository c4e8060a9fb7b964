/**
 * Tracks the player could not play, told as one notice: a queue with a few
 * broken files should not leave a stack of messages, one per file, as it skips
 * them. The notice names the tracks (the first few) and why each failed, in the
 * core's words or the element's.
 */
import { errorCode } from '@shared/errors'
import { trackTitle } from '../format/titles'
import { formatCount } from '../format/counts'
import { messageOf } from './notices'
import type { QueueTrack } from './play-queue'

/** A track that could not be played, and why. */
export interface Skipped {
  track: QueueTrack
  error: unknown
}

/** Tracks named in the notice; the others are counted. */
const NAMED = 3

/** Why the element gave up on a file, as a user reads it (MediaError codes 2 to 4). */
const MEDIA_ERRORS: Record<number, string> = {
  2: 'the file could not be read; it may have been moved or deleted',
  3: 'the file is damaged, or in a format this player cannot decode',
  4: 'the file is missing, or in a format this player cannot play',
}

/** The element's error as the core's errors look (a code and words). */
export function mediaErrorOf(error: MediaError): { code: string; message: string } {
  return { code: 'io', message: MEDIA_ERRORS[error.code] ?? (error.message || 'the file could not be played') }
}

/**
 * The one notice for the tracks skipped: `stopped` when nothing after them could be played
 * (the player stops), else playback went on with the next playable track. Null when none was skipped.
 */
export function skipNotice(skipped: readonly Skipped[], stopped: boolean): { doing: string; error: { code: string; message: string } } | null {
  const [first] = skipped
  if (!first) return null
  const codes = new Set(skipped.map((skip) => errorCode(skip.error) ?? 'internal'))
  const code = codes.size === 1 ? [...codes][0]! : 'io'
  const name = (skip: Skipped): string => `"${trackTitle(skip.track.title)}"`
  if (skipped.length === 1) {
    const doing = stopped ? `Could not play ${name(first)}` : `Skipped ${name(first)}, which could not be played`
    return { doing, error: { code, message: messageOf(first.error) } }
  }
  const tracks = formatCount(skipped.length, 'track', 'tracks')
  const doing = stopped ? `Could not play ${tracks}` : `Skipped ${tracks} that could not be played`
  const named = skipped.slice(0, NAMED).map((skip) => `${name(skip)}: ${messageOf(skip.error)}`)
  const more = skipped.length > NAMED ? [`and ${skipped.length - NAMED} more`] : []
  return { doing, error: { code, message: [...named, ...more].join('; ') } }
}

/**
 * The words of the new-tracks notification, one formatter for every place that says them:
 * the desktop notification, the in-window notice, and `cli sync`. Node-free (the window uses it).
 */
import { formatBytes } from './format'
import type { HeldBack, NewTracksSummary } from './types'

/** "3 new tracks from Hungry Lucy", "5 new tracks from Hungry Lucy and Sad Max", "7 new tracks from Hungry Lucy and 2 other artists". */
export function newTracksText(summary: Pick<NewTracksSummary, 'total' | 'artists'>): string {
  return tracksOf(summary, 'from')
}

/**
 * What auto-download held back, for every place that tells it (the CLI adds how to get them, the
 * window a button): "held back 900 new tracks of Hungry Lucy (1.2 GB) over the auto-download limit".
 */
export function heldBackText(heldBack: HeldBack): string {
  return `held back ${tracksOf(heldBack, 'of')} (${formatBytes(heldBack.bytes)}) over the auto-download limit`
}

function tracksOf({ total, artists }: Pick<NewTracksSummary, 'total' | 'artists'>, preposition: 'from' | 'of'): string {
  const tracks = `${total} new track${total === 1 ? '' : 's'}`
  const first = artists[0]
  if (!first) return tracks
  const name = displayName(first)
  if (artists.length === 1) return `${tracks} ${preposition} ${name}`
  if (artists.length === 2) return `${tracks} ${preposition} ${name} and ${displayName(artists[1]!)}`
  // Not "and 2 others", which read as two more tracks of the first artist's.
  return `${tracks} ${preposition} ${name} and ${artists.length - 1} other artists`
}

/** The most of a name a notification shows: a whole sentence still fits a desktop notification's line. */
export const NAME_SHOWN = 60

/**
 * The name as a notification may show it: the catalogue's text may hold control characters and
 * direction overrides (which would turn the rest of the sentence around, or spoof another one),
 * line breaks, or a name of thousands of characters.
 */
function displayName(artist: { username: string; name: string }): string {
  const clean = (text: string): string =>
    text
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  const name = clean(artist.name) === '' ? clean(artist.username) : clean(artist.name)
  const chars = [...name]
  return chars.length > NAME_SHOWN ? `${chars.slice(0, NAME_SHOWN - 1).join('').trimEnd()}…` : name
}

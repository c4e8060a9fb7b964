/**
 * The words of the new-tracks notification, one formatter for every place that says them:
 * the desktop notification, the in-window notice, and `cli sync`. Node-free (the window uses it).
 */
import type { NewTracksSummary } from './types'

/** "3 new tracks from Hungry Lucy", "5 new tracks from Hungry Lucy and Sad Max", "7 new tracks from Hungry Lucy and 2 others". */
export function newTracksText(summary: Pick<NewTracksSummary, 'total' | 'artists'>): string {
  const { total, artists } = summary
  const tracks = `${total} new track${total === 1 ? '' : 's'}`
  const first = artists[0]
  if (!first) return tracks
  const name = displayName(first)
  if (artists.length === 1) return `${tracks} from ${name}`
  if (artists.length === 2) return `${tracks} from ${name} and ${displayName(artists[1]!)}`
  return `${tracks} from ${name} and ${artists.length - 1} others`
}

function displayName(artist: { username: string; name: string }): string {
  return artist.name.trim() === '' ? artist.username : artist.name.trim()
}

/**
 * The sentences of the What's new screen: what the syncs shown brought in all,
 * and where the lists were cut. Plain functions of the answer, tested apart.
 */
import type { WhatsNew } from '@shared/types'

/** "1 track", "1,204 tracks". */
export function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`
}

/** "The last sync" for the newest run shown, "The sync before" for the other. */
export function runTitle(index: number): 'The last sync' | 'The sync before' {
  return index === 0 ? 'The last sync' : 'The sync before'
}

/** "3 artists and 12 tracks appeared or changed in the last two syncs." */
export function whatsNewSummary(news: WhatsNew): string {
  const syncs = news.runs.length === 1 ? 'the last sync' : 'the last two syncs'
  return `${plural(news.totalArtists, 'artist', 'artists')} and ${plural(news.totalTracks, 'track', 'tracks')} appeared or changed in ${syncs}.`
}

/** Where the lists stop short of everything, "Showing the first 200 tracks."; blank when nothing was cut. */
export function whatsNewCut(news: WhatsNew): string {
  const parts: string[] = []
  if (news.totalArtists > news.artists.length) parts.push(`the first ${news.artists.length.toLocaleString('en')} artists`)
  if (news.totalTracks > news.tracks.length) parts.push(`the first ${news.tracks.length.toLocaleString('en')} tracks`)
  return parts.length > 0 ? `Showing ${parts.join(' and ')}.` : ''
}

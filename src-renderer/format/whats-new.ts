/**
 * The What's new screen's words and shape: what the syncs shown brought in
 * all, where the lists were cut, and each sync as the screen lays it out (the
 * followed artists' tracks first, then new and changed artists and tracks,
 * tracks in blocks by artist). Plain functions of the answer, tested apart;
 * the store plays and downloads the tracks in exactly this order.
 */
import type { WhatsNew, WhatsNewArtist, WhatsNewRun, WhatsNewTrack } from '@shared/types'
import { artistTitle } from './titles'

/** "1 track", "1,204 tracks". */
export function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`
}

/** "The last sync" for the newest run shown, "The sync before" for the next, then "3 syncs ago". */
export function runTitle(index: number): string {
  if (index === 0) return 'The last sync'
  if (index === 1) return 'The sync before'
  return `${index + 1} syncs ago`
}

/** "3 artists and 12 tracks appeared or changed in the last 4 syncs."; after the first sync, what the list is instead. */
export function whatsNewSummary(news: WhatsNew): string {
  if (news.mode === 'newest') {
    return `The first sync brought the whole catalogue; here are its ${plural(news.tracks.length, 'newest upload', 'newest uploads')}. Later syncs will show what they add or change.`
  }
  const syncs = news.runs.length === 1 ? 'the last sync' : news.runs.length === 2 ? 'the last two syncs' : `the last ${news.runs.length} syncs`
  return `${plural(news.totalArtists, 'artist', 'artists')} and ${plural(news.totalTracks, 'track', 'tracks')} appeared or changed in ${syncs}.`
}

/** Where the lists stop short of everything, "Showing the first 200 tracks."; blank when nothing was cut. */
export function whatsNewCut(news: WhatsNew): string {
  const parts: string[] = []
  if (news.totalArtists > news.artists.length) parts.push(`the first ${news.artists.length.toLocaleString('en')} artists`)
  if (news.totalTracks > news.tracks.length) parts.push(`the first ${news.tracks.length.toLocaleString('en')} tracks`)
  return parts.length > 0 ? `Showing ${parts.join(' and ')}.` : ''
}

/** Tracks of one artist that follow one another in a list: one heading, then the rows. */
export interface TrackBlock {
  username: string
  /** The artist's shown name. */
  name: string
  tracks: WhatsNewTrack[]
}

/** Consecutive tracks of the same artist as one block (the core lists a sync's tracks by artist; the newest uploads by time). */
export function blocksOf(tracks: readonly WhatsNewTrack[]): TrackBlock[] {
  const blocks: TrackBlock[] = []
  for (const entry of tracks) {
    const last = blocks.at(-1)
    if (last?.username === entry.artistUsername) last.tracks.push(entry)
    else blocks.push({ username: entry.artistUsername, name: artistTitle({ name: entry.artistName, username: entry.artistUsername }), tracks: [entry] })
  }
  return blocks
}

/** One sync as the screen shows it: its heading, then its groups in order (empty ones are not drawn). */
export interface WhatsNewSection extends WhatsNewRun {
  title: string
  /** New and changed tracks of followed artists, at the top. */
  following: TrackBlock[]
  newArtists: WhatsNewArtist[]
  changedArtists: WhatsNewArtist[]
  newTracks: TrackBlock[]
  changedTracks: TrackBlock[]
  /** Nothing listed for this sync. */
  empty: boolean
}

/** The syncs shown, newest first; after the first sync, one section of its newest uploads. */
export function sectionsOf(news: WhatsNew): WhatsNewSection[] {
  return news.runs.map((run, index) => {
    const artists = news.artists.filter((entry) => entry.runId === run.id)
    const tracks = news.tracks.filter((entry) => entry.runId === run.id)
    const others = tracks.filter((entry) => !entry.followed)
    return {
      ...run,
      title: news.mode === 'newest' ? 'Newest uploads' : runTitle(index),
      following: blocksOf(tracks.filter((entry) => entry.followed)),
      newArtists: artists.filter((entry) => entry.change === 'new'),
      changedArtists: artists.filter((entry) => entry.change === 'changed'),
      newTracks: blocksOf(others.filter((entry) => entry.change === 'new')),
      changedTracks: blocksOf(others.filter((entry) => entry.change === 'changed')),
      empty: artists.length === 0 && tracks.length === 0,
    }
  })
}

/** Every track in the order the screen shows them (what Play queues, and what "Download all new" takes). */
export function tracksInOrder(sections: readonly WhatsNewSection[]): WhatsNewTrack[] {
  return sections.flatMap((section) => [...section.following, ...section.newTracks, ...section.changedTracks].flatMap((block) => block.tracks))
}

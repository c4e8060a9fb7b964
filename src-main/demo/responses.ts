/**
 * The JSON shapes of the service, written by hand in the order of the
 * interface's tables, so a catalogue always serialises to the same bytes.
 */
import { itemJson } from '../core/shared/item-json'
import type { ArtistRecord, Catalogue, TrackRecord } from './catalogue'

/** The access levels exactly as the interface lists them, keyed by id strings. */
export const ACCESS_LEVELS = {
  '1': { id: 1, name: 'Free', maxsize: 100, price: 0, bandwidth: 30, storage: 2 },
  '2': { id: 2, name: 'Silver', maxsize: 4096, price: 8, bandwidth: 100, storage: 60 },
  '3': { id: 3, name: 'Gold', maxsize: 4096, price: 15, bandwidth: 250, storage: 100 },
  '4': { id: 4, name: 'Platinum', maxsize: 4096, price: 59, bandwidth: 1000, storage: 250 },
} as const

/** Addresses of an artist's avatar and thumbnail: protocol-relative for some artists, absolute for others. */
export function avatarUrls(origin: string, artist: ArtistRecord): { avatar: string; thumb: string } {
  const base = artist.avatarProtocolRelative ? origin.replace(/^https?:/, '') : origin
  return { avatar: `${base}/avatars/a${artist.index}.svg`, thumb: `${base}/avatars/a${artist.index}-thumb.svg` }
}

export function hotlinkUrl(origin: string, track: TrackRecord): string {
  return `${origin}/hotlink/${track.uploadId}.${track.ext}`
}

function profile(origin: string, artist: ArtistRecord) {
  const { avatar, thumb } = avatarUrls(origin, artist)
  return {
    username: artist.username,
    num_tracks: artist.numTracks,
    pf_name: artist.pfName,
    pf_facebook: artist.pfFacebook,
    pf_twitter: artist.pfTwitter,
    pf_website: artist.pfWebsite,
    pf_bio: artist.pfBio,
    avatar,
    avatar_thumb: thumb,
  }
}

/** One artist as list results carry it: items hold only subtype and upload.id. */
export function listArtistJson(origin: string, catalogue: Catalogue, artist: ArtistRecord): string {
  return JSON.stringify({
    ...profile(origin, artist),
    location: artist.location,
    user: { username: artist.username },
    items: catalogue.listedItems(artist).map((item) => ({ item: { subtype: item.subtype, upload: { id: item.uploadId } } })),
  })
}

/** The single-artist result: every item in full, no location or user, and the empty-named member. */
export function artistDetailJson(origin: string, catalogue: Catalogue, artist: ArtistRecord): string {
  return JSON.stringify({
    ...profile(origin, artist),
    items: catalogue.tracksOf(artist).map((track) => itemJson(track, hotlinkUrl(origin, track), artist.username)),
    '': null,
  })
}

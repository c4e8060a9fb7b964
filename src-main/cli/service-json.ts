/** The cache's answers in the service's own JSON shapes, for `--json` output. */
import type { ArtistPage, ArtistSummary, ArtistWithTracks } from '../core/shared/types'
import type { AccessLevel } from '../core/shared/catalogue'
import { itemJson } from '../core/shared/item-json'

function profile(artist: ArtistSummary) {
  return {
    username: artist.username,
    num_tracks: artist.numTracks,
    pf_name: artist.name,
    pf_facebook: artist.facebook,
    pf_twitter: artist.twitter,
    pf_website: artist.website,
    pf_bio: artist.bio,
    avatar: artist.avatar,
    avatar_thumb: artist.avatarThumb,
  }
}

/** `{"pages": N, "artists": [{"artist": {...}}]}` with list items (subtype and upload id), as the list endpoint answers. */
export function artistListJson(page: ArtistPage): object {
  return {
    pages: page.pages,
    artists: page.artists.map((artist) => ({
      artist: {
        ...profile(artist),
        location: artist.location,
        user: artist.user,
        items: artist.listedItems.map((item) => ({ item })),
      },
    })),
  }
}

/** The single-artist shape with every item in full, plus the list result's location and user. */
export function artistJson(artist: ArtistWithTracks): object {
  return {
    ...profile(artist),
    location: artist.location,
    user: artist.user,
    items: artist.tracks.map((track) => itemJson(track, track.hotlinkPath, track.artistUsername)),
  }
}

/** `{"1": {...}, "2": {...}}`: levels keyed by their ids as strings. */
export function accessLevelsJson(levels: AccessLevel[]): object {
  return Object.fromEntries(levels.map((level) => [String(level.id), level]))
}

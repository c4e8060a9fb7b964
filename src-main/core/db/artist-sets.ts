/**
 * The sets a list of artists can be narrowed to (ArtistListQuery.only): the
 * artists followed, and those with at least one completed download. Both are
 * small next to the catalogue and change without the catalogue changing (a
 * follow, a download that ends), so lists narrowed to them are never answered
 * from the query cache. Gone artists belong to them too: a followed artist the
 * service removed stays followed, and downloaded files stay the user's.
 */
import type { ArtistOnly } from '../shared/catalogue'

/**
 * The condition on `artists` for each set. A download counts for the artist whose
 * upload it is (through the track, by upload id): the artist the track is listed
 * under on its page, whatever the case of the username it was queued with.
 */
export const ARTIST_SET_CONDITIONS: Readonly<Record<ArtistOnly, string>> = {
  following: 'artists.username_key IN (SELECT username_key FROM follows)',
  downloaded: `artists.id IN (SELECT tracks.artist_id FROM downloads JOIN tracks ON tracks.upload_id = downloads.upload_id
    WHERE downloads.state = 'completed')`,
}

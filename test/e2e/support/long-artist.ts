// An artist with as many tracks as the demo allows, for the checks of long track lists:
// the generator gives a few artists hundreds of tracks, never a thousand, so one is given more.
import { MAX_TRACKS, type ArtistRecord } from '../../../src-main/demo/catalogue'
import type { RunningCatalogueService } from '../../../src-main/demo/index'

/**
 * Gives a musician of the demo `count` tracks (at most MAX_TRACKS: upload ids are numbered
 * artist by artist) before the service answers anything, and returns it. Its tracks are
 * derived from the count, so the service lists and serves all of them like any other.
 */
export function giveTracks(demo: RunningCatalogueService, count = MAX_TRACKS): ArtistRecord {
  if (count > MAX_TRACKS) throw new Error(`the demo numbers at most ${MAX_TRACKS} uploads per artist`)
  // A musician with a plain name and some tracks already: the lists' orders, built without it changing, stay right.
  const artist = demo.catalogue.artists.find(
    (candidate) => !candidate.isPodcaster && candidate.numTracks > 0 && /^[A-Za-z ]+$/.test(candidate.pfName),
  )
  if (!artist) throw new Error('the demo has no plain musician with tracks')
  artist.numTracks = count
  artist.listedItems = Math.min(artist.listedItems, count)
  return artist
}

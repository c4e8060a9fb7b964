/**
 * What's new: after a first sync nothing is news; after the service adds and
 * edits artists and tracks, the next sync shows exactly those, as new or
 * changed, and the sync after that still shows them (the last two syncs).
 */
import { expect } from 'vitest'
import { catalogueTest } from '../../support/fixtures'

const test = catalogueTest({ artists: 40, seed: 61, maxFileMb: 2 })

test('shows what the last two syncs brought, and nothing of the first', async ({ demo, openLibrary }) => {
  const library = openLibrary()
  await library.sync.start({ skipAvatars: true })
  expect(library.catalogue.whatsNew()).toEqual({ runs: [], artists: [], tracks: [], totalArtists: 0, totalTracks: 0 })

  // The service changes: a bio edited, an artist back after being removed (new to this cache), a track revised.
  const [edited, removed] = demo.catalogue.artists.filter((artist) => artist.numTracks > 1 && !artist.removed)
  const oldBio = edited!.pfBio
  demo.catalogue.removeArtist(removed!.username)
  const fresh = openLibrary()
  await fresh.sync.start({ skipAvatars: true })
  expect(fresh.catalogue.whatsNew().runs).toEqual([])
  demo.catalogue.restoreArtist(removed!.username)
  demo.catalogue.editArtist(edited!.username, { pfBio: 'Back with a new record' })
  try {
    const second = await fresh.sync.start({ skipAvatars: true })
    const news = fresh.catalogue.whatsNew()
    expect(news.runs.map((run) => run.id)).toEqual([second.runId])
    const byName = new Map(news.artists.map((entry) => [entry.artist.username, entry.change]))
    expect(byName.get(removed!.username)).toBe('new')
    expect(byName.get(edited!.username)).toBe('changed')
    expect(news.totalArtists).toBe(news.artists.length)
    // Every track of the artist new to this cache is new; the edited artist's tracks did not change.
    const newTracks = news.tracks.filter((entry) => entry.artistUsername === removed!.username)
    expect(newTracks).toHaveLength(removed!.numTracks)
    for (const entry of newTracks) expect(entry.change).toBe('new')
    expect(news.tracks.filter((entry) => entry.artistUsername === edited!.username)).toEqual([])

    // A sync that changes nothing: the news of the sync before stays in view (the last two syncs).
    const third = await fresh.sync.start({ skipAvatars: true })
    const later = fresh.catalogue.whatsNew()
    expect(later.runs.map((run) => run.id)).toEqual([third.runId, second.runId])
    expect(later.artists.map((entry) => entry.artist.username).sort()).toEqual(news.artists.map((entry) => entry.artist.username).sort())
    // Two quiet syncs later, nothing is new any more.
    await fresh.sync.start({ skipAvatars: true })
    await fresh.sync.start({ skipAvatars: true })
    expect(fresh.catalogue.whatsNew()).toMatchObject({ artists: [], tracks: [], totalArtists: 0, totalTracks: 0 })
  } finally {
    demo.catalogue.editArtist(edited!.username, { pfBio: oldBio })
  }
})

test('an edited artist shows as changed, its tracks (the same as before) do not', async ({ demo, openLibrary }) => {
  const library = openLibrary()
  await library.sync.start({ skipAvatars: true })
  await library.sync.start({ skipAvatars: true })
  const artist = demo.catalogue.artists.find((candidate) => candidate.numTracks > 0 && !candidate.removed)!
  // A new bio makes the sync fetch the artist's detail again; its tracks are what they were.
  demo.catalogue.editArtist(artist.username, { pfBio: `${artist.pfBio} (updated)` })
  try {
    await library.sync.start({ skipAvatars: true })
    const news = library.catalogue.whatsNew()
    expect(news.artists.map((entry) => [entry.artist.username, entry.change])).toContainEqual([artist.username, 'changed'])
    expect(news.tracks.filter((entry) => entry.artistUsername === artist.username)).toEqual([])
  } finally {
    demo.catalogue.editArtist(artist.username, { pfBio: artist.pfBio.replace(/ \(updated\)$/, '') })
  }
})

/**
 * What's new: after a first sync its newest uploads stand in for the news; after
 * the service adds and edits artists and tracks, the next sync shows exactly
 * those, as new or changed, the followed artists first, each track with its
 * download; the ten syncs after that still show them, the eleventh no more.
 */
import { expect } from 'vitest'
import { openDatabase } from '../../../../src-main/core/db/connection'
import type { Library } from '../../../../src-main/core/library/library'
import { catalogueTest } from '../../support/fixtures'

const test = catalogueTest({ artists: 40, seed: 61, maxFileMb: 2 })

/** Follows an artist the way the follows table keeps it (the app's own follow lands in db/follows.ts). */
function follow(library: Library, username: string): void {
  const db = openDatabase(library.cacheFile)
  try {
    db.prepare(`INSERT INTO follows (username_key, username, followed_at, since_run) VALUES (?, ?, ?, NULL)`).run(username.toLowerCase(), username, Date.now())
  } finally {
    db.close()
  }
}

test('after the first sync alone: its newest uploads, by the instant they were made, the followed artists first', async ({ demo, openLibrary }) => {
  const library = openLibrary()
  expect(library.catalogue.whatsNew()).toEqual({ mode: 'changes', runs: [], artists: [], tracks: [], totalArtists: 0, totalTracks: 0 })
  // The two newest uploads a second apart, the older east of UTC and the newer west: their local times sort the other way.
  const listed = demo.catalogue.artists.filter((artist) => !artist.removed && artist.numTracks < 90)
  const east = listed.find((artist) => artist.utcOffset >= 300)!
  const west = listed.find((artist) => artist.utcOffset <= -240)!
  const [older, newer] = demo.addUploads({ artists: [east.username, west.username] })
  const first = await library.sync.start({ skipAvatars: true })
  const news = library.catalogue.whatsNew(10)
  expect(news.mode).toBe('newest')
  expect(news.runs).toEqual([expect.objectContaining({ id: first.runId, trackCount: 10 })])
  expect(news.artists).toEqual([])
  // The ten newest of every listed track, by instant (their UTC offsets differ: the text alone would mislead).
  const everything = demo.catalogue.artists
    .filter((artist) => !artist.removed)
    .flatMap((artist) => demo.catalogue.tracksOf(artist).map((track) => ({ uploadId: track.uploadId, at: track.createdAtMs })))
    .sort((a, b) => b.at - a.at || (a.uploadId < b.uploadId ? -1 : 1))
  expect(news.tracks.map((entry) => entry.track.uploadId)).toEqual(everything.slice(0, 10).map((track) => track.uploadId))
  expect(news.tracks.slice(0, 2).map((entry) => entry.track.uploadId)).toEqual([...newer!.uploadIds, ...older!.uploadIds])
  expect(news.tracks.every((entry) => entry.change === 'new' && entry.runId === first.runId && !entry.followed && entry.download === null)).toBe(true)

  // A followed artist's newest uploads come first, marked; an upload in the queue carries its download.
  const artist = demo.catalogue.artists.find((candidate) => !candidate.removed && candidate.numTracks >= 3 && candidate.numTracks <= 6 && !news.tracks.some((entry) => entry.artistUsername === candidate.username))!
  follow(library, artist.username)
  const [queued] = (await library.downloads.enqueue({ uploadIds: [everything[0]!.uploadId] })).downloads
  const followedFirst = library.catalogue.whatsNew(10)
  const theirs = demo.catalogue.tracksOf(artist).map((track) => track.uploadId)
  expect(followedFirst.tracks.map((entry) => entry.followed)).toEqual([...theirs.map(() => true), ...Array(10 - theirs.length).fill(false)])
  expect(followedFirst.tracks.slice(0, theirs.length).map((entry) => entry.track.uploadId)).toEqual(theirs)
  // The newest of the others is the one queued.
  expect(followedFirst.tracks[theirs.length]).toMatchObject({ track: { uploadId: everything[0]!.uploadId }, download: { id: queued!.id, state: 'queued' } })
})

test('shows what the last ten syncs brought, the followed artists first, and nothing of the first', async ({ demo, openLibrary }) => {
  const library = openLibrary()
  await library.sync.start({ skipAvatars: true })

  // The service changes: a bio edited, an artist back after being removed (new to this cache), new uploads.
  const [edited, removed, followed, other] = demo.catalogue.artists.filter((artist) => artist.numTracks > 1 && artist.numTracks < 90 && !artist.removed)
  const oldBio = edited!.pfBio
  demo.catalogue.removeArtist(removed!.username)
  const fresh = openLibrary()
  await fresh.sync.start({ skipAvatars: true })
  expect(fresh.catalogue.whatsNew().mode).toBe('newest')
  demo.catalogue.restoreArtist(removed!.username)
  demo.catalogue.editArtist(edited!.username, { pfBio: 'Back with a new record' })
  const added = demo.addUploads({ artists: [followed!.username, other!.username], perArtist: 2 })
  follow(fresh, followed!.username)
  try {
    const second = await fresh.sync.start({ skipAvatars: true })
    const news = fresh.catalogue.whatsNew()
    expect(news.mode).toBe('changes')
    expect(news.runs).toEqual([expect.objectContaining({ id: second.runId, artistCount: news.artists.length, trackCount: news.tracks.length })])
    const byName = new Map(news.artists.map((entry) => [entry.artist.username, entry]))
    expect(byName.get(removed!.username)).toMatchObject({ change: 'new', followed: false })
    expect(byName.get(edited!.username)).toMatchObject({ change: 'changed', followed: false })
    // An artist with new uploads changed (its track count); the followed one is listed first.
    expect(news.artists[0]).toMatchObject({ artist: { username: followed!.username }, change: 'changed', followed: true })
    expect(news.artists.filter((entry) => entry.followed)).toHaveLength(1)
    expect(news.totalArtists).toBe(news.artists.length)
    // Every track of the artist new to this cache is new; the edited artist's tracks did not change.
    const newTracks = news.tracks.filter((entry) => entry.artistUsername === removed!.username)
    expect(newTracks).toHaveLength(removed!.numTracks)
    for (const entry of newTracks) expect(entry.change).toBe('new')
    expect(news.tracks.filter((entry) => entry.artistUsername === edited!.username)).toEqual([])
    // The new uploads: the followed artist's first, with what Play and Download need.
    const [followedAdded, otherAdded] = added
    expect(news.tracks.slice(0, 2).map((entry) => entry.track.uploadId).sort()).toEqual([...followedAdded!.uploadIds].sort())
    expect(news.tracks.slice(0, 2).every((entry) => entry.followed && entry.change === 'new' && entry.artistName === followed!.pfName)).toBe(true)
    for (const uploadId of otherAdded!.uploadIds) {
      const entry = news.tracks.find((candidate) => candidate.track.uploadId === uploadId)
      expect(entry).toMatchObject({ change: 'new', followed: false, artistUsername: other!.username, download: null, runId: second.runId })
      expect(entry!.track.bytes).toBeGreaterThan(0)
      expect(entry!.track.ext).toBeTruthy()
    }

    // Downloaded, the track says so (the newest download of the upload).
    const uploadId = otherAdded!.uploadIds[0]!
    fresh.downloads.start()
    const [download] = (await fresh.downloads.enqueue({ uploadIds: [uploadId] })).downloads
    await fresh.downloads.whenIdle()
    expect(fresh.catalogue.whatsNew().tracks.find((entry) => entry.track.uploadId === uploadId)!.download).toEqual({ id: download!.id, state: 'completed' })

    // A limit keeps the followed artist's tracks and cuts the others; the totals still count everything.
    const cut = fresh.catalogue.whatsNew(2)
    expect(cut.tracks.map((entry) => entry.followed)).toEqual([true, true])
    expect(cut.totalTracks).toBe(news.totalTracks)

    // Quiet syncs: the news stays in view for ten syncs, each listed with its date, newest first.
    const runs = [second.runId]
    for (let i = 0; i < 9; i++) runs.unshift((await fresh.sync.start({ skipAvatars: true })).runId)
    const later = fresh.catalogue.whatsNew()
    expect(later.runs.map((run) => run.id)).toEqual(runs)
    expect(later.runs.every((run, index) => index === 0 || run.finishedAt <= later.runs[index - 1]!.finishedAt)).toBe(true)
    expect(later.artists.map((entry) => entry.artist.username).sort()).toEqual(news.artists.map((entry) => entry.artist.username).sort())
    // The eleventh sync after the news: nothing is new any more.
    await fresh.sync.start({ skipAvatars: true })
    expect(fresh.catalogue.whatsNew()).toMatchObject({ mode: 'changes', artists: [], tracks: [], totalArtists: 0, totalTracks: 0 })
    expect(fresh.catalogue.whatsNew().runs).toHaveLength(10)
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

/**
 * New tracks of followed artists (db/new-tracks.ts through library.newTracks): what a sync
 * brought them, and what auto-download queues: only tracks first seen by a completed sync after
 * the follow, never those of a sync that filled an empty cache, never an upload ever queued.
 */
import { expect } from 'vitest'
import { openDatabase } from '../../../../src-main/core/db/connection'
import type { ArtistRecord } from '../../../../src-main/demo/catalogue'
import type { Library } from '../../../../src-main/core/library/library'
import { catalogueTest } from '../../support/fixtures'

const test = catalogueTest({ artists: 60, seed: 73, maxFileMb: 2 })

/** Artists of the demo with a few tracks, each test taking its own (the demo is shared by the file). */
function artists(demo: { catalogue: { artists: ArtistRecord[] } }, from: number, count: number): ArtistRecord[] {
  return demo.catalogue.artists.filter((artist) => !artist.removed && artist.numTracks >= 2 && artist.numTracks < 40).slice(from, from + count)
}

function enqueuedRows(library: Library): { upload_id: string; auto: number }[] {
  const db = openDatabase(library.cacheFile)
  try {
    return db.prepare('SELECT upload_id, auto FROM enqueued_uploads ORDER BY upload_id').all() as { upload_id: string; auto: number }[]
  } finally {
    db.close()
  }
}

test('a sync after the follow brings new tracks: told per artist, and queued for the artists with auto-download on', async ({ demo, openLibrary }) => {
  const library = openLibrary()
  const first = await library.sync.start({ skipAvatars: true })
  const [auto, manual, stranger] = artists(demo, 0, 3)
  library.follows.follow(auto!.username, { autoDownload: true })
  library.follows.follow(manual!.username)
  // The first sync filled an empty cache: a starting point, nothing new in it.
  expect(library.newTracks.ofRun(first.runId)).toEqual({ runId: first.runId, total: 0, artists: [] })
  expect(library.newTracks.pending()).toEqual([])

  const [autoAdded] = demo.addUploads({ artists: [auto!.username], perArtist: 2 })
  const [manualAdded] = demo.addUploads({ artists: [manual!.username] })
  demo.addUploads({ artists: [stranger!.username] })
  const second = await library.sync.start({ skipAvatars: true })

  expect(library.newTracks.ofRun(second.runId)).toEqual({
    runId: second.runId,
    total: 3,
    artists: [
      { username: auto!.username, name: auto!.pfName.trim() || auto!.username, count: 2 },
      { username: manual!.username, name: manual!.pfName.trim() || manual!.username, count: 1 },
    ],
  })
  expect(manualAdded!.uploadIds).toHaveLength(1)
  // Only the artist with auto-download on, oldest first.
  expect(library.newTracks.pending().map((track) => [track.username, track.uploadId])).toEqual(autoAdded!.uploadIds.map((id) => [auto!.username, id]))

  const queued = await library.newTracks.autoDownload()
  expect(queued.downloads.map((download) => download.uploadId)).toEqual(autoAdded!.uploadIds)
  expect(queued.folder).toBe(library.downloads.state.folder)
  expect(enqueuedRows(library)).toEqual(autoAdded!.uploadIds.map((id) => ({ upload_id: id, auto: 1 })))
  // Queued once: nothing more to queue, and a second call queues nothing.
  expect(library.newTracks.pending()).toEqual([])
  expect(await library.newTracks.autoDownload()).toEqual({ downloads: [], folder: null })

  // A sync that brings nothing new tells nothing.
  const third = await library.sync.start({ skipAvatars: true })
  expect(library.newTracks.ofRun(third.runId).total).toBe(0)
})

test('nothing the user queued, cancelled or took off the list comes back, and a follow counts from when it was made', async ({ demo, openLibrary }) => {
  const library = openLibrary()
  await library.sync.start({ skipAvatars: true })
  const [artist, later] = artists(demo, 3, 2)
  library.follows.follow(artist!.username, { autoDownload: true })
  const [added] = demo.addUploads({ artists: [artist!.username], perArtist: 3 })
  const [laterAdded] = demo.addUploads({ artists: [later!.username] })
  await library.sync.start({ skipAvatars: true })
  const [cancelled, removed, left] = added!.uploadIds

  // The user queued two of them by hand: one cancelled, one taken off the list.
  const { downloads } = await library.downloads.enqueue({ uploadIds: [cancelled!, removed!] })
  await library.downloads.cancel([downloads[0]!.id])
  await library.downloads.cancel([downloads[1]!.id])
  await library.downloads.remove([downloads[1]!.id])
  expect(library.newTracks.pending().map((track) => track.uploadId)).toEqual([left])
  expect(enqueuedRows(library).filter((row) => row.upload_id !== left)).toEqual([
    { upload_id: cancelled, auto: 0 },
    { upload_id: removed, auto: 0 },
  ])

  // Followed after the sync that brought its new upload: that upload is not new to this follow.
  library.follows.follow(later!.username, { autoDownload: true })
  expect(library.newTracks.pending().map((track) => track.uploadId)).not.toContain(laterAdded!.uploadIds[0])
  // Turning auto-download off leaves the artist's new tracks to the user.
  library.follows.setAutoDownload(artist!.username, false)
  expect(library.newTracks.pending()).toEqual([])
})

test('a sync that refills a cleared cache brings nothing new, and an artist the service removed is not downloaded', async ({ demo, openLibrary }) => {
  const library = openLibrary()
  await library.sync.start({ skipAvatars: true })
  const [kept, removedArtist] = artists(demo, 6, 2)
  library.follows.follow(kept!.username, { autoDownload: true })
  library.follows.follow(removedArtist!.username, { autoDownload: true })

  await library.catalogue.clear()
  demo.addUploads({ artists: [kept!.username] })
  const refill = await library.sync.start({ skipAvatars: true })
  expect(library.newTracks.ofRun(refill.runId).total).toBe(0)
  expect(library.newTracks.pending()).toEqual([])

  const [fresh] = demo.addUploads({ artists: [kept!.username, removedArtist!.username] }).filter((added) => added.username === removedArtist!.username)
  demo.catalogue.removeArtist(removedArtist!.username)
  try {
    const run = await library.sync.start({ skipAvatars: true })
    expect(library.newTracks.ofRun(run.runId).artists.map((artist) => artist.username)).toEqual([kept!.username])
    expect(library.newTracks.pending().map((track) => track.username)).toEqual([kept!.username])
    expect(library.newTracks.pending().map((track) => track.uploadId)).not.toContain(fresh!.uploadIds[0])
  } finally {
    demo.catalogue.restoreArtist(removedArtist!.username)
  }
})

/**
 * Attack 27: a flood of new uploads. A followed artist with auto-download on published thousands
 * of tracks at once (a back catalogue dumped, or a service gone wrong), and the next sync queued
 * every one of them without a word: 10,002 files in one folder, only free space to stop it. Now
 * one sync queues, of each artist, at most the settings' tracks and bytes (newest first), holds
 * back the rest and says so (how many, how big) with the run's new tracks; later syncs do not drip
 * the rest in; and one action queues all of it.
 *
 * Against the demo catalogue on loopback: two artists get 950 new uploads each, a third 3.
 */
import { describe, expect } from 'vitest'
import type { ArtistRecord } from '../../../src-main/demo/catalogue'
import type { RunningCatalogueService } from '../../../src-main/demo/index'
import type { Library } from '../../../src-main/core/library/library'
import { catalogueTest } from '../support/fixtures'

const test = catalogueTest({ artists: 40, seed: 27, maxFileMb: 2 })

/** Artists with room for 950 more uploads (the demo gives each at most 1,000). */
function quietArtists(demo: RunningCatalogueService, count: number): ArtistRecord[] {
  return demo.catalogue.artists.filter((artist) => !artist.removed && artist.numTracks >= 2 && artist.numTracks <= 40).slice(0, count)
}

/** Publishes `count` new uploads of each artist, in batches of 50 (the demo's most per batch); their ids, oldest first. */
function flood(demo: RunningCatalogueService, usernames: string[], count: number): Map<string, string[]> {
  const added = new Map<string, string[]>(usernames.map((username) => [username, []]))
  for (let left = count; left > 0; left -= 50) {
    for (const batch of demo.addUploads({ artists: usernames, perArtist: Math.min(50, left) })) added.get(batch.username)!.push(...batch.uploadIds)
  }
  return added
}

function bytesOf(demo: RunningCatalogueService, uploadIds: readonly string[]): number {
  return uploadIds.reduce((sum, uploadId) => sum + demo.catalogue.findUpload(uploadId)!.track.bytes, 0)
}

/** Every upload in the queue, by artist. */
function queuedOf(library: Library): Map<string, string[]> {
  const byArtist = new Map<string, string[]>()
  for (const download of library.downloads.list()) byArtist.set(download.artistUsername, [...(byArtist.get(download.artistUsername) ?? []), download.uploadId])
  return byArtist
}

describe('attack 27: a flood of new uploads of a followed artist', () => {
  test('one sync queues at most the limits of each artist, newest first, says what it held back, and one action queues the rest', { timeout: 120_000 }, async ({ demo, openLibrary }) => {
    const library = openLibrary()
    await library.sync.start()
    const [floodA, floodB, quiet] = quietArtists(demo, 3).map((artist) => artist.username)
    for (const username of [floodA!, floodB!, quiet!]) library.follows.follow(username, { autoDownload: true })
    const added = flood(demo, [floodA!, floodB!], 950)
    const [quietAdded] = demo.addUploads({ artists: [quiet!], perArtist: 3 })

    const run = await library.sync.start()
    const queued = await library.newTracks.autoDownload()

    // Before: 1,903 files queued by one sync. Now the default limits: 50 tracks (or 2 GB) of each artist.
    expect(queued.downloads).toHaveLength(50 + 50 + 3)
    const byArtist = queuedOf(library)
    // The newest 50 of each flood, in the order they came; the quiet artist's 3 untouched by the others' flood.
    expect(byArtist.get(floodA!)).toEqual(added.get(floodA!)!.slice(-50))
    expect(byArtist.get(floodB!)).toEqual(added.get(floodB!)!.slice(-50))
    expect(byArtist.get(quiet!)).toEqual(quietAdded!.uploadIds)

    // Told: how many, how big, whose; in the answer and in the run's new-tracks record alike.
    const heldA = added.get(floodA!)!.slice(0, 900)
    const heldB = added.get(floodB!)!.slice(0, 900)
    const expected = {
      total: 1800,
      bytes: bytesOf(demo, [...heldA, ...heldB]),
      artists: expect.arrayContaining([
        expect.objectContaining({ username: floodA, count: 900, bytes: bytesOf(demo, heldA) }),
        expect.objectContaining({ username: floodB, count: 900, bytes: bytesOf(demo, heldB) }),
      ]),
    }
    expect(queued.heldBack).toEqual(expected)
    const news = library.newTracks.ofRun(run.runId)
    expect(news.total).toBe(1903)
    expect(news.heldBack).toEqual(expected)
    expect(library.catalogue.whatsNew().heldBack).toEqual(expected)

    // The next syncs do not drip the rest in, 50 at a time: held back stays held back.
    await library.sync.start()
    expect((await library.newTracks.autoDownload()).downloads).toEqual([])
    expect(library.downloads.list()).toHaveLength(103)

    // The limit by bytes: 3 MB of each artist in one sync, whatever the count.
    library.settings.update({ autoDownloadMaxBytes: 3_000_000 })
    const more = flood(demo, [floodA!], 20).get(floodA!)!
    await library.sync.start()
    const capped = await library.newTracks.autoDownload()
    const taken = capped.downloads.map((download) => download.uploadId)
    expect(taken.length).toBeGreaterThan(0)
    expect(taken.length).toBeLessThan(20)
    expect(bytesOf(demo, taken)).toBeLessThanOrEqual(3_000_000)
    // The newest of the batch go first: the newest is always among them (each new upload is at most 2 MB here).
    expect(taken).toContain(more.at(-1))
    expect(capped.heldBack!.total).toBe(1800 + 20 - taken.length)

    // The one action: all that was held back is queued, and nothing is held back any more.
    const rest = await library.follows.downloadHeldBack()
    expect(rest.downloads).toHaveLength(1800 + 20 - taken.length)
    expect(library.newTracks.heldBack()).toBeUndefined()
    expect(library.catalogue.whatsNew().heldBack).toBeUndefined()
    expect(library.downloads.list()).toHaveLength(1903 + 20)
    expect((await library.follows.downloadHeldBack()).folder).toBeNull()
  })
})

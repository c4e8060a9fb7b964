// The quick check for new tracks (sync kind 'quick'), against the demo service on loopback: it reads
// the recently updated list until a page the cache already holds, and the details of what changed,
// so its requests are (list pages until unchanged + changed artists); it finds every new upload,
// and new tracks of followed artists come from it as from a full refresh.
import { describe, expect } from 'vitest'
import { openDatabase } from '../../../../src-main/core/db/connection'
import type { Library } from '../../../../src-main/core/library/library'
import { syncCatalogue, type SyncProgress } from '../../../../src-main/core/sync/sync'
import { catalogueTest, testClient } from '../../support/fixtures'

const ARTISTS = 240

/** Resolves at the first progress of the library's sync that passes `when`. */
function progressed(library: Library, when: (progress: SyncProgress) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const listening = library.sync.onDidProgress((progress) => {
      if (!when(progress)) return
      listening.dispose()
      resolve()
    })
  })
}
const test = catalogueTest({ artists: ARTISTS, seed: 31, maxFileMb: 4 })

describe('a quick check', () => {
  test('after a batch of new uploads: one list page past the changed ones and their details; every new track found', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    const full = await library.sync.start({ skipAvatars: true })
    expect(full.kind).toBe('full')
    const followed = demo.catalogue.artists.find((artist) => !artist.removed && artist.numTracks > 0)!
    library.follows.follow(followed.username)

    const added = demo.addUploads({ artists: [followed.username], perArtist: 2 }).concat(demo.addUploads({ artistCount: 4 }))
    const changed = new Set(added.map((entry) => entry.username.toLowerCase()))
    demo.requests.reset()
    const report = await library.sync.start({ kind: 'quick', skipAvatars: true })

    expect(report.kind).toBe('quick')
    // Every changed artist tops recently_updated (one page of 50 holds them), and the next page is all unchanged.
    expect(demo.requests.list).toBe(2)
    expect(demo.requests.artist).toBe(changed.size)
    expect(demo.requests.levels).toBe(0)
    expect(demo.requests.total).toBe(2 + changed.size)
    expect(report.detailsFetched).toBe(changed.size)
    for (const { username, uploadIds } of added) {
      const tracks = library.catalogue.artist(username).tracks.map((track) => track.uploadId)
      for (const uploadId of uploadIds) expect(tracks, username).toContain(uploadId)
    }
    // The followed artist's two new tracks are this run's news, exactly as a full refresh would tell them.
    expect(library.newTracks.ofRun(report.runId)).toMatchObject({ total: 2, artists: [{ username: followed.username, count: 2 }] })
    expect(library.sync.state.lastRun).toMatchObject({ id: report.runId, kind: 'quick', state: 'completed' })
    expect(library.sync.state.lastCheckAt).toBeGreaterThan(library.sync.state.lastFullSyncAt!)
    // The recently updated order shows them at its top at once, in the service's order.
    const top = library.catalogue.list({ sort: 'recently_updated', includeBlank: true, perPage: changed.size }).artists.map((artist) => artist.username.toLowerCase())
    expect(new Set(top)).toEqual(changed)

    // A full refresh afterwards finds nothing the quick check missed: every detail is as the lists say.
    demo.requests.reset()
    const after = await library.sync.start({ skipAvatars: true })
    expect(after.kind).toBe('full')
    expect(after.detailsFetched).toBe(0)
  })

  test('after nothing changed: one request', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    await library.sync.start({ skipAvatars: true })
    demo.requests.reset()
    const report = await library.sync.start({ kind: 'quick', skipAvatars: true })
    expect(report).toMatchObject({ kind: 'quick', listPages: 1, detailsFetched: 0 })
    expect(demo.requests.total).toBe(1)
  })

  test('more changed artists than a page holds: it reads on until a page is all unchanged', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    await library.sync.start({ skipAvatars: true })
    const added = demo.addUploads({ artistCount: 70 })
    demo.requests.reset()
    const report = await library.sync.start({ kind: 'quick', skipAvatars: true })
    // 70 changed artists fill page 1 and part of page 2; page 3 is the first all unchanged.
    expect(demo.requests.list).toBe(3)
    expect(report.detailsFetched).toBe(added.length)
    for (const { username, uploadIds } of added) expect(library.catalogue.artist(username).tracks.map((track) => track.uploadId)).toEqual(expect.arrayContaining(uploadIds))
  })

  test('more changed than it reads: it stops at its page limit and says a full refresh should follow', async ({ demo, tempDir }) => {
    const db = openDatabase(`${tempDir()}/cache.sqlite`)
    try {
      const client = testClient(demo.baseUrl)
      await syncCatalogue({ db, client, skipAvatars: true })
      // 120 changed artists fill three pages; a check that reads two stops there.
      demo.addUploads({ artistCount: 120 })
      demo.requests.reset()
      const report = await syncCatalogue({ db, client, kind: 'quick', skipAvatars: true, quickPageLimit: 2 })
      expect(report).toMatchObject({ kind: 'quick', moreChanged: true, listPages: 2, detailsFetched: 100 })
      expect(demo.requests.list).toBe(2)
      // The full refresh that follows brings the rest.
      const full = await syncCatalogue({ db, client, skipAvatars: true })
      expect(full).toMatchObject({ kind: 'full', moreChanged: false, detailsFetched: 20 })
      // Within the limit, no full refresh is asked for.
      demo.addUploads({ artistCount: 3 })
      expect(await syncCatalogue({ db, client, kind: 'quick', skipAvatars: true, quickPageLimit: 2 })).toMatchObject({ moreChanged: false, detailsFetched: 3 })
    } finally {
      db.close()
    }
  })

  test('on a cache no full refresh has filled, it is a full refresh', async ({ openLibrary }) => {
    const library = openLibrary()
    const report = await library.sync.start({ kind: 'quick', skipAvatars: true })
    expect(report.kind).toBe('full')
    expect(report.detailsFetched).toBe(ARTISTS)
    expect(library.sync.state.lastRun).toMatchObject({ kind: 'full', state: 'completed' })
  })

  test('a full refresh that was cancelled is resumed by the next check, and a cancelled quick check is never resumed', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    // Cancelled in its details: the next check, quick or not, finishes the full refresh first.
    demo.faults.add({ path: '/api/v1/artists/*', times: 1_000_000, fault: { kind: 'slow', bytesPerSecond: 40_000 } })
    const first = library.sync.start({ skipAvatars: true })
    await progressed(library, (progress) => progress.phase === 'details' && progress.done > 5)
    library.sync.cancel()
    await expect(first).rejects.toMatchObject({ code: 'cancelled' })
    demo.faults.clear()
    const resumed = await library.sync.start({ kind: 'quick', skipAvatars: true })
    expect(resumed).toMatchObject({ kind: 'full', resumed: true })
    expect(library.sync.state.lastRun).toMatchObject({ id: resumed.runId, kind: 'full', state: 'completed' })

    // A quick check cancelled half-way is closed, not resumed: the next one starts from the top.
    demo.addUploads({ artistCount: 3 })
    demo.faults.add({ path: '/api/v1/artists/*', times: 1_000_000, fault: { kind: 'slow', bytesPerSecond: 5_000 } })
    const quick = library.sync.start({ kind: 'quick', skipAvatars: true })
    await progressed(library, (progress) => progress.phase === 'details')
    library.sync.cancel()
    await expect(quick).rejects.toMatchObject({ code: 'cancelled' })
    demo.faults.clear()
    const again = await library.sync.start({ kind: 'quick', skipAvatars: true })
    expect(again).toMatchObject({ kind: 'quick', resumed: false })
    expect(again.detailsFetched).toBeGreaterThanOrEqual(3)
  })
})

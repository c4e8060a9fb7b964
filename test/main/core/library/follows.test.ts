/**
 * Following artists: kept by username in the cache, through syncs, the
 * service removing the artist, and the cache being cleared; the artists list
 * narrowed to those followed and to those with a download, with and without a
 * search, and the counts of its filter chips.
 */
import Database from 'better-sqlite3'
import { describe, expect } from 'vitest'
import { catalogueQueries, followsQueries } from '../../../../src-main/core/library/queries'
import { catalogueTest } from '../../support/fixtures'

const test = catalogueTest({ artists: 40, seed: 91, maxFileMb: 1 })

/** Artists with tracks, in the list's order, as the demo lists them. */
function withTracks(library: { catalogue: { list: (query: object) => { artists: { username: string; name: string; numTracks: number }[] } } }) {
  return library.catalogue.list({ perPage: 100 }).artists.filter((artist) => artist.numTracks > 0)
}

const sinceRun = (db: Database.Database, username: string): number | null | undefined =>
  db.prepare('SELECT since_run FROM follows WHERE username_key = ?').pluck().get(username.toLowerCase()) as number | null | undefined

describe('library.follows', () => {
  test('follows, lists, changes and unfollows an artist, without regard to case', async ({ openLibrary }) => {
    const library = openLibrary({ now: () => 1_700_000_000_000 })
    const report = await library.sync.start({ skipAvatars: true })
    const [first, second] = withTracks(library)
    expect(library.follows.list()).toEqual([])

    const followed = library.follows.follow(first!.username.toUpperCase())
    expect(followed).toEqual({ username: first!.username, name: first!.name, autoDownload: false, followedAt: 1_700_000_000_000, gone: false, inCache: true })
    library.follows.follow(second!.username, { autoDownload: true })
    expect(library.follows.list().map((artist) => [artist.username, artist.autoDownload]).sort()).toEqual(
      [[first!.username, false], [second!.username, true]].sort(),
    )
    // The follow starts after the sync that ran: only what a later sync brings is new to it.
    const db = new Database(library.cacheFile, { readonly: true })
    try {
      expect(sinceRun(db, first!.username)).toBe(report.runId)
    } finally {
      db.close()
    }

    // Following again keeps the setting unless told; setAutoDownload changes it.
    expect(library.follows.follow(second!.username).autoDownload).toBe(true)
    expect(library.follows.setAutoDownload(first!.username, true).autoDownload).toBe(true)
    expect(library.follows.follow(first!.username, { autoDownload: false }).autoDownload).toBe(false)

    expect(library.follows.unfollow(first!.username.toLowerCase())).toBe(true)
    expect(library.follows.unfollow(first!.username)).toBe(false)
    expect(library.follows.list().map((artist) => artist.username)).toEqual([second!.username])
  })

  test('says which artist each write changed, and nothing for a refused or empty one', async ({ openLibrary }) => {
    const library = openLibrary()
    await library.sync.start({ skipAvatars: true })
    const [first] = withTracks(library)
    const heard: string[] = []
    const subscription = library.follows.onDidChange((username) => heard.push(username))
    library.follows.follow(first!.username.toUpperCase())
    library.follows.setAutoDownload(first!.username, true)
    expect(() => library.follows.follow('nobody-by-this-name')).toThrow()
    library.follows.unfollow(first!.username)
    // Not followed any more: nothing changed, nothing said.
    library.follows.unfollow(first!.username)
    expect(() => library.follows.setAutoDownload(first!.username, true)).toThrow()
    subscription.dispose()
    library.follows.follow(first!.username)
    expect(heard).toEqual([first!.username.toUpperCase(), first!.username, first!.username])
  })

  test('refuses an artist the cache does not have, and bad arguments', async ({ openLibrary }) => {
    const library = openLibrary()
    expect(() => library.follows.follow('nobody-by-this-name')).toThrow(expect.objectContaining({ code: 'not_found' }))
    await library.sync.start({ skipAvatars: true })
    expect(() => library.follows.follow('nobody-by-this-name')).toThrow(/no artist named "nobody-by-this-name"/)
    expect(() => library.follows.setAutoDownload(withTracks(library)[0]!.username, true)).toThrow(expect.objectContaining({ code: 'not_found' }))
    expect(() => library.follows.follow('')).toThrow(expect.objectContaining({ code: 'invalid_argument' }))
    const someone = withTracks(library)[0]!.username
    expect(() => library.follows.follow(someone, { autoDownload: 'yes' as unknown as boolean })).toThrow(/autoDownload must be true or false/)
    expect(() => library.follows.setAutoDownload(someone, 1 as unknown as boolean)).toThrow(expect.objectContaining({ code: 'invalid_argument' }))
    expect(library.follows.list()).toEqual([])
  })

  test('an artist the service removed stays followed, marked gone, and comes back', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    await library.sync.start({ skipAvatars: true })
    const artist = withTracks(library)[2]!
    library.follows.follow(artist.username)
    demo.catalogue.removeArtist(artist.username)
    try {
      await library.sync.start({ skipAvatars: true })
      expect(library.follows.list()).toEqual([expect.objectContaining({ username: artist.username, gone: true, inCache: true })])
      // Listed in the Following filter all the same, after the artists still listed.
      expect(library.catalogue.list({ only: 'following' }).artists.map((row) => [row.username, row.goneAt !== null])).toEqual([
        [artist.username, true],
      ])
    } finally {
      demo.catalogue.restoreArtist(artist.username)
    }
    await library.sync.start({ skipAvatars: true })
    expect(library.follows.list()).toEqual([expect.objectContaining({ username: artist.username, gone: false })])
  })

  test('clearing the cache keeps the follows, which start before every run again', async ({ openLibrary }) => {
    const library = openLibrary()
    await library.sync.start({ skipAvatars: true })
    const artist = withTracks(library)[1]!
    library.follows.follow(artist.username, { autoDownload: true })
    await library.catalogue.clear()
    expect(library.follows.list()).toEqual([
      { username: artist.username, name: null, autoDownload: true, followedAt: expect.any(Number), gone: false, inCache: false },
    ])
    const db = new Database(library.cacheFile, { readonly: true })
    try {
      expect(sinceRun(db, artist.username)).toBe(0)
    } finally {
      db.close()
    }
    // Still followed, so it may be changed or followed again while the cache does not hold it.
    expect(library.follows.setAutoDownload(artist.username, false).inCache).toBe(false)
    await library.sync.start({ skipAvatars: true })
    expect(library.follows.list()).toEqual([expect.objectContaining({ username: artist.username, name: artist.name, inCache: true })])
  })
})

describe('the artists list narrowed to a set', () => {
  test('Following: the followed artists in the list order, searched, with the filters and counts', async ({ openLibrary }) => {
    const library = openLibrary()
    await library.sync.start({ skipAvatars: true })
    const everyone = withTracks(library)
    expect(library.catalogue.list({ only: 'following' })).toEqual({ total: 0, pages: 0, artists: [] })
    const picked = [everyone[5]!, everyone[1]!, everyone[9]!]
    for (const artist of picked) library.follows.follow(artist.username)

    const listed = library.catalogue.list({ only: 'following' })
    expect(listed.total).toBe(3)
    expect(listed.artists.map((artist) => artist.username)).toEqual([everyone[1]!.username, everyone[5]!.username, everyone[9]!.username])
    expect(library.catalogue.list({ only: 'following', reverse: true }).artists.map((artist) => artist.username)).toEqual(
      [everyone[9]!.username, everyone[5]!.username, everyone[1]!.username],
    )
    expect(library.catalogue.list({ only: 'following', offset: 1, limit: 1 }).artists.map((artist) => artist.username)).toEqual([
      everyone[5]!.username,
    ])
    // A search within the set finds only followed artists.
    const word = picked[1]!.username
    const searched = library.catalogue.list({ only: 'following', q: word })
    expect(searched.artists.map((artist) => artist.username)).toEqual([picked[1]!.username])
    expect(library.catalogue.list({ only: 'following', q: '!!!' }).total).toBe(0)
    // The kind filter applies within the set.
    const podcasts = picked.filter((artist) => library.catalogue.artist(artist.username).isPodcaster).length
    expect(library.catalogue.list({ only: 'following', kind: 'podcasts' }).total).toBe(podcasts)
    expect(library.catalogue.filterCounts({ kind: 'podcasts' })).toEqual({ following: podcasts, downloaded: 0 })
    expect(library.catalogue.filterCounts()).toEqual({ following: 3, downloaded: 0 })
    expect(library.catalogue.filterCounts({ q: word })).toEqual({ following: 1, downloaded: 0 })
    // The list without a set is the same as before.
    expect(library.catalogue.list({ perPage: 100 }).artists.filter((artist) => artist.numTracks > 0)).toEqual(everyone)
    expect(() => library.catalogue.list({ only: 'liked' as 'following' })).toThrow(/only must be one of following, downloaded/)
  })

  test('Downloaded: artists with at least one completed download, read over a read-only connection too', async ({ openLibrary }) => {
    const library = openLibrary()
    await library.sync.start({ skipAvatars: true })
    const artist = withTracks(library)[3]!
    const track = library.catalogue.artist(artist.username).tracks[0]!
    library.downloads.start()
    await library.downloads.enqueue({ uploadIds: [track.uploadId] })
    expect(library.catalogue.filterCounts().downloaded).toBe(0)
    await library.downloads.whenIdle()
    expect(library.downloads.list()[0]!.state).toBe('completed')

    expect(library.catalogue.list({ only: 'downloaded' }).artists.map((row) => row.username)).toEqual([artist.username])
    expect(library.catalogue.filterCounts()).toEqual({ following: 0, downloaded: 1 })
    library.follows.follow(artist.username)

    // The host answers these from its own read-only connection.
    const db = new Database(library.cacheFile, { readonly: true, fileMustExist: true })
    try {
      const reader = catalogueQueries(db, { displayUrl: library.displayUrl, readOnly: true })
      expect(followsQueries(db).list()).toEqual(library.follows.list())
      expect(reader.filterCounts()).toEqual({ following: 1, downloaded: 1 })
      expect(reader.list({ only: 'downloaded', q: artist.username }).total).toBe(1)
    } finally {
      db.close()
    }
  })
})

import type { Database } from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/core/demo/index'
import { QueryError, ftsQuery, getArtist, listArtists, syncStatus } from '../../../../src-main/core/db/queries'
import { useTempDir } from './temp-dir'
import { syncInto } from '../sync/helpers'

const tempDir = useTempDir()
let service: RunningCatalogueService
let db: Database

beforeAll(async () => {
  service = await startCatalogueService({ artists: 400, seed: 44, maxFileMb: 8 })
  const catalogue = service.catalogue
  const withTracks = catalogue.artists.filter((a) => a.numTracks > 0)
  // Known words: one in a display name, the same only in another artist's bio.
  catalogue.editArtist(withTracks[0]!.username, { pfName: 'Ólafur Þórsson Quintet' })
  catalogue.editArtist(withTracks[1]!.username, { pfBio: 'Recorded with the Olafur quintet in 2019.\nSecond line.' })
  catalogue.editArtist(withTracks[2]!.username, { pfBio: 'Xylophonic experiments' })
  ;({ db } = await syncInto(tempDir(), service.baseUrl, { skipAvatars: true }))
})
afterAll(async () => {
  db.close()
  await service.close()
})

async function serviceSearch(q: string, filter = ''): Promise<string[]> {
  const usernames: string[] = []
  for (let page = 1; ; page++) {
    const body = (await (await fetch(`${service.baseUrl}/api/v1/artists?q=${encodeURIComponent(q)}&per_page=50&page=${page}${filter}`)).json()) as {
      artists: { artist: { username: string } }[]
    }
    if (body.artists.length === 0) return usernames
    usernames.push(...body.artists.map((a) => a.artist.username))
  }
}

const offlineSearch = (q: string, extra = {}): string[] =>
  listArtists(db, { q, perPage: 1000, ...extra }).artists.map((a) => a.username)

describe('offline search', () => {
  it('folds diacritics both ways and matches prefixes', () => {
    const owner = service.catalogue.artists.filter((a) => a.numTracks > 0)[0]!.username
    expect(offlineSearch('olafur')).toContain(owner)
    expect(offlineSearch('ÓLAFUR')).toContain(owner)
    expect(offlineSearch('Óla')).toContain(owner)
    expect(offlineSearch('quin ÞÓRS')).toEqual([owner]) // every word, each a prefix
    expect(offlineSearch('uintet')).toEqual([]) // prefixes, not any substring
  })

  it('finds words that are only in a bio, ranked below matches in names', () => {
    const [owner, mentioned, xylophone] = service.catalogue.artists.filter((a) => a.numTracks > 0)
    const found = offlineSearch('olafur')
    // Other artists carry the word in their display name too; the bio-only match comes after all of them.
    expect(found.at(-1)).toBe(mentioned!.username)
    expect(found).toContain(owner!.username)
    for (const username of found.slice(0, -1)) expect(getArtist(db, username)!.name.toLowerCase()).toMatch(/ólafur/)
    expect(offlineSearch('xylophon')).toEqual([xylophone!.username])
  })

  it('finds the same artists as the service for the same words', async () => {
    for (const q of ['olafur', 'bjork', 'Björk', 'harbor', 'the', 'krautrock', 'caf', 'music', '東京', 'москва', 'riff lords', 'zzzqqq']) {
      const online = await serviceSearch(q)
      expect(new Set(offlineSearch(q)), q).toEqual(new Set(online))
    }
    const podcasts = await serviceSearch('episodes', '&is_podcaster=1&include_blank=1')
    expect(new Set(offlineSearch('episodes', { kind: 'podcasts', includeBlank: true }))).toEqual(new Set(podcasts))
  })

  it('treats FTS syntax in the text as plain words', () => {
    expect(ftsQuery('AND OR NOT "quote" (x) * ^a:b')).toBe('"AND"* "OR"* "NOT"* "quote"* "x"* "a"* "b"*')
    expect(() => offlineSearch('NEAR(a b) OR "')).not.toThrow()
    expect(offlineSearch('!!! ***')).toEqual([])
    expect(listArtists(db, { q: '   ' }).total).toBe(listArtists(db).total) // blank q is no search
  })

  it('gives first pages (ranked with a limit) that are exactly the start of the whole ranking', () => {
    let crossed = 0
    for (const q of ['a', 's', 'm', 'the', 'olafur', 'episodes']) {
      for (const kind of ['all', 'podcasts', 'musicians'] as const) {
        const whole = offlineSearch(q, { kind, includeBlank: true })
        const paged: string[] = []
        for (let page = 1; page <= 12; page++) paged.push(...offlineSearch(q, { kind, includeBlank: true, perPage: 25, page }))
        expect(paged, `${q} ${kind}`).toEqual(whole.slice(0, 300))
        if (whole.length > 200) crossed++
      }
    }
    expect(crossed).toBeGreaterThan(0) // some searches have more results than a first ranking holds
  })

  it('ignores the sort order and its reverse, as the service does', () => {
    const plain = offlineSearch('the')
    expect(offlineSearch('the', { sort: 'recently_created', reverse: true })).toEqual(plain)
  })
})

describe('offline lists', () => {
  it('page by offset and limit as well as by page', () => {
    const byPage = listArtists(db, { page: 3, perPage: 20, sort: 'top' })
    const byOffset = listArtists(db, { offset: 40, limit: 20, sort: 'top' })
    expect(byOffset.artists).toEqual(byPage.artists)
    expect(byOffset.total).toBe(byPage.total)
    expect(byPage.pages).toBe(Math.ceil(byPage.total / 20))
  })

  it('refuse nonsense arguments with a clear error', () => {
    expect(() => listArtists(db, { perPage: 0 })).toThrow(QueryError)
    expect(() => listArtists(db, { page: 1.5 })).toThrow(/page must be an integer/)
    expect(() => listArtists(db, { sort: 'loudest' as never })).toThrow(/unknown sort order/)
    expect(() => listArtists(db, { kind: 'robots' as never })).toThrow(/unknown kind/)
    expect(() => listArtists(db, { page: 1, offset: 0 })).toThrow(/not both/)
  })

  it('find an artist without regard to case, with tracks in the service order', () => {
    const artist = service.catalogue.artists.find((a) => a.numTracks > 3)!
    const cached = getArtist(db, artist.username.toUpperCase())!
    expect(cached.username).toBe(artist.username)
    expect(cached.tracks.map((t) => t.uploadId)).toEqual(service.catalogue.tracksOf(artist).map((t) => t.uploadId))
    expect(getArtist(db, 'nobody-by-that-name')).toBeUndefined()
  })

  it('report the sync status', () => {
    const status = syncStatus(db)
    expect(status.baseUrl).toBe(service.baseUrl)
    expect(status.lastRun).toMatchObject({ state: 'completed', phase: 'avatars' })
    expect(status.artists).toBe(400)
    expect(status.gone).toBe(0)
    expect(status.detailsPending).toBe(0)
    expect(getArtist(db, service.catalogue.artists[0]!.username)!.detailFetchedAt).toBeGreaterThan(0)
  })
})

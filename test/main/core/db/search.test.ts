import path from 'node:path'
import { describe, expect } from 'vitest'
import type { ArtistListQuery } from '../../../../src-main/core/db/artists'
import { openDatabase } from '../../../../src-main/core/db/connection'
import { bumpCatalogueVersion } from '../../../../src-main/core/db/query-cache'
import { FLAG_WORDS, SEARCH_TUNING, searchArtists, searchMatch, type SearchTuning } from '../../../../src-main/core/db/search'
import { UNKIND_NAMES } from '../../../../src-main/demo/words'
import type { RunningCatalogueService } from '../../../../src-main/demo/index'
import { openLibrary, type Library } from '../../../../src-main/core/library/library'
import { searchWords } from '../../../../src-main/core/shared/text'
import { QUICK_RETRIES, catalogueTest, test as cacheTest } from '../../support/fixtures'
import { FILTERS, expectedOrder, searchAll, syntheticCache } from './synthetic-search-cache'

/**
 * Names whose words SQLite's own tokenizer (its Unicode tables, its case
 * folding) would split or fold otherwise than the service: an emoji skin tone
 * glued to a word, a private-use character between two, a ruble sign,
 * New Tai Lue vowels (letters since Unicode 8), final sigma.
 */
const TRICKY_NAMES = ['🙌🏾Amara Soul', 'Band\uE001Zeta', '100₽rouble', 'ᦵᦑᦟᦹ Music', 'Οδυσσέας ΧΑΟΣ']

/**
 * Artists with tracks and a plain display name, in catalogue order: the file
 * edits the first few (the same ones before and after the edits), leaving
 * every unkind name in place.
 */
const plainArtists = (demo: RunningCatalogueService) =>
  demo.catalogue.artists.filter((a) => a.numTracks > 0 && !(UNKIND_NAMES as readonly string[]).includes(a.pfName))

/**
 * 350 artists of seed 2853: among their display names is every one of the
 * demo's unkind names (fullwidth, Greek, CJK, Cyrillic, Arabic, Hebrew,
 * Hangul, Devanagari, emoji, markup). One sync for the whole file.
 */
const test = catalogueTest({ artists: 350, seed: 2853, maxFileMb: 1 }).extend(
  'library',
  { scope: 'file' },
  async ({ demo, tempDir }, { onCleanup }): Promise<Library> => {
    const withTracks = plainArtists(demo)
    // Known words: one in a display name, the same only in another artist's bio.
    demo.catalogue.editArtist(withTracks[0]!.username, { pfName: 'Ólafur Þórsson Quintet' })
    demo.catalogue.editArtist(withTracks[1]!.username, { pfBio: 'Recorded with the Olafur quintet in 2019.\nSecond line.' })
    demo.catalogue.editArtist(withTracks[2]!.username, { pfBio: 'Xylophonic experiments' })
    TRICKY_NAMES.forEach((pfName, i) => demo.catalogue.editArtist(withTracks[3 + i]!.username, { pfName }))
    const library = openLibrary({ dataDir: tempDir(), baseUrl: demo.baseUrl, client: QUICK_RETRIES })
    onCleanup(() => library.dispose())
    await library.sync.start({ skipAvatars: true })
    return library
  },
)

interface ListBody {
  pages: number
  artists: { artist: { username: string } }[]
}

/** Usernames the service finds for q, over all its pages of 50, in its order. */
async function serviceSearch(baseUrl: string, q: string, filter = ''): Promise<string[]> {
  const usernames: string[] = []
  for (let page = 1; ; page++) {
    const response = await fetch(`${baseUrl}/api/v1/artists?q=${encodeURIComponent(q)}&per_page=50&page=${page}${filter}`)
    expect(response.status, q).toBe(200)
    const body = (await response.json()) as ListBody
    usernames.push(...body.artists.map((a) => a.artist.username))
    if (page >= body.pages) {
      expect(usernames.length, q).toBe(body.pages === 0 ? 0 : (body.pages - 1) * 50 + body.artists.length)
      return usernames
    }
    expect(body.artists, q).toHaveLength(50)
  }
}

/** Usernames the offline search finds for q, paged by offset and limit to the end, in its order. */
function offlineSearch(library: Library, q: string, extra: Omit<ArtistListQuery, 'q'> = {}, limit = 1000): string[] {
  const usernames: string[] = []
  for (let offset = 0; ; offset += limit) {
    const page = library.catalogue.list({ q, offset, limit, ...extra })
    usernames.push(...page.artists.map((a) => a.username))
    if (offset + limit >= page.total) {
      expect(usernames, q).toHaveLength(page.total)
      return usernames
    }
  }
}

/** No username twice: the pages of a search partition its results. */
function asSet(usernames: string[], what: string): Set<string> {
  const set = new Set(usernames)
  expect(set.size, `${what}: a username on two pages`).toBe(usernames.length)
  return set
}

describe('offline search', () => {
  test('folds diacritics both ways and matches prefixes', ({ demo, library }) => {
    const owner = plainArtists(demo)[0]!.username
    expect(offlineSearch(library, 'olafur')).toContain(owner)
    expect(offlineSearch(library, 'ÓLAFUR')).toContain(owner)
    expect(offlineSearch(library, 'Óla')).toContain(owner)
    expect(offlineSearch(library, 'quin ÞÓRS')).toEqual([owner]) // every word, each a prefix
    expect(offlineSearch(library, 'uintet')).toEqual([]) // prefixes, not any substring
  })

  test('finds words that are only in a bio, ranked below matches in names', ({ demo, library }) => {
    const [owner, mentioned, xylophone] = plainArtists(demo)
    const found = offlineSearch(library, 'olafur')
    // Other artists carry the word in their display name too; the bio-only match comes after all of them.
    expect(found.length).toBeGreaterThan(2)
    expect(found.at(-1)).toBe(mentioned!.username)
    expect(found).toContain(owner!.username)
    for (const username of found.slice(0, -1)) expect(library.catalogue.artist(username).name.toLowerCase()).toMatch(/ólafur/)
    expect(offlineSearch(library, 'xylophon')).toEqual([xylophone!.username])
  })

  test('finds the same artists as the service for the same words', async ({ demo, library }) => {
    for (const q of ['olafur', 'bjork', 'Björk', 'harbor', 'the', 'krautrock', 'caf', 'music', '東京', 'москва', 'riff lords', 'zzzqqq']) {
      const online = await serviceSearch(demo.baseUrl, q)
      expect(new Set(offlineSearch(library, q)), q).toEqual(new Set(online))
    }
    const podcasts = await serviceSearch(demo.baseUrl, 'episodes', '&is_podcaster=1&include_blank=1')
    expect(podcasts.length).toBeGreaterThan(0)
    expect(new Set(offlineSearch(library, 'episodes', { kind: 'podcasts', includeBlank: true }))).toEqual(new Set(podcasts))
  })

  test('treats FTS syntax in the text as plain words', ({ library }) => {
    expect(searchMatch('AND OR NOT "quote" (x) * ^a:b')).toBe('"and"* "or"* "not"* "quote"* "x"* "a"* "b"*')
    expect(searchMatch('NEAR(a b) OR "')).toBe('"near"* "a"* "b"* "or"*')
    expect(searchMatch('!!! *** 🎸')).toBeUndefined()
    expect(() => offlineSearch(library, 'NEAR(a b) OR "')).not.toThrow()
    expect(offlineSearch(library, '!!! ***')).toEqual([])
    expect(library.catalogue.list({ q: '   ' }).total).toBe(library.catalogue.list().total) // blank q is no search
  })

  test('gives first pages (ranked with a limit) that are exactly the start of the whole ranking', ({ library }) => {
    let crossed = 0
    for (const q of ['a', 's', 'm', 'the', 'olafur', 'episodes']) {
      for (const kind of ['all', 'podcasts', 'musicians'] as const) {
        const whole = library.catalogue.list({ q, kind, includeBlank: true, perPage: 1000 }).artists.map((a) => a.username)
        const paged: string[] = []
        for (let page = 1; page <= 12; page++) {
          paged.push(...library.catalogue.list({ q, kind, includeBlank: true, perPage: 25, page }).artists.map((a) => a.username))
        }
        expect(paged, `${q} ${kind}`).toEqual(whole.slice(0, 300))
        if (whole.length > 200) crossed++
      }
    }
    expect(crossed).toBeGreaterThan(0) // some searches have more results than a first ranking holds
  })

  test('ignores the sort order and its reverse, as the service does', ({ library }) => {
    const plain = library.catalogue.list({ q: 'the', perPage: 1000 }).artists
    expect(plain.length).toBeGreaterThan(0)
    expect(library.catalogue.list({ q: 'the', perPage: 1000, sort: 'recently_created', reverse: true }).artists).toEqual(plain)
  })

  test('agrees with the service where SQLite would split or fold words its own way', async ({ demo, library }) => {
    const owners = plainArtists(demo).slice(3, 3 + TRICKY_NAMES.length).map((a) => a.username)
    // Found by the words the service sees in them...
    for (const [q, owner] of [['amara', 0], ['soul', 0], ['zeta', 1], ['band', 1], ['rouble', 2], ['100', 2], ['ᦵᦑ', 3], ['οδυσσ', 4], ['ΧΑΟΣ', 4], ['χαος', 4]] as const) {
      expect(await serviceSearch(demo.baseUrl, q, '&include_blank=1'), q).toContain(owners[owner])
    }
    // ... and the offline search finds exactly what the service finds, for those and for what the service does not find.
    for (const q of ['amara', 'soul', 'zeta', 'band', 'bandzeta', 'rouble', '100', '100rouble', 'ᦵᦑ', 'ᦑᦟ', 'οδυσσ', 'ΧΑΟΣ', 'χαος', 'χαοσ', '🏾amara']) {
      const online = await serviceSearch(demo.baseUrl, q, '&include_blank=1')
      expect(new Set(offlineSearch(library, q, { includeBlank: true })), q).toEqual(new Set(online))
    }
  })

  test('finds, for every word and every prefix of every name and username, exactly the artists the service finds', async ({ demo, library }) => {
    const displayNames = demo.catalogue.artists.map((a) => a.pfName)
    for (const name of UNKIND_NAMES) expect(displayNames, 'the catalogue holds every unkind name').toContain(name)
    const queries = new Set<string>()
    for (const artist of demo.catalogue.artists) {
      for (const text of [artist.pfName, artist.username]) {
        for (const word of searchWords(text)) {
          const characters = Array.from(word)
          for (let length = 1; length <= characters.length; length++) queries.add(characters.slice(0, length).join(''))
        }
      }
    }
    for (const q of ['aesthetic', 'ψυχη', 'bjork', '坂本龍一', 'кино', 'فيروز', 'אהוד', ...searchWords('방탄소년단 हिंदी')]) expect(queries).toContain(q)

    let compared = 0
    const all = [...queries]
    for (let start = 0; start < all.length; start += 8) {
      // A few searches at once keep the service busy; each is compared on its own.
      const batch = all.slice(start, start + 8)
      const answers = await Promise.all(batch.map((q) => serviceSearch(demo.baseUrl, q, '&include_blank=1')))
      batch.forEach((q, i) => {
        const online = asSet(answers[i]!, `service ${q}`)
        const offline = asSet(offlineSearch(library, q, { includeBlank: true }, 50), `offline ${q}`)
        expect(online.size, `the service finds ${q}`).toBeGreaterThan(0)
        expect(offline, q).toEqual(online)
        compared++
      })
    }
    expect(compared).toBe(queries.size)
    expect(compared).toBeGreaterThan(1000)
  }, 60_000)
})

describe('large searches, as the service orders them', () => {
  // A lower threshold, so that this catalogue of 350 has searches above it.
  const tuning: SearchTuning = { ...SEARCH_TUNING, popularAbove: 20 }

  test('list a search that finds more artists than the threshold exactly in the service\'s order: names first, then trending', async ({ demo, library }) => {
    const db = openDatabase(library.cacheFile)
    const username = db.prepare('SELECT username FROM artists WHERE id = ?').pluck()
    let compared = 0
    for (const q of ['a', 's', 'm', 'the', 'dj', 'music', 'harbor', 'wolves', 'episodes', 'c']) {
      for (const { kind, includeBlank } of FILTERS) {
        const filter = `${kind === 'all' ? '' : `&is_podcaster=${kind === 'podcasts' ? 1 : 0}`}${includeBlank ? '&include_blank=1' : ''}`
        const offline = searchAll(db, q, kind, includeBlank, tuning).map((id) => username.get(id) as string)
        if (offline.length <= tuning.popularAbove) continue
        expect(offline, `${q} ${kind} ${includeBlank}`).toEqual(await serviceSearch(demo.baseUrl, q, filter))
        compared++
      }
    }
    expect(compared).toBeGreaterThan(20)
    db.close()
  })

  test('give first pages that are exactly the start of the whole order, above the threshold and below it', ({ library }) => {
    const db = openDatabase(library.cacheFile)
    for (const popularAbove of [20, 100, 2000]) {
      for (const q of ['a', 's', 'm', 'the', 'olafur', 'episodes']) {
        for (const { kind, includeBlank } of FILTERS) {
          const whole = searchAll(db, q, kind, includeBlank, { ...tuning, popularAbove })
          const paged: number[] = []
          for (let offset = 0; offset < 300; offset += 25) paged.push(...searchArtists(db, q, kind, includeBlank, offset, 25, { ...tuning, popularAbove })!.ids)
          expect(paged, `${q} ${kind} ${includeBlank} ${popularAbove}`).toEqual(whole.slice(0, 300))
        }
      }
    }
    db.close()
  })

  test('find the same artists whether a word needs the column filter or not, in the same bm25 order', ({ library }) => {
    const db = openDatabase(library.cacheFile)
    const ranked = (match: string): number[] =>
      db.prepare('SELECT rowid FROM artists_fts WHERE artists_fts MATCH ? ORDER BY bm25(artists_fts, 10.0, 10.0, 1.0, 2.0, 0.0), rowid').pluck().all(match) as number[]
    // A word that begins no flag word can match only in the four text columns.
    for (const q of ['a', 's', 'the', 'music', 'olafur', 'x', 'recorded', 'riff lords']) {
      const words = searchMatch(q)!
      const filters = 'NOT search_flags : gone NOT search_flags : blank'
      const withColumns = ranked(`{username pf_name pf_bio location_name} : (${words}) ${filters}`)
      expect(withColumns.length, q).toBeGreaterThan(0)
      expect(ranked(`${words} ${filters}`), q).toEqual(withColumns)
    }
    db.close()
  })
})

describe('large searches on a large cache', () => {
  const QUERIES = ['the', 'dj', 'a', 't', 'al', 'am', 'the al', 'p', 'po', 'b', 'bl', 'g', 'go', 'e', 'ψ', 'ostra', 'zed', 'z', 're', 'records', 'r a']

  cacheTest('list more than 2,000 results names first, then trending, and fewer by bm25, names first', ({ tempDir }) => {
    const { db, artists } = syntheticCache(path.join(tempDir(), 'large.sqlite'), 6000)
    const username = new Map(artists.map((a) => [a.id, a]))
    let popular = 0
    let ranked = 0
    for (const q of QUERIES) {
      for (const { kind, includeBlank } of FILTERS) {
        const expected = expectedOrder(artists, q, kind, includeBlank)
        const found = searchAll(db, q, kind, includeBlank)
        if (expected.length > SEARCH_TUNING.popularAbove) {
          expect(found, `${q} ${kind} ${includeBlank}`).toEqual(expected)
          popular++
        } else {
          // bm25 decides the order within each group; the groups and the set are the rule's.
          expect(new Set(found), q).toEqual(new Set(expected))
          const names = expected.filter((id) => searchWords(q).every((w) => searchWords(`${username.get(id)!.username} ${username.get(id)!.name}`).some((c) => c.startsWith(w))))
          expect(new Set(found.slice(0, names.length)), q).toEqual(new Set(names))
          if (expected.length > 0) ranked++
        }
      }
    }
    expect(popular).toBeGreaterThan(15)
    expect(ranked).toBeGreaterThan(40)
    db.close()
  })

  cacheTest('put a search in the same trending order whether it walks that order or looks up each match in it', ({ tempDir }) => {
    const { db, artists } = syntheticCache(path.join(tempDir(), 'walk.sqlite'), 3000)
    const walk = { ...SEARCH_TUNING, popularAbove: 20, walkAbove: 0 }
    const join = { ...walk, walkAbove: Infinity }
    expect(artists.some((a) => a.rank === null && !a.gone)).toBe(true) // some matches come after the walk, by id
    let compared = 0
    for (const q of ['a', 'the', 'dj', 'zed', 'podium', 'ψ', 'alpha the', 'b']) {
      for (const { kind, includeBlank } of FILTERS) {
        const whole = searchAll(db, q, kind, includeBlank, join)
        bumpCatalogueVersion(db) // both orders share their cached answers
        expect(searchAll(db, q, kind, includeBlank, walk), `${q} ${kind} ${includeBlank}`).toEqual(whole)
        if (whole.length > walk.popularAbove) expect(whole, `${q} ${kind} ${includeBlank}`).toEqual(expectedOrder(artists, q, kind, includeBlank))
        for (const [offset, limit] of [[0, 50], [150, 100], [950, 50], [1000, 300]] as const) {
          const walked = (bumpCatalogueVersion(db), searchArtists(db, q, kind, includeBlank, offset, limit, walk))
          expect(walked).toEqual((bumpCatalogueVersion(db), searchArtists(db, q, kind, includeBlank, offset, limit, join)))
        }
        if (whole.length > walk.popularAbove) compared++
      }
    }
    expect(compared).toBeGreaterThan(30)
    db.close()
  })

  cacheTest('know every word of the filter column', ({ tempDir }) => {
    const { db } = syntheticCache(path.join(tempDir(), 'flags.sqlite'), 500)
    const flags = db.prepare('SELECT DISTINCT search_flags FROM artists').pluck().all() as string[]
    expect(new Set(flags.flatMap((text) => text.split(' ').filter(Boolean)))).toEqual(new Set(FLAG_WORDS))
    db.close()
  })
})

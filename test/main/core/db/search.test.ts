import path from 'node:path'
import type { Database } from 'better-sqlite3'
import * as v from 'valibot'
import { describe, expect } from 'vitest'
import { listArtists, type ArtistListQuery } from '../../../../src-main/core/db/artists'
import { artistListQuerySchema } from '../../../../src-main/core/shared/arguments'
import { openDatabase } from '../../../../src-main/core/db/connection'
import { bumpCatalogueVersion } from '../../../../src-main/core/db/query-cache'
import {
  FLAG_WORDS, SEARCH_TUNING, optimizeSearchIndex, rebuildSearchIndex, searchArtists, searchMatch, storeSearchAnswers, type SearchTuning,
} from '../../../../src-main/core/db/search'
import { ARTIST_KINDS, type ArtistKind } from '../../../../src-main/core/shared/catalogue'
import { UNKIND_NAMES } from '../../../../src-main/core/demo/words'
import type { RunningCatalogueService } from '../../../../src-main/core/demo/index'
import { openLibrary, type Library } from '../../../../src-main/core/library'
import { searchWords } from '../../../../src-main/core/shared/text'
import { QUICK_RETRIES, catalogueTest, test as cacheTest } from '../../support/fixtures'

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
    const page = library.catalogue.listArtists({ q, offset, limit, ...extra })
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
    for (const username of found.slice(0, -1)) expect(library.catalogue.getArtist(username).name.toLowerCase()).toMatch(/ólafur/)
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
    expect(library.catalogue.listArtists({ q: '   ' }).total).toBe(library.catalogue.listArtists().total) // blank q is no search
  })

  test('gives first pages (ranked with a limit) that are exactly the start of the whole ranking', ({ library }) => {
    let crossed = 0
    for (const q of ['a', 's', 'm', 'the', 'olafur', 'episodes']) {
      for (const kind of ['all', 'podcasts', 'musicians'] as const) {
        const whole = library.catalogue.listArtists({ q, kind, includeBlank: true, perPage: 1000 }).artists.map((a) => a.username)
        const paged: string[] = []
        for (let page = 1; page <= 12; page++) {
          paged.push(...library.catalogue.listArtists({ q, kind, includeBlank: true, perPage: 25, page }).artists.map((a) => a.username))
        }
        expect(paged, `${q} ${kind}`).toEqual(whole.slice(0, 300))
        if (whole.length > 200) crossed++
      }
    }
    expect(crossed).toBeGreaterThan(0) // some searches have more results than a first ranking holds
  })

  test('ignores the sort order and its reverse, as the service does', ({ library }) => {
    const plain = library.catalogue.listArtists({ q: 'the', perPage: 1000 }).artists
    expect(plain.length).toBeGreaterThan(0)
    expect(library.catalogue.listArtists({ q: 'the', perPage: 1000, sort: 'recently_created', reverse: true }).artists).toEqual(plain)
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

/** Every list filter of a search. */
const FILTERS = ARTIST_KINDS.flatMap((kind) => [false, true].map((includeBlank) => ({ kind, includeBlank })))

/** Ids a search finds, paged by offset and limit to the end. */
function searchAll(db: Database, q: string, kind: ArtistKind, includeBlank: boolean, tuning?: SearchTuning): number[] {
  const ids: number[] = []
  for (let offset = 0; ; offset += 1000) {
    const page = searchArtists(db, q, kind, includeBlank, offset, 1000, tuning)!
    ids.push(...page.ids)
    if (offset + 1000 >= page.total) {
      expect(ids, q).toHaveLength(page.total)
      return ids
    }
  }
}

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

interface SyntheticArtist {
  id: number
  username: string
  name: string
  bio: string
  location: string | null
  podcast: boolean
  blank: boolean
  gone: boolean
  rank: number | null
}

/**
 * A cache of `count` made-up artists, written as a sync writes them: a few very
 * common words (some of them beginning a flag word), podcasters, artists without
 * tracks, gone artists, artists without a place in the trending order.
 */
function syntheticCache(file: string, count: number): { db: Database; artists: SyntheticArtist[] } {
  let seed = 12345
  const random = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    return (seed >>> 8) % n
  }
  const NAME_WORDS = ['The', 'DJ', 'Alpha', 'Album', 'Amber', 'Theta', 'Podium', 'Blanket', 'Gopher', 'Östra', 'Ψυχή', 'Echo', 'Zed']
  const BIO_WORDS = ['a', 'ambient', 'the', 'tapes', 'podcasting', 'echoes', 'gone', 'blank', 'zebra', 'δ']
  const artists: SyntheticArtist[] = []
  for (let id = 1; id <= count; id++) {
    const words = (list: string[], n: number): string => Array.from({ length: n }, () => list[random(list.length)]!).join(' ')
    const gone = random(30) === 0
    artists.push({
      id,
      username: `${NAME_WORDS[random(NAME_WORDS.length)]!.toLowerCase()}_${id}`,
      name: `${random(2) === 0 ? 'The ' : ''}${random(5) < 2 ? 'DJ ' : ''}${words(NAME_WORDS, 1 + random(2))}`,
      bio: `${random(10) === 0 ? '' : 'a '}${random(2) === 0 ? 'Records ' : ''}${words(BIO_WORDS, random(4))}`,
      location: random(3) === 0 ? words(['Berlin', 'Tokyo', 'Athens'], 1) : null,
      podcast: random(7) === 0,
      blank: random(10) === 0,
      gone,
      rank: null,
    })
  }
  // Trending places: a shuffled order of the listed artists; a few listed artists have none.
  const listed = artists.filter((a) => !a.gone && random(25) !== 0)
  for (let i = listed.length - 1; i > 0; i--) {
    const j = random(i + 1)
    ;[listed[i], listed[j]] = [listed[j]!, listed[i]!]
  }
  listed.forEach((artist, place) => (artist.rank = place))
  const db = openDatabase(file)
  const insert = db.prepare(
    `INSERT INTO artists (id, username, username_key, num_tracks, pf_name, pf_bio, avatar, avatar_thumb, location_name, listed_items,
       list_signature, listed_run, is_podcaster, gone_at, rank_trending)
     VALUES (@id, @username, lower(@username), @tracks, @name, @bio, '', '', @location, '[]', 'x', 1, @podcast, @goneAt, @rank)`,
  )
  db.transaction(() => {
    for (const a of artists) {
      insert.run({ ...a, tracks: a.blank ? 0 : 3, podcast: a.podcast ? 1 : 0, goneAt: a.gone ? 1 : null })
    }
    bumpCatalogueVersion(db)
  }).immediate()
  return { db, artists }
}

/** What the rule for large searches gives, computed from the artists themselves: names first, then trending, without a place last by id. */
function expectedOrder(artists: SyntheticArtist[], q: string, kind: ArtistKind, includeBlank: boolean): number[] {
  const words = searchWords(q)
  const holds = (text: string): boolean => {
    const have = searchWords(text)
    return words.every((word) => have.some((candidate) => candidate.startsWith(word)))
  }
  const found = artists.filter(
    (a) =>
      !a.gone && (includeBlank || !a.blank) && (kind === 'all' || (kind === 'podcasts') === a.podcast) &&
      holds(`${a.username} ${a.name} ${a.bio} ${a.location ?? ''}`),
  )
  const trending = (a: SyntheticArtist, b: SyntheticArtist): number => (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.id - b.id
  const inNames = found.filter((a) => holds(`${a.username} ${a.name}`)).sort(trending)
  const names = new Set(inNames)
  return [...inNames, ...found.filter((a) => !names.has(a)).sort(trending)].map((a) => a.id)
}

const pageQuery = (q: string, kind: ArtistKind, includeBlank: boolean, offset: number, limit: number) =>
  v.parse(artistListQuerySchema, { q, kind, includeBlank, offset, limit })

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

  // Stores the answers of many more words than the defaults would in a catalogue of 6,000.
  const storeMore: SearchTuning = { ...SEARCH_TUNING, storeAbove: 1000 }

  cacheTest('answer the broadest words from what a sync\'s end stored, exactly as they would be computed', ({ tempDir }) => {
    const { db, artists } = syntheticCache(path.join(tempDir(), 'large.sqlite'), 6000)
    // With the defaults: only words that match more than 5,000 of the 6,000.
    db.transaction(() => optimizeSearchIndex(db)).immediate()
    expect(db.prepare('SELECT DISTINCT word FROM search_answers ORDER BY word').pluck().all()).toEqual(['a'])
    for (const { kind, includeBlank } of FILTERS) {
      const page = listArtists(db, pageQuery('a', kind, includeBlank, 0, 100))
      const expected = expectedOrder(artists, 'a', kind, includeBlank)
      const computed = searchArtists(db, 'a', kind, includeBlank, 0, 100, { ...SEARCH_TUNING, storeLength: 0 })!
      expect(page.total).toBe(expected.length)
      expect(page.artists.map((a) => a.id)).toEqual(computed.ids)
      if (expected.length > SEARCH_TUNING.popularAbove) expect(computed.ids).toEqual(expected.slice(0, 100))
    }

    db.transaction(() => optimizeSearchIndex(db, storeMore)).immediate()
    const stored = db.prepare('SELECT DISTINCT word FROM search_answers ORDER BY word').pluck().all() as string[]
    expect(stored).toEqual(expect.arrayContaining(['a', 'al', 'am', 'the', 'dj', 't', 'p', 'po', 'b', 'g', 'e', 'r', 're', 'rec']))
    // Some filters of a stored word find at most 2,000 artists: those are ranked by bm25 when asked, only their totals stored.
    expect(db.prepare('SELECT count(*) FROM search_answers WHERE first_ids IS NULL').pluck().get()).toBeGreaterThan(0)
    const computed = { ...storeMore, storeLength: 0 } // never reads stored answers
    let firstPages = 0
    for (const word of stored) {
      for (const { kind, includeBlank } of FILTERS) {
        const expected = expectedOrder(artists, word, kind, includeBlank)
        for (const [offset, limit] of [[0, 50], [0, 200], [150, 50], [199, 1], [190, 20], [200, 50], [1000, 25]] as const) {
          const page = searchArtists(db, word, kind, includeBlank, offset, limit, storeMore)!
          const same = searchArtists(db, word, kind, includeBlank, offset, limit, computed)!
          expect(page.total, `${word} ${kind} ${includeBlank}`).toBe(expected.length)
          expect(page, `${word} ${kind} ${includeBlank} ${offset}`).toEqual(same)
          if (expected.length > SEARCH_TUNING.popularAbove) expect(same.ids).toEqual(expected.slice(offset, offset + limit))
          if (offset + limit <= 200) firstPages++
        }
      }
    }
    expect(firstPages).toBeGreaterThan(300)
    db.close()
  })

  cacheTest('never answer from stored answers once the catalogue changed, or that another rule stored', ({ tempDir }) => {
    const { db, artists } = syntheticCache(path.join(tempDir(), 'large.sqlite'), 6000)
    db.transaction(() => optimizeSearchIndex(db, storeMore)).immediate()
    const total = (q: string, tuning = storeMore): number => searchArtists(db, q, 'all', true, 0, 50, tuning)!.total
    const truth = expectedOrder(artists, 'dj', 'all', true).length
    expect(total('dj')).toBe(truth)
    // What is stored is what is read (a made-up total shows)...
    db.prepare(`UPDATE search_answers SET total = 7 WHERE word = 'dj'`).run()
    expect(total('dj')).toBe(7)
    // ... but not under another rule,
    expect(total('dj', { ...storeMore, popularAbove: 3000 })).toBe(truth)
    // nor once the catalogue changed: an artist renamed is found at once, first among the names in trending order.
    const renamed = artists.find((a) => !a.gone && !a.blank && a.rank !== null && !/dj/i.test(`${a.username} ${a.name}`))!
    db.transaction(() => {
      db.prepare(`UPDATE artists SET pf_name = 'DJ Renamed', rank_trending = -1 WHERE id = ?`).run(renamed.id)
      bumpCatalogueVersion(db)
    }).immediate()
    expect(total('dj')).toBe(truth + 1)
    expect(searchArtists(db, 'dj', 'all', true, 0, 1, storeMore)!.ids).toEqual([renamed.id])
    // The next sync's end stores them again; a first sync's index rebuild drops them.
    db.transaction(() => optimizeSearchIndex(db, storeMore)).immediate()
    db.prepare(`UPDATE search_answers SET total = 8 WHERE word = 'dj'`).run()
    expect(total('dj')).toBe(8)
    db.transaction(() => rebuildSearchIndex(db)).immediate()
    expect(db.prepare('SELECT count(*) FROM search_answers').pluck().get()).toBe(0)
    expect(total('dj')).toBe(truth + 1)
    db.close()
  })

  cacheTest('store nothing for a catalogue too small for any word to match that many', ({ tempDir }) => {
    const { db } = syntheticCache(path.join(tempDir(), 'small.sqlite'), 3000)
    db.transaction(() => storeSearchAnswers(db)).immediate()
    expect(db.prepare('SELECT count(*) FROM search_answers').pluck().get()).toBe(0)
    db.transaction(() => storeSearchAnswers(db, { ...SEARCH_TUNING, storeAbove: 1000 })).immediate()
    expect(db.prepare('SELECT count(*) FROM search_answers').pluck().get()).toBeGreaterThan(0)
    db.close()
  })

  cacheTest('know every word of the filter column', ({ tempDir }) => {
    const { db } = syntheticCache(path.join(tempDir(), 'flags.sqlite'), 500)
    const flags = db.prepare('SELECT DISTINCT search_flags FROM artists').pluck().all() as string[]
    expect(new Set(flags.flatMap((text) => text.split(' ').filter(Boolean)))).toEqual(new Set(FLAG_WORDS))
    db.close()
  })
})

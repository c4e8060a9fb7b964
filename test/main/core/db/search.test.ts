import { describe, expect } from 'vitest'
import type { ArtistListQuery } from '../../../../src-main/core/db/artists'
import { searchMatch } from '../../../../src-main/core/db/search'
import { UNKIND_NAMES } from '../../../../src-main/core/demo/words'
import type { RunningCatalogueService } from '../../../../src-main/core/demo/index'
import { openLibrary, type Library } from '../../../../src-main/core/library'
import { searchWords } from '../../../../src-main/core/shared/text'
import { QUICK_RETRIES, catalogueTest } from '../../support/fixtures'

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

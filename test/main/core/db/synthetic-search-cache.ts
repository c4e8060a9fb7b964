/**
 * A made-up catalogue for the offline search's tests on a large cache (search.test.ts,
 * search-answers.test.ts), and what its searches must find, computed from the artists themselves.
 */
import type { Database } from 'better-sqlite3'
import * as v from 'valibot'
import { expect } from 'vitest'
import { openDatabase } from '../../../../src-main/core/db/connection'
import { bumpCatalogueVersion } from '../../../../src-main/core/db/query-cache'
import { searchArtists, type SearchTuning } from '../../../../src-main/core/db/search'
import { artistListQuerySchema } from '../../../../src-main/core/shared/arguments'
import { ARTIST_KINDS, type ArtistKind } from '../../../../src-main/core/shared/catalogue'
import { searchWords } from '../../../../src-main/core/shared/text'

/** Every list filter of a search. */
export const FILTERS = ARTIST_KINDS.flatMap((kind) => [false, true].map((includeBlank) => ({ kind, includeBlank })))

/** Ids a search finds, paged by offset and limit to the end. */
export function searchAll(db: Database, q: string, kind: ArtistKind, includeBlank: boolean, tuning?: SearchTuning): number[] {
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

export interface SyntheticArtist {
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
export function syntheticCache(file: string, count: number): { db: Database; artists: SyntheticArtist[] } {
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

interface FoldedArtist {
  /** The texts the words were folded from: a test that edits an artist (its bio) gets its words folded again. */
  texts: readonly [string, string, string, string | null]
  /** The search words of the username and the name, and of those with the bio and the location. */
  names: string[]
  all: string[]
}

/** Each artist's search words, folded once: the tests ask for the same artists' words thousands of times. */
const folded = new WeakMap<SyntheticArtist, FoldedArtist>()

function foldedWords(artist: SyntheticArtist): FoldedArtist {
  const { username, name, bio, location } = artist
  const known = folded.get(artist)
  if (known && known.texts[0] === username && known.texts[1] === name && known.texts[2] === bio && known.texts[3] === location) return known
  const made: FoldedArtist = {
    texts: [username, name, bio, location],
    names: searchWords(`${username} ${name}`),
    all: searchWords(`${username} ${name} ${bio} ${location ?? ''}`),
  }
  folded.set(artist, made)
  return made
}

/** What the rule for large searches gives, computed from the artists themselves: names first, then trending, without a place last by id. */
export function expectedOrder(artists: SyntheticArtist[], q: string, kind: ArtistKind, includeBlank: boolean): number[] {
  const words = searchWords(q)
  const holds = (have: string[]): boolean => words.every((word) => have.some((candidate) => candidate.startsWith(word)))
  const found = artists.filter(
    (a) => !a.gone && (includeBlank || !a.blank) && (kind === 'all' || (kind === 'podcasts') === a.podcast) && holds(foldedWords(a).all),
  )
  const trending = (a: SyntheticArtist, b: SyntheticArtist): number => (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.id - b.id
  const inNames = found.filter((a) => holds(foldedWords(a).names)).sort(trending)
  const names = new Set(inNames)
  return [...inNames, ...found.filter((a) => !names.has(a)).sort(trending)].map((a) => a.id)
}

export const pageQuery = (q: string, kind: ArtistKind, includeBlank: boolean, offset: number, limit: number) =>
  v.parse(artistListQuerySchema, { q, kind, includeBlank, offset, limit })

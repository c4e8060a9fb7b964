/**
 * Hand-written checks of the two answers a sync asks for by the thousand (a page of the
 * artist list, an artist's detail), for the common case where every member is as expected.
 * They return exactly what the valibot schemas of schemas.ts return (the same members, in
 * the same order: a list entry's signature is a digest of its JSON), or undefined at the
 * first thing they do not expect; the schemas then read the answer, and they alone build
 * any error. valibot walks a generic tree of schemas and datasets, which cost a sync as
 * much as parsing the JSON did; these are plain property reads.
 * Any change to artistListSchema or artistDetailSchema must be made here too: the test
 * test/main/core/api/fast-shapes.test.ts holds the two to the same output.
 */
import { cleanText } from '../shared/text'
import { TEXT_LIMITS, type ArtistDetail, type ArtistList, type Item, type ListArtist, type ListItem, type Upload } from './schemas'

/** Thrown inside, caught at the top: the answer is not the common case. */
const NOT_FAST = Symbol('not the common case')
const LINES = { lines: true } as const

type Json = Record<string, unknown>

function object(value: unknown): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw NOT_FAST
  return value as Json
}

function array(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw NOT_FAST
  return value
}

function count(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw NOT_FAST
  return value
}

const optionalCount = (value: unknown): number | null => (value === null || value === undefined ? null : count(value))

function string(value: unknown): string {
  if (typeof value !== 'string') throw NOT_FAST
  return value
}

/** A key of the cache (username, upload id): 1 to TEXT_LIMITS.key characters. */
function key(value: string): string {
  if (value.length < 1 || value.length > TEXT_LIMITS.key) throw NOT_FAST
  return value
}

/** schemas.ts `whole`: too long is absent. */
const whole = <TAbsent extends string | null>(value: unknown, max: number, absent: TAbsent): string | TAbsent => {
  const text = string(value)
  return text.length <= max ? text : absent
}
const optionalWhole = <TAbsent extends string | null>(value: unknown, max: number, absent: TAbsent, missing: TAbsent): string | TAbsent =>
  value === null || value === undefined ? missing : whole(value, max, absent)

function uploadId(value: unknown): string {
  if (typeof value === 'string') return key(value)
  if (typeof value === 'number' && Number.isSafeInteger(value)) return key(String(value))
  throw NOT_FAST
}

function location(value: unknown): ListArtist['location'] {
  if (value === null || value === undefined) return null
  const input = object(value)
  if (typeof input.id !== 'number' || !Number.isSafeInteger(input.id)) throw NOT_FAST
  return { id: input.id, name: cleanText(string(input.name), TEXT_LIMITS.name) }
}

function userRef(value: unknown): ListArtist['user'] {
  if (value === null || value === undefined) return null
  return { username: cleanText(string(object(value).username), TEXT_LIMITS.name) }
}

const subtype = (value: unknown): string => (value === null || value === undefined ? 'track' : cleanText(string(value), TEXT_LIMITS.word))

/** The members both artist results share, in profileEntries' order, items last. */
function artist<TItem>(input: Json, item: (value: unknown) => TItem): Omit<ListArtist, 'items'> & { items: TItem[] } {
  const items = input.items
  return {
    username: key(string(input.username)),
    num_tracks: count(input.num_tracks),
    pf_name: input.pf_name === null || input.pf_name === undefined ? '' : cleanText(string(input.pf_name), TEXT_LIMITS.name),
    pf_facebook: optionalWhole(input.pf_facebook, TEXT_LIMITS.address, null, null),
    pf_twitter: optionalWhole(input.pf_twitter, TEXT_LIMITS.address, null, null),
    pf_website: optionalWhole(input.pf_website, TEXT_LIMITS.address, null, null),
    pf_bio: input.pf_bio === null || input.pf_bio === undefined ? '' : cleanText(string(input.pf_bio), TEXT_LIMITS.bio, LINES),
    avatar: optionalWhole(input.avatar, TEXT_LIMITS.address, '', ''),
    avatar_thumb: optionalWhole(input.avatar_thumb, TEXT_LIMITS.address, '', ''),
    location: location(input.location),
    user: userRef(input.user),
    items: items === null || items === undefined ? [] : array(items).map((wrapper) => item(object(wrapper).item)),
  }
}

function listItem(value: unknown): ListItem {
  const input = object(value)
  return { subtype: subtype(input.subtype), upload: { id: uploadId(object(input.upload).id) } }
}

function upload(value: unknown): Upload {
  const input = object(value)
  return {
    id: uploadId(input.id),
    created_at: optionalWhole(input.created_at, TEXT_LIMITS.word, null, null),
    bytes: optionalCount(input.bytes),
    downloads: optionalCount(input.downloads),
    hotlinks: optionalCount(input.hotlinks),
    ext: optionalWhole(input.ext, TEXT_LIMITS.word, null, null),
    hotlink_path: optionalWhole(input.hotlink_path, TEXT_LIMITS.address, null, null),
  }
}

function item(value: unknown): Item {
  const input = object(value)
  return {
    id: optionalWhole(input.id, TEXT_LIMITS.key, null, null),
    title: input.title === null || input.title === undefined ? '' : cleanText(string(input.title), TEXT_LIMITS.title, LINES),
    subtype: subtype(input.subtype),
    upload: upload(input.upload),
    artist: userRef(input.artist),
  }
}

/** What artistListSchema makes of json, or undefined when json is not the common case. */
export function fastArtistList(json: unknown): ArtistList | undefined {
  return attempt(() => {
    const input = object(json)
    return { pages: count(input.pages), artists: array(input.artists).map((wrapper) => artist(object(object(wrapper).artist), listItem)) }
  })
}

/** What artistDetailSchema makes of json, or undefined when json is not the common case. */
export function fastArtistDetail(json: unknown): ArtistDetail | undefined {
  return attempt(() => artist(object(json), item))
}

function attempt<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch (error) {
    if (error === NOT_FAST) return undefined
    throw error
  }
}

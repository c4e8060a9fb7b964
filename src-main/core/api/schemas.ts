/**
 * The service's JSON shapes as valibot schemas, and the types the client
 * returns, inferred from them. They keep the service's member names, drop
 * unknown members (such as the single-artist result's empty-named one), fill
 * optional members that are missing or null, unwrap the `{ artist }` and
 * `{ item }` wrappers, and reject a wrong type.
 */
import * as v from 'valibot'
import { cleanText } from '../shared/text'

/**
 * The longest texts kept, in characters. Every text of the service is capped
 * here, where it is read, so nothing after (the cache, a screen, a log) ever
 * holds megabytes of it. Shown text is cut and cleaned of control characters
 * (what is left is still the name or the bio); an address, a date or an id
 * cut short would be wrong, so one too long counts as absent, or, for the ids
 * that key the cache, makes the answer wrong.
 */
export const TEXT_LIMITS = {
  /** A display name or a place: far more than any screen shows on one line. */
  name: 200,
  /** A track title. */
  title: 500,
  /** A biography: pages of text, with its line breaks. */
  bio: 20_000,
  /** A URL (avatar, hotlink, website) or a social handle: longer than any real one, shorter than a data: payload. */
  address: 2_000,
  /** A username or an upload id: keys of the cache and parts of request paths. */
  key: 200,
  /** A subtype, a date or an extension. */
  word: 64,
} as const

/** A count, size or id: a non-negative integer that a JavaScript number holds exactly. */
const count = v.pipe(v.number(), v.safeInteger(), v.minValue(0))
const optionalCount = v.nullish(count, null)

/**
 * Text to show: cleaned of control characters and cut to max characters. In a
 * title or a bio, tabs and line breaks are text and stay (`lines`); a name is
 * one line.
 */
function shown(max: number, options: { lines?: boolean } = {}) {
  return v.pipe(
    v.string(),
    v.transform((text) => cleanText(text, max, options)),
  )
}

/** Text that is useless cut short (an address, a date): longer than max, it is `absent`. */
function whole<TAbsent extends string | null>(max: number, absent: TAbsent) {
  return v.pipe(
    v.string(),
    v.transform((text): string | TAbsent => (text.length <= max ? text : absent)),
  )
}

/** A key of the cache: refused when empty or longer than any real one. */
function key(what: string) {
  return v.pipe(v.string(), v.minLength(1, `Expected a non-empty ${what}`), v.maxLength(TEXT_LIMITS.key, `Expected a ${what} of at most ${TEXT_LIMITS.key} characters`))
}

/** Social handles and the website: null and '' both mean "none", and are kept apart as the service sent them. */
const optionalHandle = v.nullish(whole(TEXT_LIMITS.address, null), null)
const optionalName = v.nullish(shown(TEXT_LIMITS.name), '')
/** Avatar addresses: '' is "none". */
const optionalAddress = v.nullish(whole(TEXT_LIMITS.address, ''), '')
const username = key('username')

/** Upload ids key the cached tracks; a numeric id is read as its decimal string. */
const uploadId = v.pipe(
  v.union([v.string(), v.pipe(v.number(), v.safeInteger())]),
  v.transform(String),
  v.minLength(1, 'Expected a non-empty upload id'),
  v.maxLength(TEXT_LIMITS.key, `Expected an upload id of at most ${TEXT_LIMITS.key} characters`),
)

const location = v.nullish(v.object({ id: v.pipe(v.number(), v.safeInteger()), name: shown(TEXT_LIMITS.name) }), null)
const userRef = v.nullish(v.object({ username: shown(TEXT_LIMITS.name) }), null)

/** Members common to both artist results. */
const profileEntries = {
  username,
  num_tracks: count,
  pf_name: optionalName,
  pf_facebook: optionalHandle,
  pf_twitter: optionalHandle,
  pf_website: optionalHandle,
  pf_bio: v.nullish(shown(TEXT_LIMITS.bio, { lines: true }), ''),
  avatar: optionalAddress,
  avatar_thumb: optionalAddress,
  // Only list results carry these two; the single-artist result gets null.
  location,
  user: userRef,
}

/** Subtypes other than `track` exist and are kept as they come. */
const subtype = v.nullish(shown(TEXT_LIMITS.word), 'track')

/** The `{ item: X }` wrappers of an artist's items, read as the items themselves. */
function unwrapItems<TItem>(wrappers: { item: TItem }[]): TItem[] {
  return wrappers.map((wrapper) => wrapper.item)
}

/** An item as list results carry it: only its subtype and its upload's id. */
export const listItemSchema = v.object({ subtype, upload: v.object({ id: uploadId }) })

/** An artist as list results carry it, unwrapped from `{ artist }`. */
export const listArtistSchema = v.object({
  ...profileEntries,
  // A list entry may carry fewer items than num_tracks; only the single-artist result is complete.
  items: v.pipe(v.nullish(v.array(v.object({ item: listItemSchema })), () => []), v.transform(unwrapItems)),
})

/** GET /api/v1/artists: one page of artists. */
export const artistListSchema = v.object({
  pages: count,
  artists: v.pipe(
    v.array(v.object({ artist: listArtistSchema })),
    v.transform((wrappers) => wrappers.map((wrapper) => wrapper.artist)),
  ),
})

/** An upload record; only upload.id is required, the rest is null when missing. */
export const uploadSchema = v.object({
  id: uploadId,
  created_at: v.nullish(whole(TEXT_LIMITS.word, null), null),
  bytes: optionalCount,
  downloads: optionalCount,
  hotlinks: optionalCount,
  ext: v.nullish(whole(TEXT_LIMITS.word, null), null),
  hotlink_path: v.nullish(whole(TEXT_LIMITS.address, null), null),
})

/** An item as the single-artist result carries it, in full. */
export const itemSchema = v.object({
  id: v.nullish(whole(TEXT_LIMITS.key, null), null),
  title: v.nullish(shown(TEXT_LIMITS.title, { lines: true }), ''),
  subtype,
  upload: uploadSchema,
  artist: userRef,
})

/** GET /api/v1/artists/:username: one artist with every item in full. */
export const artistDetailSchema = v.object({
  ...profileEntries,
  items: v.pipe(v.nullish(v.array(v.object({ item: itemSchema })), () => []), v.transform(unwrapItems)),
})

/** One access level; every member is required, since tier arithmetic depends on all of them. */
export const accessLevelSchema = v.object({
  id: count,
  name: shown(TEXT_LIMITS.name),
  maxsize: count,
  price: count,
  bandwidth: count,
  storage: count,
})

/** GET /api/v1/access_levels: an object keyed by id strings, read as a list sorted by id. */
export const accessLevelsSchema = v.pipe(
  // valibot's record takes an array as an object keyed "0", "1"...; a list is not this shape.
  v.custom<Record<string, unknown>>(
    (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
    'Expected an object keyed by level id',
  ),
  v.record(v.string(), accessLevelSchema),
  // A key that disagrees with its level's id means the two cannot both be trusted.
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    for (const [key, level] of Object.entries(dataset.value)) {
      if (key === String(level.id)) continue
      const input = dataset.value as Record<string, unknown>
      addIssue({
        message: `Expected the id to equal its key ${JSON.stringify(key)} but received ${level.id}`,
        input: level.id,
        path: [
          { type: 'object', origin: 'value', input, key, value: level },
          { type: 'object', origin: 'value', input: level, key: 'id', value: level.id },
        ],
      })
    }
  }),
  v.transform((levels) => Object.values(levels).sort((a, b) => a.id - b.id)),
)

// The result types, inferred so that the schemas are their single source.
/** An item of a list result: subtype and upload id only. */
export type ListItem = v.InferOutput<typeof listItemSchema>
/** An artist of a list result. */
export type ListArtist = v.InferOutput<typeof listArtistSchema>
/** One page of the artist list. */
export type ArtistList = v.InferOutput<typeof artistListSchema>
/** The upload record of an item: size, counters, extension and file address. */
export type Upload = v.InferOutput<typeof uploadSchema>
/** An item (track) of the single-artist result. */
export type Item = v.InferOutput<typeof itemSchema>
/** The single-artist result; location and user are null, as the service leaves them out there. */
export type ArtistDetail = v.InferOutput<typeof artistDetailSchema>
/** An account tier: maxsize in MB, price in USD per month, bandwidth in GB per month, storage in GB. */
export type AccessLevel = v.InferOutput<typeof accessLevelSchema>

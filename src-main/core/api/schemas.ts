/**
 * The service's JSON shapes as valibot schemas, and the types the client
 * returns, inferred from them. They keep the service's member names, drop
 * unknown members (such as the single-artist result's empty-named one), fill
 * optional members that are missing or null, unwrap the `{ artist }` and
 * `{ item }` wrappers, and reject a wrong type.
 */
import * as v from 'valibot'

/** A count, size or id: a non-negative integer that a JavaScript number holds exactly. */
const count = v.pipe(v.number(), v.safeInteger(), v.minValue(0))
const optionalCount = v.nullish(count, null)
/** Social handles and the website: null and '' both mean "none", and are kept apart as the service sent them. */
const optionalHandle = v.nullish(v.string(), null)
const optionalText = v.nullish(v.string(), '')
const username = v.pipe(v.string(), v.minLength(1, 'Expected a non-empty username'))

/** Upload ids key the cached tracks; a numeric id is read as its decimal string. */
const uploadId = v.pipe(
  v.union([v.string(), v.pipe(v.number(), v.safeInteger())]),
  v.transform(String),
  v.minLength(1, 'Expected a non-empty upload id'),
)

const location = v.nullish(v.object({ id: v.pipe(v.number(), v.safeInteger()), name: v.string() }), null)
const userRef = v.nullish(v.object({ username: v.string() }), null)

/** Members common to both artist results. */
const profileEntries = {
  username,
  num_tracks: count,
  pf_name: optionalText,
  pf_facebook: optionalHandle,
  pf_twitter: optionalHandle,
  pf_website: optionalHandle,
  pf_bio: optionalText,
  avatar: optionalText,
  avatar_thumb: optionalText,
  // Only list results carry these two; the single-artist result gets null.
  location,
  user: userRef,
}

/** Subtypes other than `track` exist and are kept as they come. */
const subtype = v.nullish(v.string(), 'track')

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
  created_at: v.nullish(v.string(), null),
  bytes: optionalCount,
  downloads: optionalCount,
  hotlinks: optionalCount,
  ext: v.nullish(v.string(), null),
  hotlink_path: v.nullish(v.string(), null),
})

/** An item as the single-artist result carries it, in full. */
export const itemSchema = v.object({
  id: v.nullish(v.string(), null),
  title: optionalText,
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
  name: v.string(),
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

/**
 * The schema of every argument that crosses into the core, one home for each,
 * free of Node: the contract (contract.ts) builds each channel's argument list
 * from these, the main process checks every call against it, and the façade
 * and the CLI check their own arguments with the very same objects. The shared
 * types (types.ts) are what the schemas take; the compiler holds the two equal.
 */
import * as v from 'valibot'
import { ARTIST_KINDS, ARTIST_ONLY, DOWNLOAD_STATES, SORT_ORDERS } from './catalogue'
import { DOWNLOAD_GROUPS } from './download-groups'
import { LINK_KINDS } from './links'
import { SETTING_LIMITS } from './setting-limits'
import {
  NEW_TRACKS_CHECKS, THEMES, type ArtistListQuery, type DownloadPageQuery, type DownloadSelection, type EnqueueRequest, type SameType, type Settings, type SettingsPatch,
  type SyncStartOptions,
} from './types'
import { isValidBaseUrl, normaliseBaseUrl } from './urls'
import { integerFrom, oneOf } from './validation'

/** A whole number within a setting's bounds (setting-limits.ts). */
function limited(setting: keyof typeof SETTING_LIMITS) {
  return integerFrom(SETTING_LIMITS[setting].min, SETTING_LIMITS[setting].max)
}

/** The most rows one list or search call returns. */
export const MAX_PAGE_SIZE = 1000

/** An artist's username, as the service's path key. */
export const usernameSchema = v.pipe(v.string('must be text'), v.minLength(1, 'must not be empty'), v.maxLength(1000, 'must be at most 1000 characters'))

/** One download, by its id. */
export const downloadIdSchema = integerFrom(1, Number.MAX_SAFE_INTEGER)

/** Downloads acted on at once (a selection of the whole queue is still one call). */
export const downloadIdsSchema = v.pipe(
  v.array(downloadIdSchema, 'must be a list of download ids'),
  v.minLength(1, 'must name at least one download'),
  v.maxLength(100_000, 'names too many downloads'),
)

/** Ids given besides (or except from) a selection of groups: any number, none too. */
const someDownloadIds = v.pipe(v.array(downloadIdSchema, 'must be a list of download ids'), v.maxLength(100_000, 'names too many downloads'))

/** A group of the queue as the downloads screen shows it. */
export const downloadGroupSchema = oneOf(DOWNLOAD_GROUPS)

/**
 * What an action on downloads applies to: ids, or every download of some groups (as the core
 * finds them when the action comes) but those excepted, and any more ids besides.
 */
export const downloadSelectionSchema = v.union(
  [
    downloadIdsSchema,
    v.strictObject({
      groups: v.pipe(v.array(downloadGroupSchema, 'must be a list of groups'), v.minLength(1, 'must name at least one group')),
      except: v.optional(someDownloadIds),
      ids: v.optional(someDownloadIds),
    }),
  ],
  'must be a list of download ids, or { groups, except, ids }',
)

/** A page of one group of the queue, by offset and limit. */
export const downloadPageSchema = v.strictObject({
  group: downloadGroupSchema,
  offset: integerFrom(0, Number.MAX_SAFE_INTEGER),
  limit: integerFrom(1, MAX_PAGE_SIZE),
})

/** Where downloads move in the queue: to its top or bottom, or just before another download. */
export const queuePlaceSchema = v.union(
  [v.strictObject({ to: oneOf(['top', 'bottom'] as const) }), v.strictObject({ before: downloadIdSchema })],
  "must be { to: 'top' } or { to: 'bottom' } or { before: download id }",
)

/** A state of the queue to list, or every state. */
export const downloadStateSchema = v.optional(oneOf(DOWNLOAD_STATES))

/** How many new artists and tracks What's new lists. */
export const whatsNewLimitSchema = integerFrom(1, 1000)

/** How a follow starts: with auto-download of new tracks on, or off (the default). */
export const followOptionsSchema = v.strictObject({
  autoDownload: v.optional(v.boolean('must be true or false')),
})

/** Turning auto-download of a followed artist on or off. */
export const autoDownloadSchema = v.boolean('must be true or false')

/** A cache file, as caches.list names it. */
export const cacheFileSchema = v.pipe(v.string('must be text'), v.minLength(1, 'must not be empty'))

/** A link of an artist's profile: the handle or website as the service gave it, and which it is. */
export const linkSchema = v.strictObject({
  kind: oneOf(LINK_KINDS),
  value: v.pipe(v.string('must be text'), v.maxLength(2000, 'must be at most 2000 characters')),
})

/** A list or search of artists: page by page and perPage as the service pages, or by offset and limit for a virtual list. */
export const artistListQuerySchema = v.pipe(
  v.strictObject({
    /** Search text: relevancy order, sort and reverse do not apply. */
    q: v.optional(v.pipe(v.string('must be text'), v.maxLength(1000, 'must be at most 1000 characters'))),
    kind: v.optional(oneOf(ARTIST_KINDS), 'all'),
    sort: v.optional(oneOf(SORT_ORDERS), 'trending'),
    reverse: v.optional(v.boolean('must be true or false'), false),
    /** Include artists without tracks. */
    includeBlank: v.optional(v.boolean('must be true or false'), false),
    /** Only the artists followed, or only those with a downloaded track. */
    only: v.optional(oneOf(ARTIST_ONLY)),
    page: v.optional(integerFrom(1, Number.MAX_SAFE_INTEGER)),
    perPage: v.optional(integerFrom(1, MAX_PAGE_SIZE)),
    offset: v.optional(integerFrom(0, Number.MAX_SAFE_INTEGER)),
    limit: v.optional(integerFrom(1, MAX_PAGE_SIZE)),
  }),
  v.check(
    (query) => (query.offset === undefined && query.limit === undefined) || (query.page === undefined && query.perPage === undefined),
    'page by page and perPage, or by offset and limit, not both',
  ),
)

const uploadIdSchema = v.pipe(v.string('must be text'), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'))

/** The uploads a screen shows, whose downloads it asks for (an artist's tracks, What's new). */
export const uploadIdsSchema = v.pipe(v.array(uploadIdSchema, 'must be a list of upload ids'), v.maxLength(10_000, 'names too many uploads'))

const enqueueEntries = {
  uploadIds: v.optional(v.pipe(v.array(uploadIdSchema, 'must be a list of upload ids'), v.minLength(1, 'must name at least one upload'))),
  artist: v.optional(usernameSchema),
}
const oneOfTheTwo = (request: { uploadIds?: unknown; artist?: unknown }): boolean => (request.uploadIds === undefined) !== (request.artist === undefined)
const ONE_OF_THE_TWO = 'give uploadIds or artist, one of the two'

/**
 * What a window downloads: uploads or an artist's tracks, not both, into the
 * download folder of the settings. No folder of its own: a folder is the
 * user's to choose (the settings, the folder picker), never a caller's.
 */
export const enqueueRequestSchema = v.pipe(
  v.strictObject(enqueueEntries, 'must be { uploadIds } or { artist } and nothing else: downloads go to the download folder of the settings'),
  v.check((request) => oneOfTheTwo(request), ONE_OF_THE_TWO),
)

/** The same from the CLI, whose user may name the folder (--to); the façade checks it as it checks the setting. */
export const folderEnqueueRequestSchema = v.pipe(
  v.strictObject({ ...enqueueEntries, folder: v.optional(v.pipe(v.string('must be text'), v.minLength(1, 'must not be empty'))) }),
  v.check((request) => oneOfTheTwo(request), ONE_OF_THE_TWO),
)

/** Transfers at once: the setting, or for one session (the CLI's --concurrency, the façade's setConcurrency). */
export const downloadConcurrencySchema = limited('downloadConcurrency')

/** How a sync runs: its requests in flight (the setting's by default), and whether it fetches avatars. */
export const syncStartSchema = v.strictObject({
  kind: v.optional(oneOf(['full', 'quick'] as const)),
  skipAvatars: v.optional(v.boolean('must be true or false')),
  concurrency: v.optional(limited('syncConcurrency')),
})

/**
 * An absolute path in the form of any platform the app runs on (`/x`, `C:\x`,
 * `\\server\share`). Node is not here to say which is this one's: the
 * settings store checks the path again with the platform's own rule.
 */
export function looksAbsolute(folder: string): boolean {
  return folder.startsWith('/') || /^[A-Za-z]:[\\/]/.test(folder) || /^\\\\[^\\]+\\[^\\]+/.test(folder)
}

const settingEntries = {
  /** The catalogue service; null: the app's built-in demo catalogue. */
  baseUrl: v.nullable(
    v.pipe(v.string('must be text'), v.check(isValidBaseUrl, 'must be an http or https address without a query'), v.transform(normaliseBaseUrl)),
  ),
  /** Where downloads land; null: `downloads` inside the data folder. Which folders may be one, the settings store decides (core/files/folders.ts). */
  downloadFolder: v.nullable(
    v.pipe(v.string('must be text'), v.check(looksAbsolute, 'must be an absolute path'), v.check((folder) => !folder.includes('\0'), 'must not hold a NUL character')),
  ),
  /** Requests in flight to the service at once during a sync. */
  syncConcurrency: limited('syncConcurrency'),
  /** Downloads at once. */
  downloadConcurrency: downloadConcurrencySchema,
  /** Bytes per second for all downloads together, 1 kB/s or more; null: no limit. */
  downloadSpeedLimit: v.nullable(limited('downloadSpeedLimit')),
  theme: oneOf(THEMES),
  /** Sync in the background when the app starts and the cache is empty or older than a day. */
  syncOnStart: v.boolean('must be true or false'),
  /** Sync on this schedule while the app is open, to find new tracks. */
  checkForNewTracks: oneOf(NEW_TRACKS_CHECKS),
  /** The most new tracks of one artist auto-download queues in one sync. */
  autoDownloadMaxTracks: limited('autoDownloadMaxTracks'),
  /** The most bytes of one artist's new tracks auto-download queues in one sync. */
  autoDownloadMaxBytes: limited('autoDownloadMaxBytes'),
}

/** The settings as settings.json holds them. */
export const settingsSchema = v.strictObject(settingEntries)

/** A change of settings: any of them, nothing else. */
export const settingsPatchSchema = v.partial(v.strictObject(settingEntries))

// Each schema takes exactly its shared type.
const matches: [
  SameType<v.InferInput<typeof artistListQuerySchema>, ArtistListQuery>,
  SameType<v.InferInput<typeof enqueueRequestSchema>, EnqueueRequest>,
  SameType<v.InferInput<typeof downloadSelectionSchema>, DownloadSelection>,
  SameType<v.InferInput<typeof downloadPageSchema>, DownloadPageQuery>,
  SameType<v.InferInput<typeof syncStartSchema>, SyncStartOptions>,
  SameType<v.InferOutput<typeof settingsSchema>, Settings>,
  SameType<v.InferInput<typeof settingsPatchSchema>, SettingsPatch>,
] = [true, true, true, true, true, true, true]
void matches

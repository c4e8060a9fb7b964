/**
 * The shapes that cross from the core to a window (over IPC or the web bridge):
 * one home for each, free of Node and Electron, so the renderer's type-check
 * reads exactly what the core returns. The core's modules use these too.
 */
import type { ArtistKind, ArtistOnly, DownloadState, SortOrder } from './catalogue'
import type { SerializedError } from './errors'
import type { Download, DownloadProgress, DownloadQueueState } from './types-downloads'
import type { SyncProgress, SyncRunSummary, SyncState } from './types-sync'
// Split by domain; importers keep reading every shape from here.
export type * from './types-downloads'
export type * from './types-sync'

// ---- The catalogue

/** Arguments of a list or search of artists: page and perPage as the service pages, or offset and limit. */
export interface ArtistListQuery {
  /** Search text: relevancy order; sort and reverse do not apply. */
  q?: string | undefined
  kind?: ArtistKind | undefined
  sort?: SortOrder | undefined
  reverse?: boolean | undefined
  /** Include artists without tracks. */
  includeBlank?: boolean | undefined
  /** Only the artists followed, or only those with a downloaded track (gone ones too, listed last). */
  only?: ArtistOnly | undefined
  page?: number | undefined
  perPage?: number | undefined
  offset?: number | undefined
  limit?: number | undefined
}

export interface ListedItem {
  subtype: string
  upload: { id: string }
}

export interface ArtistSummary {
  id: number
  username: string
  numTracks: number
  name: string
  facebook: string | null
  twitter: string | null
  website: string | null
  bio: string
  avatar: string
  avatarThumb: string
  location: { id: number; name: string } | null
  user: { username: string } | null
  isPodcaster: boolean
  /** The items the list result carried (subtype and upload id). */
  listedItems: ListedItem[]
  /** When the artist stopped appearing in the service's lists, if it has. */
  goneAt: number | null
}

export interface Track {
  uploadId: string
  itemId: string | null
  title: string
  subtype: string
  createdAt: string | null
  bytes: number | null
  downloads: number | null
  hotlinks: number | null
  ext: string | null
  hotlinkPath: string | null
  artistUsername: string | null
}

export interface ArtistWithTracks extends ArtistSummary {
  tracks: Track[]
  detailFetchedAt: number | null
  detailError: string | null
  /** Whether the full-size avatar is in the cache (a sync caches the thumbnail; opening the artist online, the full size). */
  avatarCached: boolean
}

/** A track with the artist it belongs to (username, display name, and the case-folded username). */
export interface TrackWithArtist extends Track {
  artistName: string
  artistKey: string
}

/** How many artists each narrowing of a list would show, with the list's other filters and search. */
export interface ArtistFilterCounts {
  following: number
  downloaded: number
}

/** A followed artist, as the follows list shows it. */
export interface FollowedArtist {
  /** The username as the cache spells it (as it was followed, when the cache no longer holds the artist). */
  username: string
  /** The display name; null when the cache does not hold the artist (cleared, not synced again yet). */
  name: string | null
  /** New tracks a sync finds are queued by themselves. */
  autoDownload: boolean
  followedAt: number
  /** The service no longer lists the artist (still followed, in case it comes back). */
  gone: boolean
  /** The cache holds the artist. */
  inCache: boolean
}

export interface ArtistPage {
  /** Artists matching the query, over all pages. */
  total: number
  /** Pages of perPage (1 when paging by offset). */
  pages: number
  artists: ArtistSummary[]
  /**
   * Only on a search that cannot see every artist yet (a first sync's lists are coming in, and
   * its search index holds part of them): how many artists it looked at.
   */
  searchable?: number
}

export interface CatalogueStatus {
  /** The service's address (never with a password). */
  baseUrl: string | null
  /** When the last full refresh completed (ms since the epoch), if one has. */
  lastFullSyncAt: number | null
  /** When the last sync of either kind completed (a quick check or a full refresh), if one has. */
  lastCheckAt: number | null
  lastRun: SyncRunSummary | null
  artists: number
  gone: number
  /** Listed artists whose detail is older than their list entry, or missing. */
  detailsPending: number
  detailErrors: { username: string; error: string }[]
}

// ---- Settings and the session

export const THEMES = Object.freeze(['system', 'light', 'dark'] as const)
export type Theme = (typeof THEMES)[number]
/** How often the app checks for new tracks while it is open (a quick check; a full refresh once a day). */
export const NEW_TRACKS_CHECKS = Object.freeze(['off', 'every-5-minutes', 'every-15-minutes', 'every-30-minutes', 'hourly', 'every-6-hours', 'daily'] as const)
export type NewTracksCheck = (typeof NEW_TRACKS_CHECKS)[number]

export interface Settings {
  /** The catalogue service; null: the app's built-in demo catalogue. */
  baseUrl: string | null
  /** Where downloads land; null: `downloads` inside the data folder. */
  downloadFolder: string | null
  /** Requests in flight to the service at once during a sync. */
  syncConcurrency: number
  /** Downloads at once. */
  downloadConcurrency: number
  /** The most bytes per second all downloads together may take; null: no limit. Applies to running downloads at once. */
  downloadSpeedLimit: number | null
  theme: Theme
  /** Sync in the background when the app starts and the cache is empty or older than a day. */
  syncOnStart: boolean
  /** Sync on this schedule while the app is open (from the end of the last sync), to find new tracks. */
  checkForNewTracks: NewTracksCheck
  /** The most new tracks of one artist auto-download queues in one sync; the rest wait for the user (HeldBack). */
  autoDownloadMaxTracks: number
  /** The most bytes of one artist's new tracks auto-download queues in one sync; the rest wait for the user. */
  autoDownloadMaxBytes: number
}

/** Arguments of a settings change: any of the settings, nothing else. */
export type SettingsPatch = { [K in keyof Settings]?: Settings[K] | undefined }

/** Which service the session shows. */
export interface ServiceInfo {
  /** Its address without a password. */
  baseUrl: string
  /** True for the built-in demo catalogue. */
  demo: boolean
  /** The data folder cannot be written: browse only. */
  readOnly: boolean
}

/** The download queue's own state as a window shows it: the queue's, and the folder it saves into. */
export type QueueState = DownloadQueueState & { folder: string }

/** Everything a window needs to draw itself after a (re)load; events then keep it current. */
export interface SessionSnapshot {
  service: ServiceInfo
  settings: Settings
  sync: SyncState
  downloads: QueueState
  online: boolean
  /** Things the user should know (a damaged cache moved aside, a bad setting, a background sync that failed). */
  notices: string[]
}

export type SessionEvent =
  | { type: 'service'; service: ServiceInfo }
  | { type: 'settings'; settings: Settings }
  | { type: 'sync-state'; state: SyncState }
  | { type: 'sync-progress'; progress: SyncProgress }
  // The rows an action changed and the ids it removed; for a change of thousands, only how many (`many`: see DownloadChange).
  | { type: 'downloads-changed'; downloads: Download[]; removed: number[]; many?: number }
  | { type: 'download-progress'; progress: DownloadProgress }
  | { type: 'queue-paused'; message: string }
  // The queue's own state changed (transfers running, why it waits, who else runs it, the folder): the whole of it, a few fields.
  | { type: 'queue-state'; state: QueueState }
  | { type: 'catalogue-changed'; version: string }
  // An artist followed, unfollowed, or its auto-download switched, by any caller: every window reads the follows again.
  | { type: 'follows-changed'; username: string }
  | { type: 'online'; online: boolean }
  | { type: 'notice'; message: string; error?: SerializedError }
  | ({ type: 'new-tracks' } & NewTracksSummary)
  // Not the core's: the Electron main process's, to its window (a click on a desktop notification).
  | { type: 'navigate'; to: '/whats-new' }

/** The new tracks of followed artists one sync brought, by artist (most first): one notification. */
export interface NewTracksSummary {
  runId: number
  total: number
  artists: { username: string; name: string; count: number }[]
  /** New tracks auto-download held back over its limits, waiting for the user (all of them, not only this run's); absent when none. */
  heldBack?: HeldBack
}

/**
 * New tracks of artists followed with auto-download on that auto-download left out, over the
 * limits of the settings (tracks and bytes per artist per sync): they wait until the user asks
 * for them (one action: follows.downloadHeldBack), by artist (most first).
 */
export interface HeldBack {
  total: number
  bytes: number
  artists: { username: string; name: string; count: number; bytes: number }[]
}

/** True when A and B are the same type: `const check: SameType<A, B> = true` fails to compile otherwise. */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

// ---- What's new

/** One completed sync of What's new, and how many artists and tracks it brought in all (the lists may be cut). */
export interface WhatsNewRun {
  id: number
  finishedAt: number
  artistCount: number
  trackCount: number
}

/** An artist that appeared or changed in a sync. */
export interface WhatsNewArtist {
  artist: ArtistSummary
  change: 'new' | 'changed'
  runId: number
  /** The user follows the artist (by username, as the follows table keeps it). */
  followed: boolean
}

/** A track that appeared or changed in a sync, with what its Play and Download buttons need. */
export interface WhatsNewTrack {
  track: Track
  /** Its artist (the owner of the upload, not the item's credited artist). */
  artistUsername: string
  artistName: string
  change: 'new' | 'changed'
  runId: number
  followed: boolean
  /** The upload's newest download, if it has one (the same row the downloads screen shows for it). */
  download: { id: number; state: DownloadState } | null
}

/**
 * Artists and tracks that appeared or changed in the last syncs that brought news (the first
 * sync of a cache is the starting point, not news). `mode: 'newest'`: the cache has only had
 * its first sync, and the tracks are its newest uploads instead (runs holds that first sync).
 * Each list has the followed artists first, then the newest sync first.
 */
export interface WhatsNew {
  mode: 'changes' | 'newest'
  /** The completed syncs covered, newest first (at most ten). */
  runs: WhatsNewRun[]
  artists: WhatsNewArtist[]
  tracks: WhatsNewTrack[]
  /** All that changed, when the lists above were cut at their limit. */
  totalArtists: number
  totalTracks: number
  /** New tracks auto-download held back over its limits, waiting for the user; absent when none. */
  heldBack?: HeldBack
}

// ---- The app

export interface AppInfo {
  name: string
  version: string
  platform: string
  versions: { electron: string; chrome: string; node: string }
  /** 'electron' in the app; 'web' when served by `npm run web`. */
  transport: 'electron' | 'web'
  /** Where an avatar address goes: `${avatarBase}${encodeURIComponent(address)}` shows the cached image. */
  avatarBase: string
  dataDir: string
  logFile: string | null
}

export interface CacheInfo {
  file: string
  /** The service it holds, without a password; null when the file cannot be read. */
  baseUrl: string | null
  bytes: number
  /** The cache of the service shown now. */
  current: boolean
}

export interface MonthlyBytes {
  /** This calendar month (UTC), `2026-11`, and the bytes downloaded in it. */
  month: string
  bytes: number
  months: { month: string; bytes: number }[]
}

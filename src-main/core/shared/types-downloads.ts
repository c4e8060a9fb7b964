/**
 * The download queue's shapes as they cross to a window (see types.ts, which
 * re-exports them): a download, the actions on a list, the queue's state.
 */
import type { DownloadState, PauseReason } from './catalogue'
import type { DownloadGroup } from './download-groups'
import type { LockHolder } from './types-sync'

export interface Download {
  id: number
  uploadId: string
  artistUsername: string
  /** The artist's display name as the cache knows it now ('' when it gives none, or no longer holds the artist). */
  artistName: string
  title: string
  /** The file's address, never with user-info: a base URL's password is added to its requests only. */
  url: string
  /** Absolute path of the final file; the partial file is this plus ".part". */
  targetPath: string
  state: DownloadState
  /** Set exactly while paused: by the user, or by a full disk (resuming the queue restarts those). */
  pauseReason: PauseReason | null
  /**
   * 'network' while it waits for the service to answer again: queued, with the error that stopped
   * it (the queue holds back until the app sees the service again, then it goes on by itself).
   */
  waitingFor: 'network' | null
  bytesDone: number
  bytesTotal: number
  validator: string | null
  sha256: string | null
  error: string | null
  createdAt: number
  startedAt: number | null
  finishedAt: number | null
  /** Its place in the queue: queued downloads start lowest first (moved to the top, the bottom, or dragged). */
  queueOrder: number
}

/**
 * A download as a screen shows it: interrupted when it says "downloading" but
 * no process transfers it; fileMissing when it is completed but its file is no
 * longer on disk (checked when the list is read), so it offers "Download again".
 */
export type DownloadView = Download & { interrupted: boolean; fileMissing: boolean }

/** A download an action on a list left as it was, and why (the core's own words). */
export interface SkippedDownload {
  id: number
  /** Its state when the action came; null when there is no such download (any more). */
  state: DownloadState | null
  reason: string
}

/**
 * What a queue action on a list did: it applies to every download that allows it
 * and skips the others, saying why, rather than refusing the whole list because
 * one row finished meanwhile. (An action on a single id still fails with the reason.)
 */
export interface DownloadActionResult {
  /** The downloads it changed (or took off the list). */
  changed: number[]
  skipped: SkippedDownload[]
}

/**
 * The downloads an action applies to: named by id, or every download of some groups
 * (as the core finds them when the action comes) but those excepted, and some more
 * by id. "Select all" on a queue of 10,000 is a few words, not 10,000 ids.
 */
export type DownloadSelection = number[] | { groups: DownloadGroup[]; except?: number[] | undefined; ids?: number[] | undefined }

/** A page of one group, in queue order: `limit` downloads from `offset`. */
export interface DownloadPageQuery {
  group: DownloadGroup
  offset: number
  limit: number
}

/** What a page of a group holds: its downloads from offset, and how many the group has now. */
export interface DownloadPage {
  group: DownloadGroup
  offset: number
  total: number
  downloads: DownloadView[]
}

/** A group's figures: its downloads, their sizes together, and the bytes of them on disk. */
export interface GroupTotals {
  files: number
  bytes: number
  bytesDone: number
}

/**
 * The queue in figures, without its rows: each group's totals, and the batch the overall
 * progress measures (every download queued since the queue last had nothing pending to do,
 * completed ones included; failed and cancelled ones leave it, a retried one joins again).
 */
export interface DownloadSummary {
  groups: Record<DownloadGroup, GroupTotals>
  batch: {
    /** Downloads in the batch, and how many of them completed. */
    files: number
    filesDone: number
    /** Their sizes together, and the bytes on disk (completed files whole, the others as last saved). */
    bytes: number
    bytesDone: number
    /** Still to finish: queued, downloading or paused. */
    pending: number
  }
}

/** Where downloads move in the queue: to its top or bottom (the next to start, or the last), or just before another download. */
export type QueuePlace = { to: 'top' | 'bottom' } | { before: number }

/** What to queue: uploads by id, or every track of an artist, into the download folder of the settings. */
export interface EnqueueRequest {
  uploadIds?: string[] | undefined
  artist?: string | undefined
}

export interface DownloadProgress {
  id: number
  bytes: number
  total: number
  percent: number
  /** Bytes per second, an exponentially weighted rate over about 10 s (downloads/progress.ts); 0 while stalled. */
  speed: number
  /** Seconds left at that speed; null until there is a speed. */
  etaSeconds: number | null
  /**
   * Bytes per second of the whole queue, every running transfer's bytes together, weighted the same
   * way: the screen's total speed and time left. Not the sum of the transfers' speeds, which drops
   * and climbs as files finish and start (a queue of small files is mostly starts).
   */
  queueSpeed: number
}

/**
 * One change of the queue: the rows that changed (all of an enqueue at once), and the ids removed.
 * An action on more rows than MANY_CHANGED says only how many (`many`), with no rows: whoever shows
 * the queue reads what it shows again, rather than receive thousands of rows it does not show.
 */
export interface DownloadChange {
  downloads: Download[]
  removed: number[]
  many?: number
}

/** Rows one change event carries at most; a larger change says `many`. */
export const MANY_CHANGED = 500

/** What an enqueue would take: files and bytes still to download, and the free space after the reserve. */
export interface DownloadEstimate {
  files: number
  bytes: number
  freeBytes: number
  fits: boolean
}

/** A snapshot of the queue itself. */
export interface DownloadQueueState {
  /** Whether this process runs the queue (start() was called and stop() not yet). */
  started: boolean
  /** Downloads left "downloading" by a process that stopped or crashed; they resume when a queue starts. */
  interrupted: number
  running: number
  concurrency: number
  /** Why the queue waits (a full disk), if it does. */
  pausedBecause: string | null
  /** 'network' while nothing starts because the service could not be reached (see Download.waitingFor). */
  waitingFor: 'network' | null
  /** Another process running this cache's queue, if one is. */
  runElsewhere: LockHolder | null
}

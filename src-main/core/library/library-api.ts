/**
 * What the façade offers (library.ts assembles it, and re-exports these): the
 * options of openLibrary(), and the interfaces of the services of one library.
 */
import type { CatalogueClientOptions } from '../api/index'
import type { ArtistWithTracks } from '../db/artists'
import type { Download } from '../db/downloads'
import type { NewTracksApi } from './auto-download'
import type { DownloadChange, DownloadEstimate, DownloadManagerOptions, DownloadProgress } from '../downloads/manager'
import type { Event } from '../base/events'
import type { FollowsApi } from './follows'
import type { SettingsStore, Settings, SettingsPatch } from './settings'
import type { SyncState } from '../sync/service'
import type { SyncProgress, SyncReport } from '../sync/sync'
import type { DownloadActionResult, DownloadSelection, EnqueueRequest, QueuePlace, QueueState, SyncStartOptions } from '../shared/types'
import type { CatalogueQueries, DownloadQueries } from './queries'

/** What the CLI queues: a request of the contract, into a folder its user named (--to) instead of the setting's. */
export type FolderEnqueueRequest = EnqueueRequest & { folder?: string | undefined }

export interface LibraryOptions {
  /** The data folder: settings, one cache per service, and the downloads by default. */
  dataDir: string
  /** The catalogue service; by default the one the settings name. */
  baseUrl?: string
  /** Only open a cache that exists (NotSyncedError otherwise): reading never creates one. */
  mustExist?: boolean
  /** A fixed name for the cache file (the built-in demo, whose address may change between runs). */
  cacheName?: string
  /** The data folder's settings, when whoever opens the library already holds them (the app session); not disposed with it. */
  settings?: SettingsStore
  /** Retry and timeout settings of the service client (tests shorten them). */
  client?: Omit<CatalogueClientOptions, 'baseUrl' | 'http'>
  /** Download settings that are not user settings (tests replace the free-space probe); the sync keeps the same reserve with the same probe. */
  downloads?: Pick<DownloadManagerOptions, 'reserveBytes' | 'freeSpace' | 'progressIntervalMs' | 'transferSettings'>
  /** Least time between two sync progress events (default 250 ms). */
  syncProgressIntervalMs?: number
  /** The most list pages a quick check reads (default QUICK_PAGE_LIMIT; tests ask for fewer). */
  quickPageLimit?: number
  /** How long a sync goes on without a usable answer of the service (default 2 minutes; tests ask for less). */
  syncSilenceLimitMs?: number
  now?: () => number
}

/** The catalogue as the cache holds it: answers at once, with or without a network. */
export interface CatalogueService extends CatalogueQueries {
  /** Fetches one artist's detail (and missing avatars) now and stores it; `gone` when the service no longer knows the artist. */
  refreshArtist(username: string): Promise<{ artist: ArtistWithTracks; gone: boolean }>
  /** Notes that the window showed these avatars now: the store lets the least recently shown go first (not a window channel). */
  avatarsShown(urls: readonly string[]): void
  /** Empties the cached catalogue (downloads stay); the next sync starts afresh. */
  clear(): Promise<void>
  /** Whether the service answers now (no retries, a few seconds at most). */
  reachable(): Promise<boolean>
  /** The cached catalogue changed (a sync stored pages or details). */
  readonly onDidChange: Event<{ version: string }>
}

export interface SyncApi {
  readonly state: SyncState
  /** Starts a sync or joins the one under way (in this process or another). */
  start(options?: SyncStartOptions): Promise<SyncReport>
  cancel(): void
  readonly onDidProgress: Event<SyncProgress>
  readonly onDidChangeState: Event<SyncState>
}

export interface DownloadsApi extends DownloadQueries {
  readonly state: QueueState
  /** Runs the queue in this process (BusyError while another process runs it); downloads left running resume. */
  start(): void
  /** Stops the transfers, keeping their bytes; they resume on the next start. */
  stop(): Promise<void>
  /** Queues into request.folder, else the setting's folder; either is refused unless downloads may go there (core/files/folders.ts). */
  enqueue(request: FolderEnqueueRequest): Promise<{ downloads: Download[]; folder: string }>
  /** What enqueue(request) would take (bytes still to download, free space), without queuing anything. */
  estimate(request: FolderEnqueueRequest): Promise<DownloadEstimate & { folder: string }>
  /** The folder downloads would go to (folder, else the setting's), absolute; FolderError where they may not go. */
  checkFolder(folder?: string): string
  // Each action on a list applies to the downloads that allow it and says which it skipped and why;
  // on one id alone it fails with the reason (InvalidArgumentError, or NotFoundError for no such download).
  // The list is ids, or a selection of groups ({ groups, except, ids }) resolved as the queue is when it comes.
  pause(selection: DownloadSelection): Promise<DownloadActionResult>
  /** Pauses every queued and running download. */
  pauseAll(): Promise<DownloadActionResult>
  resume(selection: DownloadSelection): DownloadActionResult
  /** Resumes every paused download, and a queue waiting for disk space. */
  resumeAll(): DownloadActionResult
  cancel(selection: DownloadSelection): Promise<DownloadActionResult>
  retry(selection: DownloadSelection): DownloadActionResult
  /** Queues again completed downloads whose file is no longer on disk. */
  redownload(selection: DownloadSelection): DownloadActionResult
  /** Takes downloads off the list; their files stay on disk. */
  remove(selection: DownloadSelection): Promise<DownloadActionResult>
  /** Moves queued or paused downloads to the top or bottom of the queue, or before another download. */
  move(selection: DownloadSelection, place: QueuePlace): DownloadActionResult
  /** Takes every completed download off the list; their files stay on disk. */
  clearCompleted(): Promise<{ removed: number }>
  /** Downloads that say "downloading" though no process transfers them (the app stopped or crashed). */
  interruptedIds(): number[]
  /** Partial files in the folder (the download folder by default) that no download knows of. */
  strayPartFiles(folder?: string): Promise<string[]>
  /** The service answers again: downloads that waited for the network go on. */
  networkBack(): void
  /** Lets a queue paused by a full disk go on. */
  resumeQueue(): void
  /** Transfers at once for this session (1 to 8); the setting gives the number at start. */
  setConcurrency(concurrency: number): void
  /** Resolves when nothing runs and nothing queued can start. */
  whenIdle(): Promise<void>
  readonly onDidChange: Event<DownloadChange>
  readonly onDidProgress: Event<DownloadProgress>
  readonly onDidBecomeIdle: Event<void>
  readonly onDidPauseQueue: Event<string>
}

export interface SettingsApi {
  get(): Settings
  update(patch: SettingsPatch): Settings
  readonly onDidChange: Event<Settings>
}

export interface Library {
  /** The service's base URL, normalised (with any password: for requests only, never to show). */
  readonly baseUrl: string
  /** The base URL to show: without a password. */
  readonly displayUrl: string
  readonly dataDir: string
  readonly cacheFile: string
  /** The file the cache is read from: cacheFile, or the snapshot a read-only data folder is read from. */
  readonly readFile: string
  /** True when the data folder cannot be written: the catalogue can be read, nothing else. */
  readonly readOnly: boolean
  /** Things the user should know about opening (a damaged cache moved aside, a bad setting). */
  readonly notices: readonly string[]
  readonly catalogue: CatalogueService
  readonly sync: SyncApi
  readonly downloads: DownloadsApi
  readonly settings: SettingsApi
  readonly follows: FollowsApi & {
    /** Queues every new track auto-download held back over its limits (into the settings' folder). */
    downloadHeldBack(): Promise<{ downloads: Download[]; folder: string | null }>
  }
  /** New tracks of followed artists: what a sync brought them, and their auto-download. */
  readonly newTracks: NewTracksApi
  /** The service answered a request (a sync's, a download's, a check's), whatever the answer said: it can be reached. */
  readonly onDidHearFromService: Event<void>
  dispose(): Promise<void>
}

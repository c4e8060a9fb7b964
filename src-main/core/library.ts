/**
 * The façade of the core: `openLibrary()` assembles one catalogue's services
 * (the queries, the sync, the downloads, the settings) over one cache, and
 * `dispose()` closes them all. The CLI, the benchmarks and the IPC handlers
 * use only this. Every argument is checked against its schema, and every
 * failure is a TuneshelfError with a code.
 */
import fs from 'node:fs'
import path from 'node:path'
import { createCatalogueClient, createHttp, type CatalogueClient, type CatalogueClientOptions } from './api/index'
import { normaliseBaseUrl, redactUrl } from './shared/urls'
import type { ArtistWithTracks } from './db/artists'
import { openCache, type OpenedCache } from './db/connection'
import type { Download } from './db/downloads'
import { newTracksApi, type NewTracksApi } from './auto-download'
import { currentCatalogueVersion } from './db/query-cache'
import {
  DownloadManager, type DownloadChange, type DownloadEstimate, type DownloadManagerOptions, type DownloadProgress, type DownloadQueueState,
} from './downloads/manager'
import { guard, guardAsync, NotFoundError, NotSyncedError, ReadOnlyError, toTuneshelfError } from './shared/errors'
import { DisposableStore, Emitter, type Event } from './events'
import { checkDownloadFolder, ensureFolder } from './folders'
import { ensureDataFolder } from './data-folders'
import { SettingsStore, type Settings, type SettingsPatch } from './settings'
import type { DownloadState } from './shared/catalogue'
import { refreshArtist } from './sync/refresh'
import { clearCatalogue } from './db/maintenance'
import { followsApi, type FollowsApi } from './follows'
import { SyncService, type SyncState } from './sync/service'
import type { SyncProgress, SyncReport } from './sync/sync'
import { definedOnly, integerFrom, parseArguments } from './shared/validation'
import { downloadIdSchema, downloadIdsSchema, downloadStateSchema, folderEnqueueRequestSchema, queuePlaceSchema, syncStartSchema, usernameSchema } from './shared/arguments'
import { SpeedLimiter } from './downloads/speed-limit'
import { completedIds } from './db/queue-order'
import type { DownloadActionResult, DownloadView, EnqueueRequest, MonthlyBytes, QueuePlace, SyncStartOptions } from './shared/types'
import { catalogueQueries, downloadQueries, type CatalogueQueries } from './queries'
export type { EnqueueRequest } from './shared/types'
export type { FollowsApi } from './follows'

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
  /** Download settings that are not user settings (tests replace the free-space probe). */
  downloads?: Pick<DownloadManagerOptions, 'reserveBytes' | 'freeSpace' | 'progressIntervalMs' | 'transferSettings'>
  /** Least time between two sync progress events (default 250 ms). */
  syncProgressIntervalMs?: number
  now?: () => number
}

/** The catalogue as the cache holds it: answers at once, with or without a network. */
export interface CatalogueService extends CatalogueQueries {
  /** Fetches one artist's detail (and missing avatars) now and stores it; `gone` when the service no longer knows the artist. */
  refreshArtist(username: string): Promise<{ artist: ArtistWithTracks; gone: boolean }>
  /** Empties the cached catalogue (downloads stay); the next sync starts afresh. */
  clear(): Promise<void>
  /** Whether the service answers now (no retries, a few seconds at most). */
  reachable(): Promise<boolean>
  /** The cached catalogue changed (a sync stored pages or details). */
  readonly onChange: Event<{ version: string }>
}

export interface SyncApi {
  readonly state: SyncState
  /** Starts a sync or joins the one under way (in this process or another). */
  start(options?: SyncStartOptions): Promise<SyncReport>
  cancel(): void
  readonly onProgress: Event<SyncProgress>
  readonly onStateChange: Event<SyncState>
}

export interface DownloadsApi {
  readonly state: DownloadQueueState & { folder: string }
  /** Runs the queue in this process (BusyError while another process runs it); downloads left running resume. */
  start(): void
  /** Stops the transfers, keeping their bytes; they resume on the next start. */
  stop(): Promise<void>
  /** Queues into request.folder, else the setting's folder; either is refused unless downloads may go there (core/folders.ts). */
  enqueue(request: FolderEnqueueRequest): Promise<{ downloads: Download[]; folder: string }>
  /** What enqueue(request) would take (bytes still to download, free space), without queuing anything. */
  estimate(request: FolderEnqueueRequest): Promise<DownloadEstimate & { folder: string }>
  // Each action on a list applies to the downloads that allow it and says which it skipped and why;
  // on one id alone it fails with the reason (InvalidArgumentError, or NotFoundError for no such download).
  pause(ids: number[]): Promise<DownloadActionResult>
  /** Pauses every queued and running download. */
  pauseAll(): Promise<DownloadActionResult>
  resume(ids: number[]): DownloadActionResult
  /** Resumes every paused download, and a queue waiting for disk space. */
  resumeAll(): DownloadActionResult
  cancel(ids: number[]): Promise<DownloadActionResult>
  retry(ids: number[]): DownloadActionResult
  /** Queues again completed downloads whose file is no longer on disk. */
  redownload(ids: number[]): DownloadActionResult
  /** Takes downloads off the list; their files stay on disk. */
  remove(ids: number[]): Promise<DownloadActionResult>
  /** Moves queued or paused downloads to the top or bottom of the queue, or before another download. */
  move(ids: number[], place: QueuePlace): DownloadActionResult
  /** Takes every completed download off the list; their files stay on disk. */
  clearCompleted(): Promise<{ removed: number }>
  list(state?: DownloadState): Download[]
  get(id: number): Download
  /** Downloads that say "downloading" though no process transfers them (the app stopped or crashed). */
  interruptedIds(): number[]
  monthlyBytes(): { month: string; bytes: number }[]
  /** The queue as a screen shows it: each download, whether it is interrupted, and whether a completed one's file is gone. */
  views(state?: DownloadState): DownloadView[]
  /** Bytes downloaded by month, and this month's (by the library's clock). */
  monthly(): MonthlyBytes
  /** The file of a completed download that is still there: what open, reveal and play work on. */
  completedFile(id: number): string
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
  readonly onChange: Event<DownloadChange>
  readonly onProgress: Event<DownloadProgress>
  readonly onIdle: Event<void>
  readonly onQueuePaused: Event<string>
}

export interface SettingsApi {
  get(): Settings
  update(patch: SettingsPatch): Settings
  readonly onChange: Event<Settings>
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
  readonly follows: FollowsApi
  /** New tracks of followed artists: what a sync brought them, and their auto-download. */
  readonly newTracks: NewTracksApi
  dispose(): Promise<void>
}

/** Opens the library of one catalogue in dataDir: the service of options.baseUrl, or of the settings. */
export function openLibrary(options: LibraryOptions): Library {
  try {
    return assemble(options)
  } catch (error) {
    throw toTuneshelfError(error, 'opening the catalogue')
  }
}

/** What the services of one library share. */
interface Parts {
  db: OpenedCache['db']
  dataDir: string
  displayUrl: string
  readOnly: boolean
  settings: SettingsStore
  now: () => number
  /** Throws a ReadOnlyError naming `what` when the data folder cannot be written. */
  refuseWrites: (what: string) => void
}

function assemble(options: LibraryOptions): Library {
  const dataDir = path.resolve(options.dataDir)
  const ownsSettings = options.settings === undefined
  const settings = options.settings ?? new SettingsStore(dataDir)
  const configured = options.baseUrl ?? settings.get().baseUrl ?? undefined
  if (configured === undefined) {
    throw new NotSyncedError(`no catalogue service is set for ${dataDir}: give its base URL (nothing has been synced there yet)`)
  }
  const baseUrl = normaliseBaseUrl(configured)
  if (!options.mustExist) ensureDataFolder(dataDir)
  const cache = openCache(dataDir, baseUrl, { mustExist: options.mustExist, name: options.cacheName })
  const parts: Parts = {
    db: cache.db,
    dataDir,
    displayUrl: redactUrl(baseUrl),
    readOnly: cache.readOnly,
    settings,
    now: options.now ?? Date.now,
    refuseWrites: (what) => {
      if (cache.readOnly) {
        throw new ReadOnlyError(`the data folder ${dataDir} is read-only: ${what} needs to write to it (the catalogue can still be browsed)`)
      }
    },
  }
  const now = parts.now
  const disposables = new DisposableStore()
  // Downloads share the catalogue's Http: the same rule on private addresses (api/address-guard.ts) for hotlinks too.
  const http = createHttp({ ...options.client, baseUrl })
  const syncService = disposables.add(
    new SyncService({
      db: cache.db,
      client: createCatalogueClient({ ...options.client, baseUrl, http }),
      cacheFile: cache.file,
      progressIntervalMs: options.syncProgressIntervalMs,
      now,
    }),
  )
  // One limit for the whole queue, followed live as the setting changes.
  const limiter = new SpeedLimiter(settings.get().downloadSpeedLimit)
  const manager = new DownloadManager({
    limiter,
    ...options.downloads,
    db: cache.db,
    baseUrl,
    http,
    now,
    concurrency: settings.get().downloadConcurrency,
    relocate: options.cacheName === undefined || cache.readOnly ? undefined : relocation(cache.db, baseUrl),
  })
  disposables.add(
    settings.onChange((changed) => {
      manager.setConcurrency(changed.downloadConcurrency)
      limiter.setLimit(changed.downloadSpeedLimit)
    }),
  )
  const client = createCatalogueClient({ ...options.client, baseUrl, http })
  const catalogue = catalogueApi(parts, syncService, client, disposables)
  const downloads = downloadsApi(parts, manager)

  let disposed: Promise<void> | undefined
  return {
    baseUrl,
    displayUrl: parts.displayUrl,
    dataDir,
    cacheFile: cache.file,
    readFile: cache.readFile,
    readOnly: cache.readOnly,
    notices: [...settings.notices, ...(cache.recovered ? [cache.recovered] : [])],
    catalogue,
    sync: syncApi(parts, syncService),
    downloads,
    newTracks: newTracksApi(cache.db, downloads),
    settings: settingsApi(parts),
    follows: followsApi({ ...parts, followed: catalogue.followed }),
    dispose: () =>
      (disposed ??= (async () => {
        syncService.cancel()
        try {
          await manager.dispose()
        } finally {
          // A cancelled sync still writes its last batch and its end; wait for it before closing the cache.
          await syncService.settled()
          disposables.dispose()
          if (ownsSettings) settings.dispose()
          cache.close()
        }
      })()),
  }
}

function catalogueApi(parts: Parts, syncService: SyncService, client: CatalogueClient, disposables: DisposableStore): CatalogueService {
  const { db, displayUrl, readOnly, refuseWrites } = parts
  // The catalogue's change event: the version a sync raises, checked as the sync reports progress and ends.
  const changes = disposables.add(new Emitter<{ version: string }>())
  let seenVersion = currentCatalogueVersion(db)
  const checkVersion = (): void => {
    const version = currentCatalogueVersion(db)
    if (version === seenVersion) return
    seenVersion = version
    changes.fire({ version })
  }
  disposables.add(syncService.onProgress(checkVersion))
  disposables.add(syncService.onStateChange(checkVersion))
  const queries = catalogueQueries(db, { displayUrl, readOnly })
  return {
    ...queries,
    refreshArtist: (username) =>
      guardAsync(async () => {
        refuseWrites('refreshing an artist')
        const { gone } = await refreshArtist(db, client, parseArguments(usernameSchema, username))
        checkVersion()
        return { artist: queries.getArtist(username), gone }
      }),
    reachable: () => guardAsync(() => client.reachable()),
    clear: () =>
      guardAsync(async () => {
        refuseWrites('clearing the cache')
        syncService.cancel()
        await syncService.settled()
        clearCatalogue(db)
        checkVersion()
      }),
    onChange: changes.event,
  }
}

function syncApi({ settings, refuseWrites }: Parts, syncService: SyncService): SyncApi {
  return {
    get state() {
      return guard(() => syncService.state)
    },
    start: (startOptions = {}) =>
      guardAsync(async () => {
        refuseWrites('a sync')
        const valid = parseArguments(syncStartSchema, startOptions)
        return syncService.start({ concurrency: settings.get().syncConcurrency, ...definedOnly(valid) })
      }),
    cancel: () => syncService.cancel(),
    onProgress: syncService.onProgress,
    onStateChange: syncService.onStateChange,
  }
}

function downloadsApi({ db, dataDir, settings, refuseWrites, now }: Parts, manager: DownloadManager): DownloadsApi {
  const queries = downloadQueries(db)
  const downloadFolder = (): string => settings.get().downloadFolder ?? path.join(dataDir, 'downloads')
  // Checked at every use, the setting's too: settings.json may have been written by hand, or a link changed since.
  const checkedFolder = (chosen: string | undefined): string => checkDownloadFolder(chosen ?? downloadFolder(), { dataDir })
  return {
    get state() {
      return guard(() => ({ ...manager.state, folder: downloadFolder() }))
    },
    start: () =>
      guard(() => {
        refuseWrites('downloading')
        manager.start()
      }),
    stop: () => guardAsync(() => manager.stop()),
    enqueue: (request) =>
      guardAsync(async () => {
        refuseWrites('downloading')
        const valid = parseArguments(folderEnqueueRequestSchema, request)
        const folder = ensureFolder(checkedFolder(valid.folder), 'the download folder')
        const uploadIds = valid.artist !== undefined ? manager.uploadsOf(valid.artist) : valid.uploadIds!
        return { downloads: await manager.enqueueUploads(uploadIds, folder), folder }
      }),
    estimate: (request) =>
      guardAsync(async () => {
        const valid = parseArguments(folderEnqueueRequestSchema, request)
        // Nothing is created to estimate: a folder that does not exist yet is judged by the nearest one that does.
        const folder = checkedFolder(valid.folder)
        const uploadIds = valid.artist !== undefined ? manager.uploadsOf(valid.artist) : valid.uploadIds!
        return { ...(await manager.estimate(uploadIds, nearestExisting(folder))), folder }
      }),
    pause: (ids) => guardAsync(() => manager.pause(parseArguments(downloadIdsSchema, ids))),
    pauseAll: () => guardAsync(() => manager.pauseAll()),
    resume: (ids) => guard(() => manager.resume(parseArguments(downloadIdsSchema, ids))),
    resumeAll: () => guard(() => manager.resumeAll()),
    cancel: (ids) => guardAsync(() => manager.cancel(parseArguments(downloadIdsSchema, ids))),
    retry: (ids) => guard(() => manager.retry(parseArguments(downloadIdsSchema, ids))),
    redownload: (ids) => guard(() => manager.redownload(parseArguments(downloadIdsSchema, ids))),
    remove: (ids) => guardAsync(() => manager.remove(parseArguments(downloadIdsSchema, ids))),
    move: (ids, place) => guard(() => manager.move(parseArguments(downloadIdsSchema, ids), parseArguments(queuePlaceSchema, place))),
    clearCompleted: () => guardAsync(async () => ({ removed: (await manager.remove(completedIds(db))).changed.length })),
    list: (state) => guard(() => manager.list(parseArguments(downloadStateSchema, state))),
    get: (id) =>
      guard(() => {
        const download = manager.get(parseArguments(downloadIdSchema, id))
        if (!download) throw new NotFoundError(`no download ${id}`)
        return download
      }),
    interruptedIds: () => guard(() => manager.interruptedIds()),
    monthlyBytes: () => guard(() => manager.monthlyBytes()),
    views: (state) => queries.views(state, guard(() => manager.interruptedIds())),
    monthly: () => queries.monthly(now()),
    completedFile: (id) => queries.completedFile(id),
    strayPartFiles: (folder) => guardAsync(() => manager.strayPartFiles(path.resolve(folder ?? downloadFolder()))),
    resumeQueue: () =>
      guard(() => {
        manager.resumeQueue()
      }),
    networkBack: () => guard(() => manager.networkBack()),
    setConcurrency: (concurrency) => guard(() => manager.setConcurrency(parseArguments(integerFrom(1, 8), concurrency))),
    whenIdle: () => manager.whenIdle(),
    onChange: manager.onChange,
    onProgress: manager.onProgress,
    onIdle: manager.onIdle,
    onQueuePaused: manager.onQueuePaused,
  }
}

function settingsApi({ settings, refuseWrites }: Parts): SettingsApi {
  return {
    get: () => settings.get(),
    update: (patch) =>
      guard(() => {
        refuseWrites('changing the settings')
        return settings.update(patch)
      }),
    onChange: settings.onChange,
  }
}

/**
 * For a cache kept under a fixed name (the built-in demo, whose port can change
 * from one run to the next): every origin it was served from is remembered, and
 * a stored address on any of them is moved to where the service is now.
 */
function relocation(db: OpenedCache['db'], baseUrl: string): (url: string) => string {
  const current = new URL(baseUrl).origin
  const saved = db.prepare(`SELECT value FROM meta WHERE key = 'service_origins'`).pluck().get() as string | undefined
  const origins = new Set<string>(saved ? (JSON.parse(saved) as string[]) : [])
  if (!origins.has(current)) {
    origins.add(current)
    db.prepare(`INSERT INTO meta (key, value) VALUES ('service_origins', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(
      JSON.stringify([...origins]),
    )
  }
  return (url) => {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return url
    }
    if (parsed.origin === current || !origins.has(parsed.origin)) return url
    return `${current}${parsed.pathname}${parsed.search}`
  }
}

function nearestExisting(folder: string): string {
  let current = folder
  while (!fs.existsSync(current) && path.dirname(current) !== current) current = path.dirname(current)
  return current
}

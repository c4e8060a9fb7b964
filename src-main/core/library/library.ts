/**
 * The façade of the core: `openLibrary()` assembles one catalogue's services
 * (the queries, the sync, the downloads, the settings) over one cache, and
 * `dispose()` closes them all. The CLI, the benchmarks and the IPC handlers
 * use only this. Every argument is checked against its schema, and every
 * failure is a TuneshelfError with a code.
 */
import path from 'node:path'
import { createCatalogueClient, createHttp, type CatalogueClient } from '../api/index'
import { normaliseBaseUrl, redactUrl } from '../shared/urls'
import { openCache, type OpenedCache } from '../db/connection'
import { newTracksApi } from './auto-download'
import { currentCatalogueVersion } from '../db/query-cache'
import { DownloadManager } from '../downloads/manager'
import { guard, guardAsync, NotSyncedError, ReadOnlyError, toTuneshelfError } from '../shared/errors'
import { DisposableStore, Emitter } from '../base/events'
import { checkDownloadFolder, ensureFolder } from '../files/folders'
import { nearestExisting } from '../files/contained-path'
import { ensureDataFolder } from '../files/data-folders'
import { SettingsStore } from './settings'
import { refreshArtist } from '../sync/refresh'
import { clearCatalogue } from '../db/maintenance'
import { markAvatarsUsed } from '../db/avatars'
import { followsApi } from './follows'
import { SyncService } from '../sync/service'
import { definedOnly, parseArguments } from '../shared/validation'
import { downloadConcurrencySchema, downloadSelectionSchema, folderEnqueueRequestSchema, queuePlaceSchema, syncStartSchema, usernameSchema } from '../shared/arguments'
import { SpeedLimiter } from '../downloads/speed-limit'
import { completedIds } from '../db/queue-order'
import { catalogueQueries, downloadQueries, followsQueries } from './queries'
import { relocation } from './relocation'
import type { CatalogueService, DownloadsApi, Library, LibraryOptions, SettingsApi, SyncApi } from './library-api'
export type { EnqueueRequest } from '../shared/types'
export type { FollowsApi } from './follows'
export type * from './library-api'

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
  // Any answer of the service, to a sync, a download or a check: it can be reached.
  const answers = disposables.add(new Emitter<void>())
  // Downloads share the catalogue's Http: the same rule on private addresses (api/address-guard.ts) for hotlinks too.
  const http = createHttp({ ...options.client, baseUrl, onAnswer: () => answers.fire() })
  const syncService = disposables.add(
    new SyncService({
      db: cache.db,
      client: createCatalogueClient({ ...options.client, baseUrl, http }),
      cacheFile: cache.file,
      progressIntervalMs: options.syncProgressIntervalMs,
      quickPageLimit: options.quickPageLimit,
      silenceLimitMs: options.syncSilenceLimitMs,
      // One reserve on the disk, the downloads' (and one probe of it): a sync keeps it too.
      reserveBytes: options.downloads?.reserveBytes,
      freeSpace: options.downloads?.freeSpace,
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
    settings.onDidChange((changed) => {
      manager.setConcurrency(changed.downloadConcurrency)
      limiter.setLimit(changed.downloadSpeedLimit)
    }),
  )
  const client = createCatalogueClient({ ...options.client, baseUrl, http })
  const catalogue = catalogueApi(parts, syncService, client, disposables)
  const downloads = downloadsApi(parts, manager)
  const newTracks = newTracksApi(cache.db, downloads, () => settings.get(), now)

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
    newTracks,
    onDidHearFromService: answers.event,
    settings: settingsApi(parts),
    // What auto-download held back is the followed artists' own: the window asks for it there.
    follows: { ...followsApi({ ...parts, queries: followsQueries(cache.db) }), downloadHeldBack: () => newTracks.downloadHeldBack() },
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
  disposables.add(syncService.onDidProgress(checkVersion))
  disposables.add(syncService.onDidChangeState(checkVersion))
  const queries = catalogueQueries(db, { displayUrl, readOnly })
  return {
    ...queries,
    refreshArtist: (username) =>
      guardAsync(async () => {
        refuseWrites('refreshing an artist')
        const { gone } = await refreshArtist(db, client, parseArguments(usernameSchema, username))
        checkVersion()
        return { artist: queries.artist(username), gone }
      }),
    avatarsShown: (urls) => {
      if (!readOnly) markAvatarsUsed(db, urls, parts.now())
    },
    reachable: () => guardAsync(() => client.reachable()),
    clear: () =>
      guardAsync(async () => {
        refuseWrites('clearing the cache')
        syncService.cancel()
        await syncService.settled()
        clearCatalogue(db)
        checkVersion()
      }),
    onDidChange: changes.event,
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
    onDidProgress: syncService.onDidProgress,
    onDidChangeState: syncService.onDidChangeState,
  }
}

function downloadsApi({ db, dataDir, settings, refuseWrites, now }: Parts, manager: DownloadManager): DownloadsApi {
  const queries = downloadQueries(db, { interrupted: () => manager.interruptedIds(), now })
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
    checkFolder: (folder) => guard(() => checkedFolder(folder)),
    pause: (selection) => guardAsync(() => manager.pause(parseArguments(downloadSelectionSchema, selection))),
    pauseAll: () => guardAsync(() => manager.pauseAll()),
    resume: (selection) => guard(() => manager.resume(parseArguments(downloadSelectionSchema, selection))),
    resumeAll: () => guard(() => manager.resumeAll()),
    cancel: (selection) => guardAsync(() => manager.cancel(parseArguments(downloadSelectionSchema, selection))),
    retry: (selection) => guard(() => manager.retry(parseArguments(downloadSelectionSchema, selection))),
    redownload: (selection) => guard(() => manager.redownload(parseArguments(downloadSelectionSchema, selection))),
    remove: (selection) => guardAsync(() => manager.remove(parseArguments(downloadSelectionSchema, selection))),
    move: (selection, place) => guard(() => manager.move(parseArguments(downloadSelectionSchema, selection), parseArguments(queuePlaceSchema, place))),
    clearCompleted: () => guardAsync(async () => ({ removed: (await manager.remove(completedIds(db))).changed.length })),
    interruptedIds: () => guard(() => manager.interruptedIds()),
    ...queries,
    strayPartFiles: (folder) => guardAsync(() => manager.strayPartFiles(path.resolve(folder ?? downloadFolder()))),
    resumeQueue: () =>
      guard(() => {
        manager.resumeQueue()
      }),
    networkBack: () => guard(() => manager.networkBack()),
    setConcurrency: (concurrency) => guard(() => manager.setConcurrency(parseArguments(downloadConcurrencySchema, concurrency))),
    whenIdle: () => manager.whenIdle(),
    onDidChange: manager.onDidChange,
    onDidProgress: manager.onDidProgress,
    onDidBecomeIdle: manager.onDidBecomeIdle,
    onDidPauseQueue: manager.onDidPauseQueue,
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
    onDidChange: settings.onDidChange,
  }
}

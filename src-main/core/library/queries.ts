/**
 * What a window reads from one catalogue's cache, over any connection: the
 * library's own (the CLI, the writer) or the core host's read-only one, which
 * answers the window's queries while the writer's long transactions run (see
 * core/host/). Named as the contract names the channels (`catalogue:list` is
 * `catalogue.list`), so the host's table of queries is derived from them.
 * Every argument is checked with the contract's schemas; every failure is a
 * TuneshelfError.
 */
import type { Database } from 'better-sqlite3'
import * as v from 'valibot'
import { artistSetCounts, getArtist, listArtists } from '../db/artists'
import { listFollows } from '../db/follows'
import { getAvatar } from '../db/avatars'
import { listCaches } from '../db/connection'
import { downloadFolder, downloadPage, downloadsOfUploads, downloadSummary, getDownload, listDownloadViews, monthlyBytes } from '../db/downloads'
import { accessLevels } from '../db/levels'
import { cacheBytes, catalogueStatus } from '../db/status'
import { whatsNew } from '../db/whats-new'
import { heldBackSummary } from '../db/new-tracks'
import { artistListQuerySchema, downloadIdSchema, downloadPageSchema, downloadStateSchema, uploadIdsSchema, usernameSchema, whatsNewLimitSchema } from '../shared/arguments'
import type { AccessLevel, DownloadState } from '../shared/catalogue'
import { checkPlannedTarget } from '../downloads/file-names'
import { realPathInsideSync } from '../files/contained-path'
import { guard, InvalidArgumentError, NotFoundError, UnsafePathError } from '../shared/errors'
import { tierFits, type TierFit } from '../shared/tiers'
import type {
  ArtistFilterCounts, ArtistListQuery, ArtistPage, ArtistWithTracks, CacheInfo, CatalogueStatus, Download, DownloadPage, DownloadPageQuery, DownloadSummary, DownloadView,
  FollowedArtist, MonthlyBytes, WhatsNew,
} from '../shared/types'
import { parseArguments } from '../shared/validation'

export interface CatalogueQueries {
  /** A page of artists, as the service would list them at the last sync, or a search. */
  list(query?: ArtistListQuery): ArtistPage
  /** One artist with all its tracks, by username without regard to case; NotFoundError when the cache has none. */
  artist(username: string): ArtistWithTracks
  levels(): AccessLevel[]
  /** Which access levels the artist's uploads fit (largest against maxsize, total against storage). */
  tierFit(username: string): TierFit[]
  /** Freshness and counts, the cache file's size, and whether it is read-only. */
  status(): CatalogueStatus & { cacheBytes: number; readOnly: boolean }
  /** The artists and tracks that appeared or changed in the last two syncs (the first sync of a cache is not news). */
  whatsNew(limit?: number): WhatsNew
  /** The cached image behind an avatar address, if the sync fetched it. */
  avatar(url: string): { contentType: string; body: Buffer } | undefined
  /** How many artists the list of the query would show narrowed to those followed, and to those with a download. */
  filterCounts(query?: ArtistListQuery): ArtistFilterCounts
}

export function catalogueQueries(db: Database, { displayUrl, readOnly }: { displayUrl: string; readOnly: boolean }): CatalogueQueries {
  const artistOf = (username: string): ArtistWithTracks => {
    const artist = getArtist(db, parseArguments(usernameSchema, username))
    if (!artist) throw new NotFoundError(`no artist named ${JSON.stringify(username)} in the cache of ${displayUrl}`)
    return artist
  }
  return {
    list: (query = {}) => guard(() => listArtists(db, parseArguments(artistListQuerySchema, query))),
    artist: (username) => guard(() => artistOf(username)),
    levels: () => guard(() => accessLevels(db)),
    tierFit: (username) => guard(() => tierFits(accessLevels(db), artistOf(username).tracks.map((track) => track.bytes))),
    status: () => guard(() => ({ ...catalogueStatus(db), cacheBytes: cacheBytes(db), readOnly })),
    whatsNew: (limit = 200) =>
      guard(() => {
        const news = whatsNew(db, parseArguments(whatsNewLimitSchema, limit))
        const heldBack = heldBackSummary(db)
        return heldBack ? { ...news, heldBack } : news
      }),
    avatar: (url) => guard(() => getAvatar(db, parseArguments(v.string('must be text'), url))),
    filterCounts: (query = {}) => guard(() => artistSetCounts(db, parseArguments(artistListQuerySchema, query))),
  }
}

export interface FollowsQueries {
  /** The artists followed, by name; gone ones, and those the cache no longer holds, too. */
  list(): FollowedArtist[]
}

export function followsQueries(db: Database): FollowsQueries {
  return { list: () => guard(() => listFollows(db)) }
}

export interface DownloadQueries {
  /** The queue as a screen shows it: each download, whether it is interrupted, and whether a completed one's file is gone. */
  list(state?: DownloadState): DownloadView[]
  /** A page of one group of the screen, in queue order, with the group's size: what a window reads as it scrolls. */
  page(query: DownloadPageQuery): DownloadPage
  /** The queue in figures: each group's files and bytes, and the batch the overall progress measures. */
  summary(): DownloadSummary
  /** The download of each of these uploads that has one (the newest row), as a screen shows it. */
  ofUploads(uploadIds: string[]): DownloadView[]
  /** One download; NotFoundError when there is none. */
  get(id: number): Download
  /** Bytes downloaded by calendar month (UTC), and this month's. */
  monthlyBytes(): MonthlyBytes
  /** The folder a download was queued into (db/downloads.ts, downloadFolder); NotFoundError when there is no such download. */
  folderOf(id: number): string
  /**
   * The real path of the file of a completed download that is still where it was put, inside the folder it
   * was queued into: what open, reveal and play work on. UnsafePathError when it is not (or leads out).
   */
  completedFile(id: number): string
}

export interface DownloadQueryContext {
  /** The downloads that say "downloading" though nothing transfers them (the queue knows, not the cache). */
  interrupted: () => readonly number[]
  /** What "this month" is. */
  now: () => number
}

export function downloadQueries(db: Database, context: DownloadQueryContext): DownloadQueries {
  const get = (id: number): Download => {
    const download = getDownload(db, parseArguments(downloadIdSchema, id))
    if (!download) throw new NotFoundError(`no download ${id}`)
    return download
  }
  // Never read from the target path, which a cache written by others may have had rewritten.
  const folderOf = (download: Download): string => downloadFolder(db, download.id) ?? ''
  return {
    list: (state) => guard(() => listDownloadViews(db, parseArguments(downloadStateSchema, state), new Set(context.interrupted()))),
    page: (query) => guard(() => downloadPage(db, parseArguments(downloadPageSchema, query), context.interrupted())),
    summary: () => guard(() => downloadSummary(db, context.interrupted())),
    ofUploads: (uploadIds) => guard(() => downloadsOfUploads(db, parseArguments(uploadIdsSchema, uploadIds), context.interrupted())),
    get: (id) => guard(() => get(id)),
    monthlyBytes: () =>
      guard(() => {
        const months = monthlyBytes(db)
        const month = new Date(context.now()).toISOString().slice(0, 7)
        return { month, bytes: months.find((entry) => entry.month === month)?.bytes ?? 0, months }
      }),
    folderOf: (id) => guard(() => folderOf(get(id))),
    completedFile: (id) =>
      guard(() => {
        const download = get(id)
        if (download.state !== 'completed') throw new InvalidArgumentError(`download ${id} is ${download.state}, not completed`, { field: 'id' })
        // What the system opens or shows is held to the folder, as the writer's files are: the cache may have
        // been written since (a target rewritten, a trigger planted), and the file or its artist folder
        // replaced by a link that leads out. Opened by its real path, the one judged.
        const folder = folderOf(download)
        checkPlannedTarget(folder, download.targetPath)
        const file = realPathInsideSync(folder, download.targetPath)
        if (file === 'gone') throw new NotFoundError(`the file is no longer at ${download.targetPath}: it was moved or deleted`)
        if (file === 'outside') throw new UnsafePathError(`${download.targetPath} leads outside the download folder ${folder}; it is not opened or shown`)
        return file
      }),
  }
}

/** The reads of one catalogue's cache, by the contract's domains: what the host's reader answers, and the library offers. */
export interface LibraryQueries {
  catalogue: CatalogueQueries
  follows: FollowsQueries
  downloads: DownloadQueries
}

export function libraryQueries(db: Database, options: { displayUrl: string; readOnly: boolean } & DownloadQueryContext): LibraryQueries {
  return { catalogue: catalogueQueries(db, options), follows: followsQueries(db), downloads: downloadQueries(db, options) }
}

/** The caches of a data folder, the one shown now marked current. */
export function cacheInfos(dataDir: string, currentFile: string): CacheInfo[] {
  return guard(() => listCaches(dataDir).map((cache) => ({ ...cache, current: cache.file === currentFile })))
}


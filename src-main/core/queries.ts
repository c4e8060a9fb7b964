/**
 * What a window reads from one catalogue's cache, over any connection: the
 * library's own (the CLI, the writer) or the core host's read-only one, which
 * answers the window's queries while the writer's long transactions run (see
 * core/host/). Every argument is checked with the contract's schemas; every
 * failure is a TuneshelfError.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Database } from 'better-sqlite3'
import * as v from 'valibot'
import { artistSetCounts, getArtist, listArtists } from './db/artists'
import { listFollows } from './db/follows'
import { getAvatar } from './db/avatars'
import { listCaches } from './db/connection'
import { getDownload, listDownloadViews, monthlyBytes } from './db/downloads'
import { accessLevels } from './db/levels'
import { cacheBytes, catalogueStatus } from './db/status'
import { whatsNew } from './db/whats-new'
import { artistListQuerySchema, downloadIdSchema, downloadStateSchema, usernameSchema, whatsNewLimitSchema } from './shared/arguments'
import type { AccessLevel, DownloadState } from './shared/catalogue'
import { guard, InvalidArgumentError, NotFoundError } from './shared/errors'
import { tierFits, type TierFit } from './shared/tiers'
import type { ArtistFilterCounts, ArtistListQuery, ArtistPage, ArtistWithTracks, CacheInfo, CatalogueStatus, Download, DownloadView, FollowedArtist, MonthlyBytes, WhatsNew } from './shared/types'
import { parseArguments } from './shared/validation'

export interface CatalogueQueries {
  /** A page of artists, as the service would list them at the last sync, or a search. */
  listArtists(query?: ArtistListQuery): ArtistPage
  /** One artist with all its tracks, by username without regard to case; NotFoundError when the cache has none. */
  getArtist(username: string): ArtistWithTracks
  accessLevels(): AccessLevel[]
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
  /** The artists followed, gone ones and those the cache no longer holds too. */
  followed(): FollowedArtist[]
}

export function catalogueQueries(db: Database, { displayUrl, readOnly }: { displayUrl: string; readOnly: boolean }): CatalogueQueries {
  const artistOf = (username: string): ArtistWithTracks => {
    const artist = getArtist(db, parseArguments(usernameSchema, username))
    if (!artist) throw new NotFoundError(`no artist named ${JSON.stringify(username)} in the cache of ${displayUrl}`)
    return artist
  }
  return {
    listArtists: (query = {}) => guard(() => listArtists(db, parseArguments(artistListQuerySchema, query))),
    getArtist: (username) => guard(() => artistOf(username)),
    accessLevels: () => guard(() => accessLevels(db)),
    tierFit: (username) => guard(() => tierFits(accessLevels(db), artistOf(username).tracks.map((track) => track.bytes))),
    status: () => guard(() => ({ ...catalogueStatus(db), cacheBytes: cacheBytes(db), readOnly })),
    whatsNew: (limit = 200) => guard(() => whatsNew(db, parseArguments(whatsNewLimitSchema, limit))),
    avatar: (url) => guard(() => getAvatar(db, parseArguments(v.string('must be text'), url))),
    filterCounts: (query = {}) => guard(() => artistSetCounts(db, parseArguments(artistListQuerySchema, query))),
    followed: () => guard(() => listFollows(db)),
  }
}

export interface DownloadQueries {
  /** The queue as a screen shows it; `interrupted` names the downloads that say "downloading" though nothing transfers them. */
  views(state: DownloadState | undefined, interrupted: readonly number[]): DownloadView[]
  /** One download; NotFoundError when there is none. */
  get(id: number): Download
  /** Bytes downloaded by calendar month (UTC), and this month's by the clock given. */
  monthly(now: number): MonthlyBytes
  /** The file of a completed download that is still where it was put: what open, reveal and play work on. */
  completedFile(id: number): string
}

export function downloadQueries(db: Database): DownloadQueries {
  const get = (id: number): Download => {
    const download = getDownload(db, parseArguments(downloadIdSchema, id))
    if (!download) throw new NotFoundError(`no download ${id}`)
    return download
  }
  return {
    views: (state, interrupted) =>
      guard(() => listDownloadViews(db, parseArguments(downloadStateSchema, state), new Set(interrupted))),
    get: (id) => guard(() => get(id)),
    monthly: (now) =>
      guard(() => {
        const months = monthlyBytes(db)
        const month = new Date(now).toISOString().slice(0, 7)
        return { month, bytes: months.find((entry) => entry.month === month)?.bytes ?? 0, months }
      }),
    completedFile: (id) =>
      guard(() => {
        const download = get(id)
        if (download.state !== 'completed') throw new InvalidArgumentError(`download ${id} is ${download.state}, not completed`, { field: 'id' })
        if (!fs.existsSync(download.targetPath)) throw new NotFoundError(`the file is no longer at ${download.targetPath}: it was moved or deleted`)
        return download.targetPath
      }),
  }
}

/** The caches of a data folder, the one shown now marked current. */
export function cacheInfos(dataDir: string, currentFile: string): CacheInfo[] {
  return guard(() => listCaches(dataDir).map((cache) => ({ ...cache, current: cache.file === currentFile })))
}

/** The folder a download was queued into: its file is `<folder>/<artist>/<file>`. */
export function downloadRoot(targetPath: string): string {
  return path.dirname(path.dirname(targetPath))
}

/**
 * The IPC contract as types: every channel's arguments and result. Free of
 * Node and Electron (it names only the core's shared types), so the preload
 * and the renderer derive their typings from it; contract.ts holds the
 * schemas main checks every call with, and the compiler holds the two equal.
 */
import type { AccessLevel, DownloadState } from '../core/shared/catalogue'
import type { SerializedError } from '../core/shared/errors'
import type { LinkKind } from '../core/shared/links'
import type { TierFit } from '../core/shared/tiers'
import type {
  ArtistListQuery, ArtistPage, ArtistWithTracks, CatalogueStatus, Download, DownloadEstimate, DownloadQueueState, DownloadView,
  EnqueueRequest, SessionSnapshot, Settings, SettingsPatch, SyncReport, SyncStartOptions, SyncState, WhatsNew,
} from '../core/shared/types'
import type { Channel } from './channels'

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

interface Spec<TArgs extends unknown[], TResult> {
  args: TArgs
  result: TResult
}

/** Every channel: what it takes and what it resolves with. */
export interface ApiTypes {
  'catalogue:list': Spec<[query?: ArtistListQuery], ArtistPage>
  'catalogue:artist': Spec<[username: string], ArtistWithTracks>
  'catalogue:refreshArtist': Spec<[username: string], { artist: ArtistWithTracks; gone: boolean }>
  'catalogue:levels': Spec<[], AccessLevel[]>
  'catalogue:tierFit': Spec<[username: string], TierFit[]>
  'catalogue:status': Spec<[], CatalogueStatus & { cacheBytes: number; readOnly: boolean }>
  'catalogue:whatsNew': Spec<[limit?: number], WhatsNew>
  'sync:start': Spec<[options?: SyncStartOptions], SyncReport>
  'sync:cancel': Spec<[], void>
  'sync:state': Spec<[], SyncState>
  'downloads:enqueue': Spec<[request: EnqueueRequest], { downloads: Download[]; folder: string }>
  'downloads:estimate': Spec<[request: EnqueueRequest], DownloadEstimate & { folder: string }>
  'downloads:pause': Spec<[ids: number[]], void>
  'downloads:resume': Spec<[ids: number[]], void>
  'downloads:cancel': Spec<[ids: number[]], void>
  'downloads:retry': Spec<[ids: number[]], void>
  'downloads:remove': Spec<[ids: number[]], void>
  'downloads:list': Spec<[state?: DownloadState], DownloadView[]>
  'downloads:state': Spec<[], DownloadQueueState & { folder: string }>
  'downloads:resumeQueue': Spec<[], void>
  'downloads:monthlyBytes': Spec<[], MonthlyBytes>
  'downloads:open': Spec<[id: number], void>
  'downloads:reveal': Spec<[id: number], void>
  'downloads:playbackAddress': Spec<[id: number], string>
  'settings:get': Spec<[], Settings>
  'settings:set': Spec<[patch: SettingsPatch], Settings>
  'settings:pickDownloadFolder': Spec<[], string | null>
  'caches:list': Spec<[], CacheInfo[]>
  'caches:clear': Spec<[file?: string], void>
  'app:info': Spec<[], AppInfo>
  'app:online': Spec<[], boolean>
  'app:openLink': Spec<[link: { kind: LinkKind; value: string }], { address: string; opened: boolean }>
  'app:openLog': Spec<[], void>
  'events:subscribe': Spec<[], SessionSnapshot>
}

/** The arguments of a channel. */
export type ArgsOf<C extends Channel> = ApiTypes[C]['args']
/** What a channel resolves with. */
export type ResultOf<C extends Channel> = ApiTypes[C]['result']

/** What crosses the boundary for every call: a value, or a core error as plain JSON. */
export type Tagged<T> = { ok: true; value: T } | { ok: false; error: SerializedError }

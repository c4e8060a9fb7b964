/**
 * The IPC contract: every channel a window may call, declared once, with the
 * schema of its arguments (their types are inferred from it), the type it
 * resolves with, and where it is answered. Free of Node, so the sandboxed
 * preload bundles it (for the names) and the renderer reads its types; the
 * main process checks every call against the schemas (main-process/dispatch.ts) and
 * the core's façade checks its own arguments with the same schema objects.
 *
 * Where a channel is answered:
 *   query    by the core's host thread at once: from its own read-only
 *            connection, so a long write of the sync never delays it, or from
 *            the session's state it holds (core/host/host.ts);
 *   command  by the core's writer thread: the session, the sync, the
 *            downloads, the settings (core/host/writer.ts);
 *   window   by the main process itself: what only the desktop can do
 *            (main-process/window-handlers.ts).
 * The core answers a channel `domain:verb` with the method `verb` of its
 * service `domain` (`downloads:list` is `downloads.list`): the façade and the
 * session speak the contract's names, so the tables that route a channel are
 * derived (handlersFrom), never written by hand.
 * The window's event stream is not a channel: each transport opens it and
 * then takes the session's snapshot (see src-preload/api.ts).
 */
import * as v from 'valibot'
import {
  artistListQuerySchema, cacheFileSchema, downloadIdSchema, downloadPageSchema, downloadSelectionSchema, downloadStateSchema, enqueueRequestSchema, linkSchema,
  queuePlaceSchema, settingsPatchSchema, syncStartSchema, uploadIdsSchema, usernameSchema, whatsNewLimitSchema, autoDownloadSchema, followOptionsSchema,
} from './arguments'
import type { AccessLevel } from './catalogue'
import type { SerializedError } from './errors'
import type { TierFit } from './tiers'
import type {
  AppInfo, ArtistFilterCounts, ArtistPage, FollowedArtist, ArtistWithTracks, CacheInfo, CatalogueStatus, Download, DownloadActionResult, DownloadEstimate, DownloadPage,
  DownloadSummary, DownloadView, QueueState,
  MonthlyBytes, Settings, SyncReport,
  SyncState, WhatsNew,
} from './types'

export type Where = 'query' | 'command' | 'window'

interface Declaration<TArgs extends v.GenericSchema, TResult, TWhere extends Where> {
  args: TArgs
  where: TWhere
  /** Only a type: what the channel resolves with. */
  result: TResult
}

/** Declares a channel resolving with TResult: `returns<ArtistPage>()(arguments, 'query')`. */
function returns<TResult>() {
  return <TArgs extends v.GenericSchema, TWhere extends Where>(args: TArgs, where: TWhere): Declaration<TArgs, TResult, TWhere> => ({
    args,
    where,
    result: undefined as TResult,
  })
}

const none = v.strictTuple([], 'takes no arguments')

export const CONTRACT = {
  'catalogue:list': returns<ArtistPage>()(v.strictTuple([v.optional(artistListQuerySchema)]), 'query'),
  'catalogue:artist': returns<ArtistWithTracks>()(v.strictTuple([usernameSchema]), 'query'),
  'catalogue:refreshArtist': returns<{ artist: ArtistWithTracks; gone: boolean }>()(v.strictTuple([usernameSchema]), 'command'),
  'catalogue:levels': returns<AccessLevel[]>()(none, 'query'),
  'catalogue:tierFit': returns<TierFit[]>()(v.strictTuple([usernameSchema]), 'query'),
  'catalogue:status': returns<CatalogueStatus & { cacheBytes: number; readOnly: boolean }>()(none, 'query'),
  'catalogue:whatsNew': returns<WhatsNew>()(v.strictTuple([v.optional(whatsNewLimitSchema)]), 'query'),

  // How many artists the list of the query would show narrowed to `only: 'following'` and `only: 'downloaded'` (the filter chips).
  'catalogue:filterCounts': returns<ArtistFilterCounts>()(v.strictTuple([v.optional(artistListQuerySchema)]), 'query'),

  'follows:list': returns<FollowedArtist[]>()(none, 'query'),
  'follows:follow': returns<FollowedArtist>()(v.strictTuple([usernameSchema, v.optional(followOptionsSchema)]), 'command'),
  // False when the artist was not followed.
  'follows:unfollow': returns<boolean>()(v.strictTuple([usernameSchema]), 'command'),
  'follows:setAutoDownload': returns<FollowedArtist>()(v.strictTuple([usernameSchema, autoDownloadSchema]), 'command'),
  // Queues every new track auto-download held back over its limits (What's new's "Download the rest"); folder null when none was.
  'follows:downloadHeldBack': returns<{ downloads: Download[]; folder: string | null }>()(none, 'command'),

  'sync:start': returns<SyncReport>()(v.strictTuple([v.optional(syncStartSchema)]), 'command'),
  'sync:cancel': returns<void>()(none, 'command'),
  'sync:state': returns<SyncState>()(none, 'query'),

  'downloads:enqueue': returns<{ downloads: Download[]; folder: string }>()(v.strictTuple([enqueueRequestSchema]), 'command'),
  'downloads:estimate': returns<DownloadEstimate & { folder: string }>()(v.strictTuple([enqueueRequestSchema]), 'command'),
  // An action on a list applies to the downloads that allow it and says which it skipped and why. The list is
  // ids, or a selection of groups ({ groups, except, ids }: "all" of the queue in a few words) the core resolves.
  'downloads:pause': returns<DownloadActionResult>()(v.strictTuple([downloadSelectionSchema]), 'command'),
  'downloads:pauseAll': returns<DownloadActionResult>()(none, 'command'),
  'downloads:resume': returns<DownloadActionResult>()(v.strictTuple([downloadSelectionSchema]), 'command'),
  'downloads:resumeAll': returns<DownloadActionResult>()(none, 'command'),
  'downloads:cancel': returns<DownloadActionResult>()(v.strictTuple([downloadSelectionSchema]), 'command'),
  'downloads:retry': returns<DownloadActionResult>()(v.strictTuple([downloadSelectionSchema]), 'command'),
  'downloads:redownload': returns<DownloadActionResult>()(v.strictTuple([downloadSelectionSchema]), 'command'),
  'downloads:remove': returns<DownloadActionResult>()(v.strictTuple([downloadSelectionSchema]), 'command'),
  // Queued (or paused) downloads to the top or bottom of the queue, or before another; the others are skipped.
  'downloads:move': returns<DownloadActionResult>()(v.strictTuple([downloadSelectionSchema, queuePlaceSchema]), 'command'),
  // Takes every completed download off the list; the files stay on disk.
  'downloads:clearCompleted': returns<{ removed: number }>()(none, 'command'),
  'downloads:list': returns<DownloadView[]>()(v.strictTuple([downloadStateSchema]), 'query'),
  // A page of one group of the downloads screen, in queue order, and the group's size: what a window reads as it scrolls.
  'downloads:page': returns<DownloadPage>()(v.strictTuple([downloadPageSchema]), 'query'),
  // The queue in figures (each group's files and bytes, the batch the overall progress measures), without its rows.
  'downloads:summary': returns<DownloadSummary>()(none, 'query'),
  // The download of each of these uploads that has one (the newest row): what a screen shows beside its tracks.
  'downloads:ofUploads': returns<DownloadView[]>()(v.strictTuple([uploadIdsSchema]), 'query'),
  'downloads:state': returns<QueueState>()(none, 'query'),
  'downloads:resumeQueue': returns<void>()(none, 'command'),
  'downloads:monthlyBytes': returns<MonthlyBytes>()(none, 'query'),
  'downloads:open': returns<void>()(v.strictTuple([downloadIdSchema]), 'window'),
  'downloads:reveal': returns<void>()(v.strictTuple([downloadIdSchema]), 'window'),
  'downloads:playbackAddress': returns<string>()(v.strictTuple([downloadIdSchema]), 'window'),

  'settings:get': returns<Settings>()(none, 'query'),
  'settings:set': returns<Settings>()(v.strictTuple([settingsPatchSchema]), 'command'),
  'settings:pickDownloadFolder': returns<string | null>()(none, 'window'),

  'caches:list': returns<CacheInfo[]>()(none, 'query'),
  'caches:clear': returns<void>()(v.strictTuple([v.optional(cacheFileSchema)]), 'command'),

  'app:info': returns<AppInfo>()(none, 'window'),
  'app:online': returns<boolean>()(none, 'query'),
  'app:openLink': returns<{ address: string; opened: boolean }>()(v.strictTuple([linkSchema]), 'window'),
  'app:openLog': returns<void>()(none, 'window'),
} as const

export type Contract = typeof CONTRACT
export type Channel = keyof Contract
export const CHANNELS = Object.keys(CONTRACT) as Channel[]

/** The channels answered at `where`. */
export type ChannelAt<W extends Where> = { [C in Channel]: Contract[C]['where'] extends W ? C : never }[Channel]
export const channelsAt = <W extends Where>(where: W): ChannelAt<W>[] => CHANNELS.filter((channel) => CONTRACT[channel].where === where) as ChannelAt<W>[]

/** Trailing arguments that may be undefined may also be left out. */
type OptionalTail<T extends readonly unknown[]> = T extends readonly [...infer Head, infer Last]
  ? undefined extends Last
    ? [...OptionalTail<Head>, Last?]
    : [...Head, Last]
  : []

/** The arguments of a channel as a caller passes them. */
export type ArgsOf<C extends Channel> = OptionalTail<v.InferInput<Contract[C]['args']>>
/** What a channel's handler receives: its arguments after the schema (defaults filled in). */
export type ValidArgsOf<C extends Channel> = v.InferOutput<Contract[C]['args']>
/** What a channel resolves with. */
export type ResultOf<C extends Channel> = Contract[C]['result']

/** A handler for each channel answered at `where`. */
export type HandlersAt<W extends Where> = { [C in ChannelAt<W>]: (...args: ValidArgsOf<C>) => Promise<ResultOf<C>> | ResultOf<C> }

/** The domains of the channels answered at `where`: catalogue, downloads, ... */
export type DomainAt<W extends Where> = ChannelAt<W> extends infer C ? (C extends `${infer D}:${string}` ? D : never) : never

/**
 * The services that answer the channels at `where`, named as the contract names them: for each
 * domain an object with a method per verb (`downloads:list` is `services.downloads.list`).
 */
export type ServicesAt<W extends Where> = {
  [D in DomainAt<W>]: {
    [C in ChannelAt<W> as C extends `${D}:${infer V}` ? V : never]: (...args: ValidArgsOf<C>) => Promise<ResultOf<C>> | ResultOf<C>
  }
}

/**
 * The handler table of the channels at `where`, derived from the services (read anew at every
 * call, so a service that is replaced, as a library is when the service switches, is the one asked).
 */
export function handlersFrom<W extends Where>(where: W, services: () => ServicesAt<W>): HandlersAt<W> {
  const handlers: Record<string, (...args: unknown[]) => unknown> = {}
  for (const channel of channelsAt(where)) {
    const [domain, verb] = channel.split(':') as [string, string]
    handlers[channel] = (...args) => {
      const service = (services() as unknown as Record<string, Record<string, (...values: unknown[]) => unknown>>)[domain]!
      return service[verb]!(...args)
    }
  }
  return handlers as unknown as HandlersAt<W>
}

/** Main sends every event batch on this channel, after the window subscribed. */
export const EVENTS_CHANNEL = 'events'
/** The window opens its event stream through this one (a lifecycle operation of the transport, not a channel of the contract). */
export const SUBSCRIBE_CHANNEL = 'session:subscribe'

/** What crosses the boundary for every call: a value, or a core error as plain JSON. */
export type Tagged<T> = { ok: true; value: T } | { ok: false; error: SerializedError }

/**
 * What crosses between the main process and the core's host, and between the
 * host's two threads (see host.ts for the picture). Every message is plain
 * data (structured-clone), the same over a child process's channel, Electron's
 * utility process port, a worker thread's port or an in-memory pair in tests.
 */
import type { ChannelAt, Tagged } from '../shared/contract'
import type { SerializedError } from '../shared/errors'
import type { SessionEvent, SessionSnapshot } from '../shared/types'

/** A channel the core answers (the window channels main answers itself). */
export type CoreChannel = ChannelAt<'query' | 'command'>

/** What main asks the core for, besides the contract's channels: what its media protocol and its file actions need. */
export type Ask =
  | { what: 'avatar'; address: string }
  | { what: 'downloadedFile'; id: number }
  | { what: 'completedFile'; id: number }

/** What each ask resolves with. */
export interface AskResults {
  avatar: { contentType: string; body: Uint8Array } | undefined
  /** A download's file and the folder it was queued into (media checks it is still inside). */
  downloadedFile: { file: string; root: string; state: string } | undefined
  completedFile: string
}

/** Main → host. Arguments have passed the contract's schemas in main. */
export type HostRequest =
  | { type: 'call'; id: number; channel: CoreChannel; args: unknown[] }
  | { type: 'ask'; id: number; ask: Ask }
  | { type: 'close' }

/** Host → main. */
export type HostMessage =
  /** The session is open: the state to start from. */
  | { type: 'ready'; snapshot: SessionSnapshot }
  /** The session could not be opened (a folder that cannot be used, a cache newer than the app): the host then exits. */
  | { type: 'failed'; error: SerializedError }
  /** The session's state changed: the whole of it (after each burst of events, and before every reply). */
  | { type: 'state'; snapshot: SessionSnapshot }
  | { type: 'event'; event: SessionEvent }
  | { type: 'reply'; id: number; result: Tagged<unknown> }
  /** The writer has begun the command `id` (and every one before it); the state sent before this holds what it did at once. */
  | { type: 'accepted'; id: number }
  /** The session is closed (transfers paused, the cache closed, the demo stopped): the host exits next. */
  | { type: 'closed' }

/** The library the writer has open: what the host's reader opens its own connection on. */
export interface OpenedLibrary {
  dataDir: string
  /** The cache file as the user knows it (caches:list names it). */
  cacheFile: string
  /** The file to read: the cache itself, or the snapshot a read-only data folder is read from. */
  readFile: string
  displayUrl: string
  readOnly: boolean
}

/** Host → writer thread. */
export type WriterRequest = { type: 'call'; id: number; channel: CoreChannel; args: unknown[] } | { type: 'close' }

/** Writer thread → host: what the host passes on to main, and what its reader needs. */
export type WriterMessage =
  | Exclude<HostMessage, { type: 'state' }>
  /** The state, with the downloads that say "downloading" though nothing transfers them (downloads:list marks them). */
  | { type: 'state'; snapshot: SessionSnapshot; interrupted: number[] }
  /** A library opened: at start and after every switch of service. */
  | { type: 'opened'; library: OpenedLibrary }
  /** The service is being switched: queries wait for the next `opened`. */
  | { type: 'switching' }
  /** The switch failed and no library is open: queries fail with this until one opens. */
  | { type: 'unavailable'; error: SerializedError }

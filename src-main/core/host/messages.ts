/**
 * What crosses between the main process and the core's host, and between the
 * host's two threads (see host.ts for the picture). Every message is plain
 * data (structured-clone), the same over a child process's channel, Electron's
 * utility process port, a worker thread's port or an in-memory pair in tests.
 */
import type { ChannelAt, Tagged } from '../shared/contract'
import type { SerializedError } from '../shared/errors'
import type { SessionEvent, SessionSnapshot } from '../shared/types'
import type { Port } from './port'

/** A channel the core answers (the window channels main answers itself). */
export type CoreChannel = ChannelAt<'query' | 'command'>

/**
 * What main asks the core for, besides the contract's channels: the session's state to give a
 * window that subscribes, and what its media protocol and its file actions need.
 */
export type Ask =
  | { what: 'snapshot' }
  | { what: 'avatar'; address: string }
  | { what: 'downloadedFile'; id: number }
  | { what: 'completedFile'; id: number }

/** What each ask resolves with. */
export interface AskResults {
  /** The session's state as the host holds it, with every event it has sent before this answer. */
  snapshot: SessionSnapshot
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

/**
 * Host → main, in order: an event sent before the answer to a `snapshot` ask is in that
 * snapshot, and one sent after it is not (what a window's subscription counts on).
 */
export type HostMessage =
  /** The session is open, with its state to start from. */
  | { type: 'ready'; snapshot: SessionSnapshot }
  /** The session could not be opened (a folder that cannot be used, a cache newer than the app): the host then exits. */
  | { type: 'failed'; error: SerializedError }
  /** What changed in the session, carrying the change (applySessionEvent). */
  | { type: 'event'; event: SessionEvent }
  /** The answer to a call or an ask: the core's error is serialised here, once, and crosses to the window as it is. */
  | { type: 'reply'; id: number; result: Tagged<unknown> }
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
export type WriterRequest =
  | { type: 'call'; id: number; channel: CoreChannel; args: unknown[] }
  /** Avatars the window was given since the last such note (the store lets the least recently shown go first); no answer. */
  | { type: 'avatarsShown'; urls: string[] }
  | { type: 'close' }

/** Writer thread → host: what the host passes on to main, and what its reader needs. */
export type WriterMessage =
  | HostMessage
  /** The downloads that say "downloading" though nothing transfers them (downloads:list marks them), when they change. */
  | { type: 'interrupted'; ids: number[] }
  /** A library opened: at start and after every switch of service. */
  | { type: 'opened'; library: OpenedLibrary }
  /** The service is being switched: queries wait for the next `opened`. */
  | { type: 'switching' }
  /** The switch failed and no library is open: queries fail with this until one opens. */
  | { type: 'unavailable'; error: SerializedError }

/** What main tells the host when it starts it. */
export interface LaunchOptions {
  dataDir: string
  /** The demo catalogue's preferred port on 127.0.0.1 (any free one when taken; 0: any). */
  demoPort: number
  /** The demo catalogue's size, seed and largest file, when not the default (tests start a small one). */
  demo?: { artists?: number; seed?: number; maxFileMb?: number }
  /** Tests only: shorter checks and retries (see web/test-timing.ts); never set by the app. */
  testTiming?: TestTiming | undefined
}

/** How often the session looks at the service, and how soon a request is tried again: plain numbers, as they cross as JSON. */
export interface TestTiming {
  /** The online check (the app: every 30 s). */
  onlineCheckMs: number
  /** The online check while something waits for the service (the app: every 5 s). */
  waitingCheckMs: number
  /** The first retry's delay, doubled each time up to retryMaxDelayMs (the app: 500 ms, up to 30 s). */
  retryBackoffMs: number
  retryMaxDelayMs: number
}

/** A started host: its channel, and how it ends. */
export interface LaunchedHost {
  port: Port<HostMessage, HostRequest>
  /** Resolves when the host has ended, with how (`exit code 1`, `signal SIGKILL`). */
  exited: Promise<string>
  /** Ends it at once. */
  kill(): void
  /** Its process id, when it is a process. */
  pid: number | undefined
  /** The last lines it wrote on stderr, for a message about why it ended. */
  lastWords(): string
}

export type LaunchHost = () => LaunchedHost

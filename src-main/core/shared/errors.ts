/**
 * Every error the core throws: one base class with a stable `name`, a `code`
 * from a closed set and `retryable`, so a failure crosses a process boundary
 * (IPC, the CLI's exit codes) intact and the other side can act on the code.
 * Anything else that escapes (a SQLite or file-system error, a bug) is turned
 * into one of these by `toTuneshelfError` at the façade.
 */

/**
 * The closed set of failure codes, the UI and the CLI switch on these; each with the stable
 * name of its class below, which crosses IPC and the CLI's `--json` (written here once, so a
 * class of one code is one line).
 */
const CLASS_NAMES = {
  not_found: 'NotFoundError',
  rate_limited: 'RateLimitedError',
  network: 'NetworkError',
  server: 'ServerError',
  rejected: 'RejectedError',
  bad_response: 'BadResponseError',
  disk_full: 'DiskFullError',
  insufficient_space: 'InsufficientSpaceError',
  unsafe_path: 'UnsafePathError',
  folder_unusable: 'FolderError',
  read_only: 'ReadOnlyError',
  cancelled: 'CancelledError',
  busy: 'BusyError',
  schema_too_new: 'SchemaTooNewError',
  schema_mismatch: 'SchemaMismatchError',
  corrupt_cache: 'CorruptCacheError',
  not_synced: 'NotSyncedError',
  invalid_argument: 'InvalidArgumentError',
  unsupported: 'UnsupportedError',
  io: 'IoError',
  internal: 'InternalError',
} as const

export type ErrorCode = keyof typeof CLASS_NAMES

/** Every failure code. */
export const ERROR_CODES = Object.keys(CLASS_NAMES) as readonly ErrorCode[]

/** The plain-JSON form of an error, as it crosses IPC or is written by `--json`. */
export interface SerializedError {
  name: string
  code: ErrorCode
  message: string
  retryable: boolean
  /** The argument or member at fault (invalid_argument, bad_response, not_found), when one is. */
  field?: string | undefined
  /** The HTTP status, when a server answered. */
  status?: number | undefined
  /** The server's Retry-After, in milliseconds. */
  retryAfterMs?: number | undefined
}

interface TuneshelfErrorOptions {
  cause?: unknown
  /** Overrides the code's default: whether trying the same again later may succeed. */
  retryable?: boolean
  /** The argument or member at fault, when one is: `perPage`, `uploadIds.2`, `artists[3].artist.num_tracks`. */
  field?: string | undefined
}

/** Codes whose failures may pass by themselves: the same request later can succeed. */
const RETRYABLE_BY_DEFAULT: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['rate_limited', 'network', 'server', 'busy'])

/** The base of every error the core throws. */
export class TuneshelfError extends Error {
  override name = 'TuneshelfError'
  readonly retryable: boolean
  /** The argument or member at fault (invalid_argument, bad_response, not_found), when one is. */
  readonly field: string | undefined

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: TuneshelfErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.retryable = options.retryable ?? RETRYABLE_BY_DEFAULT.has(code)
    this.field = options.field
  }

  toJSON(): SerializedError {
    return serializeError(this)
  }
}

/** A TuneshelfError base for one code, named after it: its subclasses take only a message (and options). */
function withCode(code: ErrorCode) {
  return class extends TuneshelfError {
    override name: string = CLASS_NAMES[code]
    constructor(message: string, options?: TuneshelfErrorOptions) {
      super(code, message, options)
    }
  }
}

/** What a failed request knows besides its message. */
interface RequestDetails {
  /** The URL asked for, as given: it may hold a password, so pass it through redactUrl before showing it. */
  url?: string | undefined
  /** The HTTP status, when the server answered. */
  status?: number | undefined
  /** The server's Retry-After, in milliseconds, if it sent one. */
  retryAfterMs?: number | undefined
}

/** The base for the failures of a request (to the service or a file server), with what the request knows. */
function requestFailure(code: ErrorCode) {
  return class extends withCode(code) {
    readonly url: string | undefined
    readonly status: number | undefined
    readonly retryAfterMs: number | undefined
    constructor(message: string, options: TuneshelfErrorOptions & RequestDetails = {}) {
      super(message, options)
      this.url = options.url
      this.status = options.status
      this.retryAfterMs = options.retryAfterMs
    }
  }
}

/** A request for something that does not exist: an artist, an upload, a download, a 404. `field`: the argument that named it, when one did. */
export class NotFoundError extends requestFailure('not_found') {}

/** The service answered 429 until retries ran out, or asked for a longer wait than the client accepts. */
export class RateLimitedError extends requestFailure('rate_limited') {}

/** The service answered 5xx until retries ran out. */
export class ServerError extends requestFailure('server') {}

/** The service refused the request (a 4xx other than 404 and 429); asking again would not help. */
export class RejectedError extends requestFailure('rejected') {
  /** The response body as text, usually the service's JSON error. */
  readonly body: string | undefined
  constructor(message: string, options: TuneshelfErrorOptions & RequestDetails & { body?: string } = {}) {
    super(message, options)
    this.body = options.body
  }
}

/** The exchange failed below HTTP: refused, reset, dropped mid-body, or timed out. */
export class NetworkError extends requestFailure('network') {
  /** The system or got error code, e.g. ECONNREFUSED, ECONNRESET, ETIMEDOUT. */
  readonly systemCode: string | undefined
  constructor(message: string, options: TuneshelfErrorOptions & RequestDetails & { systemCode?: string | undefined } = {}) {
    super(message, options)
    this.systemCode = options.systemCode
  }
}

/**
 * The answer is unusable: not JSON, the wrong shape, too big, a refused redirect, a file of the wrong size.
 * `field`: the path of the offending member, e.g. `artists[3].artist.num_tracks`, when the shape is wrong.
 */
export class BadResponseError extends requestFailure('bad_response') {}

/** A write failed because the disk is full; what was written before is kept. */
export class DiskFullError extends withCode('disk_full') {}

/** Refused before starting: the files would not fit in the free space (minus the reserve). */
export class InsufficientSpaceError extends withCode('insufficient_space') {}

/** A file would land outside its folder, no safe name is left for it, or it is no type the app may hand to the system. */
export class UnsafePathError extends withCode('unsafe_path') {}

/** A folder the app needs cannot be created or used: a file is in the way, the parent refuses, ... */
export class FolderError extends withCode('folder_unusable') {}

/** The data folder or cache can be read but not written. */
export class ReadOnlyError extends withCode('read_only') {}

/** The user (or the app shutting down) stopped the work; the same in sync and downloads alike. */
export class CancelledError extends withCode('cancelled') {
  constructor(message = 'cancelled', options?: TuneshelfErrorOptions) {
    super(message, options)
  }
}

/** Something else holds what this needs (another sync, a locked database); later it may pass. */
export class BusyError extends withCode('busy') {}

/** The cache was written by a newer Tuneshelf. */
export class SchemaTooNewError extends withCode('schema_too_new') {}

/** A migration applied to the cache differs from this code's migration of the same number. */
export class SchemaMismatchError extends withCode('schema_mismatch') {}

/** The cache file is damaged. */
export class CorruptCacheError extends withCode('corrupt_cache') {}

/** There is nothing to answer from: no service configured, or no sync completed. */
export class NotSyncedError extends withCode('not_synced') {}

/** An argument failed its schema; `field` names it (e.g. `perPage`) when one field is at fault. */
export class InvalidArgumentError extends withCode('invalid_argument') {}

/** What was asked needs something this way of running the app does not have (a native dialog outside Electron). */
export class UnsupportedError extends withCode('unsupported') {}

/** A file-system failure other than a full disk or a read-only folder. */
export class IoError extends withCode('io') {}

/** A failure the core did not expect (a bug): the message says what happened, the cause keeps the stack. */
export class InternalError extends withCode('internal') {}

export function isTuneshelfError(error: unknown): error is TuneshelfError {
  return error instanceof TuneshelfError
}

export function serializeError(error: TuneshelfError): SerializedError {
  const details = error as { status?: unknown; retryAfterMs?: unknown }
  return {
    name: error.name,
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    ...(typeof error.field === 'string' ? { field: error.field } : {}),
    ...(typeof details.status === 'number' ? { status: details.status } : {}),
    ...(typeof details.retryAfterMs === 'number' ? { retryAfterMs: details.retryAfterMs } : {}),
  }
}

/** An error that crossed from the core (IPC, the web bridge): its name and code, and what it knew. */
class TransportedError extends TuneshelfError {
  readonly status: number | undefined
  readonly retryAfterMs: number | undefined
  constructor(json: SerializedError) {
    const code = isErrorCode(json.code) ? json.code : 'internal'
    super(code, String(json.message), { retryable: json.retryable === true, field: typeof json.field === 'string' ? json.field : undefined })
    this.name = String(json.name)
    this.status = typeof json.status === 'number' ? json.status : undefined
    this.retryAfterMs = typeof json.retryAfterMs === 'number' ? json.retryAfterMs : undefined
  }
}

export type { TransportedError }

/** An error rebuilt from its JSON form (the other side of IPC): same name, code, message, retryable and details. */
export function deserializeError(json: SerializedError): TransportedError {
  return new TransportedError(json)
}

function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code)
}

/**
 * The core's code of any thrown or received value: a TuneshelfError's, a serialised one's (a
 * session event's notice), or undefined for anything else (a DOM error, a string). The one way
 * the renderer and the glue ask "what kind of failure", typed against the closed ErrorCode union.
 */
export function errorCode(error: unknown): ErrorCode | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const code = (error as { code?: unknown }).code
  return isErrorCode(code) ? code : undefined
}

/** Whether error is the core's failure of that code: `isError(error, 'cancelled')`. */
export function isError(error: unknown, code: ErrorCode): boolean {
  return errorCode(error) === code
}

/**
 * Any thrown value as a TuneshelfError: core errors pass through; SQLite and
 * file-system errors get the code of their cause and a message that says what
 * the app was doing (`doing`, e.g. "writing the catalogue cache"); an abort is
 * a cancellation; anything else is internal.
 */
export function toTuneshelfError(error: unknown, doing?: string): TuneshelfError {
  if (error instanceof TuneshelfError) return error
  const context = doing === undefined ? '' : `${doing}: `
  if (isAbort(error)) return new CancelledError('cancelled', { cause: error })
  const code = (error as { code?: unknown } | null)?.code
  const detail = error instanceof Error ? error.message : String(error)
  if (typeof code === 'string') {
    if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') {
      return new DiskFullError(`${context}the disk is full (${detail})`, { cause: error })
    }
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      return new BusyError(`${context}the catalogue cache is in use by another process (${detail})`, { cause: error })
    }
    if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
      return new ReadOnlyError(`${context}not allowed to write (${detail})`, { cause: error })
    }
    if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT_VTAB') {
      return new CorruptCacheError(`${context}the catalogue cache is damaged (${detail})`, { cause: error })
    }
    // A socket's errno is a network failure (worth a retry), not a file-system one.
    if (NETWORK_ERRNOS.has(code)) return new NetworkError(`${context}network error: ${detail}`, { systemCode: code, cause: error })
    if (code.startsWith('SQLITE_IOERR') || /^E[A-Z]+$/.test(code)) return new IoError(`${context}${detail}`, { cause: error })
  }
  return new InternalError(`${context}${detail}`, { cause: error })
}

/** The errnos of a connection that failed or broke, as node:net and node:dns report them. */
const NETWORK_ERRNOS: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
])

function isAbort(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError'
}

/** The reason to reject with when a signal aborted: always a CancelledError. */
export function cancelledBy(signal: AbortSignal): CancelledError {
  return signal.reason instanceof CancelledError ? signal.reason : new CancelledError('cancelled', { cause: signal.reason })
}

/** The result of work, with any failure turned into a TuneshelfError (what every façade method promises). */
export function guard<T>(work: () => T): T {
  try {
    return work()
  } catch (error) {
    throw toTuneshelfError(error)
  }
}

/** guard for work that resolves later. */
export async function guardAsync<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw toTuneshelfError(error)
  }
}

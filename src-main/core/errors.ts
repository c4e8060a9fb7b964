/**
 * Every error the core throws: one base class with a stable `name`, a `code`
 * from a closed set and `retryable`, so a failure crosses a process boundary
 * (IPC, the CLI's exit codes) intact and the other side can act on the code.
 * Anything else that escapes (a SQLite or file-system error, a bug) is turned
 * into one of these by `toTuneshelfError` at the façade.
 */

/** The closed set of failure codes; the UI and the CLI switch on these. */
export const ERROR_CODES = [
  'not_found',
  'rate_limited',
  'network',
  'server',
  'rejected',
  'bad_response',
  'disk_full',
  'insufficient_space',
  'unsafe_path',
  'folder_unusable',
  'read_only',
  'cancelled',
  'busy',
  'schema_too_new',
  'schema_mismatch',
  'corrupt_cache',
  'not_synced',
  'invalid_argument',
  'io',
  'internal',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/** The plain-JSON form of an error, as it crosses IPC or is written by `--json`. */
export interface SerializedError {
  name: string
  code: ErrorCode
  message: string
  retryable: boolean
}

interface TuneshelfErrorOptions {
  cause?: unknown
  /** Overrides the code's default: whether trying the same again later may succeed. */
  retryable?: boolean
}

/** Codes whose failures may pass by themselves: the same request later can succeed. */
const RETRYABLE_BY_DEFAULT: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['rate_limited', 'network', 'server', 'busy'])

/** The base of every error the core throws. */
export class TuneshelfError extends Error {
  override name = 'TuneshelfError'
  readonly retryable: boolean

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: TuneshelfErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.retryable = options.retryable ?? RETRYABLE_BY_DEFAULT.has(code)
  }

  toJSON(): SerializedError {
    return serializeError(this)
  }
}

/** A request for something that does not exist: an artist, an upload, a download, a 404. */
export class NotFoundError extends TuneshelfError {
  override name = 'NotFoundError'
  constructor(message: string, options?: TuneshelfErrorOptions & { url?: string }) {
    super('not_found', message, options)
    this.url = options?.url
  }
  readonly url: string | undefined
}

/** The service answered 429 until retries ran out, or asked for a longer wait than the client accepts. */
export class RateLimitedError extends TuneshelfError {
  override name = 'RateLimitedError'
  readonly url: string | undefined
  /** The last Retry-After the service sent, in milliseconds, if any. */
  readonly retryAfterMs: number | undefined
  constructor(message: string, options?: TuneshelfErrorOptions & { url?: string; retryAfterMs?: number | undefined }) {
    super('rate_limited', message, options)
    this.url = options?.url
    this.retryAfterMs = options?.retryAfterMs
  }
}

/** The service answered 5xx until retries ran out. */
export class ServerError extends TuneshelfError {
  override name = 'ServerError'
  readonly url: string | undefined
  readonly status: number | undefined
  readonly retryAfterMs: number | undefined
  constructor(message: string, options?: TuneshelfErrorOptions & { url?: string; status?: number; retryAfterMs?: number | undefined }) {
    super('server', message, options)
    this.url = options?.url
    this.status = options?.status
    this.retryAfterMs = options?.retryAfterMs
  }
}

/** The service refused the request (a 4xx other than 404 and 429); asking again would not help. */
export class RejectedError extends TuneshelfError {
  override name = 'RejectedError'
  readonly url: string | undefined
  readonly status: number | undefined
  /** The response body as text, usually the service's JSON error. */
  readonly body: string | undefined
  constructor(message: string, options?: TuneshelfErrorOptions & { url?: string; status?: number; body?: string }) {
    super('rejected', message, options)
    this.url = options?.url
    this.status = options?.status
    this.body = options?.body
  }
}

/** The exchange failed below HTTP: refused, reset, dropped mid-body, or timed out. */
export class NetworkError extends TuneshelfError {
  override name = 'NetworkError'
  readonly url: string | undefined
  /** The system or got error code, e.g. ECONNREFUSED, ECONNRESET, ETIMEDOUT. */
  readonly systemCode: string | undefined
  constructor(message: string, options?: TuneshelfErrorOptions & { url?: string; systemCode?: string | undefined }) {
    super('network', message, options)
    this.url = options?.url
    this.systemCode = options?.systemCode
  }
}

/** The answer is unusable: not JSON, the wrong shape, too big, a refused redirect, a file of the wrong size. */
export class BadResponseError extends TuneshelfError {
  override name = 'BadResponseError'
  readonly url: string | undefined
  /** The path of the offending member, e.g. `artists[3].artist.num_tracks`, when the shape is wrong. */
  readonly field: string | undefined
  constructor(message: string, options?: TuneshelfErrorOptions & { url?: string; field?: string | undefined }) {
    super('bad_response', message, options)
    this.url = options?.url
    this.field = options?.field
  }
}

/** A write failed because the disk is full; what was written before is kept. */
export class DiskFullError extends TuneshelfError {
  override name = 'DiskFullError'
  constructor(message: string, options?: TuneshelfErrorOptions) {
    super('disk_full', message, options)
  }
}

/** Refused before starting: the files would not fit in the free space (minus the reserve). */
export class InsufficientSpaceError extends TuneshelfError {
  override name = 'InsufficientSpaceError'
  constructor(message: string, options?: TuneshelfErrorOptions) {
    super('insufficient_space', message, options)
  }
}

/** A file would land outside its folder, or no safe name is left for it. */
export class UnsafePathError extends TuneshelfError {
  override name = 'UnsafePathError'
  constructor(message: string, options?: TuneshelfErrorOptions) {
    super('unsafe_path', message, options)
  }
}

/** A folder the app needs cannot be created or used: a file is in the way, the parent refuses, ... */
export class FolderError extends TuneshelfError {
  override name = 'FolderError'
  constructor(message: string, options?: TuneshelfErrorOptions) {
    super('folder_unusable', message, options)
  }
}

/** The data folder or cache can be read but not written. */
export class ReadOnlyError extends TuneshelfError {
  override name = 'ReadOnlyError'
  constructor(message: string, options?: TuneshelfErrorOptions) {
    super('read_only', message, options)
  }
}

/** The user (or the app shutting down) stopped the work; the same in sync and downloads alike. */
export class CancelledError extends TuneshelfError {
  override name = 'CancelledError'
  constructor(message = 'cancelled', options?: TuneshelfErrorOptions) {
    super('cancelled', message, options)
  }
}

/** Something else holds what this needs (another sync, a locked database); later it may pass. */
export class BusyError extends TuneshelfError {
  override name = 'BusyError'
  constructor(message: string, options?: TuneshelfErrorOptions) {
    super('busy', message, options)
  }
}

/** The cache was written by a newer Tuneshelf. */
export class SchemaTooNewError extends TuneshelfError {
  override name = 'SchemaTooNewError'
  constructor(message: string, options?: TuneshelfErrorOptions) {
    super('schema_too_new', message, options)
  }
}

/** A migration applied to the cache differs from this code's migration of the same number. */
export class SchemaMismatchError extends TuneshelfError {
  override name = 'SchemaMismatchError'
  constructor(message: string, options?: TuneshelfErrorOptions) {
    super('schema_mismatch', message, options)
  }
}

/** The cache file is damaged. */
export class CorruptCacheError extends TuneshelfError {
  override name = 'CorruptCacheError'
  constructor(message: string, options?: TuneshelfErrorOptions) {
    super('corrupt_cache', message, options)
  }
}

/** There is nothing to answer from: no service configured, or no sync completed. */
export class NotSyncedError extends TuneshelfError {
  override name = 'NotSyncedError'
  constructor(message: string, options?: TuneshelfErrorOptions) {
    super('not_synced', message, options)
  }
}

/** An argument failed its schema; `field` names it (e.g. `perPage`) when one field is at fault. */
export class InvalidArgumentError extends TuneshelfError {
  override name = 'InvalidArgumentError'
  readonly field: string | undefined
  constructor(message: string, options?: TuneshelfErrorOptions & { field?: string | undefined }) {
    super('invalid_argument', message, options)
    this.field = options?.field
  }
}

/** A file-system failure other than a full disk or a read-only folder. */
export class IoError extends TuneshelfError {
  override name = 'IoError'
  constructor(message: string, options?: TuneshelfErrorOptions) {
    super('io', message, options)
  }
}

/** A failure the core did not expect (a bug): the message says what happened, the cause keeps the stack. */
export class InternalError extends TuneshelfError {
  override name = 'InternalError'
  constructor(message: string, options?: TuneshelfErrorOptions) {
    super('internal', message, options)
  }
}

export function isTuneshelfError(error: unknown): error is TuneshelfError {
  return error instanceof TuneshelfError
}

export function serializeError(error: TuneshelfError): SerializedError {
  return { name: error.name, code: error.code, message: error.message, retryable: error.retryable }
}

/** An error rebuilt from its JSON form (the other side of IPC): same name, code, message and retryable. */
export function deserializeError(json: SerializedError): TuneshelfError {
  const code = (ERROR_CODES as readonly string[]).includes(json.code) ? json.code : 'internal'
  const error = new TuneshelfError(code, String(json.message), { retryable: json.retryable === true })
  error.name = String(json.name)
  return error
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

/**
 * One file transfer: streamed with got into `<target>.part`, resumed with
 * Range and If-Range, retried on transient errors from the bytes already on
 * disk, hashed (SHA-256) while streaming, verified against the expected size,
 * flushed to disk and renamed to its final name. A server that cannot be
 * reached at all is retried briefly only: the queue then waits for the network
 * (isUnreachable), rather than backing off for half a minute and failing.
 */
import { createHash, type Hash } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import type { PlainResponse } from 'got'
import { createHttp, header, httpError, type Http } from '../api/http'
import { statusError } from '../api/status'
import { backoffDelay, parseRetryAfter, sleep } from '../api/retry'
import { checkWritePlace } from '../files/contained-path'
import { checkHttpAddress, redactUrl } from '../shared/urls'
import {
  BadResponseError, DiskFullError, NetworkError, RateLimitedError, ServerError, cancelledBy,
  isTuneshelfError, toTuneshelfError, type TuneshelfError,
} from '../shared/errors'
import { AttemptBudget, gaveUp } from './attempts'
import { partPathOf } from './file-names'
import { openNoFollow, openPart, receive, WriteFailure } from './part-file'
import type { SpeedLimiter } from './speed-limit'

export interface TransferOptions {
  /** The file's address, without user-info. */
  url: string
  /** Basic credentials for url (got drops them on a redirect to another host); never part of url, so no message can show them. */
  credentials?: { username: string; password: string } | undefined
  /** Absolute final path; the partial file is `<target>.part`. */
  target: string
  /**
   * The download folder the file belongs to: the partial file is opened, and renamed to target, only
   * while the real path of their folder lies in this folder's real path (never through a link out).
   */
  folder: string
  /** The upload's size: the file is complete at exactly this many bytes. */
  expectedBytes: number
  /** The ETag or Last-Modified the partial file was fetched under, if any. */
  validator: string | null
  signal: AbortSignal
  /** Bytes on disk so far, after every write. */
  onProgress?: (bytesDone: number) => void
  /** A new validator, to persist before bytes are written under it. */
  onValidator?: (validator: string | null) => void
  /** The app's one got set-up (user agent, timeouts, redirects); a default one when absent. */
  http?: Http
  /** The speed limit shared by every transfer of the queue; none when absent. */
  limiter?: SpeedLimiter | undefined
  /** Attempts in a row without progress (bytes beyond the furthest the partial file reached) before giving up (default 6). */
  retries?: number
  /** Of those, how many may fail to reach the server at all before the transfer gives up with that error (default 2). */
  unreachableRetries?: number
  /** Attempts in all before giving up (default 100). */
  maxAttempts?: number
  backoffMs?: number
  maxDelayMs?: number
}

export interface TransferResult {
  /** The final path (the target). */
  path: string
  bytes: number
  sha256: string
}

/** Downloads url to target, resuming any partial file; rejects with a TuneshelfError (CancelledError when aborted). */
export async function transfer(options: TransferOptions): Promise<TransferResult> {
  // Only http and https, before any request; redirects are held to the same by the Http.
  checkHttpAddress(options.url)
  const http = options.http ?? createHttp()
  const part = partPathOf(options.target)
  let validator = options.validator
  // The hash covers the bytes of the partial file; it is carried across retries so the file is read once.
  let hashed: { hash: Hash; bytes: number } | undefined
  const budget = new AttemptBudget(await sizeOf(part), options.retries ?? 6, options.maxAttempts ?? 100)
  for (;;) {
    if (options.signal.aborted) throw cancelledBy(options.signal)
    const onDisk = await sizeOf(part)
    if (onDisk > options.expectedBytes || (onDisk > 0 && validator === null)) {
      // Longer than the file, or fetched under an unknown version: start over.
      await fsp.rm(part, { force: true })
      hashed = undefined
      continue
    }
    if (!hashed || hashed.bytes !== onDisk) hashed = await hashFile(part, onDisk)
    budget.take()
    try {
      const outcome = await attempt(options, http, part, onDisk, validator, hashed, (next) => {
        validator = next
        options.onValidator?.(next)
      })
      if (outcome === 'restart') {
        if (budget.exhausted) throw gaveUp(options.url, budget.attempts, 'it answered 416, range not satisfiable')
        hashed = undefined
        continue
      }
      return await finish(part, options, hashed.hash.digest('hex'), outcome === 'flushed')
    } catch (error) {
      if (options.signal.aborted) throw cancelledBy(options.signal)
      const failure = toTuneshelfError(error, `downloading ${redactUrl(options.url)}`)
      if (!failure.retryable) throw failure
      const streak = budget.failed(await sizeOf(part))
      if (streak === undefined) throw failure
      if (isUnreachable(failure) && streak > (options.unreachableRetries ?? 2)) throw failure
      if (budget.exhausted) throw gaveUp(options.url, budget.attempts, failure.message)
      const delay =
        retryAfterOf(failure) ??
        backoffDelay(streak, { backoffMs: options.backoffMs ?? 500, maxDelayMs: options.maxDelayMs ?? 30_000 })
      await sleep(delay, options.signal)
    }
  }
}

/**
 * One request: 'flushed' when it wrote the rest of the file and flushed it to disk,
 * 'done' when the partial file already held the whole file, 'restart' when it must
 * be fetched from zero; throws a download error otherwise.
 */
async function attempt(
  options: TransferOptions,
  http: Http,
  part: string,
  onDisk: number,
  validator: string | null,
  hashed: { hash: Hash; bytes: number },
  setValidator: (validator: string | null) => void,
): Promise<'flushed' | 'done' | 'restart'> {
  const url = options.url
  const shown = redactUrl(url)
  const headers: Record<string, string> = {}
  if (onDisk > 0 && validator !== null) {
    headers.range = `bytes=${onDisk}-`
    headers['if-range'] = validator
  }
  const request = http.got.stream(url, {
    headers,
    ...options.credentials,
    decompress: false, // the bytes on disk must be the file's own bytes, as counted by Range
    signal: options.signal,
  })
  const response = await new Promise<PlainResponse>((resolve, reject) => {
    request.once('response', resolve)
    request.once('error', reject)
  }).catch((error: unknown) => {
    throw asTransferError(options, http, error)
  })

  const status = response.statusCode
  if (status >= 300 && status < 400) {
    request.destroy()
    throw new BadResponseError(
      `${shown} redirects to ${redactUrl(String(response.headers.location ?? 'nowhere'))}, which is not an http or https address`,
      { url },
    )
  }
  if (status === 416) {
    request.destroy()
    const total = /^bytes \*\/(\d+)$/.exec(String(response.headers['content-range'] ?? ''))
    if (total && Number(total[1]) === onDisk && onDisk === options.expectedBytes) return 'done'
    await fsp.rm(part, { force: true })
    return 'restart'
  }
  if (status !== 200 && status !== 206) {
    request.destroy()
    // The one table of statuses (api/status.ts), as the catalogue client reads them.
    const retryAfterMs = status === 429 || status >= 500 ? parseRetryAfter(header(response.headers, 'retry-after')) : undefined
    throw statusError(status, { url, retryAfterMs }, (summary, code) =>
      code === 'not_found' ? `${shown} answered ${status}: the file is not on the server` : `${shown} answered ${status} (${summary})`,
    )
  }

  let start = 0
  if (status === 206) {
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(String(response.headers['content-range'] ?? ''))
    if (!range || Number(range[1]) !== onDisk) {
      request.destroy()
      throw new BadResponseError(`${shown} answered a range other than the one asked for`, { url, retryable: true })
    }
    if (range[3] !== '*' && Number(range[3]) !== options.expectedBytes) {
      request.destroy()
      throw new BadResponseError(`${shown} is ${range[3]} bytes, not the ${options.expectedBytes} the catalogue gives`, { url })
    }
    start = onDisk
  } else {
    // A whole file: the server ignored the range, or the file changed since the part was fetched.
    const length = header(response.headers, 'content-length')
    if (length !== undefined && Number(length) !== options.expectedBytes) {
      request.destroy()
      throw new BadResponseError(`${shown} is ${length} bytes, not the ${options.expectedBytes} the catalogue gives`, { url })
    }
    hashed.hash = createHash('sha256')
    hashed.bytes = 0
  }
  const next = strongValidator(response)
  if (status === 200 || next !== validator) setValidator(next)

  // Bytes are counted and reported only once they are written, so progress always
  // describes what is on disk. Each chunk is hashed as it arrives, while it is still in
  // the processor's cache, and written with the others that came during the write
  // before (the hash on this thread, the write on libuv's pool); should a write fail,
  // the hash is marked stale and rebuilt from the file on the next attempt.
  //
  // The body is read at once, in the same tick as the response, while the file opens:
  // bytes left unread in the response are lost when the connection drops (the HTTP
  // client discards them), so they must not wait there for the file.
  const opening = openPart(part, start === 0 ? 'w' : 'r+', options.folder)
  // Handled from the start: a failed open surfaces through the first write, or below.
  opening.catch(() => undefined)
  const { file, done } = receive(request, part, opening, start, {
    expectedBytes: options.expectedBytes,
    hashed,
    onProgress: options.onProgress,
    limiter: options.limiter,
    tooMuch: () => new BadResponseError(`${shown} sent more than the ${options.expectedBytes} bytes the catalogue gives`, { url }),
  })
  let written = start
  let flushed = false
  try {
    written = await done
    // An empty body writes nothing, yet its (empty) file must exist.
    const handle = await opening.catch((error: unknown) => {
      throw new WriteFailure(error)
    })
    if (written === options.expectedBytes) {
      // Complete: flushed to disk through the handle that wrote it, before it is closed.
      await file.settled()
      await handle.sync().catch((error: unknown) => {
        throw new WriteFailure(error)
      })
      flushed = true
    }
  } catch (error) {
    if (options.signal.aborted) throw cancelledBy(options.signal)
    // The file's failures are not the network's: no retry unless they say so.
    if (error instanceof WriteFailure) throw writeError(part, error.cause)
    throw asTransferError(options, http, error)
  } finally {
    await file.settled()
    await opening.then(
      (handle) => handle.close(),
      () => undefined,
    )
  }
  if (written !== options.expectedBytes) {
    // The connection ended early without an error (a server that closed cleanly): resume.
    throw new NetworkError(`${shown} ended after ${written} of ${options.expectedBytes} bytes`, { url })
  }
  return flushed ? 'flushed' : 'done'
}

/** A failure to write the partial file as a core error: a full disk says so. */
function writeError(part: string, error: unknown): TuneshelfError {
  if ((error as NodeJS.ErrnoException | null)?.code === 'ENOSPC') return new DiskFullError(`the disk holding ${part} is full`, { cause: error })
  return toTuneshelfError(error, `writing ${part}`)
}

/**
 * Checks the size, flushes to disk (unless the attempt that wrote the file just
 * did), and renames the partial file to its final name atomically, once the
 * folder of both is found to lie in the download folder still, and neither is a link.
 */
async function finish(part: string, options: TransferOptions, sha256: string, flushed: boolean): Promise<TransferResult> {
  // A file the attempt wrote to its end was counted byte by byte as it was written; one found complete is measured.
  const bytes = flushed ? options.expectedBytes : await sizeOf(part)
  if (bytes !== options.expectedBytes) {
    throw new BadResponseError(`${part} holds ${bytes} bytes, not ${options.expectedBytes}`, { retryable: true })
  }
  if (!flushed) {
    const handle = await openNoFollow(part, fs.constants.O_RDWR)
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  }
  // A folder on the way may have been swapped for a link that leads out while the file was
  // written: the rename would put the file in place there.
  await checkWritePlace(options.folder, part, 'the download folder')
  await checkWritePlace(options.folder, options.target, 'the download folder')
  // The folder is not synced after the rename: should a crash undo it, the complete
  // partial file is found on the next start (the server answers 416) and renamed then.
  await fsp.rename(part, options.target)
  return { path: options.target, bytes, sha256 }
}

async function hashFile(file: string, bytes: number): Promise<{ hash: Hash; bytes: number }> {
  const hash = createHash('sha256')
  if (bytes > 0) {
    const stream = fs.createReadStream(file, { start: 0, end: bytes - 1 })
    for await (const chunk of stream) hash.update(chunk as Buffer)
  }
  return { hash, bytes }
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await fsp.stat(file)).size
  } catch {
    return 0
  }
}

/** A validator If-Range may carry: a strong ETag, else Last-Modified. */
function strongValidator(response: PlainResponse): string | null {
  const etag = header(response.headers, 'etag')
  if (etag && !etag.startsWith('W/')) return etag
  return header(response.headers, 'last-modified') ?? null
}

/** The errnos of a server that could not be reached at all (refused, unknown, no route): not a transfer cut short. */
const UNREACHABLE: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN'])

/** Whether a transfer failed because its server could not be reached: the download waits for the network rather than failing. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof NetworkError && error.systemCode !== undefined && UNREACHABLE.has(error.systemCode)
}

function retryAfterOf(error: TuneshelfError): number | undefined {
  return error instanceof RateLimitedError || error instanceof ServerError ? error.retryAfterMs : undefined
}

function asTransferError(options: TransferOptions, http: Http, error: unknown): TuneshelfError {
  if (options.signal.aborted) return cancelledBy(options.signal)
  if (isTuneshelfError(error)) return error
  if ((error as NodeJS.ErrnoException).code === 'ENOSPC') return new DiskFullError('the disk is full', { cause: error })
  if (error instanceof Error) return httpError(http, options.url, error)
  return toTuneshelfError(error, `downloading ${redactUrl(options.url)}`)
}

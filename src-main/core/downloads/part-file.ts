/**
 * The partial file of a transfer (`<target>.part`): the response body streamed
 * into it, every byte that reached this process written before any error is
 * thrown, the hash kept as the bytes come, and a failure of the file side told
 * apart from one of the network (WriteFailure). transfer.ts makes the requests.
 */
import type { Hash } from 'node:crypto'
import fs from 'node:fs'
import fsp, { type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { checkWritePlace } from '../files/contained-path'
import { IoError, UnsafePathError } from '../shared/errors'
import type { SpeedLimiter } from './speed-limit'

/** Bytes written between flushes to disk while downloading. */
const FLUSH_EVERY = 32 * 1024 * 1024
/** The hash holds bytes whose write has not (yet) succeeded: rebuild it from the file. */
const STALE = -1

/**
 * The partial file's writes: one at a time, each at the end of the one before,
 * taking every chunk that came while the one before was in flight (one system
 * call for many chunks). A write may store fewer bytes than it was given (a disk
 * that fills up): what it stored is counted, and the rest is written after it,
 * never beyond a gap. As the file grows it is flushed to disk in the background
 * every `flushEvery` bytes, so the flush that makes it durable has little left.
 */
class PartWriter {
  /** Bytes in the file (from its start). */
  written: number
  /** Bytes queued and not yet handed to a write. */
  queuedBytes = 0
  /** The first failure of the file side; nothing is queued after it. */
  failure: { error: unknown } | undefined
  private readonly queue: Buffer[] = []
  private busy = false
  private writing: Promise<void> = Promise.resolve()
  private flushedAt: number
  private flushing: Promise<void> | undefined

  constructor(
    private readonly part: string,
    private readonly opening: Promise<FileHandle>,
    start: number,
    private readonly flushEvery: number,
    private readonly events: {
      /** After each write, with the bytes now in the file; a throw fails the file. */
      written: (bytes: number) => void
      /** The queue was handed to a write: there is room for more. */
      room: () => void
      /** The first failure. */
      failed: () => void
    },
  ) {
    this.written = start
    this.flushedAt = start
  }

  /** Queues chunk after the bytes already queued; a write starts at once unless one is in flight (the next takes what came meanwhile). */
  push(chunk: Buffer): void {
    if (this.failure) return
    this.queue.push(chunk)
    this.queuedBytes += chunk.length
    if (this.busy) return
    this.busy = true
    this.writing = this.drain()
  }

  fail(error: unknown): void {
    if (this.failure) return
    this.failure = { error }
    this.queue.length = 0
    this.queuedBytes = 0
    this.events.failed()
  }

  /** Resolves once every queued byte is written (or the file failed) and no flush runs. */
  async settled(): Promise<void> {
    while (this.busy || this.flushing) await (this.busy ? this.writing : this.flushing)
  }

  private async drain(): Promise<void> {
    try {
      const handle = await this.opening
      while (this.queue.length > 0) {
        let batch = this.queue.splice(0)
        this.queuedBytes = 0
        this.events.room()
        while (batch.length > 0) {
          const { bytesWritten } = await handle.writev(batch, this.written)
          if (bytesWritten === 0) throw new IoError(`writing ${this.part} stored nothing`)
          this.written += bytesWritten
          batch = withoutFirst(batch, bytesWritten)
          this.events.written(this.written)
        }
        // A failed flush on the way is not the last word: the flush that makes the
        // file durable (at its end, or in a later attempt) reports any that persists.
        if (!this.flushing && this.written - this.flushedAt >= this.flushEvery) {
          this.flushedAt = this.written
          this.flushing = handle
            .datasync()
            .catch(() => undefined)
            .finally(() => (this.flushing = undefined))
        }
      }
    } catch (error) {
      this.fail(error)
    } finally {
      // In the same step as the loop's last look at the queue: a chunk pushed after it starts a new drain.
      this.busy = false
    }
  }
}

/** Queued bytes beyond which the body is paused until a write takes them. */
const QUEUE_LIMIT = 1024 * 1024

/**
 * Streams body into file and resolves with the bytes then in the file. Should the
 * body fail (a dropped connection, an abort), what it delivered is still written
 * before the body's error is thrown: every byte that reached this process is kept.
 * Should the file fail (a full disk, too many bytes, a progress listener that
 * throws), the body is stopped and a WriteFailure thrown.
 */
export function receive(
  body: Readable,
  part: string,
  opening: Promise<FileHandle>,
  start: number,
  options: {
    expectedBytes: number
    hashed: { hash: Hash; bytes: number }
    onProgress: ((bytesDone: number) => void) | undefined
    tooMuch: () => Error
    /** The queue's speed limit, shared by every transfer (speed-limit.ts). */
    limiter?: SpeedLimiter | undefined
  },
): { file: PartWriter; done: Promise<number> } {
  const { hashed, expectedBytes, onProgress, limiter } = options
  let accepted = start
  /** Paused for the file: too many bytes wait for a write. */
  let paused = false
  /** Paused for the speed limit: the cancel of the wait, while it lasts. */
  let throttled: (() => void) | undefined
  // The body flows again only once neither the file nor the speed limit holds it back.
  const resumeIfFree = (): void => {
    if (!paused && !throttled && !file.failure) body.resume()
  }
  const throttle = (ms: number): void => {
    if (throttled || ms <= 0) return
    body.pause()
    throttled = limiter!.sleep(ms, () => {
      throttled = undefined
      throttle(limiter!.delay())
      resumeIfFree()
    })
  }
  const file = new PartWriter(part, opening, start, FLUSH_EVERY, {
    written: (bytes) => {
      onProgress?.(bytes)
      // The hash describes the file again once every byte it covers is written.
      if (bytes === accepted) hashed.bytes = bytes
    },
    room: () => {
      if (!paused) return
      paused = false
      resumeIfFree()
    },
    failed: () => body.destroy(),
  })
  const onData = (chunk: Buffer): void => {
    if (file.failure) return
    if (accepted + chunk.length > expectedBytes) {
      file.fail(options.tooMuch())
      return
    }
    hashed.hash.update(chunk)
    hashed.bytes = STALE
    accepted += chunk.length
    file.push(chunk)
    if (!paused && file.queuedBytes >= QUEUE_LIMIT) {
      paused = true
      body.pause()
    }
    if (limiter) throttle(limiter.take(chunk.length))
  }
  body.on('data', onData)
  const done = finished(body, { writable: false }).finally(() => throttled?.()).then(
    async () => {
      await file.settled()
      if (file.failure) throw new WriteFailure(file.failure.error)
      return file.written
    },
    async (error: unknown) => {
      body.off('data', onData)
      await file.settled()
      throw file.failure ? new WriteFailure(file.failure.error) : error
    },
  )
  return { file, done }
}

/** A failure of the partial file (opening or writing it, or whoever hears of its progress), not of the download. */
export class WriteFailure extends Error {
  constructor(cause: unknown) {
    super('writing the partial file failed', { cause })
  }
}

/**
 * Opens the partial file, once its folder is found to lie in the download folder (`folder`) for real:
 * the download was planned there, but a folder on the way may be a link that leads out by now. A new
 * file's folder is made only when it is missing (most downloads go to a folder that exists).
 */
export async function openPart(part: string, flags: 'w' | 'r+', folder: string): Promise<FileHandle> {
  try {
    await checkWritePlace(folder, part, 'the download folder')
  } catch (error) {
    if (flags !== 'w' || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    await fsp.mkdir(path.dirname(part), { recursive: true })
    await checkWritePlace(folder, part, 'the download folder')
  }
  return openNoFollow(part, flags === 'w' ? fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC : fs.constants.O_RDWR)
}

/** Where the system has it (not Windows): opening a link fails rather than following it. */
const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0

/** Opens a partial file, refusing a link swapped in since it was checked (UnsafePathError). */
export async function openNoFollow(part: string, flags: number): Promise<FileHandle> {
  try {
    return await fsp.open(part, flags | NO_FOLLOW, 0o666)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error
    throw new UnsafePathError(`${part} is a link; refused, so nothing is written where it leads`, { cause: error })
  }
}

/** buffers without their first `bytes` bytes. */
function withoutFirst(buffers: Buffer[], bytes: number): Buffer[] {
  let skip = bytes
  const rest: Buffer[] = []
  for (const buffer of buffers) {
    if (skip >= buffer.length) {
      skip -= buffer.length
      continue
    }
    rest.push(skip > 0 ? buffer.subarray(skip) : buffer)
    skip = 0
  }
  return rest
}

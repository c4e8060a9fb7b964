import { createHash } from 'node:crypto'
import fs from 'node:fs'
import fsp, { type FileHandle } from 'node:fs/promises'
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, vi } from 'vitest'
import { createHttp } from '../../../../src-main/core/api/http'
import type { TrackRecord } from '../../../../src-main/demo/catalogue'
import type { RunningCatalogueService } from '../../../../src-main/demo/index'
import { BadResponseError, CancelledError, DiskFullError, NetworkError, NotFoundError, ServerError } from '../../../../src-main/core/shared/errors'
import { isUnreachable, transfer, type TransferOptions } from '../../../../src-main/core/downloads/transfer'
import { catalogueTest, smallDiskFixture, type TempDir } from '../../support/fixtures'
import { hotlink, sourceSha256 } from './source'

const test = catalogueTest({ artists: 60, seed: 8, maxFileMb: 6 }).extend('smallDisk', smallDiskFixture)
test.afterEach(({ demo }) => {
  demo.faults.clear()
  vi.restoreAllMocks()
})

function tracksOf(demo: RunningCatalogueService): TrackRecord[] {
  return demo.catalogue.artists.flatMap((artist) => demo.catalogue.tracksOf(artist))
}

const bigTrack = (demo: RunningCatalogueService): TrackRecord => tracksOf(demo).find((t) => t.bytes > 2_000_000)!

/** The download folder of every transfer here: each file is in a temporary folder of its own, all below it. */
const TEMP = fs.realpathSync(os.tmpdir())

/** A transfer of track into a fresh folder, with quick retries. */
function options(demo: RunningCatalogueService, tempDir: TempDir, track: TrackRecord, extra: Partial<TransferOptions> = {}): TransferOptions {
  return {
    url: hotlink(demo, track),
    target: path.join(tempDir(), `${track.uploadId}.${track.ext}`),
    folder: TEMP,
    expectedBytes: track.bytes,
    validator: null,
    signal: new AbortController().signal,
    backoffMs: 5,
    maxDelayMs: 20,
    ...extra,
  }
}

function sha256File(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex')
}

/** The first `length` bytes of the demo's file, as the service serves them. */
async function sourcePrefix(url: string, length: number): Promise<Buffer> {
  return Buffer.from(await (await fetch(url, { headers: { Range: `bytes=0-${length - 1}` } })).arrayBuffer())
}

/** A loopback server answering every request with answer(socket); closed at the end of the test. */
async function rawServer(onCleanup: (fn: () => Promise<void>) => void, answer: (socket: net.Socket) => void): Promise<string> {
  const server = net.createServer((socket) => socket.once('data', () => answer(socket)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onCleanup(() => new Promise((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/file`
}

/** The prototype of the FileHandles fs/promises opens, to watch what transfers do with their files. */
async function fileHandlePrototype(folder: string): Promise<FileHandle> {
  const handle = await fsp.open(path.join(folder, 'probe'), 'w')
  await handle.close()
  return Object.getPrototypeOf(handle) as FileHandle
}

/** Calls of method on every FileHandle, in order (the handle and what it was given), until the test ends. */
function watchHandles(
  prototype: FileHandle,
  method: 'writev' | 'sync',
  record: (handle: FileHandle, args: unknown[]) => void,
  delayMs = 0,
): void {
  const methods = prototype as unknown as Record<typeof method, (this: FileHandle, ...args: unknown[]) => Promise<unknown>>
  const original = methods[method]
  vi.spyOn(methods, method).mockImplementation(async function (this: FileHandle, ...args: unknown[]) {
    record(this, args)
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
    return original.apply(this, args)
  })
}

describe('a transfer', () => {
  test('downloads the exact bytes, hashes them while streaming, and leaves no partial file', async ({ demo, tempDir }) => {
    const track = bigTrack(demo)
    const request = options(demo, tempDir, track)
    const result = await transfer(request)
    expect(result.bytes).toBe(track.bytes)
    expect(result.sha256).toBe(sourceSha256(demo, track.uploadId))
    expect(sha256File(request.target)).toBe(result.sha256)
    expect(fs.existsSync(`${request.target}.part`)).toBe(false)
  })

  test('is complete only once its file is flushed to disk, by the handle that wrote it, and renamed into place', async ({ demo, tempDir }) => {
    const track = bigTrack(demo)
    const request = options(demo, tempDir, track)
    const prototype = await fileHandlePrototype(tempDir())
    const events: string[] = []
    // Handles by identity (a descriptor number is reused once closed).
    const handles: FileHandle[] = []
    const nameOf = (handle: FileHandle): string => String(handles.includes(handle) ? handles.indexOf(handle) : handles.push(handle) - 1)
    let writer: string | undefined
    watchHandles(prototype, 'writev', (handle) => {
      writer ??= nameOf(handle)
      events.push(`write ${nameOf(handle)}`)
    })
    watchHandles(prototype, 'sync', (handle) => events.push(`sync ${nameOf(handle)}`))
    const rename = fsp.rename.bind(fsp)
    vi.spyOn(fsp, 'rename').mockImplementation(async (from, to) => {
      events.push(`rename ${path.basename(String(from))}`)
      // The bytes renamed are the whole file, flushed before.
      expect(fs.statSync(from).size).toBe(track.bytes)
      await rename(from, to)
    })
    const result = await transfer(request)
    events.push('complete')
    expect(result.sha256).toBe(sourceSha256(demo, track.uploadId))
    expect(writer).toBeDefined()
    const last = (event: string): number => events.lastIndexOf(event)
    expect(last(`sync ${writer}`)).toBeGreaterThan(last(`write ${writer}`))
    expect(last(`rename ${path.basename(request.target)}.part`)).toBeGreaterThan(last(`sync ${writer}`))
    expect(events.at(-1)).toBe('complete')
    // One file opened for the whole transfer: no second open to flush it.
    expect(handles).toHaveLength(1)
  })

  test('holds about 1 MiB in memory, not the file, when the disk is slower than the network, and writes it in few large writes', async ({
    demo,
    tempDir,
  }) => {
    const track = bigTrack(demo)
    const prototype = await fileHandlePrototype(tempDir())
    const batches: number[] = []
    // Every write takes 40 ms more than it would: the network is far faster than this disk.
    watchHandles(prototype, 'writev', (_handle, [buffers]) => batches.push((buffers as Buffer[]).reduce((sum, buffer) => sum + buffer.length, 0)), 40)
    const progress: number[] = []
    const result = await transfer(options(demo, tempDir, track, { onProgress: (bytes) => progress.push(bytes) }))
    expect(result.sha256).toBe(sourceSha256(demo, track.uploadId))
    expect(batches.reduce((sum, bytes) => sum + bytes, 0)).toBe(track.bytes)
    // The body waits in the socket beyond 1 MiB queued (one more chunk may cross the line).
    expect(Math.max(...batches)).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024)
    // Chunks of 64 KiB at most come from the socket; each write takes those that came during the one before.
    expect(batches.length).toBeLessThan(track.bytes / (256 * 1024))
    // Progress follows the writes: one report per write, the last the whole file.
    expect(progress).toHaveLength(batches.length)
    expect(progress.at(-1)).toBe(track.bytes)
  })

  test('makes the folder of a new file when it is missing, only then, and not for a file the server does not have', async ({ demo, tempDir }) => {
    const track = tracksOf(demo).find((t) => t.bytes > 100_000 && t.bytes < 1_000_000)!
    const mkdir = vi.spyOn(fsp, 'mkdir')
    const nested = path.join(tempDir(), 'artist', 'album', `${track.uploadId}.${track.ext}`)
    expect((await transfer({ ...options(demo, tempDir, track), target: nested })).sha256).toBe(sourceSha256(demo, track.uploadId))
    expect(sha256File(nested)).toBe(sourceSha256(demo, track.uploadId))
    expect(mkdir).toHaveBeenCalledTimes(1)
    // Into a folder that exists: no folder is made.
    mkdir.mockClear()
    const beside = path.join(path.dirname(nested), `again.${track.ext}`)
    await transfer({ ...options(demo, tempDir, track), target: beside })
    expect(mkdir).not.toHaveBeenCalled()
    // A file the server does not have leaves no folder behind.
    demo.faults.add({ path: '/hotlink/*', fault: { kind: 'status', status: 404 } })
    const missing = path.join(tempDir(), 'nobody', `${track.uploadId}.${track.ext}`)
    await expect(transfer({ ...options(demo, tempDir, track), target: missing })).rejects.toBeInstanceOf(NotFoundError)
    expect(fs.existsSync(path.dirname(missing))).toBe(false)
  })

  test('survives connections dropped at random points, resuming from the bytes on disk', async ({ demo, tempDir }) => {
    const track = bigTrack(demo)
    let seed = 3
    for (let i = 0; i < 6; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      demo.faults.add({ path: `/hotlink/${track.uploadId}.*`, fault: { kind: 'drop', afterBytes: seed % 400_000 } })
    }
    const progress: number[] = []
    const request = options(demo, tempDir, track, { onProgress: (bytes) => progress.push(bytes) })
    const result = await transfer(request)
    expect(demo.faults.pending()).toBe(0)
    expect(result.sha256).toBe(sourceSha256(demo, track.uploadId))
    expect(sha256File(request.target)).toBe(result.sha256)
    // Resumed, not restarted: progress never went back after the first bytes.
    expect(progress.length).toBeGreaterThan(0)
    const firstDrop = progress.findIndex((bytes, i) => i > 0 && bytes < progress[i - 1]!)
    expect(firstDrop).toBe(-1)
    expect(progress.at(-1)).toBe(track.bytes)
  })

  test('restarts from zero, still correct, when the server ignores Range', async ({ demo, tempDir }) => {
    const track = bigTrack(demo)
    demo.faults.add({ path: `/hotlink/${track.uploadId}.*`, fault: { kind: 'drop', afterBytes: 500_000 } })
    demo.faults.add({ path: `/hotlink/${track.uploadId}.*`, fault: { kind: 'ignoreRange' } })
    const request = options(demo, tempDir, track)
    const result = await transfer(request)
    expect(demo.faults.pending()).toBe(0)
    expect(result.sha256).toBe(sourceSha256(demo, track.uploadId))
    expect(sha256File(request.target)).toBe(result.sha256)
  })

  test('starts over when the file changed between attempts (a new ETag)', async ({ demo, tempDir }) => {
    const track = tracksOf(demo).filter((t) => t.bytes > 1_000_000)[3]!
    const before = sourceSha256(demo, track.uploadId)
    demo.faults.add({ path: `/hotlink/${track.uploadId}.*`, fault: { kind: 'drop', afterBytes: 300_000 } })
    let revised = false
    const request = options(demo, tempDir, track, {
      onProgress: () => {
        if (!revised) {
          revised = true
          demo.catalogue.reviseUpload(track.uploadId)
        }
      },
    })
    const result = await transfer(request)
    expect(revised).toBe(true)
    expect(result.sha256).not.toBe(before)
    expect(result.sha256).toBe(sourceSha256(demo, track.uploadId))
    expect(sha256File(request.target)).toBe(result.sha256)
  })

  test('treats 416 on a complete partial file as done, and on a wrong one as a restart', async ({ demo, tempDir }) => {
    const track = tracksOf(demo).find((t) => t.bytes > 100_000 && t.bytes < 1_000_000)!
    const first = options(demo, tempDir, track)
    const { sha256 } = await transfer(first)
    // A complete partial file (as after a crash just before the rename): the server answers 416.
    const again = options(demo, tempDir, track)
    fs.copyFileSync(first.target, `${again.target}.part`)
    const etag = (await fetch(again.url, { method: 'HEAD' })).headers.get('etag')
    expect(etag).not.toBeNull()
    const resumed = await transfer({ ...again, validator: etag })
    expect(resumed.sha256).toBe(sha256)
    expect(sha256File(again.target)).toBe(sha256)
    // A partial file longer than the upload is dropped and fetched again.
    const third = options(demo, tempDir, track)
    fs.writeFileSync(`${third.target}.part`, Buffer.alloc(track.bytes + 10, 1))
    expect((await transfer({ ...third, validator: etag })).sha256).toBe(sha256)
    expect(sha256File(third.target)).toBe(sha256)
  })

  test('waits out 429 and 503, with and without Retry-After', async ({ demo, tempDir }) => {
    const track = tracksOf(demo).find((t) => t.bytes < 200_000)!
    demo.faults.add({ path: '/hotlink/*', fault: { kind: 'status', status: 429, retryAfter: 0 } })
    demo.faults.add({ path: '/hotlink/*', fault: { kind: 'status', status: 503 } })
    demo.faults.add({ path: '/hotlink/*', fault: { kind: 'status', status: 429 } })
    demo.faults.add({ path: '/hotlink/*', fault: { kind: 'status', status: 503, retryAfter: 0 } })
    const result = await transfer(options(demo, tempDir, track))
    expect(demo.faults.pending()).toBe(0)
    expect(result.sha256).toBe(sourceSha256(demo, track.uploadId))
  })

  test('gives up after retries without progress, keeping the partial file', async ({ demo, tempDir }) => {
    const track = bigTrack(demo)
    // The drop comes only once the 100 000 bytes are in the kernel: all of them reach the client.
    demo.faults.add({ path: '/hotlink/*', fault: { kind: 'drop', afterBytes: 100_000 } })
    demo.faults.add({ path: '/hotlink/*', times: 50, fault: { kind: 'status', status: 503 } })
    const request = options(demo, tempDir, track, { retries: 3 })
    const failure = transfer(request)
    await expect(failure).rejects.toBeInstanceOf(ServerError)
    await expect(failure).rejects.toMatchObject({ code: 'server', retryable: true })
    // After the attempt that made progress, `retries` attempts without: three 503s taken.
    expect(demo.faults.pending()).toBe(50 - 3)
    // Every byte that arrived before the drop is kept, and is the start of the file.
    const kept = fs.readFileSync(`${request.target}.part`)
    expect(kept.length).toBe(100_000)
    demo.faults.clear()
    expect(kept.equals(await sourcePrefix(request.url, kept.length))).toBe(true)
  })

  test('gives up after a couple of tries when the server cannot be reached at all (the queue then waits for the network)', async ({
    tempDir,
  }) => {
    // A port nothing listens on: taken, then let go.
    const closed = net.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const started = performance.now()
    const failure = await transfer({
      url: `http://127.0.0.1:${port}/hotlink/1.mp3`,
      target: path.join(tempDir(), '1.mp3'),
      folder: TEMP,
      expectedBytes: 1000,
      validator: null,
      signal: new AbortController().signal,
      // The usual back-off: half a minute of it before the fix.
      retries: 6,
    }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(NetworkError)
    expect(isUnreachable(failure)).toBe(true)
    expect((failure as NetworkError).systemCode).toBe('ECONNREFUSED')
    expect(performance.now() - started).toBeLessThan(3_000)
  })

  test('keeps the bytes that came with the headers when the connection ends at once', async ({ tempDir, onTestFinished }) => {
    // Headers, the first bytes and the end of the connection in one write: the client sees them
    // in quick succession, so bytes not piped to the file at once would be lost with the connection.
    const size = 1_000_000
    const body = Buffer.alloc(20_000, 7)
    const url = await rawServer(
      (close) => onTestFinished(close),
      (socket) => socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${size}\r\nETag: "v1"\r\n\r\n`), body])),
    )
    // A race lost only now and then would pass once by chance: ask several times
    // (retries: 0, so one request each: the failure after progress ends it).
    for (let i = 0; i < 5; i++) {
      const target = path.join(tempDir(), 'file.bin')
      const failure = transfer({ url, target, folder: TEMP, expectedBytes: size, validator: null, signal: new AbortController().signal, retries: 0, backoffMs: 1, maxDelayMs: 2 })
      await expect(failure).rejects.toBeInstanceOf(NetworkError)
      expect(fs.readFileSync(`${target}.part`).equals(body), `attempt ${i}`).toBe(true)
    }
  })

  test('fails with a DiskFullError on a full disk, its progress exactly the bytes on disk, and resumes once there is room', async ({
    demo,
    smallDisk,
    skip,
  }) => {
    const disk = smallDisk(512)
    if (!disk) return skip('cannot mount a small tmpfs here (needs root): the full-disk test is skipped')
    const track = tracksOf(demo).find((t) => t.bytes > 1_000_000 && t.bytes < 3_000_000)!
    const target = path.join(disk.folder, `${track.uploadId}.${track.ext}`)
    const progress: number[] = []
    let validator: string | null = null
    const request: TransferOptions = {
      ...options(demo, () => disk.folder, track),
      target,
      onProgress: (bytes) => progress.push(bytes),
      onValidator: (next) => (validator = next),
    }
    const full = transfer(request)
    await expect(full).rejects.toBeInstanceOf(DiskFullError)
    await expect(full).rejects.toMatchObject({ code: 'disk_full', retryable: false })
    await expect(full).rejects.toThrow(/the disk holding .* is full/)
    // Progress describes the disk: a write that stored only part of its bytes counts only those.
    const kept = fs.readFileSync(`${target}.part`)
    expect(kept.length).toBeGreaterThan(0)
    expect(progress.at(-1)).toBe(kept.length)
    expect(kept.equals(await sourcePrefix(request.url, kept.length))).toBe(true)
    disk.resize(8 * 1024)
    const seen: number[] = []
    const result = await transfer({ ...request, validator, onProgress: (bytes) => seen.push(bytes) })
    expect(seen[0]).toBeGreaterThan(kept.length)
    expect(result.sha256).toBe(sourceSha256(demo, track.uploadId))
    expect(sha256File(target)).toBe(result.sha256)
  })

  test('fails at once, without a retry, when the file side fails (here its progress listener)', async ({ demo, tempDir }) => {
    const track = bigTrack(demo)
    const files = demo.requests.file
    const failure = transfer(
      options(demo, tempDir, track, {
        onProgress: () => {
          throw new Error('the listener broke')
        },
      }),
    )
    // Not a network failure to retry: the error of the file side, as a core error.
    await expect(failure).rejects.toMatchObject({ code: 'internal', retryable: false })
    await expect(failure).rejects.toThrow(/the listener broke/)
    expect(demo.requests.file).toBe(files + 1)
  })

  test('refuses a redirect to file:///etc/passwd, and any address that is not http or https', async ({ demo, tempDir }) => {
    const track = tracksOf(demo)[0]!
    demo.faults.add({ path: '/hotlink/*', fault: { kind: 'respond', status: 302, headers: { Location: 'file:///etc/passwd' } } })
    const request = options(demo, tempDir, track)
    const redirected = transfer(request)
    await expect(redirected).rejects.toThrow(/file:\/\/\/etc\/passwd.*not an http or https address/)
    await expect(redirected).rejects.toMatchObject({ code: 'bad_response', retryable: false })
    expect(fs.existsSync(request.target)).toBe(false)
    for (const url of ['file:///etc/passwd', 'data:text/plain,hello', 'ftp://127.0.0.1/x', 'not a url']) {
      const refused = transfer({ ...options(demo, tempDir, track), url })
      await expect(refused).rejects.toBeInstanceOf(BadResponseError)
      await expect(refused).rejects.toMatchObject({ code: 'bad_response', retryable: false })
    }
  })

  test('follows at most five redirects', async ({ demo, tempDir }) => {
    const track = tracksOf(demo)[0]!
    const url = hotlink(demo, track)
    demo.faults.add({ path: '/hotlink/*', times: 6, fault: { kind: 'respond', status: 302, headers: { Location: url } } })
    const refused = transfer(options(demo, tempDir, track))
    await expect(refused).rejects.toThrow(/more than 5 times/)
    await expect(refused).rejects.toBeInstanceOf(BadResponseError)
    demo.faults.clear()
    demo.faults.add({ path: '/hotlink/*', times: 5, fault: { kind: 'respond', status: 302, headers: { Location: url } } })
    expect((await transfer(options(demo, tempDir, track))).bytes).toBe(track.bytes)
    expect(demo.faults.pending()).toBe(0)
  })

  test('fails clearly when the server file is not the size the catalogue gives', async ({ demo, tempDir }) => {
    const track = bigTrack(demo)
    for (const expectedBytes of [track.bytes + 1, track.bytes - 1]) {
      const refused = transfer({ ...options(demo, tempDir, track), expectedBytes })
      await expect(refused).rejects.toThrow(/not the .* the catalogue gives/)
      await expect(refused).rejects.toBeInstanceOf(BadResponseError)
    }
  })

  test('stops at once when aborted (a CancelledError) and resumes later from the partial file', async ({ demo, tempDir }) => {
    const track = bigTrack(demo)
    demo.faults.add({ path: '/hotlink/*', fault: { kind: 'slow', bytesPerSecond: 400_000 } })
    const controller = new AbortController()
    let validator: string | null = null
    const request = options(demo, tempDir, track, {
      signal: controller.signal,
      onValidator: (next) => (validator = next),
      onProgress: (bytes) => {
        if (bytes > 150_000) controller.abort(new Error('paused'))
      },
    })
    const stopped = transfer(request)
    await expect(stopped).rejects.toBeInstanceOf(CancelledError)
    await expect(stopped).rejects.toMatchObject({ code: 'cancelled' })
    const kept = fs.statSync(`${request.target}.part`).size
    expect(kept).toBeGreaterThan(150_000)
    expect(kept).toBeLessThan(track.bytes)
    expect(validator).not.toBeNull()
    const seen: number[] = []
    const result = await transfer({ ...request, signal: new AbortController().signal, validator, onProgress: (bytes) => seen.push(bytes) })
    expect(seen[0]).toBeGreaterThan(kept)
    expect(result.sha256).toBe(sourceSha256(demo, track.uploadId))
  })

  test('detects a stalled connection with the idle timeout, and resumes once data flows again', async ({ demo, tempDir }) => {
    const track = tracksOf(demo).find((t) => t.bytes > 100_000 && t.bytes < 1_000_000)!
    // A server that sends the headers and some bytes, then falls silent (the first time only).
    let stalls = 1
    const stalling = http.createServer((request, response) => {
      void (async () => {
        const upstream = await fetch(hotlink(demo, track), {
          headers: request.headers.range ? { Range: request.headers.range, 'If-Range': String(request.headers['if-range']) } : {},
        })
        const body = Buffer.from(await upstream.arrayBuffer())
        response.writeHead(upstream.status, Object.fromEntries([...upstream.headers].filter(([name]) => name !== 'content-encoding')))
        if (stalls-- > 0) {
          response.write(body.subarray(0, 1000)) // ...and nothing more, ever
          return
        }
        response.end(body)
      })()
    })
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}/file`
      const started = performance.now()
      const result = await transfer({ ...options(demo, tempDir, track), url, http: createHttp({ idleTimeoutMs: 300 }) })
      expect(performance.now() - started).toBeGreaterThanOrEqual(300)
      expect(stalls).toBe(-1)
      expect(result.sha256).toBe(sourceSha256(demo, track.uploadId))
    } finally {
      stalling.closeAllConnections()
      await new Promise((resolve) => stalling.close(resolve))
    }
  })
})

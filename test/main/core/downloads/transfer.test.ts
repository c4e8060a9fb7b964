import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/core/demo/index'
import type { TrackRecord } from '../../../../src-main/core/demo/catalogue'
import { PermanentDownloadError, TransientDownloadError } from '../../../../src-main/core/downloads/errors'
import { transfer, type TransferOptions } from '../../../../src-main/core/downloads/transfer'
import { useTempDir } from '../db/temp-dir'
import { hotlink, sourceSha256 } from './source'

const tempDir = useTempDir()
let service: RunningCatalogueService
let tracks: TrackRecord[]

beforeAll(async () => {
  service = await startCatalogueService({ artists: 60, seed: 8, maxFileMb: 6 })
  tracks = service.catalogue.artists.flatMap((artist) => service.catalogue.tracksOf(artist))
})
afterEach(() => service.faults.clear())
afterAll(() => service.close())

const bigTrack = (): TrackRecord => tracks.filter((t) => t.bytes > 2_000_000).at(0)!

function options(track: TrackRecord, extra: Partial<TransferOptions> = {}): TransferOptions {
  return {
    url: hotlink(service, track),
    target: path.join(tempDir(), `${track.uploadId}.${track.ext}`),
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

describe('a transfer', () => {
  it('downloads the exact bytes, hashes them while streaming, and leaves no partial file', async () => {
    const track = bigTrack()
    const request = options(track)
    const result = await transfer(request)
    expect(result.bytes).toBe(track.bytes)
    expect(result.sha256).toBe(sourceSha256(service, track.uploadId))
    expect(sha256File(request.target)).toBe(result.sha256)
    expect(fs.existsSync(`${request.target}.part`)).toBe(false)
  })

  it('survives connections dropped at random points, resuming from the bytes on disk', async () => {
    const track = bigTrack()
    let seed = 3
    for (let i = 0; i < 6; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      service.faults.add({ path: `/hotlink/${track.uploadId}.*`, fault: { kind: 'drop', afterBytes: seed % 400_000 } })
    }
    const requests: string[] = []
    const progress: number[] = []
    const request = options(track, { onProgress: (bytes) => progress.push(bytes), onValidator: (v) => requests.push(String(v)) })
    const result = await transfer(request)
    expect(service.faults.pending()).toBe(0)
    expect(result.sha256).toBe(sourceSha256(service, track.uploadId))
    expect(sha256File(request.target)).toBe(result.sha256)
    // Resumed, not restarted: progress never went back to zero after the first bytes.
    const firstDrop = progress.findIndex((bytes, i) => i > 0 && bytes < progress[i - 1]!)
    expect(firstDrop).toBe(-1)
  })

  it('restarts from zero, still correct, when the server ignores Range', async () => {
    const track = bigTrack()
    service.faults.add({ path: `/hotlink/${track.uploadId}.*`, fault: { kind: 'drop', afterBytes: 500_000 } })
    service.faults.add({ path: `/hotlink/${track.uploadId}.*`, fault: { kind: 'ignoreRange' } })
    const result = await transfer(options(track))
    expect(result.sha256).toBe(sourceSha256(service, track.uploadId))
  })

  it('starts over when the file changed between attempts (a new ETag)', async () => {
    const track = tracks.filter((t) => t.bytes > 1_000_000)[3]!
    const before = sourceSha256(service, track.uploadId)
    service.faults.add({ path: `/hotlink/${track.uploadId}.*`, fault: { kind: 'drop', afterBytes: 300_000 } })
    let revised = false
    const request = options(track, {
      onProgress: () => {
        if (!revised) {
          revised = true
          service.catalogue.reviseUpload(track.uploadId)
        }
      },
    })
    const result = await transfer(request)
    expect(result.sha256).not.toBe(before)
    expect(result.sha256).toBe(sourceSha256(service, track.uploadId))
    expect(sha256File(request.target)).toBe(result.sha256)
  })

  it('treats 416 on a complete partial file as done, and on a wrong one as a restart', async () => {
    const track = tracks.find((t) => t.bytes > 100_000 && t.bytes < 1_000_000)!
    const first = options(track)
    const { sha256 } = await transfer(first)
    // A complete partial file (as after a crash just before the rename): the server answers 416.
    const again = options(track)
    fs.mkdirSync(path.dirname(again.target), { recursive: true })
    fs.copyFileSync(first.target, `${again.target}.part`)
    const etag = (await fetch(again.url, { method: 'HEAD' })).headers.get('etag')
    const resumed = await transfer({ ...again, validator: etag })
    expect(resumed.sha256).toBe(sha256)
    // A partial file longer than the upload is dropped and fetched again.
    const third = options(track)
    fs.mkdirSync(path.dirname(third.target), { recursive: true })
    fs.writeFileSync(`${third.target}.part`, Buffer.alloc(track.bytes + 10, 1))
    expect((await transfer({ ...third, validator: etag })).sha256).toBe(sha256)
  })

  it('waits out 429 and 503, with and without Retry-After', async () => {
    const track = tracks.find((t) => t.bytes < 200_000)!
    service.faults.add({ path: '/hotlink/*', fault: { kind: 'status', status: 429, retryAfter: 0 } })
    service.faults.add({ path: '/hotlink/*', fault: { kind: 'status', status: 503 } })
    service.faults.add({ path: '/hotlink/*', fault: { kind: 'status', status: 429 } })
    service.faults.add({ path: '/hotlink/*', fault: { kind: 'status', status: 503, retryAfter: 0 } })
    const result = await transfer(options(track))
    expect(service.faults.pending()).toBe(0)
    expect(result.sha256).toBe(sourceSha256(service, track.uploadId))
  })

  it('gives up after retries without progress, keeping the partial file', async () => {
    const track = bigTrack()
    service.faults.add({ path: '/hotlink/*', fault: { kind: 'drop', afterBytes: 100_000 } })
    service.faults.add({ path: '/hotlink/*', times: 50, fault: { kind: 'status', status: 503 } })
    const request = options(track, { retries: 3 })
    await expect(transfer(request)).rejects.toThrow(TransientDownloadError)
    // What arrived before the drop is kept, and is the start of the file.
    const kept = fs.readFileSync(`${request.target}.part`)
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length).toBeLessThanOrEqual(100_000)
    service.faults.clear()
    const source = await (await fetch(request.url, { headers: { Range: `bytes=0-${kept.length - 1}` } })).arrayBuffer()
    expect(kept.equals(Buffer.from(source))).toBe(true)
  })

  it('refuses a redirect to file:///etc/passwd, and any address that is not http or https', async () => {
    const track = tracks[0]!
    service.faults.add({ path: '/hotlink/*', fault: { kind: 'respond', status: 302, headers: { Location: 'file:///etc/passwd' } } })
    const request = options(track)
    await expect(transfer(request)).rejects.toThrow(/file:\/\/\/etc\/passwd.*not an http or https address/)
    expect(fs.existsSync(request.target)).toBe(false)
    for (const url of ['file:///etc/passwd', 'data:text/plain,hello', 'ftp://127.0.0.1/x', 'not a url']) {
      await expect(transfer({ ...options(track), url })).rejects.toThrow(PermanentDownloadError)
    }
  })

  it('follows at most five redirects', async () => {
    const track = tracks[0]!
    const url = hotlink(service, track)
    service.faults.add({ path: '/hotlink/*', times: 6, fault: { kind: 'respond', status: 302, headers: { Location: url } } })
    await expect(transfer(options(track))).rejects.toThrow(/more than 5 times|redirect/i)
    service.faults.clear()
    service.faults.add({ path: '/hotlink/*', times: 5, fault: { kind: 'respond', status: 302, headers: { Location: url } } })
    expect((await transfer(options(track))).bytes).toBe(track.bytes)
  })

  it('fails clearly when the server file is not the size the catalogue gives', async () => {
    const track = bigTrack()
    await expect(transfer({ ...options(track), expectedBytes: track.bytes + 1 })).rejects.toThrow(/not the .* the catalogue gives/)
    await expect(transfer({ ...options(track), expectedBytes: track.bytes - 1 })).rejects.toThrow(/not the .* the catalogue gives/)
  })

  it('stops at once when aborted and resumes later from the partial file', async () => {
    const track = bigTrack()
    service.faults.add({ path: '/hotlink/*', fault: { kind: 'slow', bytesPerSecond: 400_000 } })
    const controller = new AbortController()
    let validator: string | null = null
    const request = options(track, {
      signal: controller.signal,
      onValidator: (next) => (validator = next),
      onProgress: (bytes) => {
        if (bytes > 150_000) controller.abort(new Error('paused'))
      },
    })
    await expect(transfer(request)).rejects.toThrow('paused')
    const kept = fs.statSync(`${request.target}.part`).size
    expect(kept).toBeGreaterThan(150_000)
    expect(kept).toBeLessThan(track.bytes)
    const seen: number[] = []
    const result = await transfer({ ...request, signal: new AbortController().signal, validator, onProgress: (bytes) => seen.push(bytes) })
    expect(seen[0]).toBeGreaterThan(kept)
    expect(result.sha256).toBe(sourceSha256(service, track.uploadId))
  })

  it('detects a stalled connection with the idle timeout, and resumes once data flows again', async () => {
    const track = tracks.find((t) => t.bytes > 100_000 && t.bytes < 1_000_000)!
    // A server that sends the headers and some bytes, then falls silent (the first time only).
    let stalls = 1
    const stalling = http.createServer((request, response) => {
      void (async () => {
        const upstream = await fetch(hotlink(service, track), { headers: request.headers.range ? { Range: request.headers.range, 'If-Range': String(request.headers['if-range']) } : {} })
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
      const result = await transfer({ ...options(track), url, idleTimeoutMs: 300 })
      expect(performance.now() - started).toBeGreaterThanOrEqual(300)
      expect(result.sha256).toBe(sourceSha256(service, track.uploadId))
    } finally {
      stalling.closeAllConnections()
      await new Promise((resolve) => stalling.close(resolve))
    }
  })
})

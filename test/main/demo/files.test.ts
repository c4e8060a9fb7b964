import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../src-main/demo/index'
import type { TrackRecord } from '../../../src-main/demo/catalogue'
import { hashOfUrl, rawRequest, sha256 } from './http-helpers'

let service: RunningCatalogueService
let tracks: TrackRecord[]

beforeAll(async () => {
  service = await startCatalogueService({ artists: 150, seed: 5, maxFileMb: 24 })
  tracks = service.catalogue.artists.flatMap((artist) => service.catalogue.tracksOf(artist))
})
afterAll(() => service.close())

const url = (track: TrackRecord): string => `${service.baseUrl}/hotlink/${track.uploadId}.${track.ext}`
const ofExt = (ext: string): TrackRecord => tracks.find((t) => t.ext === ext && t.bytes > 200_000)!

describe('files at hotlink_path', () => {
  it('serves exactly bytes with Content-Length, Accept-Ranges, a strong ETag and Last-Modified', async () => {
    for (const ext of ['mp3', 'wav', 'ogg', 'm4a', 'flac']) {
      const track = ofExt(ext)
      const response = await rawRequest(url(track))
      expect(response.status).toBe(200)
      expect(response.body.length).toBe(track.bytes)
      expect(response.headers['content-length']).toBe(String(track.bytes))
      expect(response.headers['accept-ranges']).toBe('bytes')
      expect(response.headers.etag).toMatch(/^"[^"]+"$/)
      expect(new Date(response.headers['last-modified']!).toUTCString()).toBe(response.headers['last-modified'])
      expect(response.headers['content-type']).toMatch(/^audio\//)
    }
  })

  it('answers HEAD with the same headers and no body', async () => {
    const track = ofExt('mp3')
    const head = await rawRequest(url(track), {}, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe(String(track.bytes))
    expect(head.headers.etag).toBeTruthy()
    expect(head.body.length).toBe(0)
  })

  it('joins two ranged halves into the whole file', async () => {
    const track = ofExt('flac')
    const whole = await rawRequest(url(track))
    const middle = Math.floor(track.bytes / 2) + 12_345
    const first = await rawRequest(url(track), { Range: `bytes=0-${middle - 1}` })
    const second = await rawRequest(url(track), { Range: `bytes=${middle}-` })
    expect(first.status).toBe(206)
    expect(first.headers['content-range']).toBe(`bytes 0-${middle - 1}/${track.bytes}`)
    expect(second.headers['content-range']).toBe(`bytes ${middle}-${track.bytes - 1}/${track.bytes}`)
    expect(second.headers['content-length']).toBe(String(track.bytes - middle))
    expect(sha256(Buffer.concat([first.body, second.body]))).toBe(sha256(whole.body))
  })

  it('serves suffix ranges, clamps long ones, and answers 416 past the end', async () => {
    const track = ofExt('ogg')
    const whole = await rawRequest(url(track))
    const suffix = await rawRequest(url(track), { Range: 'bytes=-100' })
    expect(suffix.status).toBe(206)
    expect(suffix.body).toEqual(whole.body.subarray(track.bytes - 100))
    const clamped = await rawRequest(url(track), { Range: `bytes=10-${track.bytes * 2}` })
    expect(clamped.body).toEqual(whole.body.subarray(10))
    for (const range of [`bytes=${track.bytes}-`, `bytes=${track.bytes + 10}-${track.bytes + 20}`, 'bytes=-0']) {
      const response = await rawRequest(url(track), { Range: range })
      expect(response.status).toBe(416)
      expect(response.headers['content-range']).toBe(`bytes */${track.bytes}`)
    }
  })

  it('serves the whole file for several ranges, other units, bad syntax or a stale If-Range', async () => {
    const track = ofExt('m4a')
    const { headers } = await rawRequest(url(track), {}, 'HEAD')
    const requests: Record<string, string>[] = [
      { Range: 'bytes=0-1,5-6' },
      { Range: 'items=0-1' },
      { Range: 'bytes=9-3' },
      { Range: 'bytes=0-10', 'If-Range': '"stale"' },
    ]
    for (const extra of requests) {
      const response = await rawRequest(url(track), extra)
      expect(response.status).toBe(200)
      expect(response.body.length).toBe(track.bytes)
    }
    const fresh = await rawRequest(url(track), { Range: 'bytes=0-10', 'If-Range': headers.etag! })
    expect(fresh.status).toBe(206)
    const byDate = await rawRequest(url(track), { Range: 'bytes=0-10', 'If-Range': headers['last-modified']! })
    expect(byDate.status).toBe(206)
  })

  it('gives the same bytes every time and from every instance', async () => {
    const track = ofExt('mp3')
    const again = await startCatalogueService({ artists: 150, seed: 5, maxFileMb: 24 })
    try {
      const a = await hashOfUrl(url(track))
      const b = await hashOfUrl(url(track))
      const c = await hashOfUrl(`${again.baseUrl}/hotlink/${track.uploadId}.${track.ext}`)
      expect(a).toEqual(b)
      expect(c).toEqual(a)
    } finally {
      await again.close()
    }
  })

  it('makes every 64 KiB block different, so a resume at a wrong offset shows', async () => {
    const track = tracks.find((t) => t.bytes > 4 * 65_536 && t.ext !== 'wav')!
    const body = (await rawRequest(url(track))).body
    const blocks = new Set([1, 2, 3].map((i) => sha256(body.subarray(i * 65_536, (i + 1) * 65_536))))
    expect(blocks.size).toBe(3)
  })

  it('starts each format with its signature', async () => {
    const signatures: Record<string, string> = { mp3: 'ID3', ogg: 'OggS', flac: 'fLaC', wav: 'RIFF' }
    for (const [ext, signature] of Object.entries(signatures)) {
      const head = await rawRequest(url(ofExt(ext)), { Range: 'bytes=0-11' })
      expect(head.body.subarray(0, signature.length).toString('latin1')).toBe(signature)
    }
    const m4a = await rawRequest(url(ofExt('m4a')), { Range: 'bytes=0-11' })
    expect(m4a.body.subarray(4, 8).toString('latin1')).toBe('ftyp')
  })

  it('changes bytes and ETag, not size, when an upload is revised', async () => {
    const track = ofExt('mp3')
    const before = await rawRequest(url(track), {}, 'HEAD')
    const hashBefore = await hashOfUrl(url(track))
    service.catalogue.reviseUpload(track.uploadId)
    const after = await rawRequest(url(track), {}, 'HEAD')
    const hashAfter = await hashOfUrl(url(track))
    expect(after.headers.etag).not.toBe(before.headers.etag)
    expect(hashAfter.bytes).toBe(hashBefore.bytes)
    expect(hashAfter.sha256).not.toBe(hashBefore.sha256)
    const stale = await rawRequest(url(track), { Range: 'bytes=100-', 'If-Range': before.headers.etag! })
    expect(stale.status).toBe(200)
  })

  it('answers 404 for unknown uploads and a wrong extension', async () => {
    const track = ofExt('mp3')
    expect((await rawRequest(`${service.baseUrl}/hotlink/${track.uploadId}.wav`)).status).toBe(404)
    expect((await rawRequest(`${service.baseUrl}/hotlink/1.mp3`)).status).toBe(404)
    expect((await rawRequest(`${service.baseUrl}/hotlink/99999999999.mp3`)).status).toBe(404)
  })
})

describe('WAV files', () => {
  /** Walks the RIFF chunks and checks the header a player reads. */
  function parseWav(body: Buffer): { format: Buffer; data: Buffer; chunks: string[] } {
    expect(body.toString('latin1', 0, 4)).toBe('RIFF')
    expect(body.readUInt32LE(4)).toBe(body.length - 8)
    expect(body.toString('latin1', 8, 12)).toBe('WAVE')
    const chunks: string[] = []
    let format: Buffer | undefined
    let data: Buffer | undefined
    let at = 12
    while (at < body.length) {
      const id = body.toString('latin1', at, at + 4)
      const size = body.readUInt32LE(at + 4)
      const payload = body.subarray(at + 8, at + 8 + size)
      expect(payload.length).toBe(size)
      chunks.push(id)
      if (id === 'fmt ') format = payload
      if (id === 'data') data = payload
      at += 8 + size + (size % 2)
    }
    expect(at).toBe(body.length)
    return { format: format!, data: data!, chunks }
  }

  it('has a valid header, a tone, and padding to the exact size', async () => {
    const wavs = tracks.filter((t) => t.ext === 'wav')
    expect(wavs.length).toBeGreaterThan(3)
    for (const track of [...wavs].sort((a, b) => a.bytes - b.bytes).slice(0, 3).concat(wavs.slice(-2))) {
      const body = (await rawRequest(url(track))).body
      const { format, data, chunks } = parseWav(body)
      expect(chunks).toEqual(['fmt ', 'data', 'JUNK'])
      expect(format.readUInt16LE(0)).toBe(1) // PCM
      expect(format.readUInt16LE(2)).toBe(1) // mono
      const sampleRate = format.readUInt32LE(4)
      expect(format.readUInt32LE(8)).toBe(sampleRate * format.readUInt16LE(12))
      expect(format.readUInt16LE(14)).toBe(8)
      // About a second of sound, or as much as a small file holds.
      expect(data.length).toBeGreaterThanOrEqual(Math.min(sampleRate, body.length - 52) - 1)
      // A tone, not silence and not noise: samples swing widely and move in small steps.
      const samples = [...data.subarray(1000, 5000)]
      expect(Math.max(...samples) - Math.min(...samples)).toBeGreaterThan(100)
      const steps = samples.slice(1).map((s, i) => Math.abs(s - samples[i]!))
      expect(Math.max(...steps)).toBeLessThan(40)
    }
  })
})

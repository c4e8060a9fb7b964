import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../src-main/demo/index'
import type { TrackRecord } from '../../../src-main/demo/catalogue'
import { FaultInjector } from '../../../src-main/demo/faults'
import { rawRequest } from './http-helpers'

let service: RunningCatalogueService
let track: TrackRecord
let fileUrl: string
let listUrl: string

beforeAll(async () => {
  service = await startCatalogueService({ artists: 120, seed: 9, maxFileMb: 8 })
  track = service.catalogue.artists
    .flatMap((artist) => service.catalogue.tracksOf(artist))
    .find((t) => t.bytes > 1_000_000)!
  fileUrl = `${service.baseUrl}/hotlink/${track.uploadId}.${track.ext}`
  listUrl = `${service.baseUrl}/api/v1/artists?per_page=50`
})
afterEach(() => service.faults.clear())
afterAll(() => service.close())

describe('fault injection', () => {
  it('answers 429 with Retry-After, then 429 without, then serves normally', async () => {
    service.faults.add({ path: '/api/v1/artists', fault: { kind: 'status', status: 429, retryAfter: 2 } })
    service.faults.add({ path: '/api/v1/artists', fault: { kind: 'status', status: 429 } })
    const first = await rawRequest(listUrl)
    expect(first.status).toBe(429)
    expect(first.headers['retry-after']).toBe('2')
    expect(JSON.parse(first.body.toString())).toHaveProperty('error')
    const second = await rawRequest(listUrl)
    expect(second.status).toBe(429)
    expect(second.headers['retry-after']).toBeUndefined()
    expect((await rawRequest(listUrl)).status).toBe(200)
    expect(service.faults.pending()).toBe(0)
  })

  it('answers 500 and 503 for the next K matching requests only', async () => {
    service.faults.add({ path: '/api/v1/artists/*', times: 2, fault: { kind: 'status', status: 503, retryAfter: 'Wed, 21 Oct 2026 07:28:00 GMT' } })
    service.faults.add({ path: '/api/v1/access_levels*', times: 1, fault: { kind: 'status', status: 500 } })
    const name = service.catalogue.artists[0]!.username
    expect((await rawRequest(listUrl)).status).toBe(200) // does not match the pattern
    expect((await rawRequest(`${service.baseUrl}/api/v1/artists/${name}`)).status).toBe(503)
    expect((await rawRequest(`${service.baseUrl}/api/v1/artists/${name}.json`)).status).toBe(503)
    expect((await rawRequest(`${service.baseUrl}/api/v1/artists/${name}`)).status).toBe(200)
    expect((await rawRequest(`${service.baseUrl}/api/v1/access_levels.json`)).status).toBe(500)
    expect((await rawRequest(`${service.baseUrl}/api/v1/access_levels.json`)).status).toBe(200)
  })

  it('sends malformed JSON: a complete response that does not parse', async () => {
    service.faults.add({ path: /^\/api\/v1\/artists$/, fault: { kind: 'malformed' } })
    const response = await rawRequest(listUrl)
    expect(response.status).toBe(200)
    expect(response.aborted).toBe(false)
    expect(response.body.length).toBe(Number(response.headers['content-length']))
    expect(() => JSON.parse(response.body.toString())).toThrow()
  })

  it('truncates JSON: half the promised body, then the connection drops', async () => {
    const whole = await rawRequest(listUrl)
    service.faults.add({ path: '/api/v1/artists', fault: { kind: 'truncated' } })
    const cut = await rawRequest(listUrl)
    expect(cut.aborted).toBe(true)
    expect(cut.headers['content-length']).toBe(whole.headers['content-length'])
    expect(cut.body.length).toBe(Math.floor(whole.body.length / 2))
    expect(cut.body).toEqual(whole.body.subarray(0, cut.body.length))
  })

  it('drops a file download after exactly N bytes', async () => {
    service.faults.add({ path: '/hotlink/*', fault: { kind: 'drop', afterBytes: 300_001 } })
    const cut = await rawRequest(fileUrl)
    expect(cut.status).toBe(200)
    expect(cut.aborted).toBe(true)
    expect(cut.body.length).toBe(300_001)
    const whole = await rawRequest(fileUrl)
    expect(whole.aborted).toBe(false)
    expect(cut.body).toEqual(whole.body.subarray(0, 300_001))
  })

  it('drops after N bytes of a ranged answer too', async () => {
    service.faults.add({ path: '/hotlink/*', fault: { kind: 'drop', afterBytes: 1000 } })
    const cut = await rawRequest(fileUrl, { Range: 'bytes=5000-' })
    expect(cut.status).toBe(206)
    expect(cut.body.length).toBe(1000)
    const whole = await rawRequest(fileUrl)
    expect(cut.body).toEqual(whole.body.subarray(5000, 6000))
  })

  it('slows a body to the given byte rate', async () => {
    service.faults.add({ path: '/hotlink/*', fault: { kind: 'slow', bytesPerSecond: 100_000 } })
    const started = performance.now()
    const slow = await rawRequest(fileUrl, { Range: 'bytes=0-49999' })
    const seconds = (performance.now() - started) / 1000
    expect(slow.body.length).toBe(50_000)
    expect(seconds).toBeGreaterThanOrEqual(0.4) // 50 kB at 100 kB/s, sent in tenths of a second
    const fast = performance.now()
    await rawRequest(fileUrl, { Range: 'bytes=0-49999' })
    expect((performance.now() - fast) / 1000).toBeLessThan(seconds)
  })

  it('delays an answer, headers and all, then answers as usual; a request given up on meanwhile is no trouble', async () => {
    service.faults.add({ path: '/api/v1/access_levels', times: 2, fault: { kind: 'delay', ms: 400 } })
    const url = `${service.baseUrl}/api/v1/access_levels`
    const started = performance.now()
    const late = await rawRequest(url)
    expect(performance.now() - started).toBeGreaterThanOrEqual(380)
    expect(late.status).toBe(200)
    expect(JSON.parse(late.body.toString())).toHaveProperty('1')
    // Given up on after 50 ms: the next request, past the rule, is answered at once.
    await expect(fetch(url, { signal: AbortSignal.timeout(50) })).rejects.toThrow()
    const next = performance.now()
    expect((await rawRequest(url)).status).toBe(200)
    expect(performance.now() - next).toBeLessThan(300)
    await expect.poll(() => service.requests.inFlight).toBe(0)
  })

  it('ignores Range when asked to', async () => {
    service.faults.add({ path: '/hotlink/*', fault: { kind: 'ignoreRange' } })
    const response = await rawRequest(fileUrl, { Range: 'bytes=100-199' })
    expect(response.status).toBe(200)
    expect(response.body.length).toBe(track.bytes)
    expect(response.headers['content-range']).toBeUndefined()
  })

  it('answers anything asked for, such as a redirect to a file: URL or JSON of the wrong shape', async () => {
    service.faults.add({ path: '/hotlink/*', fault: { kind: 'respond', status: 302, headers: { Location: 'file:///etc/passwd' } } })
    service.faults.add({ path: '/api/v1/access_levels', fault: { kind: 'respond', status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"1":{"id":"one"}}' } })
    const redirect = await rawRequest(fileUrl)
    expect(redirect.status).toBe(302)
    expect(redirect.headers.location).toBe('file:///etc/passwd')
    const wrong = await rawRequest(`${service.baseUrl}/api/v1/access_levels`)
    expect(JSON.parse(wrong.body.toString())).toEqual({ '1': { id: 'one' } })
  })
})

describe('FaultInjector', () => {
  it('matches globs against the whole path and applies rules in order', () => {
    const faults = new FaultInjector()
    faults.add({ path: '/a/*', times: 2, fault: { kind: 'malformed' } })
    faults.add({ path: '/a/b', fault: { kind: 'truncated' } })
    expect(faults.take('/x/a/b')).toBeUndefined()
    expect(faults.take('/a/b')?.kind).toBe('malformed')
    expect(faults.take('/a/b')?.kind).toBe('malformed')
    expect(faults.take('/a/b')?.kind).toBe('truncated')
    expect(faults.take('/a/b')).toBeUndefined()
    expect(() => faults.add({ path: '/', times: 0, fault: { kind: 'malformed' } })).toThrow(/times/)
  })

  it('treats glob characters other than * literally', () => {
    const faults = new FaultInjector()
    faults.add({ path: '/api/v1/artists.json', fault: { kind: 'malformed' } })
    expect(faults.take('/api/v1/artistsXjson')).toBeUndefined()
    expect(faults.take('/api/v1/artists.json')?.kind).toBe('malformed')
  })
})

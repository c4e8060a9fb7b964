/** Retries against the demo's faults: what is retried, how long it waits, when it gives up, and cancellation. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  BadResponseError,
  createCatalogueClient,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  type CatalogueClientOptions,
  type RetryEvent,
} from '../../../../src-main/core/api/index'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/core/demo/index'
import { expectedDetail, rejectionOf, timed, wireJson, type WireDetail } from './helpers'

let service: RunningCatalogueService
let username: string
const levelsPath = '/api/v1/access_levels'

beforeAll(async () => {
  service = await startCatalogueService({ artists: 120, seed: 3, maxFileMb: 16 })
  username = service.catalogue.artists.find((artist) => artist.numTracks > 3)!.username
})
afterEach(() => service.faults.clear())
afterAll(() => service.close())

/** A client with a fast back-off that records every retry it announces. */
function clientWithLog(options: Partial<CatalogueClientOptions> = {}) {
  const retries: RetryEvent[] = []
  const client = createCatalogueClient({
    baseUrl: service.baseUrl,
    backoffMs: 10,
    onRetry: (event) => retries.push(event),
    ...options,
  })
  return { client, retries }
}

describe('rate limiting (429)', () => {
  it('waits as long as Retry-After says, tells onRetry, then succeeds', async () => {
    const { client, retries } = clientWithLog()
    service.faults.add({ path: levelsPath, fault: { kind: 'status', status: 429, retryAfter: 1 } })
    const { ms, result } = await timed(() => client.accessLevels())
    expect(result.status).toBe('fulfilled')
    expect(ms).toBeGreaterThanOrEqual(950)
    expect(ms).toBeLessThan(2500)
    expect(retries).toHaveLength(1)
    expect(retries[0]).toMatchObject({ url: `${service.baseUrl}${levelsPath}`, attempt: 1, delayMs: 1000 })
    expect(retries[0]!.error).toBeInstanceOf(RateLimitedError)
    expect((retries[0]!.error as RateLimitedError).retryAfterMs).toBe(1000)
  })

  it('reads Retry-After given as an HTTP date', async () => {
    const { client, retries } = clientWithLog()
    const retryAfter = new Date(Date.now() + 1000).toUTCString()
    service.faults.add({ path: levelsPath, fault: { kind: 'status', status: 429, retryAfter } })
    expect(await client.accessLevels()).toHaveLength(4)
    expect(retries).toHaveLength(1)
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(0)
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(1000)
  })

  it('backs off exponentially without Retry-After', async () => {
    const { client, retries } = clientWithLog({ backoffMs: 20 })
    service.faults.add({ path: levelsPath, times: 3, fault: { kind: 'status', status: 429 } })
    expect(await client.accessLevels()).toHaveLength(4)
    expect(retries.map((event) => event.attempt)).toEqual([1, 2, 3])
    // Jitter keeps each delay within half and all of 20, 40, 80 ms.
    retries.forEach((event, index) => {
      const nominal = 20 * 2 ** index
      expect(event.delayMs).toBeGreaterThanOrEqual(nominal / 2)
      expect(event.delayMs).toBeLessThanOrEqual(nominal)
    })
  })

  it('gives up with RateLimitedError when the retries run out', async () => {
    const { client, retries } = clientWithLog({ retries: 2 })
    service.faults.add({ path: levelsPath, times: 5, fault: { kind: 'status', status: 429, retryAfter: 0 } })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(RateLimitedError)
    expect((error as RateLimitedError).retryAfterMs).toBe(0)
    expect((error as RateLimitedError).message).toContain(`${service.baseUrl}${levelsPath}`)
    expect(retries).toHaveLength(2)
    expect(service.faults.pending()).toBe(2)
  })

  it('fails at once with RateLimitedError when Retry-After is longer than maxRetryAfterMs', async () => {
    const { client, retries } = clientWithLog({ maxRetryAfterMs: 5_000 })
    service.faults.add({ path: levelsPath, times: 2, fault: { kind: 'status', status: 429, retryAfter: 3600 } })
    const { ms, result } = await timed(() => client.accessLevels())
    expect(result.status).toBe('rejected')
    const error = (result as PromiseRejectedResult).reason as RateLimitedError
    expect(error).toBeInstanceOf(RateLimitedError)
    expect(error.retryAfterMs).toBe(3_600_000)
    expect(error.message).toMatch(/asked to wait 3600 s/)
    expect(ms).toBeLessThan(1000)
    expect(retries).toHaveLength(0)
    expect(service.faults.pending()).toBe(1)
  })
})

describe('server errors', () => {
  it.each([500, 502, 503])('retries %i, then succeeds', async (status) => {
    const { client, retries } = clientWithLog()
    const wire = await wireJson<WireDetail>(`${service.baseUrl}/api/v1/artists/${username}`)
    service.faults.add({ path: `/api/v1/artists/*`, times: 2, fault: { kind: 'status', status } })
    expect(await client.getArtist(username)).toStrictEqual(expectedDetail(wire))
    expect(retries).toHaveLength(2)
    expect(retries.every((event) => event.error instanceof ServerError)).toBe(true)
  })

  it('honours Retry-After on 503', async () => {
    const { client, retries } = clientWithLog()
    service.faults.add({ path: levelsPath, fault: { kind: 'status', status: 503, retryAfter: 1 } })
    const { ms } = await timed(() => client.accessLevels())
    expect(ms).toBeGreaterThanOrEqual(950)
    expect(retries[0]!.delayMs).toBe(1000)
  })

  it('gives up with ServerError carrying the last status when the retries run out', async () => {
    const { client, retries } = clientWithLog({ retries: 3 })
    service.faults.add({ path: levelsPath, times: 3, fault: { kind: 'status', status: 500 } })
    service.faults.add({ path: levelsPath, fault: { kind: 'status', status: 503 } })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(ServerError)
    expect((error as ServerError).status).toBe(503)
    expect((error as ServerError).message).toContain('injected 503')
    expect(retries).toHaveLength(3)
  })

  it('with retries: 0 makes exactly one attempt', async () => {
    const { client, retries } = clientWithLog({ retries: 0 })
    service.faults.add({ path: levelsPath, times: 2, fault: { kind: 'status', status: 500 } })
    await expect(client.accessLevels()).rejects.toBeInstanceOf(ServerError)
    expect(retries).toHaveLength(0)
    expect(service.faults.pending()).toBe(1)
  })
})

describe('broken bodies', () => {
  it.each([
    ['a connection dropped mid-body', { kind: 'drop', afterBytes: 200 }, NetworkError],
    ['a truncated body', { kind: 'truncated' }, NetworkError],
    ['malformed JSON', { kind: 'malformed' }, BadResponseError],
  ] as const)('retries %s, then succeeds', async (_name, fault, errorClass) => {
    const { client, retries } = clientWithLog()
    const wire = await wireJson<WireDetail>(`${service.baseUrl}/api/v1/artists/${username}`)
    service.faults.add({ path: '/api/v1/artists/*', times: 2, fault })
    expect(await client.getArtist(username)).toStrictEqual(expectedDetail(wire))
    expect(retries).toHaveLength(2)
    expect(retries[0]!.error).toBeInstanceOf(errorClass)
  })

  it('names the code of a dropped connection', async () => {
    const { client } = clientWithLog({ retries: 1 })
    service.faults.add({ path: levelsPath, times: 2, fault: { kind: 'drop', afterBytes: 10 } })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(NetworkError)
    expect((error as NetworkError).code).toBe('ECONNRESET')
    expect((error as NetworkError).message).toContain(`${service.baseUrl}${levelsPath}`)
  })

  it('gives up with BadResponseError after malformed JSON every time', async () => {
    const { client, retries } = clientWithLog({ retries: 2 })
    service.faults.add({ path: levelsPath, times: 3, fault: { kind: 'malformed' } })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(BadResponseError)
    expect((error as BadResponseError).message).toMatch(/not valid JSON/)
    expect((error as BadResponseError).field).toBeUndefined()
    expect(retries).toHaveLength(2)
  })

  it('retries an empty 200 body', async () => {
    const { client, retries } = clientWithLog()
    service.faults.add({ path: levelsPath, fault: { kind: 'respond', status: 200, body: '' } })
    expect(await client.accessLevels()).toHaveLength(4)
    expect(retries[0]!.error.message).toMatch(/empty/)
  })
})

describe('what is never retried', () => {
  it('does not retry JSON of the wrong shape', async () => {
    const { client, retries } = clientWithLog()
    service.faults.add({ path: levelsPath, times: 2, fault: { kind: 'respond', status: 200, body: '{"1":{"id":1}}' } })
    await expect(client.accessLevels()).rejects.toBeInstanceOf(BadResponseError)
    expect(retries).toHaveLength(0)
    expect(service.faults.pending()).toBe(1)
  })

  it('does not retry 404', async () => {
    const { client, retries } = clientWithLog()
    service.faults.add({ path: levelsPath, times: 2, fault: { kind: 'status', status: 404 } })
    await expect(client.accessLevels()).rejects.toBeInstanceOf(NotFoundError)
    expect(retries).toHaveLength(0)
    expect(service.faults.pending()).toBe(1)
  })

  it.each([400, 401, 403, 410, 422])('does not retry %i', async (status) => {
    const { client, retries } = clientWithLog()
    service.faults.add({ path: levelsPath, times: 2, fault: { kind: 'status', status } })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toMatchObject({ name: 'RejectedError', status })
    expect(retries).toHaveLength(0)
  })
})

describe('cancellation', () => {
  it('stops waiting for a retry at once and rejects with the signal reason', async () => {
    const controller = new AbortController()
    const reason = new Error('user cancelled the sync')
    const { client } = clientWithLog({
      onRetry: () => setTimeout(() => controller.abort(reason), 50),
    })
    service.faults.add({ path: levelsPath, fault: { kind: 'status', status: 429, retryAfter: 30 } })
    const { ms, result } = await timed(() => client.accessLevels({ signal: controller.signal }))
    expect(result).toEqual({ status: 'rejected', reason })
    expect(ms).toBeLessThan(1000)
  })

  it('stops a request in flight at once', async () => {
    const controller = new AbortController()
    const { client } = clientWithLog()
    service.faults.add({ path: '/api/v1/artists', fault: { kind: 'slow', bytesPerSecond: 200 } })
    setTimeout(() => controller.abort(), 100)
    const { ms, result } = await timed(() => client.listArtists({}, { signal: controller.signal }))
    expect(result.status).toBe('rejected')
    expect((result as PromiseRejectedResult).reason).toMatchObject({ name: 'AbortError' })
    expect(ms).toBeLessThan(1000)
  })

  it('does not start when the signal is already aborted', async () => {
    const { client } = clientWithLog()
    const reason = new Error('gone')
    await expect(client.accessLevels({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
  })
})

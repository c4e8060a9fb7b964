/** Retries against the demo's faults: what is retried, how long it waits, when it gives up, and cancellation. */
import { describe, expect } from 'vitest'
import { createCatalogueClient, type CatalogueClientOptions, type RetryEvent } from '../../../../src-main/core/api/index'
import {
  BadResponseError,
  CancelledError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  RejectedError,
  ServerError,
} from '../../../../src-main/core/shared/errors'
import { catalogueTest } from '../../support/fixtures'
import { expectedDetail, rejectionOf, timed, wireJson, type WireDetail } from './helpers'

const levelsPath = '/api/v1/access_levels'

const test = catalogueTest({ artists: 120, seed: 3, maxFileMb: 16 })
  .extend('username', { scope: 'file' }, ({ demo }) => demo.catalogue.artists.find((artist) => artist.numTracks > 3)!.username)
  .extend('clientWithLog', ({ demo }) => (options: Partial<CatalogueClientOptions> = {}) => makeClientWithLog(demo.baseUrl, options))
test.beforeEach(({ demo }) => demo.requests.reset())
test.afterEach(({ demo }) => demo.faults.clear())

/** A client with a fast back-off that records every retry it announces. */
function makeClientWithLog(baseUrl: string, options: Partial<CatalogueClientOptions>) {
  const retries: RetryEvent[] = []
  const client = createCatalogueClient({
    baseUrl,
    backoffMs: 10,
    onRetry: (event) => retries.push(event),
    ...options,
  })
  return { client, retries }
}

describe('rate limiting (429)', () => {
  test('waits as long as Retry-After says, tells onRetry, then succeeds', async ({ demo, clientWithLog }) => {
    const { client, retries } = clientWithLog()
    demo.faults.add({ path: levelsPath, fault: { kind: 'status', status: 429, retryAfter: 1 } })
    const { ms, result } = await timed(() => client.accessLevels())
    expect(result.status).toBe('fulfilled')
    expect(ms).toBeGreaterThanOrEqual(950)
    expect(ms).toBeLessThan(2500)
    expect(retries).toHaveLength(1)
    expect(retries[0]).toMatchObject({ url: `${demo.baseUrl}${levelsPath}`, attempt: 1, delayMs: 1000 })
    expect(retries[0]!.error).toBeInstanceOf(RateLimitedError)
    expect(retries[0]!.error).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 1000 })
  })

  test('reads Retry-After given as an HTTP date', async ({ demo, clientWithLog }) => {
    const { client, retries } = clientWithLog()
    const retryAfter = new Date(Date.now() + 1000).toUTCString()
    demo.faults.add({ path: levelsPath, fault: { kind: 'status', status: 429, retryAfter } })
    expect(await client.accessLevels()).toHaveLength(4)
    expect(retries).toHaveLength(1)
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(0)
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(1000)
  })

  test('backs off exponentially without Retry-After', async ({ demo, clientWithLog }) => {
    const { client, retries } = clientWithLog({ backoffMs: 20 })
    demo.faults.add({ path: levelsPath, times: 3, fault: { kind: 'status', status: 429 } })
    expect(await client.accessLevels()).toHaveLength(4)
    expect(retries.map((event) => event.attempt)).toEqual([1, 2, 3])
    // Jitter keeps each delay within half and all of 20, 40, 80 ms.
    retries.forEach((event, index) => {
      const nominal = 20 * 2 ** index
      expect(event.delayMs).toBeGreaterThanOrEqual(nominal / 2)
      expect(event.delayMs).toBeLessThanOrEqual(nominal)
    })
  })

  test('gives up with RateLimitedError when the retries run out', async ({ demo, clientWithLog }) => {
    const { client, retries } = clientWithLog({ retries: 2 })
    demo.faults.add({ path: levelsPath, times: 5, fault: { kind: 'status', status: 429, retryAfter: 0 } })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(RateLimitedError)
    expect(error).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 0 })
    expect((error as RateLimitedError).message).toContain(`${demo.baseUrl}${levelsPath}`)
    expect(retries).toHaveLength(2)
    expect(demo.faults.pending()).toBe(2)
    expect(demo.requests.levels).toBe(3)
  })

  test('fails at once with RateLimitedError when Retry-After is longer than maxRetryAfterMs', async ({ demo, clientWithLog }) => {
    const { client, retries } = clientWithLog({ maxRetryAfterMs: 5_000 })
    demo.faults.add({ path: levelsPath, times: 2, fault: { kind: 'status', status: 429, retryAfter: 3600 } })
    const { ms, result } = await timed(() => client.accessLevels())
    expect(result.status).toBe('rejected')
    const error = (result as PromiseRejectedResult).reason as RateLimitedError
    expect(error).toBeInstanceOf(RateLimitedError)
    // Final for this client, but the service said it will pass: another try later may succeed.
    expect(error).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 3_600_000 })
    expect(error.message).toMatch(/asked to wait 3600 s/)
    expect(ms).toBeLessThan(1000)
    expect(retries).toHaveLength(0)
    expect(demo.faults.pending()).toBe(1)
  })
})

describe('server errors', () => {
  test.for([500, 502, 503])('retries %i, then succeeds', async (status, { demo, username, clientWithLog }) => {
    const { client, retries } = clientWithLog()
    const wire = await wireJson<WireDetail>(`${demo.baseUrl}/api/v1/artists/${username}`)
    demo.faults.add({ path: `/api/v1/artists/*`, times: 2, fault: { kind: 'status', status } })
    expect(await client.getArtist(username)).toStrictEqual(expectedDetail(wire))
    expect(retries).toHaveLength(2)
    expect(retries.every((event) => event.error instanceof ServerError && event.error.code === 'server')).toBe(true)
  })

  test('honours Retry-After on 503', async ({ demo, clientWithLog }) => {
    const { client, retries } = clientWithLog()
    demo.faults.add({ path: levelsPath, fault: { kind: 'status', status: 503, retryAfter: 1 } })
    const { ms } = await timed(() => client.accessLevels())
    expect(ms).toBeGreaterThanOrEqual(950)
    expect(retries[0]!.delayMs).toBe(1000)
  })

  test('gives up with ServerError carrying the last status when the retries run out', async ({ demo, clientWithLog }) => {
    const { client, retries } = clientWithLog({ retries: 3 })
    demo.faults.add({ path: levelsPath, times: 3, fault: { kind: 'status', status: 500 } })
    demo.faults.add({ path: levelsPath, fault: { kind: 'status', status: 503 } })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(ServerError)
    expect(error).toMatchObject({ code: 'server', status: 503, retryable: true })
    expect((error as ServerError).message).toContain('injected 503')
    expect(retries).toHaveLength(3)
  })

  test('with retries: 0 makes exactly one attempt', async ({ demo, clientWithLog }) => {
    const { client, retries } = clientWithLog({ retries: 0 })
    demo.faults.add({ path: levelsPath, times: 2, fault: { kind: 'status', status: 500 } })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(ServerError)
    expect(error).toMatchObject({ code: 'server', status: 500 })
    expect(retries).toHaveLength(0)
    expect(demo.faults.pending()).toBe(1)
    expect(demo.requests.levels).toBe(1)
  })
})

describe('broken bodies', () => {
  test.for([
    ['a connection dropped mid-body', { kind: 'drop', afterBytes: 200 }, NetworkError, 'network'],
    ['a truncated body', { kind: 'truncated' }, NetworkError, 'network'],
    ['malformed JSON', { kind: 'malformed' }, BadResponseError, 'bad_response'],
  ] as const)('retries %s, then succeeds', async ([, fault, errorClass, code], { demo, username, clientWithLog }) => {
    const { client, retries } = clientWithLog()
    const wire = await wireJson<WireDetail>(`${demo.baseUrl}/api/v1/artists/${username}`)
    demo.faults.add({ path: '/api/v1/artists/*', times: 2, fault })
    expect(await client.getArtist(username)).toStrictEqual(expectedDetail(wire))
    expect(retries).toHaveLength(2)
    expect(retries[0]!.error).toBeInstanceOf(errorClass)
    expect(retries[0]!.error).toMatchObject({ code, retryable: true })
  })

  test('names the code of a dropped connection', async ({ demo, clientWithLog }) => {
    const { client } = clientWithLog({ retries: 1 })
    demo.faults.add({ path: levelsPath, times: 2, fault: { kind: 'drop', afterBytes: 10 } })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ code: 'network', systemCode: 'ECONNRESET', retryable: true })
    expect((error as NetworkError).message).toContain(`${demo.baseUrl}${levelsPath}`)
  })

  test('gives up with BadResponseError after malformed JSON every time', async ({ demo, clientWithLog }) => {
    const { client, retries } = clientWithLog({ retries: 2 })
    demo.faults.add({ path: levelsPath, times: 3, fault: { kind: 'malformed' } })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(BadResponseError)
    // The client retried it, so it says another try later may succeed; a wrong shape would not.
    expect(error).toMatchObject({ code: 'bad_response', retryable: true })
    expect((error as BadResponseError).message).toMatch(/not valid JSON/)
    expect((error as BadResponseError).field).toBeUndefined()
    expect(retries).toHaveLength(2)
  })

  test('retries an empty 200 body', async ({ demo, clientWithLog }) => {
    const { client, retries } = clientWithLog()
    demo.faults.add({ path: levelsPath, fault: { kind: 'respond', status: 200, body: '' } })
    expect(await client.accessLevels()).toHaveLength(4)
    expect(retries[0]!.error).toBeInstanceOf(BadResponseError)
    expect(retries[0]!.error.message).toMatch(/empty/)
  })
})

describe('what is never retried', () => {
  test('does not retry JSON of the wrong shape', async ({ demo, clientWithLog }) => {
    const { client, retries } = clientWithLog()
    demo.faults.add({ path: levelsPath, times: 2, fault: { kind: 'respond', status: 200, body: '{"1":{"id":1}}' } })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({ code: 'bad_response', field: '["1"].name', retryable: false })
    expect(retries).toHaveLength(0)
    expect(demo.faults.pending()).toBe(1)
  })

  // 410 (gone) is not found too, for downloads alike (api/status.ts).
  test.for([404, 410])('does not retry %i', async (status, { demo, clientWithLog }) => {
    const { client, retries } = clientWithLog()
    demo.faults.add({ path: levelsPath, times: 2, fault: { kind: 'status', status } })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error).toMatchObject({ code: 'not_found', status, retryable: false })
    expect(retries).toHaveLength(0)
    expect(demo.faults.pending()).toBe(1)
  })

  test.for([400, 401, 403, 422])('does not retry %i', async (status, { demo, clientWithLog }) => {
    const { client, retries } = clientWithLog()
    demo.faults.add({ path: levelsPath, times: 2, fault: { kind: 'status', status } })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(RejectedError)
    expect(error).toMatchObject({ name: 'RejectedError', code: 'rejected', status, retryable: false })
    expect(retries).toHaveLength(0)
  })
})

describe('cancellation', () => {
  test('stops waiting for a retry at once with a CancelledError that keeps the signal reason', async ({ demo, clientWithLog }) => {
    const controller = new AbortController()
    const reason = new Error('user cancelled the sync')
    const { client } = clientWithLog({
      onRetry: () => setTimeout(() => controller.abort(reason), 50),
    })
    demo.faults.add({ path: levelsPath, fault: { kind: 'status', status: 429, retryAfter: 30 } })
    const { ms, result } = await timed(() => client.accessLevels({ signal: controller.signal }))
    expect(result.status).toBe('rejected')
    const error = (result as PromiseRejectedResult).reason as CancelledError
    expect(error).toBeInstanceOf(CancelledError)
    expect(error).toMatchObject({ name: 'CancelledError', code: 'cancelled', retryable: false })
    expect(error.cause).toBe(reason)
    expect(ms).toBeLessThan(1000)
    expect(demo.requests.levels).toBe(1)
  })

  test('passes a CancelledError given as the reason through as it is', async ({ demo, clientWithLog }) => {
    const controller = new AbortController()
    const reason = new CancelledError('the app is closing')
    const { client } = clientWithLog({ onRetry: () => controller.abort(reason) })
    demo.faults.add({ path: levelsPath, fault: { kind: 'status', status: 503, retryAfter: 30 } })
    await expect(client.accessLevels({ signal: controller.signal })).rejects.toBe(reason)
  })

  test('stops a request in flight at once', async ({ demo, clientWithLog }) => {
    const controller = new AbortController()
    const { client } = clientWithLog()
    demo.faults.add({ path: '/api/v1/artists', fault: { kind: 'slow', bytesPerSecond: 200 } })
    setTimeout(() => controller.abort(), 100)
    const { ms, result } = await timed(() => client.listArtists({}, { signal: controller.signal }))
    expect(result.status).toBe('rejected')
    const error = (result as PromiseRejectedResult).reason as CancelledError
    expect(error).toBeInstanceOf(CancelledError)
    expect(error).toMatchObject({ code: 'cancelled' })
    // The signal's own reason (an AbortError, as none was given) is kept as the cause.
    expect(error.cause).toMatchObject({ name: 'AbortError' })
    expect(ms).toBeLessThan(1000)
  })

  test('does not start when the signal is already aborted', async ({ demo, clientWithLog }) => {
    const { client } = clientWithLog()
    const reason = new Error('gone')
    const error = await rejectionOf(client.accessLevels({ signal: AbortSignal.abort(reason) }))
    expect(error).toBeInstanceOf(CancelledError)
    expect(error).toMatchObject({ code: 'cancelled', cause: reason })
    expect(demo.requests.total).toBe(0)
  })
})

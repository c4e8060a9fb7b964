/**
 * Attack 12: a catalogue answer nested a million levels deep, well under the
 * old 32 MiB cap, cost nearly a minute and gigabytes to read; and any answer
 * up to 32 MiB was taken in, though list and detail pages are far under 1 MB.
 * Now catalogue JSON is capped at a few MiB, refused by its Content-Length or
 * while it streams, and nesting beyond a few dozen levels is refused by a scan
 * of the bytes before any parsing: each fails at once with a bad response,
 * without a retry.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createCatalogueClient, type CatalogueClient } from '../../../src-main/core/api/index'
import { parseJsonBody } from '../../../src-main/core/api/validate'
import { startRawServer, timed, type RawServer } from '../core/api/helpers'

const DEPTH = 1_000_000
const deep = Buffer.from(`${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`)
/** A page of the right shape, padded to 10 MB with a bio. */
const huge = Buffer.from(
  JSON.stringify({
    pages: 1,
    artists: [{ artist: { username: 'padded', num_tracks: 0, pf_bio: 'x'.repeat(10_000_000), items: [] } }],
  }),
)

let server: RawServer
let client: CatalogueClient

beforeAll(async () => {
  server = await startRawServer((request, response) => {
    const url = request.url ?? ''
    if (url.startsWith('/api/v1/artists/deep')) {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': deep.length }).end(deep)
    } else if (url.startsWith('/api/v1/artists?page=1')) {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': huge.length }).end(huge)
    } else if (url.startsWith('/api/v1/artists?page=2')) {
      // No Content-Length: the size shows only while it streams.
      response.writeHead(200, { 'content-type': 'application/json' })
      for (let offset = 0; offset < huge.length; offset += 64 * 1024) response.write(huge.subarray(offset, offset + 64 * 1024))
      response.end()
    } else response.writeHead(404).end()
  })
  client = createCatalogueClient({ baseUrl: server.url, retries: 3, backoffMs: 5 })
})
afterAll(() => server.close())

function expectBadResponse(result: PromiseSettledResult<unknown>, message: RegExp): void {
  expect(result.status).toBe('rejected')
  const error = (result as PromiseRejectedResult).reason as Error
  expect(error).toMatchObject({ code: 'bad_response', retryable: false })
  expect(error.message).toMatch(message)
}

describe('catalogue answers built to exhaust the reader', () => {
  test('JSON nested a million levels deep fails at once, without a retry', async () => {
    const before = server.requests.length
    const { ms, result } = await timed(() => client.getArtist('deep'))
    expectBadResponse(result, /nested more than 64 levels deep/)
    expect(ms).toBeLessThan(1_500)
    expect(server.requests.length - before).toBe(1)
  })

  test('a 10 MB answer is refused by its Content-Length', async () => {
    const before = server.requests.length
    const { ms, result } = await timed(() => client.listArtists({ page: 1 }))
    expectBadResponse(result, /larger than 4\.19 MB/)
    expect(ms).toBeLessThan(1_500)
    expect(server.requests.length - before).toBe(1)
  })

  test('a 10 MB answer without a Content-Length is refused while it streams', async () => {
    const heapBefore = process.memoryUsage().heapUsed
    const { ms, result } = await timed(() => client.listArtists({ page: 2 }))
    expectBadResponse(result, /larger than 4\.19 MB/)
    expect(ms).toBeLessThan(1_500)
    // At most the cap is held, not the whole answer (with room for the collector's timing).
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024)
  })

  test('the depth scan ignores brackets inside strings, and passes ordinary nesting', () => {
    const inString = Buffer.from(JSON.stringify({ text: '['.repeat(1000), quoted: '"\\[[[' }))
    expect(parseJsonBody(inString, 'http://x/')).toEqual({ text: '['.repeat(1000), quoted: '"\\[[[' })
    const sixtyFour = Buffer.from(`${'['.repeat(64)}${']'.repeat(64)}`)
    expect(() => parseJsonBody(sixtyFour, 'http://x/')).not.toThrow()
    const sixtyFive = Buffer.from(`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`)
    expect(() => parseJsonBody(sixtyFive, 'http://x/')).toThrow(/nested more than 64 levels deep/)
  })
})

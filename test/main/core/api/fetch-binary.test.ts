/** fetchBinary: avatars as the catalogue advertises them, only over http(s), with the same retries and caps. */
import { describe, expect } from 'vitest'
import { createCatalogueClient, type CatalogueClient } from '../../../../src-main/core/api/index'
import { BadResponseError, CancelledError, NotFoundError } from '../../../../src-main/core/shared/errors'
import { catalogueTest } from '../../support/fixtures'
import { rejectionOf, startPrefixProxy } from './helpers'

interface Counted {
  client: CatalogueClient
  /** Retries announced since the test started. */
  retries: () => number
}

const test = catalogueTest({ artists: 80, seed: 4, maxFileMb: 16 }).extend('counted', async ({ demo }): Promise<Counted> => {
  let retries = 0
  const client = createCatalogueClient({ baseUrl: demo.baseUrl, backoffMs: 5, onRetry: () => retries++ })
  return { client, retries: () => retries }
})
test.beforeEach(({ demo }) => demo.requests.reset())
test.afterEach(({ demo }) => demo.faults.clear())

/** The bytes a plain GET returns, to compare with. */
async function direct(url: string): Promise<{ body: Buffer; contentType: string | null }> {
  const response = await fetch(url)
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') }
}

describe('fetchBinary', () => {
  test('fetches a protocol-relative avatar over the base URL protocol', async ({ demo, counted: { client } }) => {
    const artist = demo.catalogue.artists.find((candidate) => candidate.avatarProtocolRelative)!
    const { avatar } = await client.getArtist(artist.username)
    expect(avatar.startsWith('//127.0.0.1:')).toBe(true)
    const fetched = await client.fetchBinary(avatar)
    const expected = await direct(`http:${avatar}`)
    expect(fetched.body.equals(expected.body)).toBe(true)
    expect(fetched.contentType).toBe('image/svg+xml')
    expect(fetched.body.toString('utf8')).toContain('<svg')
  })

  test('fetches an absolute avatar thumbnail', async ({ demo, counted: { client } }) => {
    const artist = demo.catalogue.artists.find((candidate) => !candidate.avatarProtocolRelative)!
    const { avatar_thumb: thumb } = await client.getArtist(artist.username)
    expect(thumb.startsWith('http://')).toBe(true)
    expect((await client.fetchBinary(thumb)).body.equals((await direct(thumb)).body)).toBe(true)
  })

  test('fetches a path against the base URL, under its prefix', async ({ demo, counted: { client } }) => {
    const expected = (await direct(`${demo.baseUrl}/avatars/a1.svg`)).body
    expect((await client.fetchBinary('/avatars/a1.svg')).body.equals(expected)).toBe(true)
    expect((await client.fetchBinary('avatars/a1.svg')).body.equals(expected)).toBe(true)
    const proxy = await startPrefixProxy(demo.baseUrl, '/catalogue')
    try {
      const prefixed = createCatalogueClient({ baseUrl: `${proxy.url}/catalogue/` })
      expect((await prefixed.fetchBinary('avatars/a1.svg')).body.equals(expected)).toBe(true)
      expect(proxy.requests.map((request) => request.url)).toEqual(['/catalogue/avatars/a1.svg'])
    } finally {
      await proxy.close()
    }
  })

  test('fetches a track file, up to maxBytes', async ({ demo, counted: { client } }) => {
    const artist = demo.catalogue.artists.find((candidate) => candidate.numTracks > 0)!
    const detail = await client.getArtist(artist.username)
    const small = detail.items.reduce((best, item) => ((item.upload.bytes ?? 0) < (best.upload.bytes ?? 0) ? item : best))
    const file = await client.fetchBinary(small.upload.hotlink_path!, { maxBytes: small.upload.bytes! })
    expect(file.body.length).toBe(small.upload.bytes)
    const error = await rejectionOf(client.fetchBinary(small.upload.hotlink_path!, { maxBytes: small.upload.bytes! - 1 }))
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({ code: 'bad_response', retryable: false })
    expect((error as Error).message).toMatch(/over the limit/)
  })

  test('retries like the JSON endpoints', async ({ demo, counted: { client, retries } }) => {
    demo.faults.add({ path: '/avatars/*', times: 2, fault: { kind: 'status', status: 503 } })
    demo.faults.add({ path: '/avatars/*', fault: { kind: 'drop', afterBytes: 10 } })
    const avatar = `${demo.baseUrl}/avatars/a1.svg`
    expect((await client.fetchBinary(avatar)).body.equals((await direct(avatar)).body)).toBe(true)
    expect(retries()).toBe(3)
    // Three failed attempts and the one that succeeded, plus the direct GET.
    expect(demo.requests.avatar).toBe(5)
  })

  test('rejects a missing file with NotFoundError', async ({ demo, counted: { client, retries } }) => {
    const error = await rejectionOf(client.fetchBinary(`${demo.baseUrl}/avatars/a99999.svg`))
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error).toMatchObject({ code: 'not_found', url: `${demo.baseUrl}/avatars/a99999.svg` })
    expect(retries()).toBe(0)
    expect(demo.requests.avatar).toBe(1)
  })

  test.for([
    'file:///etc/passwd',
    'data:image/svg+xml;base64,PHN2Zy8+',
    'javascript:alert(1)',
    'ftp://127.0.0.1/avatar.svg',
  ])('refuses %s without any request', async (address, { demo, counted: { client } }) => {
    const error = await rejectionOf(client.fetchBinary(address))
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({ code: 'bad_response', url: address, retryable: false })
    expect((error as Error).message).toBe(`refusing ${address}: only http and https addresses are fetched`)
    expect(demo.requests.total).toBe(0)
  })

  test.for(['', ' ', 'http://', 'https://'])('refuses %j, which names nothing to fetch, without any request', async (address, { demo, counted: { client } }) => {
    const error = await rejectionOf(client.fetchBinary(address))
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({ code: 'bad_response', url: address })
    expect((error as Error).message).toMatch(/is not an http or https address/)
    expect(demo.requests.total).toBe(0)
  })

  test('shortens a huge data: address in the message', async ({ counted: { client } }) => {
    const address = `data:text/plain,${'x'.repeat(100_000)}`
    const error = (await rejectionOf(client.fetchBinary(address))) as BadResponseError
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error.url).toBe(address)
    expect(error.message.length).toBeLessThan(500)
  })

  test('refuses a redirect to file:', async ({ demo, counted: { client, retries } }) => {
    demo.faults.add({ path: '/avatars/*', fault: { kind: 'respond', status: 301, headers: { location: 'file:///etc/passwd' } } })
    const error = await rejectionOf(client.fetchBinary(`${demo.baseUrl}/avatars/a1.svg`))
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({ code: 'bad_response' })
    expect((error as Error).message).toContain('refused a redirect to file:///etc/passwd')
    expect(retries()).toBe(0)
  })

  test('stops at once when aborted, with the one cancelled error', async ({ demo, counted: { client } }) => {
    const controller = new AbortController()
    demo.faults.add({ path: '/avatars/*', fault: { kind: 'slow', bytesPerSecond: 100 } })
    setTimeout(() => controller.abort(), 50)
    const started = performance.now()
    const error = await rejectionOf(client.fetchBinary(`${demo.baseUrl}/avatars/a1.svg`, { signal: controller.signal }))
    expect(performance.now() - started).toBeLessThan(1000)
    expect(error).toBeInstanceOf(CancelledError)
    expect(error).toMatchObject({ name: 'CancelledError', code: 'cancelled', retryable: false })
  })
})

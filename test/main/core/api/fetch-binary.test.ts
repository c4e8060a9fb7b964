/** fetchBinary: avatars as the catalogue advertises them, only over http(s), with the same retries and caps. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  BadResponseError,
  CatalogueError,
  createCatalogueClient,
  NotFoundError,
  type CatalogueClient,
} from '../../../../src-main/core/api/index'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/core/demo/index'
import { rejectionOf } from './helpers'

let service: RunningCatalogueService
let client: CatalogueClient
let retries = 0

beforeAll(async () => {
  service = await startCatalogueService({ artists: 80, seed: 4, maxFileMb: 16 })
  client = createCatalogueClient({ baseUrl: service.baseUrl, backoffMs: 5, onRetry: () => retries++ })
})
afterEach(() => {
  retries = 0
  service.faults.clear()
})
afterAll(() => service.close())

/** The bytes a plain GET returns, to compare with. */
async function direct(url: string): Promise<{ body: Buffer; contentType: string | null }> {
  const response = await fetch(url)
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') }
}

describe('fetchBinary', () => {
  it('fetches a protocol-relative avatar over the base URL protocol', async () => {
    const artist = service.catalogue.artists.find((candidate) => candidate.avatarProtocolRelative)!
    const { avatar } = await client.getArtist(artist.username)
    expect(avatar.startsWith('//127.0.0.1:')).toBe(true)
    const fetched = await client.fetchBinary(avatar)
    const expected = await direct(`http:${avatar}`)
    expect(fetched.body.equals(expected.body)).toBe(true)
    expect(fetched.contentType).toBe('image/svg+xml')
    expect(fetched.body.toString('utf8')).toContain('<svg')
  })

  it('fetches an absolute avatar thumbnail', async () => {
    const artist = service.catalogue.artists.find((candidate) => !candidate.avatarProtocolRelative)!
    const { avatar_thumb: thumb } = await client.getArtist(artist.username)
    expect(thumb.startsWith('http://')).toBe(true)
    expect((await client.fetchBinary(thumb)).body.equals((await direct(thumb)).body)).toBe(true)
  })

  it('fetches a track file, up to maxBytes', async () => {
    const artist = service.catalogue.artists.find((candidate) => candidate.numTracks > 0)!
    const detail = await client.getArtist(artist.username)
    const small = detail.items.reduce((best, item) => ((item.upload.bytes ?? 0) < (best.upload.bytes ?? 0) ? item : best))
    const file = await client.fetchBinary(small.upload.hotlink_path!, { maxBytes: small.upload.bytes! })
    expect(file.body.length).toBe(small.upload.bytes)
    await expect(client.fetchBinary(small.upload.hotlink_path!, { maxBytes: small.upload.bytes! - 1 })).rejects.toBeInstanceOf(
      BadResponseError,
    )
  })

  it('retries like the JSON endpoints', async () => {
    service.faults.add({ path: '/avatars/*', times: 2, fault: { kind: 'status', status: 503 } })
    service.faults.add({ path: '/avatars/*', fault: { kind: 'drop', afterBytes: 10 } })
    const avatar = `${service.baseUrl}/avatars/a1.svg`
    expect((await client.fetchBinary(avatar)).body.equals((await direct(avatar)).body)).toBe(true)
    expect(retries).toBe(3)
  })

  it('rejects a missing file with NotFoundError', async () => {
    await expect(client.fetchBinary(`${service.baseUrl}/avatars/a99999.svg`)).rejects.toBeInstanceOf(NotFoundError)
    expect(retries).toBe(0)
  })

  it.each([
    ['file:', 'file:///etc/passwd'],
    ['data:', 'data:image/svg+xml;base64,PHN2Zy8+'],
    ['javascript:', 'javascript:alert(1)'],
    ['ftp:', 'ftp://127.0.0.1/avatar.svg'],
  ])('refuses a %s address without any request', async (protocol, address) => {
    const error = (await rejectionOf(client.fetchBinary(address))) as CatalogueError
    expect(error).toBeInstanceOf(CatalogueError)
    expect(error.url).toBe(address)
    expect(error.message).toContain(`refusing a ${protocol} address`)
  })

  it.each(['', 'avatars/a1.svg', '/avatars/a1.svg', 'http://'])('refuses %j, which is not an absolute address', async (address) => {
    await expect(client.fetchBinary(address)).rejects.toBeInstanceOf(CatalogueError)
  })

  it('shortens a huge data: address in the message', async () => {
    const address = `data:text/plain,${'x'.repeat(100_000)}`
    const error = (await rejectionOf(client.fetchBinary(address))) as CatalogueError
    expect(error.url).toBe(address)
    expect(error.message.length).toBeLessThan(500)
  })

  it('refuses a redirect to file:', async () => {
    service.faults.add({ path: '/avatars/*', fault: { kind: 'respond', status: 301, headers: { location: 'file:///etc/passwd' } } })
    await expect(client.fetchBinary(`${service.baseUrl}/avatars/a1.svg`)).rejects.toBeInstanceOf(BadResponseError)
  })

  it('stops at once when aborted', async () => {
    const controller = new AbortController()
    service.faults.add({ path: '/avatars/*', fault: { kind: 'slow', bytesPerSecond: 100 } })
    setTimeout(() => controller.abort(), 50)
    await expect(client.fetchBinary(`${service.baseUrl}/avatars/a1.svg`, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    })
  })
})

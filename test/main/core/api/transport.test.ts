/** The HTTP layer: headers sent, size caps, timeouts, refused connections, redirects and compression. */
import { gzipSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  BadResponseError,
  createCatalogueClient,
  NetworkError,
  type RetryEvent,
} from '../../../../src-main/core/api/index'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/core/demo/index'
import { APP_VERSION } from '../../../../src-main/core/version'
import { closedPort, rejectionOf, startJsonServer, startRawServer, timed, type RawServer } from './helpers'

const LEVELS = { '1': { id: 1, name: 'Free', maxsize: 100, price: 0, bandwidth: 30, storage: 2 } }

let service: RunningCatalogueService
const servers: RawServer[] = []

beforeAll(async () => {
  service = await startCatalogueService({ artists: 60, seed: 9, maxFileMb: 16 })
})
afterEach(async () => {
  service.faults.clear()
  await Promise.all(servers.splice(0).map((server) => server.close()))
})
afterAll(() => service.close())

async function track(server: Promise<RawServer>): Promise<RawServer> {
  const started = await server
  servers.push(started)
  return started
}

describe('request', () => {
  it('sends the default User-Agent and Accept: application/json', async () => {
    const server = await track(startJsonServer(LEVELS))
    await createCatalogueClient({ baseUrl: server.url }).accessLevels()
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]!.url).toBe('/api/v1/access_levels')
    expect(server.requests[0]!.headers['user-agent']).toBe(`Tuneshelf/${APP_VERSION} (+https://tuneshelf.invalid)`)
    expect(server.requests[0]!.headers.accept).toBe('application/json')
    expect(server.requests[0]!.headers['accept-encoding']).toMatch(/gzip/)
  })

  it('sends a User-Agent given in the options', async () => {
    const server = await track(startJsonServer(LEVELS))
    await createCatalogueClient({ baseUrl: server.url, userAgent: 'Tuneshelf-test/1' }).accessLevels()
    expect(server.requests[0]!.headers['user-agent']).toBe('Tuneshelf-test/1')
  })

  it('builds the paths under a path prefix, without the .json suffix', async () => {
    const server = await track(startJsonServer({ pages: 0, artists: [] }))
    const client = createCatalogueClient({ baseUrl: `${server.url}/mirror/catalogue/` })
    await client.listArtists({ page: 3 })
    await client.getArtist('Hungry Lucy/ä').catch(() => undefined)
    await client.accessLevels().catch(() => undefined)
    expect(server.requests.map((request) => request.url)).toEqual([
      '/mirror/catalogue/api/v1/artists?page=3',
      '/mirror/catalogue/api/v1/artists/Hungry%20Lucy%2F%C3%A4',
      '/mirror/catalogue/api/v1/access_levels',
    ])
  })

  it('adds the .json suffix only where the service would otherwise misread the username', async () => {
    const server = await track(startJsonServer({}))
    const client = createCatalogueClient({ baseUrl: server.url, retries: 0 })
    for (const username of ['notes.json', '..', '.', 'plain.mp3']) await client.getArtist(username).catch(() => undefined)
    expect(server.requests.map((request) => request.url)).toEqual([
      '/api/v1/artists/notes.json.json',
      '/api/v1/artists/...json',
      '/api/v1/artists/..json',
      '/api/v1/artists/plain.mp3',
    ])
  })
})

describe('size cap', () => {
  it('refuses a body whose Content-Length is over maxBodyBytes, without retrying', async () => {
    const retries: RetryEvent[] = []
    const client = createCatalogueClient({ baseUrl: service.baseUrl, maxBodyBytes: 1000, onRetry: (event) => retries.push(event) })
    const error = (await rejectionOf(client.listArtists())) as BadResponseError
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error.message).toMatch(/over the limit of 1000 bytes/)
    expect(error.message).toContain(`${service.baseUrl}/api/v1/artists`)
    expect(retries).toHaveLength(0)
  })

  it('stops reading an endless body without Content-Length once it passes the cap', async () => {
    let written = 0
    const server = await track(
      startRawServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        const chunk = Buffer.alloc(16 * 1024, 0x20)
        const pump = (): void => {
          while (!response.destroyed && response.write(chunk)) written += chunk.length
          if (!response.destroyed) response.once('drain', pump)
        }
        response.write('[')
        pump()
      }),
    )
    const client = createCatalogueClient({ baseUrl: server.url, maxBodyBytes: 256 * 1024 })
    const error = (await rejectionOf(client.accessLevels())) as BadResponseError
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error.message).toMatch(/while reading/)
    expect(written).toBeLessThan(64 * 1024 * 1024)
  })

  it('counts the decompressed size, so a small gzip body cannot expand past the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20))
    const server = await track(
      startRawServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length })
        response.end(bomb)
      }),
    )
    expect(bomb.length).toBeLessThan(1024 * 1024)
    const client = createCatalogueClient({ baseUrl: server.url, maxBodyBytes: 1024 * 1024 })
    await expect(client.accessLevels()).rejects.toBeInstanceOf(BadResponseError)
  })

  it('decompresses a gzip body', async () => {
    const body = gzipSync(JSON.stringify(LEVELS))
    const server = await track(
      startRawServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length })
        response.end(body)
      }),
    )
    expect(await createCatalogueClient({ baseUrl: server.url }).accessLevels()).toEqual([LEVELS['1']])
  })
})

describe('network failures', () => {
  it('times out a server that accepts and never answers, retries, then fails with NetworkError', async () => {
    const server = await track(startRawServer(() => undefined))
    const retries: RetryEvent[] = []
    const client = createCatalogueClient({
      baseUrl: server.url,
      idleTimeoutMs: 150,
      retries: 1,
      backoffMs: 5,
      onRetry: (event) => retries.push(event),
    })
    const { ms, result } = await timed(() => client.accessLevels())
    expect(result.status).toBe('rejected')
    const error = (result as PromiseRejectedResult).reason as NetworkError
    expect(error).toBeInstanceOf(NetworkError)
    expect(error.code).toBe('ETIMEDOUT')
    expect(error.message).toMatch(/no data for 150 ms/)
    expect(error.message).toContain(`${server.url}/api/v1/access_levels`)
    expect(retries).toHaveLength(1)
    expect(server.requests).toHaveLength(2)
    expect(ms).toBeGreaterThanOrEqual(290)
    expect(ms).toBeLessThan(3000)
  })

  it('times out a body that stalls after the headers', async () => {
    const server = await track(
      startRawServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': 100 })
        response.write('{"1":')
      }),
    )
    const client = createCatalogueClient({ baseUrl: server.url, idleTimeoutMs: 150, retries: 0 })
    const error = (await rejectionOf(client.accessLevels())) as NetworkError
    expect(error).toBeInstanceOf(NetworkError)
    expect(error.code).toBe('ETIMEDOUT')
  })

  it('reports a refused connection as NetworkError with its code, after retrying', async () => {
    const port = await closedPort()
    const retries: RetryEvent[] = []
    const client = createCatalogueClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 2, backoffMs: 5, onRetry: (event) => retries.push(event) })
    const error = (await rejectionOf(client.accessLevels())) as NetworkError
    expect(error).toBeInstanceOf(NetworkError)
    expect(error.code).toBe('ECONNREFUSED')
    expect(error.url).toBe(`http://127.0.0.1:${port}/api/v1/access_levels`)
    expect(retries).toHaveLength(2)
  })
})

describe('redirects', () => {
  it('follows a redirect to another http address', async () => {
    service.faults.add({ path: '/api/v1/access_levels', fault: { kind: 'respond', status: 302, headers: { location: '/api/v1/access_levels.json' } } })
    expect(await createCatalogueClient({ baseUrl: service.baseUrl }).accessLevels()).toHaveLength(4)
  })

  it.each(['file:///etc/passwd', 'data:application/json,{}'])('refuses a redirect to %s, without retrying', async (location) => {
    let retries = 0
    service.faults.add({ path: '/api/v1/access_levels', times: 2, fault: { kind: 'respond', status: 302, headers: { location } } })
    const client = createCatalogueClient({ baseUrl: service.baseUrl, backoffMs: 5, onRetry: () => retries++ })
    const error = (await rejectionOf(client.accessLevels())) as BadResponseError
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error.message).toContain(`refused a redirect to ${location}`)
    expect(retries).toBe(0)
  })
})

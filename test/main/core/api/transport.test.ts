/** The HTTP layer: the one got set-up, headers sent, size caps, timeouts, refused connections, redirects and compression. */
import { gzipSync } from 'node:zlib'
import { describe, expect } from 'vitest'
import { createCatalogueClient, createHttp, type RetryEvent } from '../../../../src-main/core/api/index'
import { BadResponseError, NetworkError } from '../../../../src-main/core/shared/errors'
import { APP_VERSION } from '../../../../src-main/core/base/version'
import { catalogueTest } from '../../support/fixtures'
import { closedPort, rejectionOf, startJsonServer, startRawServer, timed, type RawServer } from './helpers'

const LEVELS = { '1': { id: 1, name: 'Free', maxsize: 100, price: 0, bandwidth: 30, storage: 2 } }

/** Starts a raw server for the test; it is closed after it. */
type Track = (server: Promise<RawServer>) => Promise<RawServer>

const test = catalogueTest({ artists: 60, seed: 9, maxFileMb: 16 }).extend('track', async ({}, { onCleanup }): Promise<Track> => {
  const servers: RawServer[] = []
  onCleanup(async () => {
    await Promise.all(servers.map((server) => server.close()))
  })
  return async (server) => {
    const started = await server
    servers.push(started)
    return started
  }
})
test.afterEach(({ demo }) => demo.faults.clear())

describe('request', () => {
  test('sends the default User-Agent and Accept: application/json', async ({ track }) => {
    const server = await track(startJsonServer(LEVELS))
    await createCatalogueClient({ baseUrl: server.url }).accessLevels()
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]!.url).toBe('/api/v1/access_levels')
    expect(server.requests[0]!.headers['user-agent']).toBe(`Tuneshelf/${APP_VERSION} (+https://tuneshelf.invalid)`)
    expect(server.requests[0]!.headers.accept).toBe('application/json')
    expect(server.requests[0]!.headers['accept-encoding']).toMatch(/gzip/)
  })

  test('sends a User-Agent given in the options', async ({ track }) => {
    const server = await track(startJsonServer(LEVELS))
    await createCatalogueClient({ baseUrl: server.url, userAgent: 'Tuneshelf-test/1' }).accessLevels()
    expect(server.requests[0]!.headers['user-agent']).toBe('Tuneshelf-test/1')
  })

  test('builds the paths under a path prefix, without the .json suffix', async ({ track }) => {
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

  test('adds the .json suffix only where the service would otherwise misread the username', async ({ track }) => {
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
  test('refuses a body whose Content-Length is over maxBodyBytes, without retrying', async ({ demo }) => {
    const retries: RetryEvent[] = []
    const client = createCatalogueClient({ baseUrl: demo.baseUrl, maxBodyBytes: 1000, onRetry: (event) => retries.push(event) })
    const error = (await rejectionOf(client.listArtists())) as BadResponseError
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({ code: 'bad_response', retryable: false })
    expect(error.message).toMatch(/over the limit of 1000 bytes/)
    expect(error.message).toContain(`${demo.baseUrl}/api/v1/artists`)
    expect(retries).toHaveLength(0)
  })

  test('stops reading an endless body without Content-Length once it passes the cap', async ({ track }) => {
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
    expect(error).toMatchObject({ code: 'bad_response' })
    expect(error.message).toMatch(/while reading/)
    expect(written).toBeLessThan(64 * 1024 * 1024)
  })

  test('counts the decompressed size, so a small gzip body cannot expand past the cap', async ({ track }) => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20))
    const server = await track(
      startRawServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length })
        response.end(bomb)
      }),
    )
    expect(bomb.length).toBeLessThan(1024 * 1024)
    const client = createCatalogueClient({ baseUrl: server.url, maxBodyBytes: 1024 * 1024 })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(BadResponseError)
    expect((error as Error).message).toMatch(/over the limit of 1048576 bytes/)
  })

  test('decompresses a gzip body', async ({ track }) => {
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
  test('times out a server that accepts and never answers, retries, then fails with NetworkError', async ({ track }) => {
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
    expect(error).toMatchObject({ code: 'network', systemCode: 'ETIMEDOUT', retryable: true })
    expect(error.message).toMatch(/no data for 150 ms/)
    expect(error.message).toContain(`${server.url}/api/v1/access_levels`)
    expect(retries).toHaveLength(1)
    expect(server.requests).toHaveLength(2)
    expect(ms).toBeGreaterThanOrEqual(290)
    expect(ms).toBeLessThan(3000)
  })

  test('times out a body that stalls after the headers', async ({ track }) => {
    const server = await track(
      startRawServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': 100 })
        response.write('{"1":')
      }),
    )
    const client = createCatalogueClient({ baseUrl: server.url, idleTimeoutMs: 150, retries: 0 })
    const error = (await rejectionOf(client.accessLevels())) as NetworkError
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ code: 'network', systemCode: 'ETIMEDOUT' })
  })

  test('reports a refused connection as NetworkError with its code, after retrying', async () => {
    const port = await closedPort()
    const retries: RetryEvent[] = []
    const client = createCatalogueClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 2, backoffMs: 5, onRetry: (event) => retries.push(event) })
    const error = (await rejectionOf(client.accessLevels())) as NetworkError
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ code: 'network', systemCode: 'ECONNREFUSED', retryable: true })
    expect(error.url).toBe(`http://127.0.0.1:${port}/api/v1/access_levels`)
    expect(retries).toHaveLength(2)
  })
})

describe('redirects', () => {
  test('follows a redirect to another http address', async ({ demo }) => {
    demo.faults.add({ path: '/api/v1/access_levels', fault: { kind: 'respond', status: 302, headers: { location: '/api/v1/access_levels.json' } } })
    expect(await createCatalogueClient({ baseUrl: demo.baseUrl }).accessLevels()).toHaveLength(4)
  })

  test.for(['file:///etc/passwd', 'data:application/json,{}'])('refuses a redirect to %s, without retrying', async (location, { demo }) => {
    let retries = 0
    demo.faults.add({ path: '/api/v1/access_levels', times: 2, fault: { kind: 'respond', status: 302, headers: { location } } })
    const client = createCatalogueClient({ baseUrl: demo.baseUrl, backoffMs: 5, onRetry: () => retries++ })
    const error = (await rejectionOf(client.accessLevels())) as BadResponseError
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({ code: 'bad_response', retryable: false })
    expect(error.message).toContain(`refused a redirect to ${location}`)
    expect(retries).toBe(0)
  })
})

describe('redirect loops', () => {
  test('stop after maxRedirects with a BadResponseError, without retrying', async ({ track }) => {
    const server = await track(startRawServer((_request, response) => response.writeHead(302, { location: '/api/v1/access_levels' }).end()))
    let retries = 0
    const client = createCatalogueClient({ baseUrl: server.url, backoffMs: 5, onRetry: () => retries++ })
    const error = await rejectionOf(client.accessLevels())
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({ code: 'bad_response', retryable: false })
    expect((error as Error).message).toContain(`GET ${server.url}/api/v1/access_levels: redirected more than 5 times`)
    expect(retries).toBe(0)
    // The first request and five redirects followed.
    expect(server.requests).toHaveLength(6)
  })
})

describe('the one got set-up (createHttp)', () => {
  test('sends Tuneshelf/<version> as the user agent by default, and a given one instead', async ({ track }) => {
    const server = await track(startJsonServer(LEVELS))
    const http = createHttp()
    expect((await http.got(`${server.url}/x`)).statusCode).toBe(200)
    expect(server.requests[0]!.headers['user-agent']).toBe(`Tuneshelf/${APP_VERSION} (+https://tuneshelf.invalid)`)
    expect(APP_VERSION).toMatch(/^\d+\.\d+\.\d+/)
    await createHttp({ userAgent: 'Other/2' }).got(`${server.url}/y`)
    expect(server.requests.map((request) => request.headers['user-agent'])).toEqual([
      `Tuneshelf/${APP_VERSION} (+https://tuneshelf.invalid)`,
      'Other/2',
    ])
  })

  test('follows a redirect to http, and refuses one to file:///etc/passwd', async ({ track }) => {
    const server = await track(
      startRawServer((request, response) => {
        if (request.url === '/to-file') response.writeHead(302, { location: 'file:///etc/passwd' }).end()
        else if (request.url === '/to-http') response.writeHead(302, { location: '/landing' }).end()
        else response.writeHead(200, { 'content-type': 'text/plain' }).end('landed')
      }),
    )
    const http = createHttp()
    const followed = await http.got(`${server.url}/to-http`)
    expect(followed.statusCode).toBe(200)
    expect(followed.body).toBe('landed')
    expect(followed.redirectUrls.map(String)).toEqual([`${server.url}/landing`])

    const refused = await http.got(`${server.url}/to-file`)
    expect(refused.statusCode).toBe(302)
    expect(refused.redirectUrls).toEqual([])
    expect(refused.body).toBe('')
    expect(server.requests.map((request) => request.url)).toEqual(['/to-http', '/landing', '/to-file'])
  })

  test('does not retry by itself: the callers decide', async ({ track }) => {
    const server = await track(startRawServer((_request, response) => response.writeHead(503).end()))
    const response = await createHttp().got(`${server.url}/busy`)
    expect(response.statusCode).toBe(503)
    expect(server.requests).toHaveLength(1)
  })

  test("tells of each answer of the service's origin, whatever its status; not of another origin's, nor of no answer", async ({ track }) => {
    const service = await track(
      startRawServer((request, response) => {
        if (request.url !== '/cut') return response.writeHead(request.url === '/busy' ? 503 : 200).end(request.url === '/empty' ? '' : '{}')
        // Headers, then the connection gone: as good as no answer.
        response.writeHead(200, { 'content-length': '100' }).flushHeaders()
        setTimeout(() => response.socket?.destroy(), 20)
      }),
    )
    const elsewhere = await track(startRawServer((_request, response) => response.writeHead(200).end('{}')))
    let answers = 0
    const http = createHttp({ baseUrl: service.url, onAnswer: () => answers++ })
    await http.got(`${service.url}/x`)
    expect(answers).toBe(1)
    await http.got(`${service.url}/busy`)
    expect(answers).toBe(2)
    // The client's requests are streams: told as their headers come.
    await createCatalogueClient({ baseUrl: service.url, http, retries: 0 }).reachable()
    expect(answers).toBe(3)
    await http.got(`${service.url}/empty`)
    expect(answers).toBe(4)
    await http.got(`${elsewhere.url}/avatar.svg`)
    await expect(http.got(`http://127.0.0.1:${await closedPort()}/`)).rejects.toThrow()
    await expect(http.got(`${service.url}/cut`)).rejects.toThrow()
    expect(answers).toBe(4)
  })

  test('is the one the client uses when given', async ({ track }) => {
    const server = await track(startJsonServer(LEVELS))
    const client = createCatalogueClient({ baseUrl: server.url, http: createHttp({ userAgent: 'Shared/1' }), userAgent: 'Ignored/1' })
    await client.accessLevels()
    expect(server.requests[0]!.headers['user-agent']).toBe('Shared/1')
  })
})

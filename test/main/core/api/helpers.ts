/**
 * Shared helpers of the catalogue client tests: the demo's wire JSON and its
 * documented normalisation, and small raw node:http servers for what the demo
 * cannot do (never answer, endless bodies, recording what the client sent).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ArtistDetail, ArtistList } from '../../../../src-main/core/api/index'

/** The list result as the service sends it. */
export interface WireList {
  pages: number
  artists: { artist: Record<string, unknown> & { items: { item: Record<string, unknown> }[] } }[]
}

/** The single-artist result as the service sends it, empty-named member included. */
export type WireDetail = Record<string, unknown> & { username: string; items: { item: Record<string, unknown> }[] }

/** GETs JSON straight from a server, bypassing the client. */
export async function wireJson<T>(url: string): Promise<T> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url} answered ${response.status}`)
  return (await response.json()) as T
}

/**
 * The wire's texts as the client keeps them: the demo's bios carry direction overrides on purpose,
 * and the client takes direction controls out of every text it reads (attack 21).
 */
export function withoutDirections<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(/\\u202[a-e]|\\u206[6-9]|[\u202a-\u202e\u2066-\u2069]/gi, '')) as T
}

/** What the client must return for a wire list: wrappers unwrapped, direction controls out, nothing else changed (the demo sends every member). */
export function expectedList(wire: WireList): ArtistList {
  return withoutDirections({
    pages: wire.pages,
    artists: wire.artists.map(({ artist }) => ({ ...artist, items: artist.items.map(({ item }) => item) })),
  }) as unknown as ArtistList
}

/** What the client must return for a wire detail: items unwrapped, the empty-named member gone, location and user null. */
export function expectedDetail(wire: WireDetail): ArtistDetail {
  const { '': _notShown, items, ...profile } = wire
  return withoutDirections({ ...profile, location: null, user: null, items: items.map(({ item }) => item) }) as unknown as ArtistDetail
}

export interface RecordedRequest {
  url: string
  headers: http.IncomingHttpHeaders
}

export interface RawServer {
  /** http://127.0.0.1:PORT, no trailing slash. */
  url: string
  /** Every request seen, in order. */
  requests: RecordedRequest[]
  close(): Promise<void>
}

/** A node:http server on loopback that records each request and lets handler answer (or not). */
export async function startRawServer(
  handler: (request: http.IncomingMessage, response: http.ServerResponse) => void,
): Promise<RawServer> {
  const requests: RecordedRequest[] = []
  const server = http.createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers })
    handler(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** A raw server that answers every request with this JSON. */
export function startJsonServer(body: unknown): Promise<RawServer> {
  const text = JSON.stringify(body)
  return startRawServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    response.end(text)
  })
}

/** A reverse proxy that serves target under a path prefix, as a catalogue behind https://host/catalogue/ would be. */
export function startPrefixProxy(target: string, prefix: string): Promise<RawServer> {
  return startRawServer((request, response) => {
    const path = request.url ?? '/'
    if (!path.startsWith(`${prefix}/`)) {
      response.writeHead(404).end()
      return
    }
    const upstream = http.get(`${target}${path.slice(prefix.length)}`, { headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    })
    upstream.on('error', () => response.destroy())
  })
}

/** A port on loopback where nothing listens: a server is started, its port noted, and closed. */
export async function closedPort(): Promise<number> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** Milliseconds taken by run, with its settled result. */
export async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: PromiseSettledResult<T> }> {
  const start = performance.now()
  const [result] = await Promise.allSettled([run()])
  return { ms: performance.now() - start, result: result! }
}

/** The rejection of a promise that must reject; fails the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the call to fail, but it succeeded')
}

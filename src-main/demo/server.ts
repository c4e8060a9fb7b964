/**
 * The demo catalogue service on node:http: the three endpoints of the
 * interface, the files behind every hotlink_path, avatars, and test faults.
 */
import http from 'node:http'
import { setTimeout as delay } from 'node:timers/promises'
import type { Catalogue } from './catalogue'
import { avatarSvg } from './avatars'
import { FaultInjector, type Fault } from './faults'
import { UploadFile, requestedRange } from './files'
import { QueryError, parseListQuery } from './query'
import { ACCESS_LEVELS, artistDetailJson, listArtistJson } from './responses'

const ACCESS_LEVELS_JSON = JSON.stringify(ACCESS_LEVELS)
const FILE_CHUNK = 256 * 1024
/** A slow body is sent in ten slices a second. */
const SLOW_TICKS_PER_SECOND = 10

/** The kinds of request the demo tells apart. */
export type RequestKind = 'list' | 'artist' | 'levels' | 'avatar' | 'file' | 'other'

/**
 * Requests the service answered, by kind, and each API path's count; how many
 * were in flight at once; and when each kind was first asked for and last
 * answered (a sequence number over both): tests and benchmarks read them.
 */
export class RequestCounts {
  list = 0
  artist = 0
  levels = 0
  avatar = 0
  file = 0
  other = 0
  /** Every /api/ path (without its query) and how often it was asked for. */
  readonly byPath = new Map<string, number>()
  inFlight = 0
  maxInFlight = 0
  /** Of each kind, the sequence number of its first request and of its last answer's end. */
  readonly firstStarted = new Map<RequestKind, number>()
  readonly lastEnded = new Map<RequestKind, number>()
  private sequence = 0

  get total(): number {
    return this.list + this.artist + this.levels + this.avatar + this.file + this.other
  }

  /** Counts a request as it arrives; returns its kind, for `ended`. */
  count(pathname: string): RequestKind {
    const kind: RequestKind = /^\/api\/v1\/artists(?:\.json)?$/.test(pathname)
      ? 'list'
      : pathname.startsWith('/api/v1/artists/')
        ? 'artist'
        : pathname.startsWith('/api/v1/access_levels')
          ? 'levels'
          : pathname.startsWith('/avatars/')
            ? 'avatar'
            : pathname.startsWith('/hotlink/')
              ? 'file'
              : 'other'
    this[kind]++
    if (pathname.startsWith('/api/')) this.byPath.set(pathname, (this.byPath.get(pathname) ?? 0) + 1)
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight)
    if (!this.firstStarted.has(kind)) this.firstStarted.set(kind, ++this.sequence)
    return kind
  }

  /** A request's answer ended (sent, or its connection closed). */
  ended(kind: RequestKind): void {
    this.inFlight--
    this.lastEnded.set(kind, ++this.sequence)
  }

  /** One line for people: `12 requests: 5 list, 6 artist, 1 levels, 0 avatar, 0 file, 0 other`. */
  summary(): string {
    return `${this.total} requests: ${this.list} list, ${this.artist} artist, ${this.levels} levels, ${this.avatar} avatar, ${this.file} file, ${this.other} other`
  }

  reset(): void {
    this.list = this.artist = this.levels = this.avatar = this.file = this.other = 0
    this.byPath.clear()
    this.maxInFlight = this.inFlight
    this.firstStarted.clear()
    this.lastEnded.clear()
  }
}

interface Pacing {
  bytesPerSecond?: number
  dropAfter?: number
}

export class CatalogueServer {
  readonly faults = new FaultInjector()
  readonly requests = new RequestCounts()
  private origin = ''
  /** List entries rendered once per catalogue version; they make up every list page. */
  private listEntries = new Map<number, string>()
  private cachedVersion = -1

  /** Every answer waits this long first, as a service far away would (0: none). */
  constructor(
    readonly catalogue: Catalogue,
    private readonly latencyMs = 0,
  ) {}

  /** Where the server is reached; it appears in avatar and hotlink addresses. */
  setOrigin(origin: string): void {
    this.origin = origin
    this.listEntries.clear()
  }

  readonly handle = (request: http.IncomingMessage, response: http.ServerResponse): void => {
    this.route(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, JSON.stringify({ error: `internal error: ${String(error)}` }))
      else response.destroy()
    })
  }

  private async route(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = request.url ?? '/'
    const queryStart = url.indexOf('?')
    const pathname = queryStart < 0 ? url : url.slice(0, queryStart)
    const kind = this.requests.count(pathname)
    response.once('close', () => this.requests.ended(kind))
    if (this.latencyMs > 0) await delay(this.latencyMs)
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD')
      return sendJson(response, 405, JSON.stringify({ error: `method ${request.method} not allowed` }))
    }
    const fault = this.faults.take(pathname)
    if (fault && (await this.answerFault(fault, response))) return
    const pacing = pacingFor(fault)

    const api = /^\/api\/v1\/(artists|access_levels)(?:\/([^/]+?))?(?:\.json)?$/.exec(pathname)
    if (api) {
      const body =
        api[1] === 'access_levels' && api[2] === undefined
          ? ACCESS_LEVELS_JSON
          : api[1] === 'artists' && api[2] === undefined
            ? this.listBody(new URLSearchParams(queryStart < 0 ? '' : url.slice(queryStart + 1)), response)
            : api[1] === 'artists'
              ? this.artistBody(api[2]!, response)
              : notFound(response, 'no such endpoint')
      if (fault?.kind === 'malformed') return sendJson(response, 200, malformed(body), pacing, request)
      return sendJson(response, response.statusCode, body, pacing, request)
    }
    const hotlink = /^\/hotlink\/(\d+)\.([a-z0-9]+)$/.exec(pathname)
    if (hotlink) return this.sendFile(request, response, hotlink[1]!, hotlink[2]!, fault, pacing)
    const avatar = /^\/avatars\/a(\d+)(-thumb)?\.svg$/.exec(pathname)
    if (avatar) {
      const artist = this.catalogue.artists[Number(avatar[1])]
      if (artist) {
        const svg = avatarSvg(artist.username, avatar[2] ? 64 : 256)
        response.setHeader('Cache-Control', 'public, max-age=86400')
        return sendBody(request, response, 200, 'image/svg+xml', Buffer.from(svg), pacing)
      }
    }
    sendJson(response, 404, notFound(response, `nothing at ${pathname}`), pacing, request)
  }

  private listBody(params: URLSearchParams, response: http.ServerResponse): string {
    let query
    try {
      query = parseListQuery(params)
    } catch (error) {
      if (!(error instanceof QueryError)) throw error
      response.statusCode = 400
      return JSON.stringify({ error: error.message, parameter: error.parameter })
    }
    if (this.cachedVersion !== this.catalogue.version) {
      this.listEntries.clear()
      this.cachedVersion = this.catalogue.version
    }
    const result = this.catalogue.list(query)
    const entries = result.artists.map((artist) => {
      let entry = this.listEntries.get(artist.index)
      if (entry === undefined) {
        entry = listArtistJson(this.origin, this.catalogue, artist)
        this.listEntries.set(artist.index, entry)
      }
      return `{"artist":${entry}}`
    })
    response.statusCode = 200
    return `{"pages":${result.pages},"artists":[${entries.join(',')}]}`
  }

  private artistBody(encodedName: string, response: http.ServerResponse): string {
    let username: string
    try {
      username = decodeURIComponent(encodedName)
    } catch {
      response.statusCode = 400
      return JSON.stringify({ error: 'the username is not validly encoded', parameter: 'username' })
    }
    const artist = this.catalogue.findArtist(username)
    if (!artist) return notFound(response, `no artist named ${JSON.stringify(username)}`)
    response.statusCode = 200
    return artistDetailJson(this.origin, this.catalogue, artist)
  }

  private async sendFile(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    uploadId: string,
    ext: string,
    fault: Fault | undefined,
    pacing: Pacing,
  ): Promise<void> {
    const found = this.catalogue.findUpload(uploadId)
    if (!found || found.track.ext !== ext) {
      return sendJson(response, 404, notFound(response, `no upload ${uploadId}.${ext}`), pacing, request)
    }
    const file = new UploadFile(this.catalogue.options.seed, found.track)
    response.setHeader('Accept-Ranges', 'bytes')
    response.setHeader('ETag', file.etag)
    response.setHeader('Last-Modified', file.lastModified)
    response.setHeader('Content-Type', file.contentType)
    const range =
      fault?.kind === 'ignoreRange'
        ? ({ kind: 'whole' } as const)
        : requestedRange(header(request, 'range'), header(request, 'if-range'), file)
    if (range.kind === 'unsatisfiable') {
      response.setHeader('Content-Range', `bytes */${file.size}`)
      return sendJson(response, 416, JSON.stringify({ error: 'range not satisfiable' }), {}, request)
    }
    const start = range.kind === 'partial' ? range.start : 0
    const end = range.kind === 'partial' ? range.end : file.size - 1
    if (range.kind === 'partial') response.setHeader('Content-Range', `bytes ${start}-${end}/${file.size}`)
    response.statusCode = range.kind === 'partial' ? 206 : 200
    response.setHeader('Content-Length', end - start + 1)
    if (request.method === 'HEAD') {
      response.end()
      return
    }
    await writeBody(response, end - start + 1, (chunk, offset) => file.fill(chunk, start + offset), pacing)
  }

  /** Faults that replace the answer altogether; returns false for those that only shape (or delay) it. */
  private async answerFault(fault: Fault, response: http.ServerResponse): Promise<boolean> {
    switch (fault.kind) {
      case 'delay': {
        // Not a moment longer than the client waits: a request it gave up on (or a service closed) ends the wait.
        const waited = new AbortController()
        let gone = false
        response.once('close', () => {
          gone = true
          waited.abort()
        })
        await delay(fault.ms, undefined, { signal: waited.signal }).catch(() => undefined)
        return gone
      }
      case 'status':
        if (fault.retryAfter !== undefined) response.setHeader('Retry-After', String(fault.retryAfter))
        sendJson(response, fault.status, JSON.stringify({ error: `injected ${fault.status}` }))
        return true
      case 'respond':
        for (const [name, value] of Object.entries(fault.headers ?? {})) response.setHeader(name, value)
        response.statusCode = fault.status
        response.end(fault.body ?? '')
        return true
      default:
        return false
    }
  }
}

function header(request: http.IncomingMessage, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function pacingFor(fault: Fault | undefined): Pacing {
  if (fault?.kind === 'slow') return { bytesPerSecond: fault.bytesPerSecond }
  if (fault?.kind === 'drop') return { dropAfter: fault.afterBytes }
  if (fault?.kind === 'truncated') return { dropAfter: -1 } // resolved to half the body when it is known
  return {}
}

function notFound(response: http.ServerResponse, message: string): string {
  response.statusCode = 404
  return JSON.stringify({ error: message })
}

/** A body that starts like the real one and then stops being JSON. */
function malformed(body: string): string {
  return `${body.slice(0, Math.floor(body.length / 2))}<html><body>Bad gateway</body></html>`
}

function sendJson(
  response: http.ServerResponse,
  status: number,
  body: string,
  pacing: Pacing = {},
  request?: http.IncomingMessage,
): void {
  response.setHeader('Cache-Control', 'no-cache')
  sendBody(request, response, status, 'application/json; charset=utf-8', Buffer.from(body), pacing).catch(() =>
    response.destroy(),
  )
}

async function sendBody(
  request: http.IncomingMessage | undefined,
  response: http.ServerResponse,
  status: number,
  contentType: string,
  body: Buffer,
  pacing: Pacing,
): Promise<void> {
  response.statusCode = status
  response.setHeader('Content-Type', contentType)
  response.setHeader('Content-Length', body.length)
  if (request?.method === 'HEAD') {
    response.end()
    return
  }
  if (pacing.bytesPerSecond === undefined && pacing.dropAfter === undefined) {
    response.end(body)
    return
  }
  await writeBody(response, body.length, (chunk, offset) => body.copy(chunk, 0, offset, offset + chunk.length), pacing)
}

/**
 * Writes length bytes produced by fill, honouring back-pressure, an optional
 * byte rate and an optional point at which the connection is dropped.
 */
async function writeBody(
  response: http.ServerResponse,
  length: number,
  fill: (chunk: Buffer, offset: number) => void,
  pacing: Pacing,
): Promise<void> {
  const dropAfter = pacing.dropAfter === -1 ? Math.floor(length / 2) : pacing.dropAfter
  const limit = dropAfter === undefined ? length : Math.min(length, dropAfter)
  const sliceSize = pacing.bytesPerSecond
    ? Math.max(1, Math.floor(pacing.bytesPerSecond / SLOW_TICKS_PER_SECOND))
    : FILE_CHUNK
  let closed = false
  response.once('close', () => (closed = true))
  let offset = 0
  while (offset < limit && !closed) {
    const chunk = Buffer.allocUnsafe(Math.min(sliceSize, limit - offset))
    fill(chunk, offset)
    offset += chunk.length
    const flushed = response.write(chunk)
    if (pacing.bytesPerSecond) await delay(1000 / SLOW_TICKS_PER_SECOND)
    else if (!flushed) await drained(response)
  }
  if (closed) return
  if (limit < length) {
    // Let what was written reach the client, then cut the connection mid-body.
    await new Promise<void>((resolve) => response.write('', () => resolve()))
    response.socket?.destroy()
    return
  }
  response.end()
}

/** Resolves when the response can take more data, or is gone. */
function drained(response: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('drain', done).off('close', done)
      resolve()
    }
    response.on('drain', done).on('close', done)
  })
}

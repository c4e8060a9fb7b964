/**
 * The web bridge of `npm run web`: the built renderer and the IPC contract
 * over HTTP on loopback, backed by the core's host as the Electron main
 * process runs it: the same dispatch, handlers and validation.
 *
 *   GET  /?token=T             the page, which takes the token from its address and keeps it (never a cookie)
 *   GET  /assets/...           the built renderer's files (no token needed, nor for the page)
 *   POST /api/<channel>        body: the argument list as JSON → the tagged result as JSON
 *   GET  /events               server-sent events: first `{"snapshot": ...}` (the session's state, taken once
 *                              the stream is open, so nothing falls between), then each message a JSON list
 *                              of session events; a stream that reconnects starts with a snapshot again
 *   GET  /media/<key>/avatars/<a>  a cached avatar; /media/<key>/downloads/<id> a downloaded file (ranges kept)
 *
 * Calls and events need the run's random token (the `x-tuneshelf-token`
 * header, or `?token=` on a GET, for EventSource); media need the media key
 * derived from it, which app:info and downloads:playbackAddress put in their
 * addresses (web/credentials.ts). Nothing is ever a cookie: a browser would
 * send it to every other server on 127.0.0.1. A Host other than this
 * server's (DNS rebinding) or an Origin other than its own is refused.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import type { Disposable } from '../core/base/events'
import type { CoreClient } from '../main-process/core-client'
import { MEDIA_POLICY, headerPolicy } from '../core/shared/content-security'
import type { Tagged } from '../core/shared/contract'
import { InvalidArgumentError, RejectedError, serializeError, TuneshelfError } from '../core/shared/errors'
import { createDispatch } from '../main-process/dispatch'
import { subscribeWindow } from '../main-process/event-stream'
import { mediaResponse } from '../main-process/media'
import { metaContentSecurityPolicy, resolveStaticFile } from '../main-process/static-files'
import { windowHandlers } from '../main-process/window-handlers'
import { MEDIA_PREFIX, createCredentials } from './credentials'
import { webPlatform } from './platform'

export interface WebBridgeOptions {
  /** The core: its host started, its session open. */
  core: CoreClient
  /** The data folder, as app:info tells it. */
  dataDir: string
  /** The built renderer (`out/renderer`), with its index.html. */
  rendererDir: string
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number
  /** The bridge listens on loopback only. */
  host?: '127.0.0.1'
  /** A comment on every event stream this often, so proxies and browsers keep it open (default 15 s). */
  heartbeatMs?: number
  /** Where failures of the bridge itself are reported (default: stderr). */
  log?: (line: string) => void
}

export interface WebBridge {
  /** The address that opens the app, token included: `http://127.0.0.1:PORT/?token=T`. */
  url: string
  /** `http://127.0.0.1:PORT` */
  origin: string
  port: number
  /** This run's token. */
  token: string
  /** Ends the event streams and every connection, and stops listening. The session stays open. */
  close(): Promise<void>
}

/** The largest request body: an argument list is far smaller. */
export const MAX_BODY_BYTES = 1024 * 1024
/** An event stream whose reader stopped reading is dropped once this much waits to be sent. */
const MAX_STREAM_BACKLOG = 4 * 1024 * 1024

export async function startWebBridge(options: WebBridgeOptions): Promise<WebBridge> {
  const { core } = options
  const rendererDir = path.resolve(options.rendererDir)
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const heartbeatMs = options.heartbeatMs ?? 15_000
  const credentials = createCredentials()
  const { token } = credentials
  const dispatch = createDispatch(core, windowHandlers(core, webPlatform(credentials.mediaBase), options.dataDir))

  const server = http.createServer()
  const sockets = new Set<Socket>()
  const streams = new Set<http.ServerResponse>()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const origin = `http://127.0.0.1:${port}`
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`])

  /**
   * The page holds no secret (its scripts are served to anyone, as they are), so it is served without
   * the token: the window takes the token from its address, keeps it for the tab and takes it out of
   * the address bar, so a reload still works; without one it says to open the address printed.
   */
  const page = (request: http.IncomingMessage, response: http.ServerResponse): void => {
    let html: string
    try {
      html = fs.readFileSync(path.join(rendererDir, 'index.html'), 'utf8')
    } catch {
      sendText(response, 503, `Tuneshelf: there is no built window in ${rendererDir}; run \`npm run build\`.\n`)
      return
    }
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(html),
      'cache-control': 'no-store',
      'content-security-policy': headerPolicy(metaContentSecurityPolicy(html)),
    })
    response.end(request.method === 'HEAD' ? undefined : html)
  }

  const staticFile = (request: http.IncomingMessage, response: http.ServerResponse, url: URL): void => {
    const found = resolveStaticFile(rendererDir, url.pathname)
    if (!found) {
      sendText(response, 404, 'Not found\n')
      return
    }
    response.writeHead(200, { 'content-type': found.contentType, 'content-length': found.size, 'cache-control': 'no-cache' })
    if (request.method === 'HEAD') {
      response.end()
      return
    }
    pipeline(fs.createReadStream(found.file), response).catch(() => response.destroy())
  }

  const api = async (request: http.IncomingMessage, response: http.ServerResponse, url: URL): Promise<void> => {
    if (request.method !== 'POST') {
      sendTagged(response, 405, failure(new InvalidArgumentError(`${request.method} ${url.pathname}: calls are POST requests`)), { allow: 'POST' })
      return
    }
    const declared = Number(request.headers['content-length'] ?? 0)
    if (declared > MAX_BODY_BYTES) {
      sendTagged(response, 413, failure(tooLarge()), { connection: 'close' })
      return
    }
    let channel: string
    try {
      channel = decodeURIComponent(url.pathname.slice('/api/'.length))
    } catch {
      channel = url.pathname.slice('/api/'.length)
    }
    const body = await readBody(request, MAX_BODY_BYTES)
    if (body === undefined) {
      sendTagged(response, 413, failure(tooLarge()), { connection: 'close' })
      return
    }
    let args: unknown
    try {
      args = body.trim() === '' ? [] : JSON.parse(body)
    } catch (error) {
      sendTagged(response, 200, failure(new InvalidArgumentError(`the arguments of ${channel.slice(0, 100)} are not JSON: ${(error as Error).message}`)))
      return
    }
    sendTagged(response, 200, await dispatch(channel, args))
  }

  const events = (request: http.IncomingMessage, response: http.ServerResponse): void => {
    if (request.method !== 'GET') {
      sendText(response, 405, 'Method not allowed\n', { allow: 'GET' })
      return
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    })
    // How long a browser waits before reconnecting, and a first line so the stream opens at once.
    response.write('retry: 1000\n: connected\n\n')
    streams.add(response)
    const write = (text: string): void => {
      if (response.writableLength > MAX_STREAM_BACKLOG) response.destroy()
      else response.write(text)
    }
    const heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs)
    let subscription: Disposable | undefined
    let closed = false
    response.once('close', () => {
      closed = true
      clearInterval(heartbeat)
      subscription?.dispose()
      streams.delete(response)
    })
    // The snapshot goes first, then every event after it (subscribeWindow holds those that come meanwhile).
    void subscribeWindow(core, (batch) => write(`data: ${JSON.stringify(batch)}\n\n`)).then(
      (subscribed) => {
        if (closed) return subscribed.dispose()
        subscription = subscribed
        write(`data: ${JSON.stringify({ snapshot: subscribed.snapshot })}\n\n`)
      },
      () => response.destroy(),
    )
  }

  /** A media request, its path without the prefix and key (`/avatars/...`, `/downloads/<id>`). */
  const media = async (request: http.IncomingMessage, response: http.ServerResponse, mediaPath: string, url: URL): Promise<void> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendText(response, 405, 'Method not allowed\n', { allow: 'GET, HEAD' })
      return
    }
    const abort = new AbortController()
    response.once('close', () => abort.abort())
    const headers = new Headers()
    for (const name of ['range', 'if-range', 'if-none-match', 'if-modified-since', 'accept']) {
      const value = request.headers[name]
      if (typeof value === 'string') headers.set(name, value)
    }
    const inner = new Request(new URL(mediaPath + url.search, origin), {
      method: request.method,
      headers,
      signal: abort.signal,
    })
    const answer = await mediaResponse(core, inner)
    const outgoing: Record<string, string> = { 'content-security-policy': MEDIA_POLICY }
    answer.headers.forEach((value, name) => {
      if (name !== 'set-cookie' && name !== 'connection' && name !== 'transfer-encoding') outgoing[name] = value
    })
    response.writeHead(answer.status, outgoing)
    if (!answer.body || request.method === 'HEAD') {
      await answer.body?.cancel().catch(() => undefined)
      response.end()
      return
    }
    // A reader that goes away (a seek, a closed tab) ends the copy: not a failure of the bridge.
    await pipeline(Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>), response).catch(() => undefined)
  }

  const route = async (request: http.IncomingMessage, response: http.ServerResponse): Promise<void> => {
    setCommonHeaders(response)
    const host = request.headers.host
    if (host === undefined || !hosts.has(host.toLowerCase())) {
      sendText(response, 403, 'Forbidden: this server answers only to its own address (127.0.0.1 or localhost, its port)\n')
      return
    }
    const requestOrigin = request.headers.origin
    if (requestOrigin !== undefined && requestOrigin !== `http://${host.toLowerCase()}`) {
      sendText(response, 403, 'Forbidden: requests from other origins are refused\n')
      return
    }
    const target = request.url ?? '/'
    if (!target.startsWith('/') || target.startsWith('//')) {
      sendText(response, 400, 'Bad request\n')
      return
    }
    const url = new URL(target, origin)
    const { pathname } = url
    if (pathname === '/' || pathname === '/index.html') {
      if (request.method !== 'GET' && request.method !== 'HEAD') sendText(response, 405, 'Method not allowed\n', { allow: 'GET, HEAD' })
      else page(request, response)
      return
    }
    const isApi = pathname.startsWith('/api/')
    const refusal = (): RejectedError => new RejectedError('the web bridge needs the token of this run: open the address `npm run web` printed', { status: 401 })
    if (isApi || pathname === '/events') {
      if (!credentials.authorised(request, url)) {
        if (isApi) sendTagged(response, 401, failure(refusal()))
        else sendText(response, 401, `Unauthorized: ${refusal().message}\n`)
        return
      }
      if (isApi) await api(request, response, url)
      else events(request, response)
      return
    }
    if (pathname.startsWith(`${MEDIA_PREFIX}/`)) {
      const mediaPath = credentials.mediaPathOf(pathname)
      if (mediaPath === undefined) sendText(response, 401, `Unauthorized: ${refusal().message}\n`)
      else await media(request, response, mediaPath, url)
      return
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendText(response, 405, 'Method not allowed\n', { allow: 'GET, HEAD' })
      return
    }
    staticFile(request, response, url)
  }

  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    route(request, response).catch((error: unknown) => {
      // A client that went away mid-call (its body cut off, its socket closed) is no failure of the
      // bridge: nothing to log, nothing to answer. Anything else is one line, so a caller that
      // fails call after call cannot flood the log with stack traces.
      if (request.destroyed || response.destroyed || (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
        response.destroy()
        return
      }
      log(`web bridge: ${request.method} ${request.url?.split('?')[0]} failed: ${oneLine(error)}`)
      if (!response.headersSent) sendText(response, 500, 'Internal error\n')
      else response.destroy()
    })
  })

  let closing: Promise<void> | undefined
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const stream of streams) stream.end()
        for (const socket of sockets) socket.destroy()
      })),
  }
}

function setCommonHeaders(response: http.ServerResponse): void {
  response.setHeader('x-content-type-options', 'nosniff')
  response.setHeader('referrer-policy', 'no-referrer')
  response.setHeader('x-frame-options', 'DENY')
  // Nothing here is for other origins to embed, not even an image.
  response.setHeader('cross-origin-resource-policy', 'same-origin')
}

function failure(error: TuneshelfError): Tagged<never> {
  return { ok: false, error: serializeError(error) }
}

function tooLarge(): InvalidArgumentError {
  return new InvalidArgumentError(`the arguments are larger than ${MAX_BODY_BYTES} bytes`)
}

function sendTagged(response: http.ServerResponse, status: number, result: Tagged<unknown>, headers: Record<string, string> = {}): void {
  let body: string
  try {
    body = JSON.stringify(result)
  } catch (error) {
    body = JSON.stringify(failure(new InvalidArgumentError(`the result cannot be sent as JSON: ${(error as Error).message}`)))
  }
  response.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  })
  response.end(body)
}

function sendText(response: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, {
    ...headers,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  })
  response.end(text)
}

/** The body as text, or undefined once it passes limit (the rest is not read). */
/** An error in one line: its message, and where it was thrown when that is a fault of the code (not a Tuneshelf error). */
function oneLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error).split('\n')[0]!
  const at = error instanceof TuneshelfError ? undefined : error.stack?.split('\n').find((line) => line.trimStart().startsWith('at '))
  return `${error.name}: ${error.message.split('\n')[0]}${at ? ` (${at.trim()})` : ''}`
}

function readBody(request: http.IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size > limit) {
        request.off('data', onData)
        request.pause()
        resolve(undefined)
        return
      }
      chunks.push(chunk)
    }
    request.on('data', onData)
    request.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.once('error', reject)
  })
}

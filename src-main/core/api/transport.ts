/**
 * One HTTP exchange on got: the body collected under a size cap, timeouts and
 * cancellation applied, and every got failure turned into a CatalogueError.
 * Retrying is the client's job, so got's own retry is off.
 */
import type { IncomingHttpHeaders } from 'node:http'
import got, { MaxRedirectsError, RequestError, TimeoutError, type PlainResponse } from 'got'
import { BadResponseError, NetworkError } from './errors'
import { isHttpUrl } from './urls'

/** Settings fixed for the life of a client. */
export interface TransportOptions {
  userAgent: string
  connectTimeoutMs: number
  idleTimeoutMs: number
}

/** What varies per request. */
export interface ExchangeRequest {
  accept: string
  maxBytes: number
  signal?: AbortSignal | undefined
}

/** A complete answer of any status; 3xx only when the redirect was not followed. */
export interface Exchange {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

/** Performs one GET; rejects with NetworkError, BadResponseError (too big, broken redirect) or the signal's reason. */
export type Transport = (url: string, request: ExchangeRequest) => Promise<Exchange>

/** A transport with the client's settings baked into one got instance. */
export function createTransport(options: TransportOptions): Transport {
  const http = got.extend({
    // Our retry loop also covers bad JSON, which got's does not; two loops would multiply attempts.
    retry: { limit: 0 },
    timeout: { connect: options.connectTimeoutMs, socket: options.idleTimeoutMs },
    // Statuses are the client's to interpret (404 and 429 mean different things to it).
    throwHttpErrors: false,
    decompress: true,
    followRedirect: redirectsToHttp,
    headers: { 'user-agent': options.userAgent },
  })

  return (url, { accept, maxBytes, signal }) =>
    new Promise<Exchange>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason)
        return
      }
      const stream = http.stream(url, { headers: { accept } })
      const chunks: Buffer[] = []
      let received = 0
      let status = 0
      let headers: IncomingHttpHeaders = {}
      let settled = false

      const finish = (error: unknown, exchange?: Exchange): void => {
        if (settled) return
        settled = true
        signal?.removeEventListener('abort', onAbort)
        if (exchange) {
          resolve(exchange)
        } else {
          stream.destroy()
          reject(error)
        }
      }
      const onAbort = (): void => finish(signal?.reason)
      const tooBig = (size: string): BadResponseError =>
        new BadResponseError(url, `the body (${size}) is over the limit of ${maxBytes} bytes`, undefined)

      signal?.addEventListener('abort', onAbort, { once: true })
      stream.on('response', (response: PlainResponse) => {
        status = response.statusCode
        headers = response.headers
        // Refuse at once what the headers already say is too big, rather than download it to find out.
        const declared = Number(response.headers['content-length'])
        if (declared > maxBytes) finish(tooBig(`${declared} bytes by its Content-Length`))
      })
      stream.on('data', (chunk: Buffer) => {
        received += chunk.length
        // Counted after decompression, so a small compressed body cannot expand without limit.
        if (received > maxBytes) finish(tooBig('more than that, while reading'))
        else chunks.push(chunk)
      })
      stream.on('end', () => finish(undefined, { status, headers, body: Buffer.concat(chunks, received) }))
      stream.on('error', (error: Error) => finish(transportError(url, error, options)))
    })
}

/** got's followRedirect test: follow only to http and https, so a redirect cannot reach file: or data:. */
function redirectsToHttp(response: PlainResponse): boolean {
  const location = response.headers.location
  if (location === undefined) return false
  try {
    return isHttpUrl(new URL(location, response.url))
  } catch {
    return false
  }
}

function transportError(url: string, error: Error, options: TransportOptions): NetworkError | BadResponseError {
  if (error instanceof TimeoutError) {
    const detail =
      error.event === 'connect'
        ? `no connection within ${options.connectTimeoutMs} ms`
        : error.event === 'socket'
          ? `no data for ${options.idleTimeoutMs} ms`
          : `timed out (${error.event})`
    return new NetworkError(url, detail, error.code, { cause: error })
  }
  if (error instanceof MaxRedirectsError) return new BadResponseError(url, error.message, undefined, { cause: error })
  const code = error instanceof RequestError ? error.code : undefined
  if (code === 'ERR_UNSUPPORTED_PROTOCOL') return new BadResponseError(url, error.message, undefined, { cause: error })
  return new NetworkError(url, `network error: ${error.message}`, code, { cause: error })
}

/**
 * One HTTP exchange for the catalogue client: the body collected under a size
 * cap, cancellation applied, and every failure a core error. Retrying is the
 * client's job.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { PlainResponse } from 'got'
import { BadResponseError, NetworkError, cancelledBy } from '../shared/errors'
import { formatBytes } from '../shared/format'
import { httpError, type Http } from './http'
import { redactUrl } from '../shared/urls'

/** What varies per request. */
export interface ExchangeRequest {
  accept: string
  maxBytes: number
  /**
   * The longest the whole exchange may take, from the request to the body's
   * last byte: a server that trickles a byte now and then never trips the idle
   * timeout, and would hold the request (and a sync's lock) forever.
   */
  deadlineMs?: number | undefined
  signal?: AbortSignal | undefined
}

/** A complete answer of any status; 3xx only when the redirect was not followed. */
export interface Exchange {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

/** Performs one GET; rejects with NetworkError (also past the deadline), BadResponseError (too big, broken redirect) or CancelledError. */
export type Transport = (url: string, request: ExchangeRequest) => Promise<Exchange>

/** A transport on the app's one got set-up. */
export function createTransport(http: Http): Transport {
  return (url, { accept, maxBytes, deadlineMs, signal }) =>
    new Promise<Exchange>((resolve, reject) => {
      if (signal?.aborted) {
        reject(cancelledBy(signal))
        return
      }
      const stream = http.got.stream(url, { headers: { accept }, decompress: true })
      const chunks: Buffer[] = []
      let received = 0
      let status = 0
      let headers: IncomingHttpHeaders = {}
      let settled = false

      const finish = (error: unknown, exchange?: Exchange): void => {
        if (settled) return
        settled = true
        clearTimeout(deadline)
        signal?.removeEventListener('abort', onAbort)
        if (exchange) {
          resolve(exchange)
        } else {
          stream.destroy()
          reject(error)
        }
      }
      const onAbort = (): void => finish(cancelledBy(signal!))
      const tooBig = (size: string): BadResponseError =>
        new BadResponseError(`GET ${redactUrl(url)}: the answer is larger than ${formatBytes(maxBytes)} (${size}, over the limit of ${maxBytes} bytes)`, { url })
      // Worth a retry, as any network failure: the next attempt may find a healthy server.
      const deadline =
        deadlineMs === undefined
          ? undefined
          : setTimeout(
              () => finish(new NetworkError(`GET ${redactUrl(url)}: no complete answer within ${deadlineMs} ms`, { url, systemCode: 'ETIMEDOUT' })),
              deadlineMs,
            )

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
      // Most answers of the service come in one chunk: kept as it is, not copied into a new buffer.
      const body = (): Buffer => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received))
      stream.on('end', () => finish(undefined, { status, headers, body: body() }))
      stream.on('error', (error: Error) => finish(httpError(http, url, error)))
    })
}

/**
 * The errors of the catalogue client. Every failure of a call is one of these
 * (or the AbortSignal's reason), so callers can tell "try later" from "this
 * artist is gone" from "the service is not what we expect".
 */

/** Any failure of a catalogue request; the message names the URL asked for. */
export class CatalogueError extends Error {
  override name = 'CatalogueError'

  constructor(
    /** The URL the client asked for (before any redirect). */
    readonly url: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`GET ${shortened(url)}: ${detail}`, options)
  }
}

/** A data: address can be megabytes long; the message only needs to show which one it was. */
function shortened(url: string): string {
  return url.length <= 300 ? url : `${url.slice(0, 300)}…`
}

/** The service answered 404: the artist (or endpoint) does not exist. */
export class NotFoundError extends CatalogueError {
  override name = 'NotFoundError'
}

/** The service answered 429 until retries ran out, or asked for a longer wait than the client accepts. */
export class RateLimitedError extends CatalogueError {
  override name = 'RateLimitedError'

  constructor(
    url: string,
    detail: string,
    /** The last Retry-After the service sent, in milliseconds, if any. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(url, detail)
  }
}

/** The service answered 5xx until retries ran out. */
export class ServerError extends CatalogueError {
  override name = 'ServerError'

  constructor(
    url: string,
    detail: string,
    readonly status: number,
  ) {
    super(url, detail)
  }
}

/** The service refused the request (a 4xx other than 404 and 429); asking again would not help. */
export class RejectedError extends CatalogueError {
  override name = 'RejectedError'

  constructor(
    url: string,
    detail: string,
    readonly status: number,
    /** The response body as text, usually the service's JSON error. */
    readonly body: string,
  ) {
    super(url, detail)
  }
}

/** The exchange failed below HTTP: refused, reset, dropped mid-body, or timed out. */
export class NetworkError extends CatalogueError {
  override name = 'NetworkError'

  constructor(
    url: string,
    detail: string,
    /** The system or got error code, e.g. ECONNREFUSED, ECONNRESET, ETIMEDOUT. */
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(url, detail, options)
  }
}

/** The answer is unusable: not JSON, too big, a refused redirect, or JSON of the wrong shape. */
export class BadResponseError extends CatalogueError {
  override name = 'BadResponseError'

  constructor(
    url: string,
    detail: string,
    /** The path of the offending member, e.g. `artists[3].artist.num_tracks`, when the shape is wrong. */
    readonly field: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(url, detail, options)
  }
}

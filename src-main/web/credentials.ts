/**
 * Who may use the web bridge: whoever holds this run's token, sent by the
 * page itself, and never as a cookie. A browser sends a cookie along with
 * every request to its host whatever the port, and to every server on that
 * host: a page served by any other program on 127.0.0.1 would receive it.
 *
 * - Calls (POST /api/...) carry the token in the `x-tuneshelf-token` header,
 *   which no other origin can set without a preflight the bridge never grants.
 * - The event stream, which EventSource opens without headers, carries it as
 *   `?token=` (GET only).
 * - Media (<img>, <audio>) carry neither: their addresses hold the media key,
 *   `/media/<key>/avatars/...`, derived from the token. It opens media and
 *   nothing else, so an address copied out of the page opens no call.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type http from 'node:http'

export const TOKEN_HEADER = 'x-tuneshelf-token'
/** Where the bridge serves media: `/media/<key>/avatars/<address>`, `/media/<key>/downloads/<id>`. */
export const MEDIA_PREFIX = '/media'

export interface Credentials {
  /** This run's token: random, 256 bits. */
  readonly token: string
  /** The prefix of this run's media addresses, key included: `/media/<key>`. */
  readonly mediaBase: string
  /** Whether a call or the event stream carries the token where its route accepts it. */
  authorised(request: http.IncomingMessage, url: URL): boolean
  /** The media path a `/media/<key>/...` address names (`/avatars/...`), or undefined without this run's key. */
  mediaPathOf(pathname: string): string | undefined
}

export function createCredentials(): Credentials {
  const token = randomBytes(32).toString('base64url')
  // Derived, so it needs no storage; one-way, so it never gives the token back.
  const mediaKey = createHmac('sha256', token).update('tuneshelf web bridge: media').digest('base64url')
  const isToken = same(token)
  const isMediaKey = same(mediaKey)
  return {
    token,
    mediaBase: `${MEDIA_PREFIX}/${mediaKey}`,
    authorised: (request, url) => {
      const header = request.headers[TOKEN_HEADER]
      if (typeof header === 'string' && isToken(header)) return true
      // EventSource cannot send a header; a GET changes nothing.
      return (request.method === 'GET' || request.method === 'HEAD') && isToken(url.searchParams.get('token') ?? '')
    },
    mediaPathOf: (pathname) => {
      if (!pathname.startsWith(`${MEDIA_PREFIX}/`)) return undefined
      const rest = pathname.slice(MEDIA_PREFIX.length + 1)
      const slash = rest.indexOf('/')
      if (slash === -1 || !isMediaKey(rest.slice(0, slash))) return undefined
      return rest.slice(slash)
    },
  }
}

/** A comparison with secret that takes as long whatever the candidate shares with it. */
function same(secret: string): (candidate: string) => boolean {
  const expected = Buffer.from(secret)
  return (candidate) => {
    const bytes = Buffer.from(candidate)
    return bytes.length === expected.length && timingSafeEqual(bytes, expected)
  }
}

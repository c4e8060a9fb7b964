/** Base URL normalisation and the addresses the client is willing to fetch. */
import { CatalogueError } from './errors'

/** True for the only protocols the client speaks, also after a redirect. */
export function isHttpUrl(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:'
}

/**
 * The base URL as endpoint paths are appended to it: http or https, any path
 * prefix kept, no trailing slash. Throws a TypeError for anything else, since a
 * base URL comes from settings and should be refused before any request.
 */
export function normaliseBaseUrl(baseUrl: string): string {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new TypeError(`the catalogue base URL is not a valid address: ${JSON.stringify(baseUrl)}`)
  }
  if (!isHttpUrl(url)) throw new TypeError(`the catalogue base URL must be http or https, not ${url.protocol} (${baseUrl})`)
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`the catalogue base URL cannot carry a query or a fragment (${baseUrl})`)
  }
  return url.href.replace(/\/+$/, '')
}

/**
 * Path of the single-artist endpoint. The interface lets every path carry a
 * `.json` suffix, so the service would read `/artists/foo.json` as the artist
 * `foo`; a username that itself ends in `.json` gets the suffix added so that
 * only the added one is taken off. Likewise `.` and `..`, which URL parsing
 * would otherwise resolve away as dot segments, even when percent-encoded.
 */
export function artistPath(username: string): string {
  const needsSuffix = username === '.' || username === '..' || /\.json$/i.test(username)
  return `/api/v1/artists/${encodeURIComponent(username)}${needsSuffix ? '.json' : ''}`
}

/**
 * An avatar (or other file) address as the service gives it, made absolute:
 * a protocol-relative `//host/x` takes the base URL's protocol. Only http and
 * https addresses are accepted, so a hostile catalogue cannot point the app at
 * `file:` or `data:` content.
 */
export function resolveFileUrl(address: string, baseUrl: string): string {
  const absolute = address.startsWith('//') ? `${new URL(baseUrl).protocol}${address}` : address
  let url: URL
  try {
    url = new URL(absolute)
  } catch {
    throw new CatalogueError(address, 'not an absolute http or https address')
  }
  if (!isHttpUrl(url)) throw new CatalogueError(address, `refusing a ${url.protocol} address: only http and https are fetched`)
  return url.href
}

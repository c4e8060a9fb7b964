/**
 * Every URL rule of the app in one place: the base URL's one canonical form
 * (the cache key and the client always agree), the addresses the app is
 * willing to fetch, and a URL made safe to show (no password).
 */
import { BadResponseError, InvalidArgumentError } from './errors'

/** text as a URL, or undefined where it is none: for callers that pass such text on, or refuse it, as they are. */
export function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/** True for the only protocols the app speaks, also after a redirect. */
export function isHttpUrl(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:'
}

/**
 * The base URL as endpoint paths are appended to it: http or https, lower-case
 * scheme and host, any path prefix kept, no trailing slash. Anything else is an
 * InvalidArgumentError, since a base URL comes from settings or a flag and
 * should be refused before any request.
 */
export function normaliseBaseUrl(baseUrl: string): string {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new InvalidArgumentError(`the service's base URL is not a valid address: ${JSON.stringify(redactUrl(baseUrl))}`, {
      field: 'baseUrl',
    })
  }
  if (!isHttpUrl(url)) {
    throw new InvalidArgumentError(`the service's base URL must be http or https, not ${url.protocol} (${redactUrl(baseUrl)})`, {
      field: 'baseUrl',
    })
  }
  // An empty `?` or `#` leaves search and hash empty but stays in href, where paths would be appended after it.
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(url.href)) {
    throw new InvalidArgumentError(`the service's base URL cannot carry a query or a fragment (${redactUrl(baseUrl)})`, {
      field: 'baseUrl',
    })
  }
  return url.href.replace(/\/+$/, '')
}

/** True when text is a base URL normaliseBaseUrl accepts. */
export function isValidBaseUrl(text: string): boolean {
  try {
    normaliseBaseUrl(text)
    return true
  } catch {
    return false
  }
}

/**
 * The base URL as it names a catalogue: normalised, without a password, so a
 * changed password keeps the same cache and the cache never stores it.
 */
export function catalogueKey(baseUrl: string): string {
  const url = new URL(normaliseBaseUrl(baseUrl))
  url.password = ''
  return url.href.replace(/\/+$/, '')
}

/**
 * A URL safe to print or log: any password replaced by `***`. Text that is not
 * a URL is returned as it is, minus anything that looks like `user:password@`.
 */
export function redactUrl(text: string): string {
  let shown = text
  try {
    const url = new URL(text)
    if (url.password !== '') {
      url.password = '***'
      // URL adds a slash after a bare origin; what is shown keeps the shape it was given in.
      shown = !text.endsWith('/') && url.pathname === '/' && url.search === '' && url.hash === '' ? url.href.slice(0, -1) : url.href
    }
  } catch {
    // Not one URL: a message that contains some.
  }
  // Then any `//user:password@` left: in a message, in a URL's query, or in text that parses as a URL of
  // another scheme (`error: see http://user:pw@host` is one, of the scheme `error:`). The password runs to
  // the last `@` before the path, as URL parsing reads it: `a:p@ss@host` has the password `p@ss`.
  return shown.replace(/(\/\/[^/@:\s]*):[^/\s]*@/g, '$1:***@')
}

/**
 * An address as the app keeps it (a download's file address): without user-info.
 * A base URL's password is added to each request to the base URL's own origin
 * (credentialsFor), never stored; text that is not a URL is only redacted.
 */
export function withoutUserInfo(address: string): string {
  // Most addresses have none: no parsing for them (a queue lists thousands).
  if (!address.includes('@')) return address
  const url = parseUrl(address)
  if (url === undefined) return redactUrl(address)
  if (url.username === '' && url.password === '') return address
  url.username = ''
  url.password = ''
  return url.href
}

/**
 * The user name and password of baseUrl, for a request to address: only when
 * address is on the base URL's own origin (scheme, host and port), so they are
 * never sent to another host; undefined when the base URL has none.
 */
export function credentialsFor(address: string, baseUrl: string): { username: string; password: string } | undefined {
  let base: URL
  let url: URL
  try {
    base = new URL(baseUrl)
    url = new URL(address)
  } catch {
    return undefined
  }
  if ((base.username === '' && base.password === '') || url.origin !== base.origin) return undefined
  return { username: decoded(base.username), password: decoded(base.password) }
}

/** A percent-encoded part of a URL as text (as it is kept when it is not valid encoding). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
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
 * An address as the service gives it (an avatar, a hotlink_path) made absolute:
 * a protocol-relative `//host/x` takes the base URL's protocol, a path is taken
 * relative to the base URL. Only http and https are accepted, so a hostile
 * catalogue cannot point the app at `file:` or `data:` content.
 */
export function resolveServiceUrl(address: string, baseUrl: string): string {
  const base = `${normaliseBaseUrl(baseUrl)}/`
  // An empty address is the catalogue's "none" (an artist without an avatar); resolved, it would name the base URL itself.
  if (address.trim() === '') throw new BadResponseError(`${JSON.stringify(address)} is not an http or https address`, { url: address })
  let url: URL
  try {
    url = new URL(address, base)
  } catch {
    throw new BadResponseError(`${JSON.stringify(shortened(redactUrl(address)))} is not an http or https address`, { url: address })
  }
  if (!isHttpUrl(url)) {
    throw new BadResponseError(`refusing ${shortened(redactUrl(address))}: only http and https addresses are fetched`, { url: address })
  }
  return url.href
}

/** An absolute address the app may fetch (http or https), or a BadResponseError saying why not. */
export function checkHttpAddress(address: string): URL {
  let url: URL
  try {
    url = new URL(address)
  } catch {
    throw new BadResponseError(`${JSON.stringify(shortened(redactUrl(address)))} is not an http or https address`, { url: address })
  }
  if (!isHttpUrl(url)) throw new BadResponseError(`refusing ${shortened(redactUrl(address))}: only http and https addresses are fetched`, { url: address })
  return url
}

/** A data: address can be megabytes long; a message only needs to show which one it was. */
export function shortened(url: string): string {
  return url.length <= 300 ? url : `${url.slice(0, 300)}…`
}

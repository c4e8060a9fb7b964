/**
 * The one got set-up of the app, for catalogue requests and file downloads
 * alike: one user agent, timeouts, redirects followed only to http(s), got's
 * own retry off (each caller retries what it knows is worth it), statuses left
 * to the caller, and one mapping of got's failures to the core's errors.
 */
import got, { MaxRedirectsError, RequestError, TimeoutError, type BeforeRedirectHook, type Got, type HandlerFunction, type PlainResponse, type Progress } from 'got'
import { APP_VERSION } from '../base/version'
import { BadResponseError, NetworkError, TuneshelfError } from '../shared/errors'
import { cleanText } from '../shared/text'
import { isHttpUrl, redactUrl } from '../shared/urls'
import { createAddressGuard, type Resolver } from './address-guard'

export interface HttpOptions {
  /** Default `Tuneshelf/<version> (+https://tuneshelf.invalid)`. */
  userAgent?: string | undefined
  /** Default 10000. */
  connectTimeoutMs?: number | undefined
  /** Longest silence on an open socket (default 30000). */
  idleTimeoutMs?: number | undefined
  /** Default 5. */
  maxRedirects?: number | undefined
  /**
   * The catalogue's base URL: unless it is itself on loopback or a private
   * network, no request may reach such an address (address-guard.ts). The app
   * always gives it; without it (a bare Http of a test) no address is refused.
   */
  baseUrl?: string | undefined
  /** Resolves host names for that rule (default: the system's resolver); tests stand in for DNS. */
  resolve?: Resolver | undefined
  /**
   * Told of every answer of the service (of baseUrl's origin, whatever its status; its body under way):
   * a list page, a detail, a file, a check. Any answer says the service can be reached (the app's online state).
   */
  onAnswer?: (() => void) | undefined
}

/** The settings an Http was made with, for the messages of its errors. */
export interface Http {
  got: Got
  connectTimeoutMs: number
  idleTimeoutMs: number
  maxRedirects: number
}

export const DEFAULT_USER_AGENT = `Tuneshelf/${APP_VERSION} (+https://tuneshelf.invalid)`

export function createHttp(options: HttpOptions = {}): Http {
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000
  const maxRedirects = options.maxRedirects ?? 5
  const guard = options.baseUrl === undefined ? undefined : createAddressGuard(options.baseUrl, options.resolve)
  return {
    connectTimeoutMs,
    idleTimeoutMs,
    maxRedirects,
    got: got.extend({
      // The callers' retry loops also cover what got's does not (bad JSON, a cut file); two loops would multiply attempts.
      retry: { limit: 0 },
      timeout: { connect: connectTimeoutMs, socket: idleTimeoutMs },
      // Statuses are the caller's to interpret (404 and 429 mean different things).
      throwHttpErrors: false,
      maxRedirects,
      followRedirect: redirectsToHttp,
      headers: { 'user-agent': options.userAgent ?? DEFAULT_USER_AGENT },
      // Every connection's addresses, and every request's literal host (redirects run both again).
      dnsLookup: guard?.lookup,
      handlers: options.onAnswer ? [answersTo(options.onAnswer, options.baseUrl)] : [],
      hooks: {
        beforeRequest: guard ? [(request) => guard.checkUrl(new URL(String(request.url)))] : [],
        beforeRedirect: [keepCredentialsToOrigin],
      },
    }),
  }
}

/**
 * A got handler that tells onAnswer once per request to the service's origin (any origin without a
 * base URL) whose answer came: its first bytes of body, or the whole of an empty one. Headers alone
 * are not an answer: a connection cut straight after them is as good as none. A request as a stream
 * and one as a promise both tell their progress.
 */
function answersTo(onAnswer: () => void, baseUrl: string | undefined): HandlerFunction {
  const origin = baseUrl === undefined ? undefined : new URL(baseUrl).origin
  return (options, next) => {
    const result = next(options)
    const url = options.url
    if (origin !== undefined && (url === undefined || new URL(url).origin !== origin)) return result
    let told = false
    ;(result as unknown as Pick<NodeJS.EventEmitter, 'on'>).on('downloadProgress', (progress: Progress) => {
      if (told || (progress.transferred === 0 && progress.percent < 1)) return
      told = true
      onAnswer()
    })
    return result
  }
}

/**
 * got drops Basic credentials on a redirect to another host or port, not to another scheme: an
 * https address that redirects to plain http on the same host and port would send the password
 * in clear. Credentials go to the origin they were given for, and nowhere else.
 */
export const keepCredentialsToOrigin: BeforeRedirectHook = (options, response) => {
  const from = new URL(response.url)
  const to = options.url
  if (to === undefined || from.protocol === to.protocol) return
  options.username = ''
  options.password = ''
  to.username = ''
  to.password = ''
  delete options.headers.authorization
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

/** A got failure as a core error: a network failure (worth a retry) or a bad response (not). */
export function httpError(http: Http, url: string, error: Error): TuneshelfError {
  const shown = redactUrl(url)
  // A refusal of the app's own (the address guard), carried through got: the request it refused, and why.
  if (error.cause instanceof BadResponseError) return new BadResponseError(`GET ${shown}: ${error.cause.message}`, { url, cause: error.cause })
  if (error.cause instanceof TuneshelfError) return error.cause
  if (error instanceof TimeoutError) {
    const detail =
      error.event === 'connect'
        ? `no connection within ${http.connectTimeoutMs} ms`
        : error.event === 'socket'
          ? `no data for ${http.idleTimeoutMs} ms`
          : `timed out (${error.event})`
    return new NetworkError(`GET ${shown}: ${detail}`, { url, systemCode: error.code, cause: error })
  }
  if (error instanceof MaxRedirectsError) {
    return new BadResponseError(`GET ${shown}: redirected more than ${http.maxRedirects} times`, { url, cause: error })
  }
  const code = error instanceof RequestError ? error.code : (error as NodeJS.ErrnoException).code
  if (code === 'ERR_UNSUPPORTED_PROTOCOL') {
    return new BadResponseError(`GET ${shown}: ${said(error)}`, { url, cause: error })
  }
  return new NetworkError(`GET ${shown}: network error: ${said(error)}`, { url, systemCode: code, cause: error })
}

/** What a failure says, safe to show: no password, no control characters, a few hundred characters (it may quote the server). */
function said(error: Error): string {
  return cleanText(redactUrl(error.message), 500)
}

/** A header's first value. */
export function header(headers: PlainResponse['headers'], name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** The catalogue service client: the three endpoints and file fetches, with retries and validated results. */
import * as v from 'valibot'
import { BadResponseError, InvalidArgumentError, NetworkError } from '../shared/errors'
import { cleanText } from '../shared/text'
import { createHttp, header, type Http } from './http'
import { listArtistsQueryString, type ListArtistsQuery } from './query'
import { parseRetryAfter, withRetries, type AttemptOutcome, type RetryEvent } from './retry'
import {
  accessLevelsSchema,
  artistDetailSchema,
  artistListSchema,
  type AccessLevel,
  type ArtistDetail,
  type ArtistList,
} from './schemas'
import { statusError } from './status'
import { createTransport, type Exchange, type ExchangeRequest, type Transport } from './transport'
import { artistPath, normaliseBaseUrl, redactUrl, resolveServiceUrl } from '../shared/urls'
import { nestedTooDeep, parseJsonBody, validateBody } from './validate'
import { fastArtistDetail, fastArtistList } from './fast-shapes'
import { readAccessLevels, readArtistList, type SkippedEntry } from './lenient'

/** Settings of a catalogue client; only baseUrl is required. */
export interface CatalogueClientOptions {
  /** http or https, with or without a trailing slash, possibly with a path prefix (https://host/catalogue/). */
  baseUrl: string
  /** Retries after the first attempt for failures worth retrying (default 5). */
  retries?: number
  /** First back-off delay (default 500), doubled each retry with jitter, capped by maxDelayMs (default 30000). */
  backoffMs?: number
  maxDelayMs?: number
  /** Longest Retry-After honoured (default 120000); a longer one fails at once. */
  maxRetryAfterMs?: number
  /** Default 10000. */
  connectTimeoutMs?: number
  /** Longest silence on an open socket (default 30000). */
  idleTimeoutMs?: number
  /**
   * Longest a request may take in all, body included (default 60000): a server
   * trickling a byte now and then is never silent long enough for idleTimeoutMs.
   * File downloads have no such deadline (a big file may take hours); their rule is the idle one.
   */
  requestTimeoutMs?: number
  /**
   * Cap on JSON bodies (default 4 MiB), by Content-Length or while streaming. A
   * page of the service is well under 1 MB; what is far bigger is refused before it is read.
   */
  maxBodyBytes?: number
  /** Default `Tuneshelf/<version> (+https://tuneshelf.invalid)`. */
  userAgent?: string
  /** The app's got set-up to share (downloads use the same); made from the options above when absent. */
  http?: Http
  /** Told before each retry, e.g. to show "the service is busy, retrying in 2 s". */
  onRetry?: (event: RetryEvent) => void
}

/** Per-call options. */
export interface CallOptions {
  /** Aborting rejects the call at once with the signal's reason, also while it waits to retry. */
  signal?: AbortSignal
  /**
   * Told of each entry of a list (an artist of a page, an access level) left out because the service
   * described it badly (lenient.ts). Without it such an entry is left out silently.
   */
  onSkipped?: (entry: SkippedEntry) => void
  /** Told before each retry of this call (besides the client's own onRetry). */
  onRetry?: (event: RetryEvent) => void
}

const ignore = (): void => undefined

/** The catalogue service, read-only; every method rejects with a TuneshelfError (CancelledError when aborted). */
export interface CatalogueClient {
  /** The base URL, normalised: no trailing slash. */
  readonly baseUrl: string
  /** One page of GET /api/v1/artists. */
  listArtists(query?: ListArtistsQuery, options?: CallOptions): Promise<ArtistList>
  /** GET /api/v1/artists/:username; NotFoundError when the service answers 404. */
  getArtist(username: string, options?: CallOptions): Promise<ArtistDetail>
  /** GET /api/v1/access_levels, as a list sorted by id. */
  accessLevels(options?: CallOptions): Promise<AccessLevel[]>
  /** Whether the service answers at all (any HTTP status), within a few seconds and without retries: the app's online state. */
  reachable(options?: CallOptions): Promise<boolean>
  /** Any http(s) file the catalogue points at (avatars); a protocol-relative address takes the base URL's protocol. */
  fetchBinary(
    url: string,
    options?: CallOptions & { maxBytes?: number },
  ): Promise<{ body: Buffer; contentType: string | undefined }>
}

const MIB = 1024 * 1024
/** How long the reachability check waits for an answer. */
const REACHABLE_WITHIN_MS = 5_000
/** The longest service explanation an error message quotes: enough to read, not enough to flood a log or the cache. */
const SAID_CHARS = 300
/** The longest error message of a failed request (the URL with the service's words). */
const MESSAGE_CHARS = 1_000
/** The longest error body a RejectedError keeps. */
const BODY_CHARS = 2_000

/** A client for the service at options.baseUrl; throws an InvalidArgumentError for a base URL that is not http(s) or a bad option. */
export function createCatalogueClient(options: CatalogueClientOptions): CatalogueClient {
  const baseUrl = normaliseBaseUrl(options.baseUrl)
  const retryPolicy = {
    retries: nonNegative('retries', options.retries ?? 5),
    backoffMs: nonNegative('backoffMs', options.backoffMs ?? 500),
    maxDelayMs: nonNegative('maxDelayMs', options.maxDelayMs ?? 30_000),
    onRetry: options.onRetry,
  }
  const maxRetryAfterMs = nonNegative('maxRetryAfterMs', options.maxRetryAfterMs ?? 120_000)
  const maxBodyBytes = nonNegative('maxBodyBytes', options.maxBodyBytes ?? 4 * MIB)
  const deadlineMs = nonNegative('requestTimeoutMs', options.requestTimeoutMs ?? 60_000)
  const transport = createTransport(
    options.http ??
      createHttp({
        baseUrl,
        userAgent: options.userAgent,
        connectTimeoutMs: nonNegative('connectTimeoutMs', options.connectTimeoutMs ?? 10_000),
        idleTimeoutMs: nonNegative('idleTimeoutMs', options.idleTimeoutMs ?? 30_000),
      }),
  )

  /** GETs url until a 2xx answer, mapping statuses to errors and retrying what may pass; onRetry: this call's own listener. */
  function fetchWithRetries<T>(url: string, request: ExchangeRequest, read: (exchange: Exchange) => T, onRetry?: (event: RetryEvent) => void): Promise<T> {
    const policy =
      onRetry === undefined
        ? retryPolicy
        : {
            ...retryPolicy,
            onRetry: (event: RetryEvent) => {
              retryPolicy.onRetry?.(event)
              onRetry(event)
            },
          }
    return withRetries(url, policy, request.signal, () => attempt(transport, url, request, maxRetryAfterMs, read))
  }

  /**
   * A JSON endpoint: transient failures and unparseable JSON are retried, a wrong shape is not.
   * `fast` reads the common case of a shape a sync asks for by the thousand (fast-shapes.ts);
   * what it does not take, the schema reads, and the schema alone words a refusal.
   */
  async function getJson<TSchema extends v.GenericSchema>(
    path: string,
    schema: TSchema,
    callOptions: CallOptions | undefined,
    fast?: (json: unknown) => v.InferOutput<TSchema> | undefined,
    slow: (json: unknown, url: string) => v.InferOutput<TSchema> = (json, url) => validateBody(schema, json, url),
  ): Promise<v.InferOutput<TSchema>> {
    const url = `${baseUrl}${path}`
    const request = { accept: 'application/json', maxBytes: maxBodyBytes, deadlineMs, signal: callOptions?.signal }
    const json = await fetchWithRetries(url, request, (exchange) => parseJsonBody(exchange.body, url), callOptions?.onRetry)
    return fast?.(json) ?? slow(json, url)
  }

  return {
    baseUrl,
    listArtists: (query, callOptions) =>
      getJson(`/api/v1/artists${listArtistsQueryString(query)}`, artistListSchema, callOptions, fastArtistList, (json, url) =>
        readArtistList(json, url, callOptions?.onSkipped ?? ignore),
      ),
    getArtist: async (username, callOptions) => {
      if (username === '') throw new InvalidArgumentError('getArtist needs a username', { field: 'username' })
      return getJson(artistPath(username), artistDetailSchema, callOptions, fastArtistDetail)
    },
    accessLevels: (callOptions) =>
      getJson('/api/v1/access_levels', accessLevelsSchema, callOptions, undefined, (json, url) => readAccessLevels(json, url, callOptions?.onSkipped ?? ignore)),
    reachable: async (callOptions) => {
      const timeout = AbortSignal.timeout(REACHABLE_WITHIN_MS)
      const signal = callOptions?.signal ? AbortSignal.any([callOptions.signal, timeout]) : timeout
      try {
        await transport(`${baseUrl}/api/v1/access_levels`, { accept: 'application/json', maxBytes: maxBodyBytes, deadlineMs, signal })
        return true
      } catch (error) {
        if (callOptions?.signal?.aborted) throw error
        return false
      }
    },
    fetchBinary: async (address, callOptions) => {
      const url = resolveServiceUrl(address, baseUrl)
      const maxBytes = nonNegative('maxBytes', callOptions?.maxBytes ?? maxBodyBytes)
      const exchange = await fetchWithRetries(url, { accept: '*/*', maxBytes, deadlineMs, signal: callOptions?.signal }, (answer) => answer, callOptions?.onRetry)
      return { body: exchange.body, contentType: exchange.headers['content-type'] }
    },
  }
}

/**
 * One attempt: the exchange, then its status read as success or as an error
 * with whether it is worth another try. read turns a 2xx body into the value;
 * a BadResponseError it throws is retried when retryable (unparseable JSON, not too deep a one).
 */
async function attempt<T>(
  transport: Transport,
  url: string,
  request: ExchangeRequest,
  maxRetryAfterMs: number,
  read: (exchange: Exchange) => T,
): Promise<AttemptOutcome<T>> {
  let exchange: Exchange
  try {
    exchange = await transport(url, request)
  } catch (error) {
    // Network failures pass; anything else (a size or redirect refusal, the abort reason) is final.
    if (error instanceof NetworkError) return { ok: false, error, retry: true }
    throw error
  }
  if (exchange.status >= 200 && exchange.status < 300) {
    try {
      return { ok: true, value: read(exchange) }
    } catch (error) {
      if (error instanceof BadResponseError) return { ok: false, error, retry: error.retryable }
      throw error
    }
  }
  return failure(url, exchange, maxRetryAfterMs)
}

/** A non-2xx answer as an error, and whether (and when) to try again. */
function failure(url: string, exchange: Exchange, maxRetryAfterMs: number): AttemptOutcome<never> {
  const { status } = exchange
  const said = serviceMessage(exchange.body)
  // Capped as a whole too: the URL may be a long one the catalogue gave (an avatar).
  const detail = (summary: string): string =>
    cleanText(`GET ${redactUrl(url)}: ${summary} (HTTP ${status})${said ? `: ${said}` : ''}`, MESSAGE_CHARS)

  // Redirects to http(s) were followed; what is left is one the client refuses or cannot follow.
  const location = header(exchange.headers, 'location')
  if (status >= 300 && status < 400 && location !== undefined) {
    const summary = `refused a redirect to ${cleanText(redactUrl(location), SAID_CHARS)}: only http and https are followed`
    return { ok: false, error: new BadResponseError(detail(summary), { url, status }), retry: false }
  }
  // Retry-After counts for 429 and 503 alone: other statuses are not worth waiting out.
  const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(header(exchange.headers, 'retry-after')) : undefined
  const waitTooLong = retryAfterMs !== undefined && retryAfterMs > maxRetryAfterMs
  const wait = `asked to wait ${Math.ceil((retryAfterMs ?? 0) / 1000)} s, longer than the ${Math.round(maxRetryAfterMs / 1000)} s this client waits`
  const body = status >= 400 && status < 500 ? cleanText(exchange.body.toString('utf8'), BODY_CHARS, { lines: true }) : undefined
  const error = statusError(status, { url, retryAfterMs, body }, (summary) => detail(waitTooLong ? `${summary}, ${wait}` : summary))
  // A wait longer than the client's is still a passing failure, for a later try: it is retryable, yet not retried now.
  return { ok: false, error, retry: error.retryable && !waitTooLong, retryAfterMs }
}

/** The service's own explanation, cleaned and capped: the `error` member of its JSON error body, or a short plain-text body. */
function serviceMessage(body: Buffer): string | undefined {
  const text = body.toString('utf8').trim()
  if (text === '') return undefined
  try {
    const json: unknown = nestedTooDeep(body) ? undefined : JSON.parse(text)
    if (typeof json === 'object' && json !== null && 'error' in json && typeof json.error === 'string') {
      return cleanText(json.error, SAID_CHARS).trim() || undefined
    }
  } catch {
    // Not JSON: fall through to the text itself, if it is short enough to be a message.
  }
  const oneLine = text.replace(/\s+/g, ' ')
  return oneLine.length <= 200 && !oneLine.startsWith('<') ? cleanText(oneLine, SAID_CHARS) : undefined
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new InvalidArgumentError(`${name} must be a non-negative number, not ${value}`, { field: name })
  return value
}

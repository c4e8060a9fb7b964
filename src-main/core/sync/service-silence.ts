/**
 * A sync's patience with a service that stops giving usable answers. Each request has its own
 * deadline and retries, but a service that trickles a byte every 25 s (never idle long enough to
 * time out, every request cut at its deadline and tried again) held `cli sync` for about six silent
 * minutes. So the run as a whole keeps a budget: when no usable answer (a 2xx, or a 429 that asks
 * to wait: the service is there) has come for SILENCE_LIMIT_MS, the run stops with "the service
 * stopped answering"; what it fetched is kept and the next sync resumes it. And every retry is
 * told, so the CLI and the window can say what is being tried again, why, and when.
 */
import type { CatalogueClient, RetryEvent } from '../api/index'
import { NetworkError } from '../shared/errors'
import { redactUrl } from '../shared/urls'
import type { SyncRetry } from '../shared/types'

/** How long a sync goes on without a usable answer before it stops: long enough for a slow service's retries, short of "hung". */
export const SILENCE_LIMIT_MS = 120_000
/** How often the budget is looked at. */
const CHECK_EVERY_MS = 1_000

export interface SilenceOptions {
  limitMs?: number
  /** Each retry of a request, as the CLI and the window show it. */
  onRetry: (retry: SyncRetry) => void
  /** The budget ran out: the run's failure. */
  onSilent: (error: NetworkError) => void
}

/** The client the run uses, watched: every answer resets the budget, every retry is told. Dispose when the run ends. */
export function watchService(client: CatalogueClient, options: SilenceOptions): { client: CatalogueClient; dispose: () => void } {
  const limitMs = options.limitMs ?? SILENCE_LIMIT_MS
  let answeredAt = performance.now()
  let lastWhy: string | undefined
  const answered = <T>(value: T): T => {
    answeredAt = performance.now()
    return value
  }
  const onRetry = (event: RetryEvent): void => {
    // A 429 is the service asking to wait: it is there, and the wait it asks for is honoured.
    if (event.error.code === 'rate_limited') answeredAt = performance.now()
    lastWhy = event.error.message
    // The message starts with the request ("GET <address>: "), which `what` says already.
    options.onRetry({ what: redactUrl(event.url), why: event.error.message.replace(/^GET \S+: /, ''), attempt: event.attempt, inMs: event.delayMs })
  }
  const timer = setInterval(() => {
    const silentMs = performance.now() - answeredAt
    if (silentMs < limitMs) return
    clearInterval(timer)
    const seconds = Math.round(silentMs / 1000)
    options.onSilent(
      new NetworkError(
        `the service stopped answering: nothing usable came back in ${seconds} s${lastWhy ? ` (last: ${lastWhy})` : ''}; ` +
          'what was fetched is kept, and the next sync resumes from there',
      ),
    )
  }, Math.min(CHECK_EVERY_MS, limitMs))
  timer.unref()
  return {
    client: {
      baseUrl: client.baseUrl,
      listArtists: (query, callOptions) => client.listArtists(query, { ...callOptions, onRetry }).then(answered),
      getArtist: (username, callOptions) => client.getArtist(username, { ...callOptions, onRetry }).then(answered),
      accessLevels: (callOptions) => client.accessLevels({ ...callOptions, onRetry }).then(answered),
      fetchBinary: (address, callOptions) => client.fetchBinary(address, { ...callOptions, onRetry }).then(answered),
      reachable: (callOptions) => client.reachable(callOptions),
    },
    dispose: () => clearInterval(timer),
  }
}

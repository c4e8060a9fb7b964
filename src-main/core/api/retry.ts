/** The retry loop: exponential back-off with jitter, Retry-After, and cancellation while waiting. */
import { setTimeout as wait } from 'node:timers/promises'
import { cancelledBy, type TuneshelfError } from '../shared/errors'

/** What the caller is told before each retry. */
export interface RetryEvent {
  url: string
  /** The attempt that just failed, counting from 1; the retry about to happen has the same number. */
  attempt: number
  delayMs: number
  error: TuneshelfError
}

/** How many times, and how patiently, to try again. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number
  backoffMs: number
  maxDelayMs: number
  onRetry?: ((event: RetryEvent) => void) | undefined
  /** Source of jitter; tests may pin it. */
  random?: () => number
}

/** One attempt's outcome: a value, or an error with whether to try again and, from Retry-After, when. */
export type AttemptOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; error: TuneshelfError; retry: boolean; retryAfterMs?: number | undefined }

/**
 * Runs attempt until it succeeds, fails for good, or the retries run out (then
 * the last error is thrown). An abort stops the wait at once and rejects with a CancelledError.
 */
export async function withRetries<T>(
  url: string,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  attempt: () => Promise<AttemptOutcome<T>>,
): Promise<T> {
  for (let number = 1; ; number++) {
    if (signal?.aborted) throw cancelledBy(signal)
    const outcome = await attempt()
    if (outcome.ok) return outcome.value
    if (!outcome.retry || number > policy.retries) throw outcome.error
    const delayMs = outcome.retryAfterMs ?? backoffDelay(number, policy)
    policy.onRetry?.({ url, attempt: number, delayMs, error: outcome.error })
    await sleep(delayMs, signal)
  }
}

/**
 * Delay before retry n (from 1): backoffMs doubled each time, capped by
 * maxDelayMs, then spread over 50–100% of that so that many clients (or many
 * parallel requests of one sync) do not come back in step.
 */
export function backoffDelay(retry: number, policy: Pick<RetryPolicy, 'backoffMs' | 'maxDelayMs' | 'random'>): number {
  const nominal = Math.min(policy.maxDelayMs, policy.backoffMs * 2 ** (retry - 1))
  const random = policy.random ?? Math.random
  return Math.round(nominal * (0.5 + 0.5 * random()))
}

/** Retry-After as milliseconds from now: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  // The three HTTP date forms all start with a day name; Date.parse alone would take "-5" for a year.
  if (!/^[A-Za-z]{3,9},? /.test(trimmed)) return undefined
  // HTTP dates are in GMT; the asctime form does not say so, and Date.parse would read it as local time.
  const date = Date.parse(/(GMT|UTC|[+-]\d{4})$/i.test(trimmed) ? trimmed : `${trimmed} GMT`)
  if (Number.isNaN(date)) return undefined
  // A date already past means "now"; clocks disagree, so this is common.
  return Math.max(0, date - now)
}

/** setTimeout fires at once for anything longer than this. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** Waits ms, or rejects with a CancelledError as soon as the signal aborts. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await wait(Math.min(ms, MAX_TIMER_MS), undefined, { signal })
  } catch (error) {
    // node:timers rejects with its own AbortError: the app's cancellation is a CancelledError, with the signal's reason.
    if (signal?.aborted) throw cancelledBy(signal)
    throw error
  }
}

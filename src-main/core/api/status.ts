/**
 * What an HTTP status means, in one table for every request the app makes
 * (catalogue calls, avatars and file downloads alike), so the same answer is
 * the same error everywhere: the UI, the CLI's exit codes and the retry loops
 * all switch on the code.
 */
import {
  BadResponseError, NotFoundError, RateLimitedError, RejectedError, ServerError, type ErrorCode, type TuneshelfError,
} from '../shared/errors'

export interface StatusDetails {
  /** The URL asked for. */
  url: string
  /** The server's Retry-After, in milliseconds, when the caller read one. */
  retryAfterMs?: number | undefined
  /** The body, as text already capped (RejectedError keeps it). */
  body?: string | undefined
}

/**
 * The error for a status that is not a success: 404 and 410 (gone) are not
 * found, 429 rate limited, 5xx a server error (both worth a retry), any other
 * 4xx a refusal that asking again will not change, anything else (a 1xx, a 3xx
 * not followed, a number out of range) a bad response. describe words the
 * message from a short summary ("not found") and the code it maps to.
 */
export function statusError(status: number, details: StatusDetails, describe: (summary: string, code: ErrorCode) => string): TuneshelfError {
  const { url, retryAfterMs, body } = details
  if (status === 404 || status === 410) return new NotFoundError(describe(status === 410 ? 'gone' : 'not found', 'not_found'), { url, status })
  if (status === 429) return new RateLimitedError(describe('rate limited', 'rate_limited'), { url, status, retryAfterMs })
  if (status >= 500 && status < 600) {
    return new ServerError(describe(status === 503 ? 'service unavailable' : 'server error', 'server'), { url, status, retryAfterMs })
  }
  if (status >= 400 && status < 500) return new RejectedError(describe('rejected', 'rejected'), { url, status, body })
  return new BadResponseError(describe('unexpected status', 'bad_response'), { url, status })
}

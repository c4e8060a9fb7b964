/**
 * How long a transfer keeps trying. Progress is measured against the furthest
 * the partial file ever reached: a server that cuts every body short and sends
 * no validator makes each attempt start again from zero, and reaching the same
 * bytes again is no progress (counted as progress, it retried forever). And the
 * attempts are bounded overall, so a server that sends a few bytes more each
 * time, or answers 416 to every request, cannot keep a download busy forever
 * either; the user's retry resumes from the partial file.
 */
import { BadResponseError } from '../shared/errors'
import { redactUrl } from '../shared/urls'

/** The attempts of one transfer, and whether it may make another. */
export class AttemptBudget {
  /** Requests made so far. */
  attempts = 0
  private best: number
  private streak = 0

  constructor(
    startBytes: number,
    /** Failed attempts in a row without progress before giving up. */
    private readonly retries: number,
    /** Attempts in all before giving up. */
    readonly maxAttempts: number,
  ) {
    this.best = startBytes
  }

  /** Counts a request about to be made. */
  take(): void {
    this.attempts++
  }

  /** True once every attempt allowed has been made. */
  get exhausted(): boolean {
    return this.attempts >= this.maxAttempts
  }

  /**
   * After a failed attempt that left bytesOnDisk in the partial file: the failures
   * in a row without progress, this one included (for the back-off), or undefined
   * when that is more than the retries allowed.
   */
  failed(bytesOnDisk: number): number | undefined {
    if (bytesOnDisk > this.best) {
      this.best = bytesOnDisk
      this.streak = 1
    } else {
      this.streak++
    }
    return this.streak > this.retries ? undefined : this.streak
  }
}

/** The failure of a transfer that used up its attempts: the server never sent the whole file. */
export function gaveUp(url: string, attempts: number, last: string): BadResponseError {
  return new BadResponseError(`${redactUrl(url)} did not send the whole file in ${attempts} attempts (the last: ${last})`, { url })
}

/**
 * The global download speed limit (the `downloadSpeedLimit` setting): one token
 * bucket that every running transfer of the queue takes its bytes from, so the
 * limit is for all of them together, however many run. A transfer that takes
 * more than the bucket holds goes into debt and pauses its response for as long
 * as the debt takes to pay off (part-file.ts pauses the stream: the server is
 * held back by TCP, nothing spins). A new limit applies at once: the transfers
 * that wait are woken to look again.
 */

/** The most the bucket holds, in seconds of the limit: a transfer may run ahead of the limit by this much at most. */
const BURST_SECONDS = 0.1

export class SpeedLimiter {
  private rate: number | null = null
  /** Bytes that may be taken now; below zero, the debt still to pay off. */
  private tokens = 0
  private at = performance.now()
  private readonly sleepers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>()

  constructor(bytesPerSecond: number | null = null) {
    this.setLimit(bytesPerSecond)
  }

  /** The limit now, in bytes per second; null: none. */
  get limit(): number | null {
    return this.rate
  }

  /** Changes the limit (null: none); running transfers follow at once. */
  setLimit(bytesPerSecond: number | null): void {
    const next = bytesPerSecond !== null && bytesPerSecond > 0 ? bytesPerSecond : null
    if (next === this.rate) return
    this.refill()
    this.rate = next
    // The debt run up under the old limit is paid off at the new one, and the bucket starts full of the new one's burst at most.
    this.tokens = next === null ? 0 : Math.min(this.tokens, next * BURST_SECONDS)
    for (const sleeper of [...this.sleepers]) {
      clearTimeout(sleeper.timer)
      this.sleepers.delete(sleeper)
      sleeper.wake()
    }
  }

  /** Takes bytes just received; returns how long (ms) to wait before taking more (0: go on). */
  take(bytes: number): number {
    if (this.rate === null) return 0
    this.refill()
    this.tokens -= bytes
    return this.delay()
  }

  /** How long (ms) until the debt is paid off (0: none, or no limit). */
  delay(): number {
    if (this.rate === null) return 0
    this.refill()
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.rate) * 1000)
  }

  /** Calls wake after ms, or at once when the limit changes meanwhile; returns a cancel. */
  sleep(ms: number, wake: () => void): () => void {
    const sleeper = {
      timer: setTimeout(() => {
        this.sleepers.delete(sleeper)
        wake()
      }, ms),
      wake,
    }
    this.sleepers.add(sleeper)
    return () => {
      clearTimeout(sleeper.timer)
      this.sleepers.delete(sleeper)
    }
  }

  private refill(): void {
    const now = performance.now()
    if (this.rate !== null) this.tokens = Math.min(this.rate * BURST_SECONDS, this.tokens + ((now - this.at) / 1000) * this.rate)
    this.at = now
  }
}

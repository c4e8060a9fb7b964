/**
 * Groups small writes so that one transaction stores many: a commit costs more
 * than a row, so results that arrive close together are stored together. A
 * crash loses at most the last unflushed batch, which the next run fetches again.
 */

export class WriteBatch<T> {
  private pending: T[] = []
  private timer: NodeJS.Timeout | undefined
  private failure: { error: unknown } | undefined

  /**
   * write must store all the items in one transaction. A write that fails on
   * the timer has no caller to throw to: onError hears of it (the sync stops
   * its run), and the next add or flush throws it.
   */
  constructor(
    private readonly write: (items: T[]) => void,
    private readonly onError: (error: unknown) => void,
    private readonly maxItems = 256,
    private readonly maxDelayMs = 100,
  ) {}

  add(item: T): void {
    this.throwIfFailed()
    this.pending.push(item)
    if (this.pending.length >= this.maxItems) this.flush()
    else this.timer ??= setTimeout(() => this.flushFromTimer(), this.maxDelayMs)
  }

  /** Writes what is pending; throws the write's error, or an earlier one. */
  flush(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.throwIfFailed()
    if (this.pending.length === 0) return
    const items = this.pending
    this.pending = []
    try {
      this.write(items)
    } catch (error) {
      this.failure = { error }
      throw error
    }
  }

  private flushFromTimer(): void {
    try {
      this.flush()
    } catch (error) {
      this.onError(error)
    }
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error
  }
}

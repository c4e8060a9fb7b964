/**
 * Groups small writes so that one transaction stores many: a commit costs more
 * than a row, so results that arrive close together are stored together. A
 * crash loses at most the last unflushed batch, which the next run fetches again.
 */

export class WriteBatch<T> {
  private pending: T[] = []
  private timer: NodeJS.Timeout | undefined

  /** write must store all the items in one transaction. */
  constructor(
    private readonly write: (items: T[]) => void,
    private readonly maxItems = 256,
    private readonly maxDelayMs = 100,
  ) {}

  add(item: T): void {
    this.pending.push(item)
    if (this.pending.length >= this.maxItems) this.flush()
    else this.timer ??= setTimeout(() => this.flush(), this.maxDelayMs)
  }

  /** Writes what is pending. */
  flush(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    if (this.pending.length === 0) return
    const items = this.pending
    this.pending = []
    this.write(items)
  }
}

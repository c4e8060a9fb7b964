/**
 * The one throttle of the app: at most one call per interval, the first at
 * once and the latest value of a burst delivered at the end of it, so a
 * consumer always ends up with the final state. Shared with the renderer.
 */
export interface Throttled<T> {
  /** Delivers value now, or at the end of the current interval (only the latest value of a burst). */
  (value: T): void
  /** Delivers a pending value at once. */
  flush(): void
  /** Drops a pending value and the timer. */
  cancel(): void
}

export function throttle<T>(deliver: (value: T) => void, intervalMs: number, now: () => number = () => performance.now()): Throttled<T> {
  let last = -Infinity
  let pending: { value: T } | undefined
  let timer: ReturnType<typeof setTimeout> | undefined

  const send = (): void => {
    timer = undefined
    if (!pending) return
    const { value } = pending
    pending = undefined
    last = now()
    deliver(value)
  }
  const throttled = ((value: T) => {
    pending = { value }
    const wait = last + intervalMs - now()
    if (wait <= 0) {
      clearTimeout(timer)
      send()
    } else {
      timer ??= setTimeout(send, wait)
    }
  }) as Throttled<T>
  throttled.flush = () => {
    clearTimeout(timer)
    send()
  }
  throttled.cancel = () => {
    clearTimeout(timer)
    timer = undefined
    pending = undefined
  }
  return throttled
}

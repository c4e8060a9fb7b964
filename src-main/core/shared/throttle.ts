/**
 * The one throttle of the app, and its debounce. `throttle`: at most one call
 * per interval, the first at once and the latest value of a burst delivered at
 * the end of it, so a consumer always ends up with the final state. With
 * `{ batch: true }` the first call of a burst waits too, for the next turn of
 * the event loop, so whatever is fired together is delivered together (the
 * window's event batches). `debounce`: the latest value once a burst has been
 * quiet for a while (the notification that downloads finished). Shared with the renderer.
 */
export interface Throttled<T> {
  /** Delivers value now, or at the end of the current interval (only the latest value of a burst). */
  (value: T): void
  /** Delivers a pending value at once. */
  flush(): void
  /** Drops a pending value and the timer. */
  cancel(): void
}

/** A debounced function: the same handle as a throttled one; it delivers once a burst is over. */
export type Debounced<T> = Throttled<T>

export interface ThrottleOptions {
  /** The clock (performance.now by default). */
  now?: () => number
  /** Never deliver synchronously: the first call of a burst waits for the next turn of the event loop. */
  batch?: boolean
}

export function throttle<T>(deliver: (value: T) => void, intervalMs: number, options: ThrottleOptions = {}): Throttled<T> {
  const now = options.now ?? (() => performance.now())
  let last = -Infinity
  return delivery<T>(
    (value) => {
      last = now()
      deliver(value)
    },
    (timer) => {
      const wait = last + intervalMs - now()
      if (wait <= 0 && !options.batch) timer.sendNow()
      else timer.sendIn(Math.max(0, wait), false)
    },
  )
}

/** Delivers the latest value of a burst once no call has come for delayMs. */
export function debounce<T>(deliver: (value: T) => void, delayMs: number): Debounced<T> {
  return delivery<T>(deliver, (timer) => timer.sendIn(delayMs, true))
}

interface Timer {
  /** Sends the pending value now (dropping the timer). */
  sendNow(): void
  /** Sends it in ms; restart: even when a timer already runs (else that one stands). */
  sendIn(ms: number, restart: boolean): void
}

/** What throttle and debounce share: the latest value of a burst and the one timer that delivers it; `schedule` says when. */
function delivery<T>(deliver: (value: T) => void, schedule: (timer: Timer) => void): Throttled<T> {
  let pending: { value: T } | undefined
  let timeout: ReturnType<typeof setTimeout> | undefined

  const send = (): void => {
    timeout = undefined
    if (!pending) return
    const { value } = pending
    pending = undefined
    deliver(value)
  }
  const timer: Timer = {
    sendNow: () => {
      clearTimeout(timeout)
      send()
    },
    sendIn: (ms, restart) => {
      if (restart) clearTimeout(timeout)
      else if (timeout !== undefined) return
      timeout = setTimeout(send, ms)
    },
  }
  const delivered = ((value: T) => {
    pending = { value }
    schedule(timer)
  }) as Throttled<T>
  delivered.flush = timer.sendNow
  delivered.cancel = () => {
    clearTimeout(timeout)
    timeout = undefined
    pending = undefined
  }
  return delivered
}

/**
 * One read at a time, for a store that mirrors what the core holds: a read asked
 * for while one is under way makes one more read once it ends, so a late answer
 * never lands over a newer one; and `soon()` reads once a burst of events has
 * settled (a sync stores its pages in bursts).
 */
import { debounce } from '@shared/throttle'

/** Events come in bursts while a sync stores its pages: read once the burst settles. */
export const RELOAD_DELAY_MS = 300

export interface OneRead {
  /** Reads now, or once the read under way is over; settles when no read is left to do. */
  now(): Promise<void>
  /** Reads once no call has come for RELOAD_DELAY_MS. */
  soon(): void
  /** Drops the read that soon() asked for. */
  cancelSoon(): void
  /** A read is under way. */
  readonly busy: boolean
}

/** read: false when its answer was already stale (a change was made meanwhile), to read once more at once. */
export function oneRead(read: () => Promise<boolean | void>): OneRead {
  let loading: Promise<void> | undefined
  let again = false
  function now(): Promise<void> {
    if (loading) {
      again = true
      return loading
    }
    loading = (async () => {
      try {
        do {
          again = false
          if ((await read()) === false) again = true
        } while (again)
      } finally {
        loading = undefined
      }
    })()
    return loading
  }
  const later = debounce<void>(() => void now(), RELOAD_DELAY_MS)
  return {
    now,
    soon: () => later(),
    cancelSoon: () => later.cancel(),
    get busy() {
      return loading !== undefined
    },
  }
}

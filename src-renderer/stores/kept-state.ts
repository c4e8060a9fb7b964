/**
 * What the window keeps across a reload and a restart (the Artists list's filters and
 * scroll, the player's queue and place), in localStorage. Each value is stored with the
 * version of its shape: a value of another version, or one that does not parse or check,
 * is ignored (the screen starts as on a first run), never trusted and never a crash.
 * Saving is cheap: at most one write per interval while things change (a scroll, a
 * playing track), and one at once when the page goes or is hidden (a reload, the window
 * closed or minimised), so the last place is never lost to the throttle.
 */
import { throttle } from '@shared/throttle'

/** A value kept under one key. */
export interface Kept<T> {
  /** The value saved, if one of this version is there and checks; else null. */
  read(): T | null
  /** The value changed: it is written now or at the end of the interval (its latest snapshot). */
  save(): void
  /** Writes the latest snapshot now. */
  flush(): void
}

/** At most one write per this many milliseconds while a value keeps changing. */
export const SAVE_INTERVAL_MS = 1000

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    // A page denied storage: nothing is kept.
    return null
  }
}

/**
 * A value kept under `key` in shape `version`: `check` turns what was stored into the value (null
 * when it is not one), `snapshot` says what to store now (null removes it; undefined leaves what is
 * stored alone, as while the last session's value has not been taken back yet).
 */
export function keptState<T>(
  key: string,
  version: number,
  check: (stored: unknown) => T | null,
  snapshot: () => T | null | undefined,
  intervalMs = SAVE_INTERVAL_MS,
): Kept<T> {
  function read(): T | null {
    try {
      const text = storage()?.getItem(key)
      if (!text) return null
      const stored: unknown = JSON.parse(text)
      if (typeof stored !== 'object' || stored === null || (stored as { v?: unknown }).v !== version) return null
      return check((stored as { value?: unknown }).value)
    } catch {
      return null
    }
  }

  function write(): void {
    try {
      const value = snapshot()
      if (value === undefined) return
      if (value === null) storage()?.removeItem(key)
      else storage()?.setItem(key, JSON.stringify({ v: version, value }))
    } catch {
      // Storage full or refused: the next session starts afresh here, nothing worse.
    }
  }

  const throttled = throttle<void>(write, intervalMs)
  function flush(): void {
    throttled.cancel()
    write()
  }
  if (typeof window !== 'undefined' && typeof document !== 'undefined') {
    window.addEventListener('pagehide', flush)
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') flush()
    })
  }
  return { read, save: () => throttled(), flush }
}

/** A whole number from `min` up, or null. */
export function wholeAtLeast(value: unknown, min: number): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= min ? value : null
}

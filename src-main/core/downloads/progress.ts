/** Progress of one transfer: bytes, percent, speed over the last seconds and time left, a few times a second. */
import { throttle } from '../shared/throttle'
import type { DownloadProgress } from '../shared/types'
export type { DownloadProgress } from '../shared/types'

/**
 * The speed is the bytes of the last few seconds over those seconds, pauses included: a
 * speed limit pauses the response often, and a paused response sends nothing to average.
 */
export const SPEED_WINDOW_MS = 3000
/**
 * Until this much time has passed, the speed is taken over this span at least: the first
 * chunks come in a burst out of the socket's buffers, far above any limit.
 */
export const SPEED_MIN_SPAN_MS = 1000

export interface ProgressTracker {
  /** The bytes on disk now; may be called for every chunk. */
  (bytes: number): void
  /** Reports the latest bytes at once. */
  flush(): void
  /** Stops: no report after this one (the idle tick ends). */
  dispose(): void
}

/**
 * Follows the bytes on disk of one download. `report` hears at most one progress per
 * interval, with the bytes new since the one before, to persist them; also while no byte
 * comes (a limit holds the response back), so the speed falls instead of standing still.
 */
export function progressTracker(
  id: number,
  total: number,
  startBytes: number,
  intervalMs: number,
  report: (progress: DownloadProgress, newBytes: number) => void,
  now: () => number = () => performance.now(),
): ProgressTracker {
  const samples = [{ at: now(), bytes: startBytes }]
  let lastBytes = startBytes
  let latest = startBytes

  const deliver = throttle<number>(
    (bytes) => {
      const at = now()
      samples.push({ at, bytes })
      // Keep one sample at or before the window's start, so the span is the whole window.
      while (samples.length > 2 && samples[1]!.at <= at - SPEED_WINDOW_MS) samples.shift()
      const oldest = samples[0]!
      const speed = (Math.max(0, bytes - oldest.bytes) * 1000) / Math.max(at - oldest.at, SPEED_MIN_SPAN_MS)
      const newBytes = Math.max(0, bytes - lastBytes)
      lastBytes = bytes
      report(
        {
          id,
          bytes,
          total,
          percent: total === 0 ? 100 : (bytes / total) * 100,
          speed,
          etaSeconds: speed > 0 ? Math.max(0, total - bytes) / speed : null,
        },
        newBytes,
      )
    },
    intervalMs,
    { now },
  )
  // While no byte comes, the same bytes again each interval: the speed falls with time. Not before the
  // first byte, so the first report of a transfer (also a resumed one) is of bytes it received.
  let heard = false
  let heardSinceTick = false
  const tick = setInterval(() => {
    if (heard && !heardSinceTick) deliver(latest)
    heardSinceTick = false
  }, intervalMs)
  tick.unref?.()

  const tracker = ((bytes: number) => {
    latest = bytes
    heard = true
    heardSinceTick = true
    deliver(bytes)
  }) as ProgressTracker
  tracker.flush = () => deliver.flush()
  tracker.dispose = () => {
    clearInterval(tick)
    deliver.cancel()
  }
  return tracker
}

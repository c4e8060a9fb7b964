/** Progress of one transfer: bytes, percent, speed (smoothed over about 10 s) and time left, a few times a second. */
import { throttle } from '../shared/throttle'
import type { DownloadProgress } from '../shared/types'
export type { DownloadProgress } from '../shared/types'

/** One transfer's progress, as its tracker reports it (the queue adds its own speed: manager.ts). */
export type TransferProgress = Omit<DownloadProgress, 'queueSpeed'>

/**
 * The speed is an exponentially weighted rate over about this long, as download managers
 * smooth theirs: the bytes received and the time elapsed are each decayed by e^(-Δt/τ), and the
 * speed is their ratio. A second of bytes ten seconds ago weighs a third of one now, so the speed
 * and the time left follow a lasting change within seconds but no longer swing several-fold with
 * each burst and lull of the network (a 3-second window did: 43 h, 7 h, 33 h left within seconds).
 * Pauses count as time with no bytes: a speed limit pauses the response often, and a paused
 * response sends nothing to average.
 */
export const SPEED_SMOOTHING_MS = 10_000
/**
 * Until this much time has passed, the speed is taken over this span at least: the first
 * chunks come in a burst out of the socket's buffers, far above any limit. (Early on the
 * weighted rate is the plain average since the start, so the burst is spread out, not kept.)
 */
export const SPEED_MIN_SPAN_MS = 1000
/** No byte for this long: the transfer is stalled, its speed none and its time left unknown. */
export const STALLED_MS = 5000

/** An exponentially weighted rate (bytes per second) of the bytes counted at each time, over SPEED_SMOOTHING_MS. */
export interface RateMeter {
  /** Counts bytes that arrived since the last call, by `at` (ms); returns the rate then (0 while stalled). */
  add(bytes: number, at: number): number
}

/**
 * One transfer's rate (progressTracker), or the queue's, every transfer's bytes together
 * (manager.ts). Bytes arriving after a stall start it afresh: a queue idle for a minute, or a
 * service silent for a while, says nothing about the rate now.
 */
export function rateMeter(start: number): RateMeter {
  let weightedBytes = 0
  let weightedSpan = 0
  let last = start
  let lastByteAt = start
  return {
    add(bytes, at) {
      if (bytes > 0 && at - lastByteAt >= STALLED_MS) {
        // Started afresh, as a transfer starts: taken over a second at least until a second has passed.
        weightedBytes = 0
        weightedSpan = 0
        last = at
      }
      const elapsed = Math.max(0, at - last)
      const decay = Math.exp(-elapsed / SPEED_SMOOTHING_MS)
      // The span is the weight of each moment summed: e^(-age/τ) integrated over the time elapsed.
      weightedBytes = weightedBytes * decay + bytes
      weightedSpan = weightedSpan * decay + SPEED_SMOOTHING_MS * (1 - decay)
      last = Math.max(last, at)
      if (bytes > 0) lastByteAt = last
      if (last - lastByteAt >= STALLED_MS) return 0
      return (weightedBytes * 1000) / Math.max(weightedSpan, SPEED_MIN_SPAN_MS)
    },
  }
}

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
  report: (progress: TransferProgress, newBytes: number) => void,
  now: () => number = () => performance.now(),
): ProgressTracker {
  const meter = rateMeter(now())
  let lastBytes = startBytes
  let latest = startBytes

  const deliver = throttle<number>(
    (bytes) => {
      const newBytes = Math.max(0, bytes - lastBytes)
      const speed = meter.add(newBytes, now())
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

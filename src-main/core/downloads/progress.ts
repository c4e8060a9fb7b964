/** Progress of one transfer: bytes, percent, speed as a moving average and time left, a few times a second. */
import { throttle, type Throttled } from '../shared/throttle'
import type { DownloadProgress } from '../shared/types'
export type { DownloadProgress } from '../shared/types'

/**
 * Follows the bytes on disk of one download. `update` may be called for every
 * chunk; `report` hears at most one progress per interval (and the last one at
 * the end), with the bytes new since the one before, to persist them.
 */
export function progressTracker(
  id: number,
  total: number,
  startBytes: number,
  intervalMs: number,
  report: (progress: DownloadProgress, newBytes: number) => void,
): Throttled<number> {
  let lastAt = performance.now()
  let lastBytes = startBytes
  let speed = 0
  return throttle<number>((bytes) => {
    const now = performance.now()
    const elapsed = now - lastAt
    if (elapsed > 0 && bytes > lastBytes) {
      const sample = ((bytes - lastBytes) * 1000) / elapsed
      // A moving average: steady enough to read, quick enough to follow a change.
      speed = speed === 0 ? sample : speed * 0.7 + sample * 0.3
    }
    const newBytes = Math.max(0, bytes - lastBytes)
    lastAt = now
    lastBytes = bytes
    report(
      {
        id,
        bytes,
        total,
        percent: total === 0 ? 100 : (bytes / total) * 100,
        speed,
        etaSeconds: speed > 0 ? (total - bytes) / speed : null,
      },
      newBytes,
    )
  }, intervalMs)
}

/**
 * A transfer's speed and time left as the window shows them: the bytes of the last
 * seconds over those seconds, so a speed limit's pauses and a socket's first burst
 * neither inflate it nor freeze it (they did: 12.8 MB/s shown under a 500 kB/s limit).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { progressTracker, SPEED_WINDOW_MS } from '../../../../src-main/core/downloads/progress'
import type { DownloadProgress } from '../../../../src-main/core/shared/types'

const INTERVAL = 200
const MIB = 1024 * 1024

function track(total: number, startBytes = 0) {
  const reports: DownloadProgress[] = []
  let persisted = startBytes
  const tracker = progressTracker(7, total, startBytes, INTERVAL, (progress, newBytes) => {
    reports.push(progress)
    persisted += newBytes
  }, () => Date.now())
  return { tracker, reports, last: () => reports.at(-1)!, persisted: () => persisted }
}

beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }))
afterEach(() => vi.useRealTimers())

describe('a transfer’s progress', () => {
  it('follows a limited transfer at its limit: 64 KiB every 128 ms is 512 KiB/s, and the time left follows', () => {
    const { tracker, last, persisted } = track(20 * MIB)
    let bytes = 0
    for (let step = 0; step < 40; step++) {
      bytes += 64 * 1024
      tracker(bytes)
      vi.advanceTimersByTime(128)
    }
    tracker.flush()
    expect(last().speed).toBeGreaterThan(512 * 1024 * 0.9)
    expect(last().speed).toBeLessThan(512 * 1024 * 1.1)
    expect(last().etaSeconds).toBeCloseTo((20 * MIB - bytes) / last().speed, 5)
    expect(persisted()).toBe(bytes)
    tracker.dispose()
  })

  it('does not take the first burst out of the socket’s buffers for the speed', () => {
    const { tracker, last } = track(20 * MIB)
    vi.advanceTimersByTime(5)
    tracker(256 * 1024)
    // Over one second at least: 256 KiB/s, not the 50 MiB/s of 256 KiB in 5 ms.
    expect(last().speed).toBeLessThanOrEqual(256 * 1024)
    tracker.dispose()
  })

  it('falls while no byte comes (a limit lowered to 1 kB/s, a stalled service), down to none and no time left', () => {
    const { tracker, reports, last } = track(20 * MIB)
    let bytes = 0
    for (let step = 0; step < 20; step++) {
      bytes += 200_000
      tracker(bytes)
      vi.advanceTimersByTime(100)
    }
    const moving = last().speed
    expect(moving).toBeGreaterThan(1_500_000)
    const before = reports.length
    vi.advanceTimersByTime(1_500)
    // Reported each interval meanwhile, each time slower.
    expect(reports.length - before).toBeGreaterThanOrEqual(6)
    expect(last().speed).toBeLessThan(moving * 0.6)
    vi.advanceTimersByTime(SPEED_WINDOW_MS)
    expect(last()).toMatchObject({ bytes, speed: 0, etaSeconds: null })
    tracker.dispose()
  })

  it('says nothing before the first byte (a resumed transfer reports bytes it received first)', () => {
    const { tracker, reports } = track(MIB, 500_000)
    vi.advanceTimersByTime(10 * INTERVAL)
    expect(reports).toEqual([])
    tracker(600_000)
    expect(reports.map((report) => report.bytes)).toEqual([600_000])
    tracker.dispose()
  })

  it('says nothing more once disposed', () => {
    const { tracker, reports } = track(MIB)
    tracker(1000)
    tracker.dispose()
    const count = reports.length
    vi.advanceTimersByTime(10 * INTERVAL)
    expect(reports.length).toBe(count)
  })
})

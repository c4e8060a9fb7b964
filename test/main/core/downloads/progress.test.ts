/**
 * A transfer's speed and time left as the window shows them: an exponentially weighted
 * rate over about 10 s, so a speed limit's pauses and a socket's first burst neither
 * inflate it nor freeze it (they did: 12.8 MB/s shown under a 500 kB/s limit), and the
 * bursts and lulls of a network do not swing the time left several-fold (43 h, 7 h, 33 h).
 * On a fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { progressTracker, rateMeter, SPEED_SMOOTHING_MS, STALLED_MS } from '../../../../src-main/core/downloads/progress'
import type { TransferProgress } from '../../../../src-main/core/downloads/progress'

const INTERVAL = 200
const MIB = 1024 * 1024

function track(total: number, startBytes = 0) {
  const reports: TransferProgress[] = []
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
    const falling = reports.slice(before).map((report) => report.speed)
    expect(falling.every((speed, index) => index === 0 || speed < falling[index - 1]!)).toBe(true)
    expect(last().speed).toBeLessThan(moving * 0.7)
    // No byte for STALLED_MS: stalled, no speed and no time left.
    vi.advanceTimersByTime(STALLED_MS)
    expect(last()).toMatchObject({ bytes, speed: 0, etaSeconds: null })
    tracker.dispose()
  })

  it('smooths a network that swings: 2 s at 1 MB/s, 2 s at 100 kB/s, again and again, keeps the time left within a third', () => {
    const total = 2_000 * 1_000_000
    const { tracker, reports } = track(total)
    let bytes = 0
    let at = 0
    // A chunk every 100 ms at the rate of the moment, for a minute.
    while (at < 60_000) {
      bytes += Math.floor(at / 2_000) % 2 === 0 ? 100_000 : 10_000
      tracker(bytes)
      vi.advanceTimersByTime(100)
      at += 100
    }
    // After the first 20 s (twice the smoothing), what a user reads: the speed near the average
    // (550 kB/s) and never several-fold apart; a 3-second window swung from 100 kB/s to 1 MB/s.
    const settled = reports.slice(Math.floor(reports.length / 3))
    const speeds = settled.map((report) => report.speed)
    const etas = settled.map((report) => report.etaSeconds!)
    expect(Math.min(...speeds)).toBeGreaterThan(450_000)
    expect(Math.max(...speeds)).toBeLessThan(650_000)
    expect(Math.max(...etas) / Math.min(...etas)).toBeLessThan(1.35)
    tracker.dispose()
  })

  it('follows a lasting change within about the smoothing time', () => {
    const { tracker, last } = track(10_000 * 1_000_000)
    let bytes = 0
    const run = (ms: number, perTenth: number): void => {
      for (let at = 0; at < ms; at += 100) {
        bytes += perTenth
        tracker(bytes)
        vi.advanceTimersByTime(100)
      }
    }
    run(30_000, 100_000)
    expect(last().speed).toBeGreaterThan(950_000)
    // Down to a fifth for good: most of the way there after one smoothing time (e^-1 of the old rate
    // left), all of it after five.
    run(SPEED_SMOOTHING_MS, 20_000)
    expect(last().speed).toBeLessThan(200_000 + 0.4 * 800_000)
    run(4 * SPEED_SMOOTHING_MS, 20_000)
    expect(last().speed).toBeLessThan(200_000 * 1.1)
    expect(last().speed).toBeGreaterThan(200_000 * 0.95)
    tracker.dispose()
  })

  it('the rate alone: the plain average while young, the last seconds weighing most later', () => {
    const meter = rateMeter(0)
    // 256 KiB in the first 5 ms: over one second at least.
    expect(meter.add(256 * 1024, 5)).toBe(256 * 1024)
    // Two seconds at 100 kB/s then: about the average since the start (the burst, two seconds old, a little less).
    let rate = 0
    for (let at = 100; at <= 2_000; at += 100) rate = meter.add(10_000, at)
    expect(rate).toBeGreaterThan(((256 * 1024 + 200_000) / 2) * 0.93)
    expect(rate).toBeLessThan((256 * 1024 + 200_000) / 2)
    // Then 30 s at 100 kB/s: the burst forgotten.
    for (let at = 2_100; at <= 32_000; at += 100) rate = meter.add(10_000, at)
    expect(Math.abs(rate - 100_000)).toBeLessThan(2_000)
    // And nothing for STALLED_MS: stalled.
    expect(meter.add(0, 32_000 + STALLED_MS)).toBe(0)
  })

  it("the queue's rate: every transfer's bytes together, not their speeds added up; started afresh after the queue was idle", () => {
    const queue = rateMeter(0)
    // Three transfers of a queue of small files, each over in 400 ms, one after another at 1 MB/s each,
    // three at a time: a transfer's own rate is young each time, the queue's steady at 3 MB/s.
    let rate = 0
    for (let at = 100; at <= 30_000; at += 100) for (let transfer = 0; transfer < 3; transfer++) rate = queue.add(100_000, at)
    expect(Math.abs(rate - 3_000_000)).toBeLessThan(30_000)
    // Idle for a minute (no call at all), then one transfer at 500 kB/s: its rate at once, not a tenth of it.
    rate = queue.add(50_000, 90_100)
    for (let at = 90_200; at <= 91_000; at += 100) rate = queue.add(50_000, at)
    expect(rate).toBeGreaterThan(400_000)
    expect(rate).toBeLessThan(500_001)
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

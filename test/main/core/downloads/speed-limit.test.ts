/**
 * The global speed limit: one budget for every running transfer, over the demo
 * service on loopback (which would otherwise deliver a 3 MB file in milliseconds),
 * followed live when the setting changes.
 */
import { describe, expect, test as plain } from 'vitest'
import { SpeedLimiter } from '../../../../src-main/core/downloads/speed-limit'
import type { DownloadProgress } from '../../../../src-main/core/downloads/manager'
import { InvalidArgumentError } from '../../../../src-main/core/shared/errors'
import { QUICK_TRANSFERS, queueTest } from './queue-fixtures'

const test = queueTest({ artists: 40, seed: 12, maxFileMb: 3 })
const MB = 1_000_000

describe('the speed limiter', () => {
  plain('lets bytes through at the limit, in debt beyond it, and wakes its sleepers when the limit changes', async () => {
    const limiter = new SpeedLimiter(100_000)
    // It starts empty (no burst at the start): 10 000 bytes are a debt of 100 ms at 100 kB/s.
    const wait = limiter.take(10_000)
    expect(wait).toBeGreaterThan(80)
    expect(wait).toBeLessThanOrEqual(101)
    expect(limiter.delay()).toBeLessThanOrEqual(wait)
    let woken = false
    limiter.sleep(60_000, () => (woken = true))
    limiter.setLimit(null)
    expect(woken).toBe(true)
    expect(limiter.take(1e9)).toBe(0)
    expect(new SpeedLimiter(0).limit).toBeNull()
  })
})

describe('the download speed limit', () => {
  test('holds a 3 MB download at 1 MB/s to about 3 seconds, shared by every running download', async ({ synced, syncedLibrary, tempDir }) => {
    const library = syncedLibrary({ downloads: { transferSettings: QUICK_TRANSFERS } })
    library.settings.update({ downloadSpeedLimit: 1 * MB })
    const [big] = synced.uploads(1, 2_800_000)
    const folder = tempDir()
    library.downloads.start()
    let started = performance.now()
    const [one] = (await library.downloads.enqueue({ uploadIds: [big!], folder })).downloads
    await library.downloads.whenIdle()
    let seconds = (performance.now() - started) / 1000
    let expected = one!.bytesTotal / MB
    expect(library.downloads.get(one!.id).state).toBe('completed')
    // Bounded both sides: the bucket's burst (0.1 s) and the last chunk make it a little quicker at most.
    expect(seconds).toBeGreaterThan(expected - 0.35)
    expect(seconds).toBeLessThan(expected * 1.3 + 0.5)

    // Two at once share the one limit: together they take as long as their bytes at 1 MB/s.
    const pair = synced.uploads(3, 1_000_000).filter((upload) => upload !== big).slice(0, 2)
    started = performance.now()
    const both = (await library.downloads.enqueue({ uploadIds: pair, folder })).downloads
    await library.downloads.whenIdle()
    seconds = (performance.now() - started) / 1000
    expected = both.reduce((sum, download) => sum + download.bytesTotal, 0) / MB
    expect(both.every((download) => library.downloads.get(download.id).state === 'completed')).toBe(true)
    expect(seconds).toBeGreaterThan(expected - 0.35)
    expect(seconds).toBeLessThan(expected * 1.3 + 0.5)
  })

  test('a new limit applies to the running download at once, and no limit lets it finish at full speed', async ({ synced, syncedLibrary, tempDir }) => {
    const library = syncedLibrary({ downloads: { transferSettings: QUICK_TRANSFERS, progressIntervalMs: 50 } })
    library.settings.update({ downloadSpeedLimit: 300_000 })
    const [big] = synced.uploads(1, 2_800_000)
    const samples: { at: number; bytes: number; speed: number }[] = []
    library.downloads.onDidProgress((progress: DownloadProgress) => samples.push({ at: performance.now(), bytes: progress.bytes, speed: progress.speed }))
    library.downloads.start()
    const [download] = (await library.downloads.enqueue({ uploadIds: [big!], folder: tempDir() })).downloads
    const rate = (from: number, to: number): number => {
      const inside = samples.filter((sample) => sample.at >= from && sample.at <= to)
      const first = inside[0]!
      const last = inside.at(-1)!
      return ((last.bytes - first.bytes) / (last.at - first.at)) * 1000
    }
    await expect.poll(() => samples.length).toBeGreaterThan(0)
    const begun = samples[0]!.at
    await expect.poll(() => samples.at(-1)!.at - begun, { timeout: 5_000 }).toBeGreaterThan(1_200)
    const slow = rate(begun + 200, performance.now())
    expect(slow).toBeGreaterThan(200_000)
    expect(slow).toBeLessThan(400_000)
    // The speed it reports is the limit's too, once its first second is over (not the bursts between pauses).
    const reported = samples.filter((sample) => sample.at >= begun + 1_000).map((sample) => sample.speed)
    expect(reported.length).toBeGreaterThan(0)
    expect(Math.max(...reported)).toBeLessThan(450_000)
    expect(Math.min(...reported)).toBeGreaterThan(150_000)

    // Four times the limit, live: the same transfer speeds up.
    const changedAt = performance.now()
    library.settings.update({ downloadSpeedLimit: 1_200_000 })
    await expect.poll(() => samples.at(-1)!.at - changedAt, { timeout: 5_000 }).toBeGreaterThan(1_000)
    const fast = rate(changedAt + 200, performance.now())
    expect(fast).toBeGreaterThan(900_000)
    expect(fast).toBeLessThan(1_500_000)

    // No limit: it finishes at once.
    library.settings.update({ downloadSpeedLimit: null })
    await expect.poll(() => library.downloads.get(download!.id).state, { timeout: 2_000 }).toBe('completed')
    expect(() => library.settings.update({ downloadSpeedLimit: 999 })).toThrow(InvalidArgumentError)
  })
})

/**
 * The lock lease (db/locks.ts), the one heartbeat of the sync and the download queue: taken or
 * refused naming the holder, kept alive by an unref'd timer, lost to a process that took it over,
 * and given back even when the cache refuses the delete. On a real cache file, the beats driven by
 * fake interval timers (the clock of the lock is the lease's own `now`).
 */
import os from 'node:os'
import type { Database } from 'better-sqlite3'
import { afterEach, describe, expect, onTestFinished, vi } from 'vitest'
import { openCache } from '../../../../src-main/core/db/connection'
import { LockLease, type LockLeaseOptions } from '../../../../src-main/core/db/locks'
import { test } from '../../support/fixtures'

const HEARTBEAT_MS = 2_000
const STALE_MS = 15_000

/** A cache of its own (the locks table and all), closed after the test. */
function cacheDb(tempDir: () => string): Database {
  const cache = openCache(tempDir(), 'http://127.0.0.1:5')
  onTestFinished(() => cache.close())
  return cache.db
}

/** A lease whose clock the test moves; every lease is released after the test. */
function lease(db: Database, clock: { now: number }, options: Partial<LockLeaseOptions> = {}): LockLease {
  const made = new LockLease(db, { name: 'test', heartbeatMs: HEARTBEAT_MS, staleAfterMs: STALE_MS, now: () => clock.now, onLost: () => {}, ...options })
  onTestFinished(() => made.release())
  return made
}

function lockRow(db: Database): { token: string; pid: number; heartbeat_at: number } | undefined {
  return db.prepare(`SELECT token, pid, heartbeat_at FROM locks WHERE name = 'test'`).get() as { token: string; pid: number; heartbeat_at: number } | undefined
}

/** Another process's lock row, as one that took the lock over would write it (this test runner's parent: alive). */
function takeOver(db: Database, heartbeatAt: number): void {
  db.prepare(`UPDATE locks SET token = 'other-process', pid = ?, heartbeat_at = ? WHERE name = 'test'`).run(process.ppid, heartbeatAt)
}

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('a lock lease', () => {
  test('is taken once: a second holder is refused, told who holds it, until the first gives it back', ({ tempDir }) => {
    const db = cacheDb(tempDir)
    const clock = { now: 1_000 }
    const first = lease(db, clock)
    const second = lease(db, clock)
    expect(first.acquire()).toBeUndefined()
    const holder = { pid: process.pid, host: os.hostname(), acquiredAt: 1_000, heartbeatAt: 1_000 }
    expect(second.acquire()).toEqual(holder)
    expect(second.holder()).toEqual(holder)
    first.release()
    expect(lockRow(db)).toBeUndefined()
    expect(second.holder()).toBeUndefined()
    expect(second.acquire()).toBeUndefined()
  })

  test('held by a silent holder is taken over once the stale limit has passed', ({ tempDir }) => {
    const db = cacheDb(tempDir)
    const clock = { now: 1_000 }
    expect(lease(db, clock).acquire()).toBeUndefined()
    clock.now += STALE_MS
    expect(lease(db, clock).acquire()).toMatchObject({ pid: process.pid })
    clock.now += 1
    expect(lease(db, clock).acquire()).toBeUndefined()
  })

  test('beats on a timer that never keeps the process up, each beat refreshing the lock and told', ({ tempDir }) => {
    const db = cacheDb(tempDir)
    const clock = { now: 1_000 }
    const timers = vi.spyOn(globalThis, 'setInterval')
    const real = lease(db, clock)
    expect(real.acquire()).toBeUndefined()
    expect(timers).toHaveBeenCalledTimes(1)
    expect((timers.mock.results[0]!.value as NodeJS.Timeout).hasRef()).toBe(false)
    real.release()
    vi.restoreAllMocks()

    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const onBeat = vi.fn()
    const held = lease(db, clock, { onBeat })
    expect(held.acquire()).toBeUndefined()

    clock.now = 3_000
    vi.advanceTimersByTime(HEARTBEAT_MS)
    expect(onBeat).toHaveBeenCalledTimes(1)
    expect(lockRow(db)?.heartbeat_at).toBe(3_000)

    // Winding down: the lock is kept, but no longer said to be alive.
    held.stopBeating()
    clock.now = 9_000
    vi.advanceTimersByTime(HEARTBEAT_MS * 3)
    expect(onBeat).toHaveBeenCalledTimes(1)
    expect(lockRow(db)?.heartbeat_at).toBe(3_000)
    held.release()
    expect(lockRow(db)).toBeUndefined()
  })

  test('missing a beat the cache refuses is not losing the lock', ({ tempDir }) => {
    const db = cacheDb(tempDir)
    const clock = { now: 1_000 }
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const onLost = vi.fn()
    const onBeat = vi.fn()
    const held = lease(db, clock, { onLost, onBeat })
    held.acquire()
    db.exec('ALTER TABLE locks RENAME TO locks_away')
    vi.advanceTimersByTime(HEARTBEAT_MS)
    expect(onBeat).not.toHaveBeenCalled()
    db.exec('ALTER TABLE locks_away RENAME TO locks')
    clock.now = 5_000
    vi.advanceTimersByTime(HEARTBEAT_MS)
    expect(onBeat).toHaveBeenCalledTimes(1)
    expect(onLost).not.toHaveBeenCalled()
    expect(held.lost).toBe(false)
    expect(lockRow(db)?.heartbeat_at).toBe(5_000)
  })

  test('taken over by another process is lost: told once, with the taker, and its beats stop', ({ tempDir }) => {
    const db = cacheDb(tempDir)
    const clock = { now: 1_000 }
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const onLost = vi.fn()
    const onBeat = vi.fn()
    const held = lease(db, clock, { onLost, onBeat })
    held.acquire()
    takeOver(db, 2_000)
    clock.now = 3_000
    vi.advanceTimersByTime(HEARTBEAT_MS * 4)
    expect(onLost).toHaveBeenCalledTimes(1)
    expect(onLost).toHaveBeenCalledWith({ pid: process.ppid, host: os.hostname(), acquiredAt: 1_000, heartbeatAt: 2_000 })
    expect(onBeat).not.toHaveBeenCalled()
    expect(held.lost).toBe(true)
    // Giving it back leaves the taker's lock alone.
    held.release()
    expect(lockRow(db)).toMatchObject({ token: 'other-process', heartbeat_at: 2_000 })
  })

  test('given back when the cache refuses the delete does not throw, and leaves a lock this process takes at once', ({ tempDir }) => {
    const db = cacheDb(tempDir)
    const clock = { now: 1_000 }
    const held = lease(db, clock)
    held.acquire()
    db.exec('ALTER TABLE locks RENAME TO locks_away')
    expect(() => held.release()).not.toThrow()
    db.exec('ALTER TABLE locks_away RENAME TO locks')
    // Its heartbeat is fresh and its process alive, but this process let go of it.
    expect(lockRow(db)).toMatchObject({ pid: process.pid, heartbeat_at: 1_000 })
    expect(lease(db, clock).holder()).toBeUndefined()
    expect(lease(db, clock).acquire()).toBeUndefined()
  })
})

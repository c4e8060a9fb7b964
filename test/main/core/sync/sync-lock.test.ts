/**
 * The sync lock in the cache and its stale rule: a holder is live while its
 * process exists (on this host) and its heartbeat is fresh; a lock left by a
 * process that is gone, or silent for 15 s, is taken over at once.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import os from 'node:os'
import { describe, expect, onTestFinished } from 'vitest'
import { openCache } from '../../../../src-main/core/db/connection'
import { CancelledError } from '../../../../src-main/core/shared/errors'
import type { Library } from '../../../../src-main/core/library/library'
import type { SyncState } from '../../../../src-main/core/sync/service'
import { LOCK_STALE_MS, SyncLockedError, syncCatalogue } from '../../../../src-main/core/sync/sync'
import { exited } from '../../support/cli'
import { catalogueTest, testClient } from '../../support/fixtures'
import { withCache } from './cache-file'

const ARTISTS = 30
const test = catalogueTest({ artists: ARTISTS, seed: 61, maxFileMb: 4 })

interface LockRow {
  pid: number
  host?: string
  heartbeatAt?: number
}

/** Writes the sync lock row as another process would have left it. */
function putLock(library: Library, { pid, host = os.hostname(), heartbeatAt = Date.now() }: LockRow): void {
  withCache(library.cacheFile, (db) =>
    db
      .prepare(`INSERT OR REPLACE INTO locks (name, token, pid, host, acquired_at, heartbeat_at) VALUES ('sync', 'other-process', ?, ?, ?, ?)`)
      .run(pid, host, heartbeatAt, heartbeatAt),
  )
}

function lockRows(library: Library): unknown[] {
  return withCache(library.cacheFile, (db) => db.prepare('SELECT token, pid, host FROM locks').all())
}

/** A process that stays alive until the test ends. */
function sleepingChild(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' })
  onTestFinished(async () => {
    child.kill('SIGKILL')
    await exited(child)
  })
  return child
}

/** The pid of a process that has exited. */
async function pidOfExitedProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  const pid = child.pid!
  expect(await exited(child)).toEqual({ code: 0, signal: null })
  return pid
}

/** Resolves with the first state the sync reports that matches. */
function stateWhere(library: Library, matches: (state: SyncState) => boolean): Promise<SyncState> {
  return new Promise((resolve) => {
    const subscription = library.sync.onDidChangeState((state) => {
      if (!matches(state)) return
      subscription.dispose()
      resolve(state)
    })
  })
}

/** Every status the sync reports from now on. */
function statusesOf(library: Library): string[] {
  const statuses: string[] = []
  library.sync.onDidChangeState((state) => statuses.push(state.status))
  return statuses
}

describe('a stale lock is taken over at once', () => {
  test('left by a process that has exited', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    putLock(library, { pid: await pidOfExitedProcess() })
    const statuses = statusesOf(library)
    demo.requests.reset()
    const report = await library.sync.start({ skipAvatars: true })
    expect(report).toMatchObject({ joined: false, detailsFetched: ARTISTS })
    expect(statuses).not.toContain('waiting')
    expect(demo.requests.artist).toBe(ARTISTS)
    expect(lockRows(library)).toEqual([])
  })

  test('held by a live process that has been silent for longer than the stale limit', async ({ openLibrary }) => {
    const library = openLibrary()
    putLock(library, { pid: sleepingChild().pid!, heartbeatAt: Date.now() - LOCK_STALE_MS - 1000 })
    const statuses = statusesOf(library)
    expect(await library.sync.start({ skipAvatars: true })).toMatchObject({ joined: false, detailsFetched: ARTISTS })
    expect(statuses).not.toContain('waiting')
  })

  test('by syncCatalogue itself, when the process is gone', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    putLock(library, { pid: await pidOfExitedProcess() })
    const cache = openCache(library.dataDir, demo.baseUrl)
    try {
      expect(await syncCatalogue({ db: cache.db, client: testClient(demo.baseUrl), skipAvatars: true })).toMatchObject({ detailsFetched: ARTISTS })
    } finally {
      cache.close()
    }
  })
})

describe('a live lock', () => {
  test('makes syncCatalogue refuse with busy, naming the holder, and fetch nothing', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    // This test's parent process (the test runner) is alive for as long as the test is.
    putLock(library, { pid: process.ppid })
    const cache = openCache(library.dataDir, demo.baseUrl)
    demo.requests.reset()
    try {
      const failure = await syncCatalogue({ db: cache.db, client: testClient(demo.baseUrl) }).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(SyncLockedError)
      expect(failure).toMatchObject({
        code: 'busy',
        retryable: true,
        holder: { pid: process.ppid, host: os.hostname() },
        message: `another Tuneshelf process (pid ${process.ppid} on ${os.hostname()}) is syncing this catalogue`,
      })
    } finally {
      cache.close()
    }
    expect(demo.requests.total).toBe(0)
    expect(lockRows(library)).toEqual([{ token: 'other-process', pid: process.ppid, host: os.hostname() }])
  })

  test('on another host, with a fresh heartbeat, is live too (its process cannot be looked up)', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    putLock(library, { pid: await pidOfExitedProcess(), host: `not-${os.hostname()}` })
    const cache = openCache(library.dataDir, demo.baseUrl)
    try {
      await expect(syncCatalogue({ db: cache.db, client: testClient(demo.baseUrl) })).rejects.toBeInstanceOf(SyncLockedError)
    } finally {
      cache.close()
    }
  })

  test('makes library.sync.start() wait, and run once the holder lets go', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    const child = sleepingChild()
    putLock(library, { pid: child.pid! })
    demo.requests.reset()
    const waiting = stateWhere(library, (state) => state.status === 'waiting')
    const started = library.sync.start({ skipAvatars: true })
    const state = await waiting
    expect(state.waitingFor).toMatchObject({ pid: child.pid, host: os.hostname() })
    expect(library.sync.state).toMatchObject({ status: 'waiting', waitingFor: { pid: child.pid } })
    expect(demo.requests.total).toBe(0)
    // The holder ends without a completed run: the waiting caller syncs itself.
    const running = stateWhere(library, (next) => next.status === 'running')
    withCache(library.cacheFile, (db) => db.prepare(`DELETE FROM locks WHERE name = 'sync'`).run())
    await running
    expect(await started).toMatchObject({ joined: false, detailsFetched: ARTISTS })
    expect(library.sync.state).toMatchObject({ status: 'idle', waitingFor: null, lastError: null })
  })

  test('cancel() while waiting rejects at once with cancelled, and leaves the other lock alone', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    const child = sleepingChild()
    putLock(library, { pid: child.pid! })
    demo.requests.reset()
    const waiting = stateWhere(library, (state) => state.status === 'waiting')
    const started = library.sync.start()
    const outcome = started.then(
      () => 'resolved',
      (error: unknown) => error,
    )
    await waiting
    library.sync.cancel()
    // At once: before the next look at the lock row, not at it.
    const early = await Promise.race([outcome, new Promise((resolve) => setImmediate(() => resolve('still waiting')))])
    expect(early).toBeInstanceOf(CancelledError)
    expect(early).toMatchObject({ code: 'cancelled' })
    expect(library.sync.state).toMatchObject({ status: 'idle', waitingFor: null, lastError: { code: 'cancelled' } })
    expect(demo.requests.total).toBe(0)
    expect(lockRows(library)).toEqual([{ token: 'other-process', pid: child.pid, host: os.hostname() }])
  })
})

describe('a lock taken over', () => {
  test('stops the run that lost it, which then waits for the new holder instead of running beside it', async ({ demo, openLibrary }) => {
    const library = openLibrary({ syncProgressIntervalMs: 0 })
    const child = sleepingChild()
    // Slow details: the run is still fetching when its next heartbeat finds its lock gone.
    demo.faults.add({ path: '/api/v1/artists/*', times: 10_000, fault: { kind: 'slow', bytesPerSecond: 3_000 } })
    let takenOver = false
    // As another process does when this one was silent for too long (a machine asleep, a blocked event loop).
    const takeOver = library.sync.onDidProgress((progress) => {
      if (progress.phase !== 'details' || takenOver) return
      takenOver = true
      withCache(library.cacheFile, (db) =>
        db.prepare(`UPDATE locks SET token = 'other-process', pid = ?, heartbeat_at = ? WHERE name = 'sync'`).run(child.pid, Date.now()),
      )
    })
    const waiting = stateWhere(library, (state) => state.status === 'waiting')
    const started = library.sync.start({ skipAvatars: true })
    const state = await waiting
    takeOver.dispose()
    // Waiting, it shows no progress: that of its stopped run is not the other process's.
    expect(state).toMatchObject({ waitingFor: { pid: child.pid }, progress: null })
    // The run is the new holder's now: the process that lost it does not end it.
    expect(library.catalogue.status().lastRun).toMatchObject({ state: 'running', phase: 'details' })
    const requestsWhileWaiting = demo.requests.artist
    demo.faults.clear()
    // The other process goes away without finishing: this one resumes the run.
    withCache(library.cacheFile, (db) => db.prepare(`DELETE FROM locks WHERE name = 'sync'`).run())
    const report = await started
    expect(report).toMatchObject({ joined: false, resumed: true, listPages: 0 })
    expect(demo.requests.artist).toBeGreaterThan(requestsWhileWaiting)
    expect(library.catalogue.status()).toMatchObject({ detailsPending: 0, lastRun: { state: 'completed' } })
    expect(lockRows(library)).toEqual([])
  })
})

describe('the lock of a finished run', () => {
  test('is released after a run completes, fails or is cancelled', async ({ demo, openLibrary }) => {
    const library = openLibrary({ syncProgressIntervalMs: 0 })
    await library.sync.start({ skipAvatars: true })
    expect(lockRows(library)).toEqual([])

    demo.faults.add({ path: '/api/v1/access_levels', times: 100, fault: { kind: 'status', status: 404 } })
    try {
      await expect(library.sync.start()).rejects.toMatchObject({ code: 'not_found' })
    } finally {
      demo.faults.clear()
    }
    expect(lockRows(library)).toEqual([])

    const subscription = library.sync.onDidProgress(() => library.sync.cancel())
    await expect(library.sync.start()).rejects.toMatchObject({ code: 'cancelled' })
    subscription.dispose()
    expect(lockRows(library)).toEqual([])
  })
})

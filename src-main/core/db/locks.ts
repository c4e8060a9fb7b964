/**
 * Named locks in the cache, shared by every process that opens it. A holder
 * refreshes its heartbeat while it works; a lock whose heartbeat is old, or
 * whose holder process is gone from this machine, is stale and can be taken.
 */
import fs from 'node:fs'
import os from 'node:os'
import type { Database } from 'better-sqlite3'
import { statement } from './statements'
import type { LockHolder } from '../shared/types'
export type { LockHolder } from '../shared/types'

export interface LockOwner {
  token: string
  pid: number
  host: string
}

/**
 * Tokens of locks this process let go of but could not delete (a full disk
 * refuses even a DELETE): their rows are stale at once, so the process's next
 * run does not wait for itself as if for another process.
 */
const abandoned = new Set<string>()

/** This process as a lock owner, with a fresh token. */
export function newLockOwner(): LockOwner {
  return { token: crypto.randomUUID(), pid: process.pid, host: os.hostname() }
}

/**
 * Takes the lock unless a live holder has it. Returns undefined when taken,
 * else who holds it. One IMMEDIATE transaction, so two processes cannot both win.
 */
export function tryAcquireLock(db: Database, name: string, owner: LockOwner, now: number, staleAfterMs: number): LockHolder | undefined {
  return db.transaction((): LockHolder | undefined => {
    const holder = statement<[string], LockHolder & { token: string }>(
      db,
      'SELECT token, pid, host, acquired_at AS acquiredAt, heartbeat_at AS heartbeatAt FROM locks WHERE name = ?',
    ).get(name)
    if (holder && holder.token !== owner.token && !isStale(holder, now, staleAfterMs)) {
      return { pid: holder.pid, host: holder.host, acquiredAt: holder.acquiredAt, heartbeatAt: holder.heartbeatAt }
    }
    statement(
      db,
      `INSERT OR REPLACE INTO locks (name, token, pid, host, acquired_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(name, owner.token, owner.pid, owner.host, now, now)
    if (holder) abandoned.delete(holder.token)
    return undefined
  }).immediate()
}

/** Refreshes the holder's heartbeat; false when the lock is no longer this owner's. */
export function refreshLock(db: Database, name: string, owner: LockOwner, now: number): boolean {
  return statement(db, 'UPDATE locks SET heartbeat_at = ? WHERE name = ? AND token = ?').run(now, name, owner.token).changes === 1
}

/** Deletes the owner's lock; if that fails, the row is left for anyone to take over, this process at once. */
export function releaseLock(db: Database, name: string, owner: LockOwner): void {
  try {
    statement(db, 'DELETE FROM locks WHERE name = ? AND token = ?').run(name, owner.token)
  } catch (error) {
    abandoned.add(owner.token)
    throw error
  }
}

/** Who holds a lock now, if a live holder does. */
export function lockHolder(db: Database, name: string, now: number, staleAfterMs: number): LockHolder | undefined {
  const holder = statement<[string], LockHolder & { token: string }>(
    db,
    'SELECT token, pid, host, acquired_at AS acquiredAt, heartbeat_at AS heartbeatAt FROM locks WHERE name = ?',
  ).get(name)
  if (!holder || isStale(holder, now, staleAfterMs)) return undefined
  return { pid: holder.pid, host: holder.host, acquiredAt: holder.acquiredAt, heartbeatAt: holder.heartbeatAt }
}

/** Stale: silent for too long, abandoned by this process, or held by a process of this machine that no longer exists. */
function isStale(holder: LockHolder & { token: string }, now: number, staleAfterMs: number): boolean {
  if (now - holder.heartbeatAt > staleAfterMs || abandoned.has(holder.token)) return true
  return holder.host === os.hostname() && !processExists(holder.pid)
}

/** Whether a process of this machine is alive: it exists and, on Linux, is not a zombie. */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    // EPERM: it exists, it just is not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  return !isZombie(pid)
}

/**
 * A process killed (SIGKILL) but not yet reaped by its parent still answers kill(pid, 0), though it
 * holds nothing and will never run again: a run started at once after it was refused as "another
 * process is running". Linux says so in /proc/PID/stat: the state after the command's closing
 * parenthesis (the command itself may hold spaces and parentheses) is Z.
 */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z'
  } catch {
    // Gone between the two looks, or /proc is not mounted: kill's answer stands.
    return false
  }
}

export interface LockLeaseOptions {
  /** The lock's name in the cache ('sync', 'downloads'). */
  name: string
  /** How often the holder says it is alive. */
  heartbeatMs: number
  /** A holder silent for this long has crashed (or hangs): its lock may be taken over. */
  staleAfterMs: number
  now?: () => number
  /** After every beat that found the lock still this holder's. */
  onBeat?: () => void
  /**
   * Another process took the lock over (this one was silent past staleAfterMs: a machine asleep, a
   * blocked process). The heartbeat has stopped; `taker` is who holds it now, when that could be read.
   */
  onLost: (taker: LockHolder | undefined) => void
}

/**
 * A named lock held by this process for as long as it works: taken at once or refused naming the
 * holder, kept alive by a heartbeat (a timer that never keeps the process up), and given back.
 * One owner (token) per lease, so a lease acquired again after release is the same holder.
 */
export class LockLease {
  private readonly owner = newLockOwner()
  private readonly now: () => number
  private timer: NodeJS.Timeout | undefined
  private lostIt = false

  constructor(
    private readonly db: Database,
    private readonly options: LockLeaseOptions,
  ) {
    this.now = options.now ?? Date.now
  }

  /** Whether another process took this lease's lock over since it was acquired. */
  get lost(): boolean {
    return this.lostIt
  }

  /**
   * Takes the lock and starts the heartbeat; returns undefined, else (taking nothing) who holds it.
   * Throws what the cache throws (a full disk or a busy cache can refuse the lock's own row).
   */
  acquire(): LockHolder | undefined {
    const holder = tryAcquireLock(this.db, this.options.name, this.owner, this.now(), this.options.staleAfterMs)
    if (holder) return holder
    this.stopBeating()
    this.lostIt = false
    this.timer = setInterval(() => this.beat(), this.options.heartbeatMs)
    this.timer.unref()
    return undefined
  }

  /** Who holds the lock now, if a live holder does (this lease included). */
  holder(): LockHolder | undefined {
    return lockHolder(this.db, this.options.name, this.now(), this.options.staleAfterMs)
  }

  /**
   * Stops saying the holder is alive, keeping the lock: for a holder that winds its work down
   * before letting go (the lock goes stale after staleAfterMs if it never does).
   */
  stopBeating(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** Stops the heartbeat and gives the lock back. Never throws. */
  release(): void {
    this.stopBeating()
    try {
      releaseLock(this.db, this.options.name, this.owner)
    } catch {
      // A cache that cannot be written (its disk full) keeps the lock row; without its heartbeat,
      // and once this process is gone (or at once for this process: releaseLock), it is stale and taken over.
    }
  }

  private beat(): void {
    let held: boolean
    try {
      held = refreshLock(this.db, this.options.name, this.owner, this.now())
    } catch {
      // A busy or full database misses one beat; the lock goes stale only after several.
      return
    }
    if (held) {
      this.options.onBeat?.()
      return
    }
    this.lostIt = true
    this.stopBeating()
    let taker: LockHolder | undefined
    try {
      taker = this.holder()
    } catch {
      // Who took it is only for the caller's message; a timer must not throw.
    }
    this.options.onLost(taker)
  }
}

/**
 * Named locks in the cache, shared by every process that opens it. A holder
 * refreshes its heartbeat while it works; a lock whose heartbeat is old, or
 * whose holder process is gone from this machine, is stale and can be taken.
 */
import os from 'node:os'
import type { Database } from 'better-sqlite3'
import { statement } from './statements'

export interface LockOwner {
  token: string
  pid: number
  host: string
}

export interface LockHolder {
  pid: number
  host: string
  acquiredAt: number
  heartbeatAt: number
}

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
    return undefined
  }).immediate()
}

/** Refreshes the holder's heartbeat; false when the lock is no longer this owner's. */
export function refreshLock(db: Database, name: string, owner: LockOwner, now: number): boolean {
  return statement(db, 'UPDATE locks SET heartbeat_at = ? WHERE name = ? AND token = ?').run(now, name, owner.token).changes === 1
}

export function releaseLock(db: Database, name: string, owner: LockOwner): void {
  statement(db, 'DELETE FROM locks WHERE name = ? AND token = ?').run(name, owner.token)
}

/** Who holds a lock now, if a live holder does. */
export function lockHolder(db: Database, name: string, now: number, staleAfterMs: number): LockHolder | undefined {
  const holder = statement<[string], LockHolder>(
    db,
    'SELECT pid, host, acquired_at AS acquiredAt, heartbeat_at AS heartbeatAt FROM locks WHERE name = ?',
  ).get(name)
  return holder && !isStale(holder, now, staleAfterMs) ? holder : undefined
}

/** Stale: silent for too long, or held by a process of this machine that no longer exists. */
function isStale(holder: LockHolder, now: number, staleAfterMs: number): boolean {
  if (now - holder.heartbeatAt > staleAfterMs) return true
  return holder.host === os.hostname() && !processExists(holder.pid)
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, it just is not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

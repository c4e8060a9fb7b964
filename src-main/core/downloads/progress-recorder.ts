/**
 * A running download's progress kept in the cache. Progress is heard a few times a second and kept
 * in memory; the cache is written at most once per PERSIST_PROGRESS_MS, and once more when the
 * transfer ends (with its completion, in the same transaction, or before its new state is recorded).
 * Progress is heard from the throttle's timer too, where nothing may be thrown: a failed write (the
 * cache's disk full, say) calls onFailure, which stops the transfer, and the transfer fails with it.
 */
import type { Database } from 'better-sqlite3'
import * as store from '../db/downloads'
import type { Download } from '../db/downloads'

/** Least time between two writes of a running download's progress to the cache. */
const PERSIST_PROGRESS_MS = 1_000

export class ProgressRecorder {
  /** The first failed write; nothing is written or reported after it. */
  failure: { error: unknown } | undefined
  private bytesDone: number
  private persistedBytes: number
  private unpersisted = 0
  private persistedAt = performance.now()

  constructor(
    private readonly db: Database,
    private readonly download: Download,
    private readonly now: () => number,
    private readonly onFailure: () => void,
  ) {
    this.bytesDone = download.bytesDone
    this.persistedBytes = download.bytesDone
  }

  /** Bytes counted since the last write: the completion records them. */
  get unpersistedBytes(): number {
    return this.unpersisted
  }

  /** The bytes on disk now, and those new since last heard; false once a write has failed (report nothing then). */
  heard(bytes: number, newBytes: number): boolean {
    if (this.failure) return false
    this.bytesDone = bytes
    this.unpersisted += newBytes
    if (performance.now() - this.persistedAt >= PERSIST_PROGRESS_MS) this.persist()
    return !this.failure
  }

  /** Writes what is not in the cache yet, if anything. */
  persist(): void {
    if (this.failure || (this.bytesDone === this.persistedBytes && this.unpersisted === 0)) return
    try {
      store.recordProgress(this.db, this.download.id, this.bytesDone, this.unpersisted, this.now())
    } catch (error) {
      this.failure = { error }
      this.onFailure()
      return
    }
    this.persistedBytes = this.bytesDone
    this.unpersisted = 0
    this.persistedAt = performance.now()
  }
}

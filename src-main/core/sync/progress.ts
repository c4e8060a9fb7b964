/** Throttled progress reports: a few per second at most, plus every phase's start and end. */
import type { SyncPhase } from '../db/sync-store'

export interface SyncProgress {
  phase: SyncPhase
  done: number
  total: number
}

export class ProgressReporter {
  private lastAt = -Infinity

  constructor(
    private readonly listener: ((progress: SyncProgress) => void) | undefined,
    private readonly intervalMs: number,
  ) {}

  /** Reports now if forced (a phase starts or ends) or if the interval has passed since the last report. */
  report(progress: SyncProgress, force = false): void {
    if (!this.listener) return
    const now = performance.now()
    if (!force && now - this.lastAt < this.intervalMs) return
    this.lastAt = now
    this.listener(progress)
  }
}

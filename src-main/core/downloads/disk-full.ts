/**
 * When the disk fills nothing is lost: every running download pauses with its bytes, the queue
 * waits (saying why) until it is told to go on, and then the downloads the full disk paused are
 * queued again, not those the user paused.
 */
import type { Database } from 'better-sqlite3'
import * as store from '../db/downloads'
import type { Download } from '../db/downloads'
import type { DiskFullError } from '../shared/errors'
import type { DownloadRows } from './rows'
import type { Scheduler } from './scheduler'

export class DiskFullPolicy {
  /** Why the queue is paused; null while it runs. */
  pausedBecause: string | null = null

  constructor(
    private readonly db: Database,
    private readonly rows: DownloadRows,
    private readonly scheduler: Scheduler,
    /** The queue paused, saying why. */
    private readonly paused: (message: string) => void,
  ) {}

  /** A transfer stopped on a full disk: the whole queue pauses with it. */
  filled(download: Download, error: DiskFullError): void {
    // The queue pauses first, as recording the pause fails too when the full disk is the cache's.
    this.pausedBecause = `${error.message}; free some space, then resume the queue`
    for (const id of this.scheduler.runningIds()) if (id !== download.id) void this.scheduler.interrupt(id, 'disk-full')
    this.paused(this.pausedBecause)
    this.pauseForSpace(download)
  }

  /** One download paused for space, saying why. */
  pauseForSpace(download: Download): void {
    try {
      this.rows.setStates([download], 'paused', { pauseReason: 'disk_full', error: this.pausedBecause })
    } catch {
      // Expected when the full disk is the cache's: the row stays "downloading" (interrupted) until resumeQueue() or the next start.
    }
  }

  /**
   * The queue goes on: returns the downloads to queue again, those the full disk paused and
   * `stranded` (those it could not even mark paused, left "downloading" because the full disk was the cache's).
   */
  resume(stranded: readonly Download[]): Download[] {
    this.pausedBecause = null
    return [...store.pausedForSpace(this.db), ...stranded]
  }
}

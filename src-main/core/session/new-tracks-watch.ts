/**
 * What the app session does so that new tracks come by themselves: a sync on the schedule of
 * the "Check for new tracks" setting while the app is open, and after every completed sync,
 * the new tracks of followed artists queued (auto-download) and told (one event per sync).
 */
import type { Disposable } from '../base/events'
import type { Library } from '../library/library'
import { toTuneshelfError } from '../shared/errors'
import type { NewTracksCheck, NewTracksSummary } from '../shared/types'

const MINUTE_MS = 60 * 1000
const HOUR_MS = 60 * MINUTE_MS

/** How long after the last sync's end each setting syncs again. */
export const NEW_TRACKS_CHECK_MS: Readonly<Record<Exclude<NewTracksCheck, 'off'>, number>> = Object.freeze({
  'every-5-minutes': 5 * MINUTE_MS,
  'every-15-minutes': 15 * MINUTE_MS,
  'every-30-minutes': 30 * MINUTE_MS,
  hourly: HOUR_MS,
  'every-6-hours': 6 * HOUR_MS,
  daily: 24 * HOUR_MS,
})

export interface SyncScheduleOptions {
  /** The setting now. */
  check: () => NewTracksCheck
  /** When the last sync of the cache ended (null: none has, or one runs now). */
  lastEnd: () => number | null
  /** Starts a sync (joins the one under way, if any): a quick check, or a full refresh when one is due. */
  sync: () => void
  now: () => number
  /** The intervals (tests shorten them). */
  intervalsMs?: Partial<Record<Exclude<NewTracksCheck, 'off'>, number>>
}

/**
 * One timer: the next sync, interval after the last sync's end, whoever ran it. Re-armed when
 * a sync ends and when the setting changes; unref'd, so it never keeps a process alive.
 */
export class SyncSchedule implements Disposable {
  private timer: NodeJS.Timeout | undefined
  private disposed = false

  constructor(private readonly options: SyncScheduleOptions) {}

  /** When the next sync is due (ms since the epoch), or null when the setting is off. */
  get dueAt(): number | null {
    const check = this.options.check()
    if (check === 'off') return null
    const interval = this.options.intervalsMs?.[check] ?? NEW_TRACKS_CHECK_MS[check]
    return (this.options.lastEnd() ?? this.options.now()) + interval
  }

  arm(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    const dueAt = this.dueAt
    if (this.disposed || dueAt === null) return
    // A timer's delay is a 32-bit count of ms (about 24 days): beyond it, it would fire at once.
    const delay = Math.min(2 ** 31 - 1, Math.max(0, dueAt - this.options.now()))
    this.timer = setTimeout(() => {
      this.timer = undefined
      // Not due yet after all (a longer timer cut short, a clock that moved): wait on.
      if ((this.dueAt ?? Infinity) > this.options.now()) return this.arm()
      this.options.sync()
      // The sync's end re-arms it; a sync that could not start at all waits one more interval.
      this.arm()
    }, delay)
    this.timer.unref()
  }

  dispose(): void {
    this.disposed = true
    clearTimeout(this.timer)
    this.timer = undefined
  }
}

export interface NewTracksFollowUpOptions {
  /** One event per sync that brought new tracks of followed artists. */
  tell: (summary: NewTracksSummary) => void
  /** Auto-download refused (no room, a folder that may not be used): the user is told, nothing crashes. */
  notice: (message: string, error: unknown) => void
}

/**
 * After a completed sync: auto-download queues what is new (and anything an earlier refusal
 * left), then one event tells of the run's new tracks. Each run is followed up once.
 */
export async function followUpSync(library: Library, runId: number, options: NewTracksFollowUpOptions): Promise<void> {
  if (!library.readOnly) {
    try {
      await library.newTracks.autoDownload()
    } catch (error) {
      const failure = toTuneshelfError(error)
      options.notice(`the new tracks of followed artists could not be queued: ${failure.message}`, failure)
    }
  }
  let summary: NewTracksSummary
  try {
    summary = library.newTracks.ofRun(runId)
  } catch {
    return // closed meanwhile (a switch of service): the run's news is the old service's
  }
  if (summary.total > 0) options.tell(summary)
}

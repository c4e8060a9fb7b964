/**
 * The session's events as a window receives them: in batches, a few a second.
 * Progress (of the sync and of each download) is throttled to its latest value
 * per interval; every other event passes in order, with the progress that
 * came before it. A window that subscribes gets the session's snapshot first (its transport takes it
 * once the stream is open).
 */
import type { Disposable, Event } from '../core/events'
import { throttle } from '../core/shared/throttle'
import type { SessionEvent } from '../core/shared/types'

/** Batches a window gets at most this often (about five a second). */
export const EVENT_INTERVAL_MS = 200

/** Streams the session's events (as the core client fires them) to send, batched; dispose to stop. */
export function streamEvents(source: { onDidEmit: Event<SessionEvent> }, send: (events: SessionEvent[]) => void, intervalMs = EVENT_INTERVAL_MS): Disposable {
  let pending: SessionEvent[] = []
  // The latest progress of the sync and of each download, sent with the next batch.
  let syncProgress: SessionEvent | undefined
  const downloadProgress = new Map<number, SessionEvent>()

  // A batch waits for the next turn of the event loop even after a quiet while: what is fired together goes together.
  const schedule = throttle<void>(
    () => {
      const events = [...pending, ...(syncProgress ? [syncProgress] : []), ...downloadProgress.values()]
      pending = []
      syncProgress = undefined
      downloadProgress.clear()
      send(events)
    },
    intervalMs,
    { batch: true },
  )
  const subscription = source.onDidEmit((event) => {
    if (event.type === 'sync-progress') syncProgress = event
    else if (event.type === 'download-progress') downloadProgress.set(event.progress.id, event)
    else {
      // What changed state goes with the progress seen so far, so a window never sees progress after its end.
      if (syncProgress) pending.push(syncProgress)
      syncProgress = undefined
      if (event.type === 'downloads-changed') {
        for (const download of event.downloads) {
          const progress = downloadProgress.get(download.id)
          if (progress) pending.push(progress)
          downloadProgress.delete(download.id)
        }
        // A removed download's progress would bring it back in a window: it goes with it.
        for (const id of event.removed) downloadProgress.delete(id)
      } else if (event.type === 'service') {
        // The old service's downloads go before the switch: the new one's ids are other downloads.
        pending.push(...downloadProgress.values())
        downloadProgress.clear()
      }
      pending.push(event)
    }
    schedule()
  })
  return {
    dispose: () => {
      subscription.dispose()
      schedule.cancel()
    },
  }
}

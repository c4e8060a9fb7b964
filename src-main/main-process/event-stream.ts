/**
 * The session's events as a window receives them: in batches, a few a second.
 * Progress (of the sync and of each download) is throttled to its latest value
 * per interval; every other event passes in order, with the progress that
 * came before it. A window that subscribes gets the session's snapshot first,
 * from the core's host, and then exactly the events after it (subscribeWindow).
 */
import { Emitter, type Disposable, type Event } from '../core/base/events'
import { throttle } from '../core/shared/throttle'
import type { SessionEvent, SessionSnapshot } from '../core/shared/types'
import type { CoreClient } from './core-client'

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

/** A window's subscription: the snapshot to send first, and the stream of what follows it. */
export interface WindowSubscription extends Disposable {
  snapshot: SessionSnapshot
}

/**
 * Subscribes a window: takes the session's snapshot from the core's host and streams to send, batched,
 * every event after it, none twice and none missed. Events that come while the snapshot is on its way
 * are held; those the snapshot already holds (numbered up to its own number) are dropped.
 */
export async function subscribeWindow(
  core: Pick<CoreClient, 'onDidEmit' | 'seq' | 'snapshot'>,
  send: (events: SessionEvent[]) => void,
  intervalMs = EVENT_INTERVAL_MS,
): Promise<WindowSubscription> {
  const after = new Emitter<SessionEvent>()
  // Until the snapshot comes, the events with their numbers; then none: each goes on as it comes.
  let held: { seq: number; event: SessionEvent }[] | undefined = []
  const listening = core.onDidEmit((event) => {
    if (held) held.push({ seq: core.seq, event })
    else after.fire(event)
  })
  const stream = streamEvents({ onDidEmit: after.event }, send, intervalMs)
  const dispose = (): void => {
    listening.dispose()
    stream.dispose()
    after.dispose()
  }
  let numbered
  try {
    numbered = await core.snapshot()
  } catch (error) {
    dispose()
    throw error
  }
  const early = held
  held = undefined
  for (const { seq, event } of early) if (seq > numbered.seq) after.fire(event)
  return { snapshot: numbered.snapshot, dispose }
}

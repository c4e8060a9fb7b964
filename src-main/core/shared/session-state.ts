/**
 * How each event of the session changes its snapshot: one rule for every
 * place that keeps the session's state from its events (the main process's
 * copy of the core's state, a window's session store). Events that say too
 * little to update a part (a switch of service, a cache cleared) leave it for
 * the next full state to correct.
 */
import type { SessionEvent, SessionSnapshot } from './types'

/** The snapshot after event; the same object when the event changes nothing in it. */
export function applySessionEvent(snapshot: SessionSnapshot, event: SessionEvent): SessionSnapshot {
  switch (event.type) {
    case 'service':
      return { ...snapshot, service: event.service }
    case 'settings':
      return { ...snapshot, settings: event.settings }
    case 'sync-state':
      return { ...snapshot, sync: event.state }
    case 'sync-progress':
      return { ...snapshot, sync: { ...snapshot.sync, progress: event.progress } }
    case 'online':
      return { ...snapshot, online: event.online }
    case 'queue-paused':
      return { ...snapshot, downloads: { ...snapshot.downloads, pausedBecause: event.message } }
    case 'notice':
      return { ...snapshot, notices: [...snapshot.notices, event.message].slice(-MAX_NOTICES) }
    default:
      return snapshot
  }
}

/** Notices a snapshot keeps, the latest last. */
export const MAX_NOTICES = 20

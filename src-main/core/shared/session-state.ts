/**
 * How each event of the session changes its snapshot: one rule for every
 * place that holds the session's state from its events (the core host, which
 * answers the state channels and gives a subscribing window its snapshot, and
 * a window's session store). Every change of the snapshot comes as an event
 * that carries it: after a switch of service, the new service's sync and
 * queue states follow the `service` event.
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
    case 'queue-state':
      return { ...snapshot, downloads: event.state }
    case 'notice':
      return { ...snapshot, notices: [...snapshot.notices, event.message].slice(-MAX_NOTICES) }
    default:
      return snapshot
  }
}

/** Notices a snapshot keeps, the latest last. */
export const MAX_NOTICES = 20

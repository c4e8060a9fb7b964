/**
 * Native notifications when a sync or downloads finish or fail, while the
 * window is not in front. Downloads are told as one notification once a burst
 * of them has settled ("12 downloads finished, 1 failed"), never one each.
 * A sync that brought new tracks of followed artists is one notification
 * ("3 new tracks from Hungry Lucy"); clicking it shows What's new.
 */
import { Notification, type BrowserWindow, type NotificationConstructorOptions } from 'electron'
import type { Disposable, Event } from '../core/base/events'
import { EVENTS_CHANNEL } from '../core/shared/contract'
import { newTracksText } from '../core/shared/new-tracks-text'
import { debounce } from '../core/shared/throttle'
import type { ServiceInfo, SessionEvent } from '../core/shared/types'

export interface NotifierOptions {
  /** The session's events (the core client). */
  session: { onDidEmit: Event<SessionEvent> }
  /** The service shown when the notifier starts; 'service' events tell the next ones. */
  service: ServiceInfo
  /** Whether the user is looking at the window (then the window itself says it). */
  windowFocused: () => boolean
  /** Shows one notification (showNotification, in the app). */
  show: (options: NotificationConstructorOptions) => Notification | void
  /** How long downloads must be quiet before their notification (default 1.5 s). */
  settleMs?: number
  /** A click on a new-tracks notification: the window to the front, on What's new. */
  openWhatsNew?: () => void
}

export function notifyOnCompletion(options: NotifierOptions): Disposable {
  let syncRunning = false
  let service = options.service
  let finished = 0
  let failed = 0
  const tell = (title: string, body: string): Notification | void => {
    if (!options.windowFocused()) return options.show({ title, body })
  }
  const settled = debounce<void>(() => {
    const parts = [finished > 0 ? `${finished} download${finished === 1 ? '' : 's'} finished` : '', failed > 0 ? `${failed} failed` : '']
    tell(failed > 0 ? 'Downloads need attention' : 'Downloads finished', parts.filter(Boolean).join(', '))
    finished = 0
    failed = 0
  }, options.settleMs ?? 1500)
  const subscription = options.session.onDidEmit((event) => {
    if (event.type === 'service') service = event.service
    else if (event.type === 'sync-state') {
      if (event.state.status === 'running') syncRunning = true
      else if (syncRunning && event.state.status === 'idle') {
        syncRunning = false
        if (event.state.lastError) tell('Sync failed', event.state.lastError.message)
        else tell('Catalogue synced', `${service.baseUrl} is up to date`)
      }
    } else if (event.type === 'downloads-changed') {
      finished += event.downloads.filter((download) => download.state === 'completed').length
      failed += event.downloads.filter((download) => download.state === 'failed').length
      if (finished + failed === 0) return
      settled()
    } else if (event.type === 'queue-paused') {
      tell('Downloads paused', event.message)
    } else if (event.type === 'new-tracks') {
      const notification = tell(newTracksText(event), "From artists you follow. Click to see them in What's new.")
      notification?.on('click', () => options.openWhatsNew?.())
    }
  })
  return {
    dispose: () => {
      settled.cancel()
      subscription.dispose()
    },
  }
}

/**
 * The notifications on screen. Electron tells a notification's click to its JS object only while that
 * object lives: one garbage-collected while still on screen loses its click (electron/electron#16922,
 * #12690; docs/api/notification.md). So each is held until the user has done with it.
 */
const onScreen = new Set<Notification>()

/** A native notification, shown and held until clicked, closed or failed; none where the system has no notifications (the notifier's `show`). */
export function showNotification(options: NotificationConstructorOptions): Notification | void {
  if (!Notification.isSupported()) return
  const notification = new Notification(options)
  onScreen.add(notification)
  const release = (): void => void onScreen.delete(notification)
  notification.once('click', release).once('close', release).once('failed', release)
  notification.show()
  return notification
}

/** The window to the front (restored, shown, focused), on What's new: the window's own route, sent as a session event. */
export function showWhatsNew(window: Pick<BrowserWindow, 'isMinimized' | 'restore' | 'show' | 'focus' | 'webContents'>): void {
  if (window.isMinimized()) window.restore()
  window.show()
  window.focus()
  window.webContents.send(EVENTS_CHANNEL, [{ type: 'navigate', to: '/whats-new' }])
}

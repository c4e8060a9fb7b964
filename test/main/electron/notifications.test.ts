/**
 * The desktop notification of new tracks (src-main/electron/notifications.ts) with a stand-in `electron`:
 * one per sync that brought followed artists new tracks, in the shared words, only while the
 * window is not in front; a click brings the window forward on What's new.
 */
import v8 from 'node:v8'
import vm from 'node:vm'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Emitter } from '../../../src-main/core/base/events'
import { EVENTS_CHANNEL } from '../../../src-main/core/shared/contract'
import type { SessionEvent } from '../../../src-main/core/shared/types'

vi.mock('electron', async () => (await import('../support/fake-electron')).electron)
const { electron } = await import('../support/fake-electron')
const { notifyOnCompletion, showNotification, showWhatsNew } = await import('../../../src-main/electron/notifications')

const NEWS: SessionEvent = {
  type: 'new-tracks',
  runId: 7,
  total: 7,
  artists: [
    { username: 'Hungry_Lucy', name: 'Hungry Lucy', count: 4 },
    { username: 'dj-sad', name: 'Sad Max', count: 2 },
    { username: 'x', name: '', count: 1 },
  ],
}

function notifier(focused: () => boolean) {
  const events = new Emitter<SessionEvent>()
  const openWhatsNew = vi.fn()
  const subscription = notifyOnCompletion({
    session: { onDidEmit: events.event },
    service: { baseUrl: 'http://127.0.0.1:9', demo: false, readOnly: false },
    windowFocused: focused,
    // The app's own, as bootstrap.ts passes it.
    show: showNotification,
    openWhatsNew,
  })
  return { events, openWhatsNew, subscription }
}

beforeEach(() => electron.reset())

// V8's gc(), for a collection now: the flag set at run time exposes it in a context made after it.
v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

/** A full collection, once the turn that made the objects is over (a WeakRef keeps its target until then). */
async function collectGarbage(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) {
    await new Promise((resolve) => setImmediate(resolve))
    gc()
  }
}

describe('the new-tracks notification', () => {
  it('is one notification per sync, in the shared words; its click opens What\'s new', () => {
    const { events, openWhatsNew, subscription } = notifier(() => false)
    events.fire(NEWS)
    expect(electron.Notification.shown).toHaveLength(1)
    const [shown] = electron.Notification.shown
    expect(shown!.options).toEqual({ title: '7 new tracks from Hungry Lucy and 2 other artists', body: "From artists you follow. Click to see them in What's new." })
    expect(openWhatsNew).not.toHaveBeenCalled()
    electron.Notification.click(0)
    expect(openWhatsNew).toHaveBeenCalledOnce()
    subscription.dispose()
    events.fire(NEWS)
    expect(electron.Notification.shown).toHaveLength(1)
  })

  it('is kept until the user has done with it: a click after a garbage collection still opens What\'s new', async () => {
    const { events, openWhatsNew } = notifier(() => false)
    // Nothing of the test holds the notification: only what the app keeps of it can.
    events.fire(NEWS)
    await collectGarbage()
    expect(electron.Notification.click(0)).toBe(true)
    expect(openWhatsNew).toHaveBeenCalledOnce()
    // Then let go, as are those closed or that could not be shown: the app keeps none of them for ever.
    events.fire(NEWS)
    events.fire(NEWS)
    electron.Notification.close(1)
    electron.Notification.fail(2)
    await collectGarbage()
    expect(electron.Notification.shown.map(({ notification }) => notification.deref())).toEqual([undefined, undefined, undefined])
  })

  it('is left to the window while it is in front (its own notice says it)', () => {
    const { events } = notifier(() => true)
    events.fire(NEWS)
    expect(electron.Notification.shown).toEqual([])
  })

  it('is none where the system has no notifications, and the notifier goes on', () => {
    const { isSupported } = electron.Notification
    electron.Notification.isSupported = () => false
    try {
      const { events } = notifier(() => false)
      events.fire(NEWS)
      expect(electron.Notification.shown).toEqual([])
      electron.Notification.isSupported = isSupported
      events.fire(NEWS)
      expect(electron.Notification.shown).toHaveLength(1)
    } finally {
      electron.Notification.isSupported = isSupported
    }
  })

  it('brings the window forward (restored if minimized) and sends it to What\'s new', () => {
    const window = new electron.BrowserWindow({})
    window.isMinimized = () => true
    showWhatsNew(window as never)
    expect(window.restore).toHaveBeenCalledOnce()
    expect(window.show).toHaveBeenCalledOnce()
    expect(window.focus).toHaveBeenCalledOnce()
    expect(window.webContents.send).toHaveBeenCalledWith(EVENTS_CHANNEL, [{ type: 'navigate', to: '/whats-new' }])
  })
})

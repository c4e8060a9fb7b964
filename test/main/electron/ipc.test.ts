/**
 * A window's event stream over the real src-main/electron/ipc.ts, with the stand-in web contents of
 * test/main/support/fake-electron.ts telling navigations as Electron does: the stream lives through
 * the router's own (same-document) navigations and ends with the page (a reload, a close).
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { Emitter } from '../../../src-main/core/base/events'
import { EVENTS_CHANNEL, SUBSCRIBE_CHANNEL } from '../../../src-main/core/shared/contract'
import type { SessionEvent, SessionSnapshot } from '../../../src-main/core/shared/types'
import { registerIpc } from '../../../src-main/electron/ipc'
import { APP_PAGE_URL } from '../../../src-main/electron/security'
import type { Dispatch } from '../../../src-main/main-process/dispatch'
import { EVENT_INTERVAL_MS } from '../../../src-main/main-process/event-stream'
import { electron } from '../support/fake-electron'

type Contents = InstanceType<typeof electron.BrowserWindow>['webContents']

/** The session as the core client gives it: events with their numbers, and a snapshot numbered with the last. */
function fakeSession() {
  const emitter = new Emitter<SessionEvent>()
  let seq = 0
  return {
    onDidEmit: emitter.event,
    get seq() {
      return seq
    },
    snapshot: async () => ({ snapshot: {} as SessionSnapshot, seq }),
    fire: (event: SessionEvent) => {
      seq += 1
      emitter.fire(event)
    },
  }
}

/** The session's events, registered on the stand-in ipcMain, and a window's contents that can subscribe. */
function setUp() {
  const session = fakeSession()
  registerIpc({ ipcMain: electron.ipcMain as never, dispatch: (() => undefined) as unknown as Dispatch, session, isAppUrl: (url) => url === APP_PAGE_URL })
  const contents = new electron.BrowserWindow({}).webContents
  const subscribe = () => electron.ipcMain.handlers.get(SUBSCRIBE_CHANNEL)!({ sender: contents, senderFrame: contents.mainFrame }, [])
  return { session, contents, subscribe }
}

/** Whether an event fired now reaches the window (sent with the next batch). */
async function reaches(session: ReturnType<typeof fakeSession>, contents: Contents, online: boolean): Promise<boolean> {
  contents.send.mockClear()
  session.fire({ type: 'online', online })
  await new Promise((resolve) => setTimeout(resolve, EVENT_INTERVAL_MS * 2))
  return contents.send.mock.calls.some(([channel, events]) => channel === EVENTS_CHANNEL && JSON.stringify(events) === JSON.stringify([{ type: 'online', online }]))
}

beforeEach(() => electron.reset())

describe("a window's event stream", () => {
  it("goes on through the router's own navigations (same-document), and ends with a reload", async () => {
    const { session, contents, subscribe } = setUp()
    // The renderer's start-up: the preload subscribes (src-preload/index.ts), then vue-router's first navigation
    // replaces the history entry (createWebHashHistory: history.replaceState, a same-document navigation).
    expect(await subscribe()).toMatchObject({ ok: true })
    contents.startNavigation(`${APP_PAGE_URL}#/`, { isSameDocument: true })
    expect(await reaches(session, contents, false)).toBe(true)
    // A screen change: pushState, another same-document navigation.
    contents.startNavigation(`${APP_PAGE_URL}#/downloads`, { isSameDocument: true })
    expect(await reaches(session, contents, true)).toBe(true)
    // A frame inside the page loading a document of its own is not the page going.
    contents.startNavigation('about:blank', { isSameDocument: false, isMainFrame: false })
    expect(await reaches(session, contents, false)).toBe(true)

    // A reload: a cross-document navigation of the main frame. The old page's stream ends, listeners and all.
    contents.startNavigation(APP_PAGE_URL, { isSameDocument: false })
    expect(await reaches(session, contents, true)).toBe(false)
    expect(contents.listenerCount('did-start-navigation')).toBe(0)
    expect(contents.listenerCount('destroyed')).toBe(0)
    // The reloaded page subscribes again and hears the events.
    await subscribe()
    expect(await reaches(session, contents, false)).toBe(true)
  })

  it('ends when the window closes, and a page that subscribes again holds one set of listeners', async () => {
    const { session, contents, subscribe } = setUp()
    await subscribe()
    await subscribe()
    expect(contents.listenerCount('did-start-navigation')).toBe(1)
    expect(contents.listenerCount('destroyed')).toBe(1)
    contents.destroy()
    expect(contents.listenerCount('did-start-navigation')).toBe(0)
    expect(contents.listenerCount('destroyed')).toBe(0)
    session.fire({ type: 'online', online: true })
    await new Promise((resolve) => setTimeout(resolve, EVENT_INTERVAL_MS * 2))
    expect(contents.send).not.toHaveBeenCalled()
  })
})

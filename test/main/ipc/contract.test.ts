/**
 * One contract, every side of it: the channel names, the schemas main checks,
 * the handlers, the channels registered on ipcMain, and the API the preload
 * builds are the same list; a call from anything but the app's own window is
 * refused before it reaches a handler.
 */
import { describe, expect, it, vi } from 'vitest'
import type { IpcMain, IpcMainInvokeEvent } from 'electron'
import type { AppSession } from '../../../src-main/core/session'
import { Emitter } from '../../../src-main/core/events'
import type { SessionEvent } from '../../../src-main/core/shared/types'
import { CHANNELS, EVENTS_CHANNEL } from '../../../src-main/ipc/channels'
import { CONTRACT } from '../../../src-main/ipc/contract'
import type { Tagged } from '../../../src-main/ipc/contract-types'
import type { Handlers } from '../../../src-main/ipc/dispatch'
import { isTrustedSender, registerIpc } from '../../../src-main/ipc/electron'
import { createHandlers, type Platform } from '../../../src-main/ipc/handlers'
import { buildBridgeApi } from '../../../src-preload/api'

type Handle = (event: IpcMainInvokeEvent, args: unknown) => Promise<Tagged<unknown>>

/** An ipcMain that keeps what is registered on it. */
function fakeIpcMain(): IpcMain & { handlers: Map<string, Handle> } {
  const handlers = new Map<string, Handle>()
  return {
    handlers,
    handle: (channel: string, handler: Handle) => {
      if (handlers.has(channel)) throw new Error(`a second handler for ${channel}`)
      handlers.set(channel, handler)
    },
    removeHandler: (channel: string) => handlers.delete(channel),
  } as unknown as IpcMain & { handlers: Map<string, Handle> }
}

const APP_URL = 'file:///opt/tuneshelf/resources/app.asar/out/renderer/index.html'
const isAppUrl = (url: string): boolean => url === APP_URL

/** An invoke event from a frame at url, the main frame of its window or not. */
function eventFrom(url: string, mainFrame = true): IpcMainInvokeEvent {
  const frame = { url }
  const sender = { id: 1, mainFrame: mainFrame ? frame : { url: APP_URL }, isDestroyed: () => false, send: () => undefined, once: () => undefined }
  return { senderFrame: frame, sender } as unknown as IpcMainInvokeEvent
}

/** Handlers that answer with their channel's name: what reaches them is what the test checks. */
function echoHandlers(calls: string[]): Handlers {
  return Object.fromEntries(CHANNELS.map((channel) => [channel, () => (calls.push(channel), channel)])) as unknown as Handlers
}

describe('the IPC contract', () => {
  it('has one schema and one handler per channel, and the preload builds one function per channel', () => {
    const sorted = [...CHANNELS].sort()
    expect(new Set(CHANNELS).size).toBe(CHANNELS.length)
    expect(Object.keys(CONTRACT).sort()).toEqual(sorted)
    const handlers = createHandlers({} as AppSession, {} as Platform)
    expect(Object.keys(handlers).sort()).toEqual(sorted)
    const api = buildBridgeApi({ invoke: async () => ({ ok: true, value: undefined }), listen: () => () => undefined }) as unknown as Record<string, unknown>
    const built = Object.entries(api).flatMap(([domain, verbs]) => (typeof verbs === 'object' && verbs !== null ? Object.keys(verbs).map((verb) => `${domain}:${verb}`) : []))
    expect(built.sort()).toEqual(sorted)
    for (const channel of CHANNELS) expect(channel).toMatch(/^[a-z]+:[a-zA-Z]+$/)
  })

  it('registers every channel on ipcMain, and takes them all off again', () => {
    const ipcMain = fakeIpcMain()
    const registration = registerIpc({ ipcMain, handlers: echoHandlers([]), session: {} as AppSession, isAppUrl })
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...CHANNELS].sort())
    registration.dispose()
    expect(ipcMain.handlers.size).toBe(0)
  })

  it('answers the app\'s own window, and refuses other pages, subframes and vanished frames before any handler runs', async () => {
    const ipcMain = fakeIpcMain()
    const calls: string[] = []
    const refused: string[] = []
    registerIpc({ ipcMain, handlers: echoHandlers(calls), session: {} as AppSession, isAppUrl, onRefused: (channel, url) => refused.push(`${channel} ${url}`) })
    const handle = ipcMain.handlers.get('catalogue:levels')!
    expect(await handle(eventFrom(APP_URL), [])).toEqual({ ok: true, value: 'catalogue:levels' })
    for (const event of [
      eventFrom('https://evil.example/'),
      eventFrom('file:///tmp/other.html'),
      eventFrom(APP_URL, false),
      { senderFrame: null, sender: { mainFrame: {} } } as unknown as IpcMainInvokeEvent,
    ]) {
      const result = await handle(event, [])
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_argument', message: expect.stringMatching(/only from the app's own window/) } })
    }
    expect(calls).toEqual(['catalogue:levels'])
    expect(refused).toHaveLength(4)
  })

  it('checks arguments in main: a bad call is a tagged invalid_argument, never a handler call', async () => {
    const ipcMain = fakeIpcMain()
    const calls: string[] = []
    registerIpc({ ipcMain, handlers: echoHandlers(calls), session: {} as AppSession, isAppUrl })
    const result = await ipcMain.handlers.get('catalogue:artist')!(eventFrom(APP_URL), [42])
    expect(result).toMatchObject({ ok: false, error: { name: 'InvalidArgumentError', code: 'invalid_argument', retryable: false } })
    expect(await ipcMain.handlers.get('catalogue:artist')!(eventFrom(APP_URL), 'not a list')).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    expect(calls).toEqual([])
  })

  it('starts a window\'s event stream before its snapshot is taken: an event fired meanwhile still reaches it', async () => {
    const ipcMain = fakeIpcMain()
    const emitter = new Emitter<SessionEvent>()
    const sent: unknown[] = []
    const handlers = echoHandlers([])
    handlers['events:subscribe'] = (() => {
      // The sync ends while the snapshot is being taken: the window must still hear of it.
      emitter.fire({ type: 'online', online: false })
      return 'snapshot'
    }) as never
    registerIpc({ ipcMain, handlers, session: { onEvent: emitter.event } as unknown as AppSession, isAppUrl })
    const event = eventFrom(APP_URL)
    ;(event.sender as unknown as { send: (channel: string, events: unknown) => void }).send = (channel, events) => sent.push([channel, events])
    expect(await ipcMain.handlers.get('events:subscribe')!(event, [])).toEqual({ ok: true, value: 'snapshot' })
    await vi.waitFor(() => expect(sent).toEqual([[EVENTS_CHANNEL, [{ type: 'online', online: false }]]]))
  })

  it('judges senders by their frame, not by what they claim', () => {
    const frame = { url: APP_URL }
    expect(isTrustedSender({ senderFrame: frame, sender: { mainFrame: frame } } as never, isAppUrl)).toBe(true)
    expect(isTrustedSender({ senderFrame: { url: APP_URL }, sender: { mainFrame: frame } } as never, isAppUrl)).toBe(false)
  })
})

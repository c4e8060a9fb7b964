/**
 * One contract, every side of it: each channel is declared once (its schema,
 * its result, where it is answered), and the handlers of each place, the
 * channels registered on ipcMain and the API the preload builds follow from
 * it; a call from anything but the app's own window is refused before it
 * reaches a handler; the event stream is the transport's, not a channel.
 */
import { describe, expect, it, vi } from 'vitest'
import type { IpcMain, IpcMainInvokeEvent } from 'electron'
import { Emitter } from '../../../src-main/core/base/events'
import type { CoreClient } from '../../../src-main/main-process/core-client'
import { CHANNELS, CONTRACT, EVENTS_CHANNEL, SUBSCRIBE_CHANNEL, channelsAt, handlersFrom, type HandlersAt, type Tagged } from '../../../src-main/core/shared/contract'
import type { SessionEvent, SessionSnapshot } from '../../../src-main/core/shared/types'
import { createDispatch } from '../../../src-main/main-process/dispatch'
import { isTrustedSender, registerIpc } from '../../../src-main/electron/ipc'
import { windowHandlers, type Platform } from '../../../src-main/main-process/window-handlers'
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
  const sender = { id: 1, mainFrame: mainFrame ? frame : { url: APP_URL }, isDestroyed: () => false, send: () => undefined, on: () => undefined, off: () => undefined }
  return { senderFrame: frame, sender } as unknown as IpcMainInvokeEvent
}

/** A dispatch whose core and window handlers answer with the channel's name: what reaches them is what the test checks. */
function echoDispatch(calls: string[]) {
  const core = { invoke: async (channel: string) => (calls.push(channel), { ok: true, value: channel }) } as unknown as CoreClient
  const window = Object.fromEntries(channelsAt('window').map((channel) => [channel, () => (calls.push(channel), channel)])) as unknown as HandlersAt<'window'>
  return createDispatch(core, window)
}

const quietSession = { onDidEmit: new Emitter<SessionEvent>().event, seq: 0, snapshot: async () => ({ snapshot: {} as SessionSnapshot, seq: 0 }) }

describe('the IPC contract', () => {
  it('has one handler per channel, where the contract says it is answered, and the preload builds one function per channel', () => {
    const sorted = [...CHANNELS].sort()
    expect(new Set(CHANNELS).size).toBe(CHANNELS.length)
    const places = {
      window: Object.keys(windowHandlers({} as CoreClient, {} as Platform, '/data')),
      // Derived from the services named as the contract names them (their types make a missing one fail to compile).
      query: Object.keys(handlersFrom('query', () => { throw new Error('not called') })),
      command: Object.keys(handlersFrom('command', () => { throw new Error('not called') })),
    }
    for (const [where, channels] of Object.entries(places)) {
      expect(channels.sort(), where).toEqual(CHANNELS.filter((channel) => CONTRACT[channel].where === where).sort())
    }
    expect(Object.values(places).flat().sort()).toEqual(sorted)
    const api = buildBridgeApi({ invoke: async () => ({ ok: true, value: undefined }), subscribe: () => ({ dispose: () => undefined }) }) as unknown as Record<string, unknown>
    const built = Object.entries(api).flatMap(([domain, verbs]) => (typeof verbs === 'object' && verbs !== null ? Object.keys(verbs).map((verb) => `${domain}:${verb}`) : []))
    expect(built.sort()).toEqual(sorted)
    for (const channel of CHANNELS) expect(channel).toMatch(/^[a-z]+:[a-zA-Z]+$/)
  })

  it('registers every channel and the subscription on ipcMain, and takes them all off again', () => {
    const ipcMain = fakeIpcMain()
    const registration = registerIpc({ ipcMain, dispatch: echoDispatch([]), session: quietSession, isAppUrl })
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...CHANNELS, SUBSCRIBE_CHANNEL].sort())
    expect(CHANNELS).not.toContain(SUBSCRIBE_CHANNEL)
    registration.dispose()
    expect(ipcMain.handlers.size).toBe(0)
  })

  it('answers the app\'s own window, and refuses other pages, subframes and vanished frames before any handler runs', async () => {
    const ipcMain = fakeIpcMain()
    const calls: string[] = []
    const refused: string[] = []
    registerIpc({ ipcMain, dispatch: echoDispatch(calls), session: quietSession, isAppUrl, onRefused: (channel, url) => refused.push(`${channel} ${url}`) })
    const handle = ipcMain.handlers.get('catalogue:levels')!
    expect(await handle(eventFrom(APP_URL), [])).toEqual({ ok: true, value: 'catalogue:levels' })
    for (const event of [
      eventFrom('https://evil.example/'),
      eventFrom('file:///tmp/other.html'),
      eventFrom(APP_URL, false),
      { senderFrame: null, sender: { mainFrame: {} } } as unknown as IpcMainInvokeEvent,
    ]) {
      for (const refusedHandle of [handle, ipcMain.handlers.get(SUBSCRIBE_CHANNEL)!]) {
        const result = await refusedHandle(event, [])
        expect(result).toMatchObject({ ok: false, error: { code: 'invalid_argument', message: expect.stringMatching(/only from the app's own window/) } })
      }
    }
    expect(calls).toEqual(['catalogue:levels'])
    expect(refused).toHaveLength(8)
  })

  it('checks arguments in main: a bad call is a tagged invalid_argument, never a handler call', async () => {
    const ipcMain = fakeIpcMain()
    const calls: string[] = []
    registerIpc({ ipcMain, dispatch: echoDispatch(calls), session: quietSession, isAppUrl })
    const result = await ipcMain.handlers.get('catalogue:artist')!(eventFrom(APP_URL), [42])
    expect(result).toMatchObject({ ok: false, error: { name: 'InvalidArgumentError', code: 'invalid_argument', retryable: false } })
    expect(await ipcMain.handlers.get('catalogue:artist')!(eventFrom(APP_URL), 'not a list')).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    expect(calls).toEqual([])
  })

  it('gives a window the host\'s snapshot, then exactly the events after it: none it holds, none missed', async () => {
    const ipcMain = fakeIpcMain()
    const emitter = new Emitter<SessionEvent>()
    let seq = 0
    const fire = (event: SessionEvent): void => {
      seq += 1
      emitter.fire(event)
    }
    const sent: unknown[] = []
    const session = {
      onDidEmit: emitter.event,
      get seq() {
        return seq
      },
      snapshot: async () => {
        // While the snapshot is on its way: one event the host applied before answering (the snapshot holds
        // it), the answer, then one after it (the window must still hear of it).
        fire({ type: 'online', online: false })
        const numbered = { snapshot: 'snapshot' as unknown as SessionSnapshot, seq }
        fire({ type: 'online', online: true })
        return numbered
      },
    }
    registerIpc({ ipcMain, dispatch: echoDispatch([]), session, isAppUrl })
    const event = eventFrom(APP_URL)
    ;(event.sender as unknown as { send: (channel: string, events: unknown) => void }).send = (channel, events) => sent.push([channel, events])
    expect(await ipcMain.handlers.get(SUBSCRIBE_CHANNEL)!(event, [])).toEqual({ ok: true, value: 'snapshot' })
    await vi.waitFor(() => expect(sent).toEqual([[EVENTS_CHANNEL, [{ type: 'online', online: true }]]]))
  })

  it('judges senders by their frame, not by what they claim', () => {
    const frame = { url: APP_URL }
    expect(isTrustedSender({ senderFrame: frame, sender: { mainFrame: frame } } as never, isAppUrl)).toBe(true)
    expect(isTrustedSender({ senderFrame: { url: APP_URL }, sender: { mainFrame: frame } } as never, isAppUrl)).toBe(false)
  })
})

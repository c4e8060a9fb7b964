/**
 * The contract over Electron's IPC: a handler for every channel on ipcMain,
 * each call's sender checked (the main frame of a window showing the app's own
 * page), its arguments checked by dispatch, its failures returned as tagged
 * results. The event stream is the transport's own: a window subscribes (the
 * stream starts, then it gets the session's snapshot) and then gets the event
 * batches until its page goes (a reload, another page) or the window closes.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents, WebContentsDidStartNavigationEventParams, WebFrameMain } from 'electron'
import type { Disposable } from '../core/base/events'
import { CHANNELS, EVENTS_CHANNEL, SUBSCRIBE_CHANNEL, type Tagged } from '../core/shared/contract'
import { InvalidArgumentError, serializeError, toTuneshelfError } from '../core/shared/errors'
import type { SessionSnapshot } from '../core/shared/types'
import type { CoreClient } from '../main-process/core-client'
import type { Dispatch } from '../main-process/dispatch'
import { subscribeWindow } from '../main-process/event-stream'

export interface ElectronIpcOptions {
  ipcMain: IpcMain
  dispatch: Dispatch
  /** The session's events, and its state as the core's host holds it (the core client). */
  session: Pick<CoreClient, 'onDidEmit' | 'seq' | 'snapshot'>
  /** Whether a URL is the app's own page (its file, or the dev server in development). */
  isAppUrl: (url: string) => boolean
  /** Told of every refused call (a foreign sender): for the log. */
  onRefused?: (channel: string, url: string) => void
}

/** Registers every channel and the subscription; dispose to take them all off again. */
export function registerIpc(options: ElectronIpcOptions): Disposable {
  const streams = new Map<number, Disposable>()

  const subscribe = async (sender: WebContents): Promise<SessionSnapshot> => {
    streams.get(sender.id)?.dispose()
    // The snapshot from the core's host, then exactly the events after it. (The preload holds events
    // that overtake the snapshot's reply.)
    const stream = await subscribeWindow(options.session, (events) => {
      if (!sender.isDestroyed()) sender.send(EVENTS_CHANNEL, events)
    })
    if (sender.isDestroyed()) {
      stream.dispose()
      return stream.snapshot
    }
    streams.get(sender.id)?.dispose()
    // A reload, another page or a close ends the stream; the new page subscribes again and gets a fresh
    // snapshot. The router's own navigations do not: Electron tells pushState/replaceState and fragment
    // changes (hash history) with the same event, as same-document ones, and a frame inside the page too.
    const navigating = (details: Pick<WebContentsDidStartNavigationEventParams, 'isMainFrame' | 'isSameDocument'>): void => {
      if (details.isMainFrame && !details.isSameDocument) stop()
    }
    const stop = (): void => {
      sender.off('did-start-navigation', navigating)
      sender.off('destroyed', stop)
      stream.dispose()
      if (streams.get(sender.id) === ending) streams.delete(sender.id)
    }
    const ending: Disposable = { dispose: stop }
    streams.set(sender.id, ending)
    sender.on('did-start-navigation', navigating)
    sender.on('destroyed', stop)
    return stream.snapshot
  }

  /** Runs work for a trusted sender only; a foreign one gets a refusal (and the log hears of it). */
  const trusted = (name: string, event: IpcMainInvokeEvent, work: () => Promise<Tagged<unknown>> | Tagged<unknown>): Promise<Tagged<unknown>> | Tagged<unknown> => {
    if (isTrustedSender(event, options.isAppUrl)) return work()
    options.onRefused?.(name, frameUrl(event.senderFrame))
    return { ok: false, error: serializeError(new InvalidArgumentError("calls are accepted only from the app's own window")) }
  }

  for (const channel of CHANNELS) {
    options.ipcMain.handle(channel, (event: IpcMainInvokeEvent, args: unknown) => trusted(channel, event, () => options.dispatch(channel, args)))
  }
  options.ipcMain.handle(SUBSCRIBE_CHANNEL, (event: IpcMainInvokeEvent) =>
    trusted(SUBSCRIBE_CHANNEL, event, () =>
      subscribe(event.sender).then(
        (snapshot): Tagged<unknown> => ({ ok: true, value: snapshot }),
        (error: unknown): Tagged<unknown> => ({ ok: false, error: serializeError(toTuneshelfError(error)) }),
      ),
    ),
  )
  return {
    dispose: () => {
      for (const channel of [...CHANNELS, SUBSCRIBE_CHANNEL]) options.ipcMain.removeHandler(channel)
      for (const stream of streams.values()) stream.dispose()
      streams.clear()
    },
  }
}

/** A call is trusted only from the top frame of a window that shows the app's own page. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame' | 'sender'>, isAppUrl: (url: string) => boolean): boolean {
  const frame = event.senderFrame
  if (!frame) return false
  if (frame !== event.sender.mainFrame) return false
  return isAppUrl(frame.url)
}

function frameUrl(frame: WebFrameMain | null): string {
  return frame?.url ?? '(a frame that is gone)'
}

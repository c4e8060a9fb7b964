/**
 * The contract over Electron's IPC: a handler for every channel on ipcMain,
 * each call's sender checked (the main frame of a window showing the app's own
 * page), its arguments checked by dispatch, its failures returned as tagged
 * results. A window that subscribes gets the session's snapshot and then the
 * event batches, until it navigates, reloads or closes.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron'
import type { Disposable } from '../core/events'
import type { AppSession } from '../core/session'
import { InvalidArgumentError, serializeError } from '../core/shared/errors'
import { CHANNELS, EVENTS_CHANNEL } from './channels'
import type { Tagged } from './contract-types'
import { dispatch, type Handlers } from './dispatch'
import { streamEvents } from './events'

export interface ElectronIpcOptions {
  ipcMain: IpcMain
  handlers: Handlers
  session: AppSession
  /** Whether a URL is the app's own page (its file, or the dev server in development). */
  isAppUrl: (url: string) => boolean
  /** Told of every refused call (a foreign sender): for the log. */
  onRefused?: (channel: string, url: string) => void
}

/** Registers every channel; dispose to take them all off again. */
export function registerIpc(options: ElectronIpcOptions): Disposable {
  const streams = new Map<number, Disposable>()

  const subscribe = (sender: WebContents): void => {
    streams.get(sender.id)?.dispose()
    const stream = streamEvents(options.session, (events) => {
      if (!sender.isDestroyed()) sender.send(EVENTS_CHANNEL, events)
    })
    streams.set(sender.id, stream)
    const stop = (): void => {
      stream.dispose()
      if (streams.get(sender.id) === stream) streams.delete(sender.id)
    }
    // A reload or a close ends the stream; the reloaded page subscribes again and gets a fresh snapshot.
    sender.once('destroyed', stop)
    sender.once('did-start-navigation', stop)
  }

  const unsubscribe = (sender: WebContents): void => {
    streams.get(sender.id)?.dispose()
    streams.delete(sender.id)
  }

  for (const channel of CHANNELS) {
    options.ipcMain.handle(channel, async (event: IpcMainInvokeEvent, args: unknown): Promise<Tagged<unknown>> => {
      const url = frameUrl(event.senderFrame)
      if (!isTrustedSender(event, options.isAppUrl)) {
        options.onRefused?.(channel, url)
        return { ok: false, error: serializeError(new InvalidArgumentError('calls are accepted only from the app\'s own window')) }
      }
      // The stream starts before the snapshot is taken, so no event falls between the two: one sent
      // before the snapshot arrives after it and is applied again, in order, and the window ends current.
      const subscribing = channel === 'events:subscribe'
      if (subscribing) subscribe(event.sender)
      const result = await dispatch(options.handlers, channel, args)
      if (subscribing && !result.ok) unsubscribe(event.sender)
      return result
    })
  }
  return {
    dispose: () => {
      for (const channel of CHANNELS) options.ipcMain.removeHandler(channel)
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

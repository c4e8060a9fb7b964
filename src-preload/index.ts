// The sandboxed preload: the bridge API over ipcRenderer, and nothing else. The window
// never sees ipcRenderer or any Node API; it bundles only the contract and its names.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { EVENTS_CHANNEL, SUBSCRIBE_CHANNEL, type Tagged } from '../src-main/core/shared/contract'
import type { SessionEvent, SessionSnapshot } from '../src-main/core/shared/types'
import { buildBridgeApi } from './api'

contextBridge.exposeInMainWorld(
  'api',
  buildBridgeApi({
    invoke: (channel, args) => ipcRenderer.invoke(channel, args) as Promise<Tagged<unknown>>,
    subscribe: (listener) => {
      const forward = (_event: IpcRendererEvent, events: SessionEvent[]): void => listener.events(events)
      // The stream first: main starts it before it takes the snapshot it answers with.
      ipcRenderer.on(EVENTS_CHANNEL, forward)
      ;(ipcRenderer.invoke(SUBSCRIBE_CHANNEL) as Promise<Tagged<SessionSnapshot>>).then(
        (result) => (result.ok ? listener.snapshot(result.value) : listener.failed(result.error)),
        (error: unknown) => listener.failed({ name: 'InternalError', code: 'internal', message: String(error), retryable: false }),
      )
      return {
        dispose: () => {
          ipcRenderer.off(EVENTS_CHANNEL, forward)
        },
      }
    },
  }),
)

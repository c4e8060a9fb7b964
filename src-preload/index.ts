// The sandboxed preload: the bridge API over ipcRenderer, and nothing else. The window
// never sees ipcRenderer or any Node API; it bundles only the channel names.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { SessionEvent } from '../src-main/core/shared/types'
import { EVENTS_CHANNEL } from '../src-main/ipc/channels'
import type { Tagged } from '../src-main/ipc/contract-types'
import { buildBridgeApi } from './api'

contextBridge.exposeInMainWorld(
  'api',
  buildBridgeApi({
    invoke: (channel, args) => ipcRenderer.invoke(channel, args) as Promise<Tagged<unknown>>,
    listen: (listener) => {
      const forward = (_event: IpcRendererEvent, events: SessionEvent[]): void => listener(events)
      ipcRenderer.on(EVENTS_CHANNEL, forward)
      return () => {
        ipcRenderer.off(EVENTS_CHANNEL, forward)
      }
    },
  }),
)

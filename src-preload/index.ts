import { contextBridge } from 'electron'
import { createPreloadApi } from './api'

// The window is sandboxed and context-isolated: the renderer sees only this
// object, never ipcRenderer or any Node API.
contextBridge.exposeInMainWorld('api', createPreloadApi(process))

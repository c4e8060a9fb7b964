/**
 * What the desktop app does for the handlers (main-process/window-handlers.ts), the
 * Electron side of the Platform that web/platform.ts gives the web bridge:
 * files are served by the media protocol, links, files and folders are opened
 * by the shell, the folder picker is the system's.
 */
import { dialog, shell, type BrowserWindow } from 'electron'
import { toTuneshelfError } from '../core/shared/errors'
import type { Platform } from '../main-process/window-handlers'
import { MEDIA_SCHEME, isWebAddress } from './security'

export interface ElectronPlatformOptions {
  /** The log file the Help menu and the settings' "Open the log" show. */
  logFile: string
  /** The window a folder picker belongs to, if one is open (macOS keeps the app without one). */
  window: () => BrowserWindow | undefined
}

export function electronPlatform({ logFile, window }: ElectronPlatformOptions): Platform {
  return {
    transport: 'electron',
    versions: { electron: process.versions.electron ?? '', chrome: process.versions.chrome ?? '', node: process.versions.node },
    avatarBase: `${MEDIA_SCHEME}://app/avatars/`,
    logFile,
    playbackAddress: (id) => `${MEDIA_SCHEME}://app/downloads/${id}`,
    openPath: async (file) => {
      const failure = await shell.openPath(file)
      if (failure !== '') throw toTuneshelfError(new Error(`could not open ${file}: ${failure}`))
    },
    showInFolder: async (file) => shell.showItemInFolder(file),
    openExternal: async (address) => {
      // The handler built the address from a handle or a website; only http(s) ever reaches the browser.
      if (!isWebAddress(address)) return false
      await shell.openExternal(address) // eng-disable OPEN_EXTERNAL_JS_CHECK -- only http(s) addresses that main built from a handle or a website (core/shared/links.ts), checked again just above
      return true
    },
    pickFolder: async (startIn) => {
      const options = { title: 'Download folder', defaultPath: startIn, properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[] }
      const parent = window()
      const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options)
      return result.canceled ? null : (result.filePaths[0] ?? null)
    },
    openLog: async () => {
      await shell.openPath(logFile)
    },
  }
}

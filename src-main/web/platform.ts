/**
 * What the web bridge can do for the handlers in place of Electron: files are
 * served under /media/ (avatars and downloads, by the same code as the app's
 * protocol), links are opened by the window itself, and what needs the
 * desktop (a native folder picker, opening a file or its folder, the log)
 * says so with an UnsupportedError that tells where the file is.
 */
import { UnsupportedError } from '../core/shared/errors'
import type { Platform } from '../ipc/window-handlers'

/** Where the bridge serves what mediaResponse answers (`/media/avatars/...`, `/media/downloads/<id>`). */
export const MEDIA_PREFIX = '/media'

const desktopOnly = (what: string): Promise<never> =>
  Promise.reject(new UnsupportedError(`${what} needs the desktop app; the web bridge (npm run web) cannot do it`))

export function webPlatform(): Platform {
  return {
    transport: 'web',
    // No Electron and no Chromium in this process: the window knows its own browser.
    versions: { electron: '', chrome: '', node: process.versions.node },
    avatarBase: `${MEDIA_PREFIX}/avatars/`,
    logFile: null,
    playbackAddress: (downloadId) => `${MEDIA_PREFIX}/downloads/${downloadId}`,
    openPath: (file) => desktopOnly(`opening a file with its application (the file is at ${file})`),
    showInFolder: (file) => desktopOnly(`showing a file in its folder (the file is at ${file})`),
    // The window opens the address itself (a link with target _blank).
    openExternal: () => Promise.resolve(false),
    pickFolder: (startIn) =>
      desktopOnly(`choosing a folder with the system's picker (type the folder's absolute path instead; the download folder is ${startIn})`),
    openLog: () => desktopOnly('opening the log (the web bridge writes what it does to the terminal it runs in)'),
  }
}

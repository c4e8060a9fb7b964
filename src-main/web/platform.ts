/**
 * What the web bridge can do for the handlers in place of Electron: files are
 * served under /media/<key>/ (avatars and downloads, by the same code as the
 * app's protocol; the key is in every address, web/credentials.ts), links are
 * opened by the window itself, and what needs the desktop (a native folder
 * picker, opening a file or its folder, the log) says so with an
 * UnsupportedError that tells where the file is.
 */
import { UnsupportedError } from '../core/shared/errors'
import type { Platform } from '../main-process/window-handlers'

const desktopOnly = (what: string): Promise<never> =>
  Promise.reject(new UnsupportedError(`${what} needs the desktop app; the web bridge (npm run web) cannot do it`))

/** mediaBase: where this bridge serves what mediaResponse answers, its media key included (`/media/<key>`). */
export function webPlatform(mediaBase: string): Platform {
  return {
    transport: 'web',
    // No Electron and no Chromium in this process: the window knows its own browser.
    versions: { electron: '', chrome: '', node: process.versions.node },
    avatarBase: `${mediaBase}/avatars/`,
    logFile: null,
    playbackAddress: (downloadId) => `${mediaBase}/downloads/${downloadId}`,
    openPath: (file) => desktopOnly(`opening a file with its application (the file is at ${file})`),
    showInFolder: (file) => desktopOnly(`showing a file in its folder (the file is at ${file})`),
    // The window opens the address itself (a link with target _blank).
    openExternal: () => Promise.resolve(false),
    pickFolder: (startIn) =>
      desktopOnly(`choosing a folder with the system's picker (type the folder's absolute path instead; the download folder is ${startIn})`),
    openLog: () => desktopOnly('opening the log (the web bridge writes what it does to the terminal it runs in)'),
  }
}

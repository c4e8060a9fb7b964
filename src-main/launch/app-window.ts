/**
 * `npm start` without Electron: the app in a window of its own, in a Chromium-family browser
 * opened as an app (`--app=URL`: no tabs, no address bar), on a profile of its own inside the
 * app's data folder, so that it never touches the person's own browser profile and the
 * window's size and place are kept between starts.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** The browsers' command names, in the order they are looked for on the PATH. */
const COMMANDS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge']

/** Where the installers put them, where they are not on the PATH. */
function installedPaths(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string[] {
  if (platform === 'darwin') {
    const apps = ['Google Chrome.app/Contents/MacOS/Google Chrome', 'Chromium.app/Contents/MacOS/Chromium', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge']
    return ['/Applications', path.join(home, 'Applications')].flatMap((folder) => apps.map((app) => path.join(folder, app)))
  }
  if (platform === 'win32') {
    const exes = ['Google\\Chrome\\Application\\chrome.exe', 'Chromium\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe']
    const folders = [env['LOCALAPPDATA'], env['PROGRAMFILES'], env['PROGRAMFILES(X86)']].filter((folder): folder is string => !!folder)
    return folders.flatMap((folder) => exes.map((exe) => path.win32.join(folder, exe)))
  }
  return []
}

function isProgram(file: string): boolean {
  try {
    fs.accessSync(file, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK)
    return fs.statSync(file).isFile()
  } catch {
    return false
  }
}

/**
 * The browser to open the app's window with: CHROME_PATH, else the first of COMMANDS on the
 * PATH, else one installed where its installer puts it; undefined when there is none, or no
 * screen to show a window on (Linux without DISPLAY or WAYLAND_DISPLAY, as over ssh).
 * TUNESHELF_APP_WINDOW=0 asks for none: only the address is printed.
 */
export function findAppBrowser(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  exists: (file: string) => boolean = isProgram,
  home: string = os.homedir(),
): string | undefined {
  if (env['TUNESHELF_APP_WINDOW'] === '0') return undefined
  if (platform === 'linux' && !env['DISPLAY'] && !env['WAYLAND_DISPLAY']) return undefined
  const chromePath = env['CHROME_PATH']
  if (chromePath && exists(chromePath)) return chromePath
  const folders = (env['PATH'] ?? '').split(platform === 'win32' ? ';' : ':').filter((folder) => folder !== '')
  const join = platform === 'win32' ? path.win32.join : path.posix.join
  for (const command of COMMANDS) {
    for (const folder of folders) {
      const file = join(folder, platform === 'win32' ? `${command}.exe` : command)
      if (exists(file)) return file
    }
  }
  return installedPaths(env, platform, home).find(exists)
}

/** The browser's profile: a folder of the app's data folder, not the person's own profile. */
export function browserProfileDir(dataDir: string): string {
  return path.join(dataDir, 'browser-profile')
}

/** How the browser is started: the app at url in an app window, on the app's own profile, without first-run questions. */
export function appWindowArgs(url: string, dataDir: string): string[] {
  return [`--app=${url}`, `--user-data-dir=${browserProfileDir(dataDir)}`, '--no-first-run', '--no-default-browser-check']
}

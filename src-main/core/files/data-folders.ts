/**
 * Where each way of running the app keeps its data folder (settings.json, the
 * caches, the log, the downloads by default), so that the desktop app and its
 * browser fallback (`npm start` without an Electron binary) share one.
 */
import os from 'node:os'
import path from 'node:path'
import { checkFolderPath, ensureFolder } from './folders'
import { PRIVATE_FOLDER_MODE } from './private-files'

/** The app's name as its data folder is named. */
export const APP_FOLDER_NAME = 'Tuneshelf'

/**
 * The desktop app's data folder: Electron's userData for an app named
 * Tuneshelf (the Electron main process sets userData to exactly this):
 * `%APPDATA%\Tuneshelf`, `~/Library/Application Support/Tuneshelf`, or
 * `$XDG_CONFIG_HOME/Tuneshelf` (`~/.config/Tuneshelf`).
 */
export function desktopDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string {
  return path.join(appDataDir(env, platform, home), APP_FOLDER_NAME)
}

/**
 * The data folder (any of them, or one given with --data-dir), created if
 * missing: readable by its user alone, as it holds the settings and the caches.
 */
export function ensureDataFolder(dataDir: string): string {
  return ensureFolder(dataDir, 'the data folder', PRIVATE_FOLDER_MODE)
}

/** Refuses a data folder that is a file, or has a file in its way, without creating anything (reading it needs no folder made). */
export function checkDataFolder(dataDir: string): void {
  checkFolderPath(dataDir, 'the data folder')
}

/** `npm run web`'s own data folder, beside the app's: `tuneshelf-web` in the user's data folder. */
export function webDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string {
  if (platform === 'win32') return path.join(env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), 'tuneshelf-web')
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'tuneshelf-web')
  const xdg = env['XDG_DATA_HOME']
  return path.join(xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share'), 'tuneshelf-web')
}

/** Electron's `appData`, by the same rules. */
function appDataDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  if (platform === 'win32') return env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming')
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support')
  const xdg = env['XDG_CONFIG_HOME']
  return xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.config')
}

/**
 * The Electron side of core/session/window-state.ts (which keeps the file and decides
 * what is still on a screen, in plain Node): the screens Electron knows, and
 * the window's own bounds when it closes.
 */
import { screen, type BrowserWindow } from 'electron'
import { loadWindowState, saveWindowState, visibleBounds, type Bounds } from '../core/session/window-state'

/** Where the window opens: the saved bounds while they are still on a screen, and whether it was maximized. */
export function savedWindowPlace(dataDir: string): { bounds: Bounds | undefined; maximized: boolean } {
  const saved = loadWindowState(dataDir)
  const bounds = saved && visibleBounds(saved.bounds, screen.getAllDisplays().map((display) => display.workArea))
  return { bounds, maximized: saved?.maximized === true }
}

/** Saves the window's place (its bounds as if not maximized, and whether it is) when it closes. */
export function rememberWindowPlace(window: BrowserWindow, dataDir: string): void {
  window.on('close', () => saveWindowState(dataDir, { bounds: window.getNormalBounds(), maximized: window.isMaximized() }))
}

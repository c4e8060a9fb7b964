/**
 * Where the main window was: its bounds and whether it was maximized, kept in
 * the data folder so the next start opens it there, unless that place is no
 * longer on any screen (a monitor unplugged).
 */
import fs from 'node:fs'
import path from 'node:path'
import * as v from 'valibot'

export interface Bounds {
  x: number
  y: number
  width: number
  height: number
}

export interface WindowState {
  bounds: Bounds
  maximized: boolean
}

const FILE = 'window-state.json'
const whole = v.pipe(v.number(), v.integer())
const stateSchema = v.object({
  bounds: v.object({ x: whole, y: whole, width: v.pipe(whole, v.minValue(200)), height: v.pipe(whole, v.minValue(150)) }),
  maximized: v.boolean(),
})

/** The saved state, if there is a sound one. */
export function loadWindowState(dataDir: string): WindowState | undefined {
  try {
    const result = v.safeParse(stateSchema, JSON.parse(fs.readFileSync(path.join(dataDir, FILE), 'utf8')))
    return result.success ? result.output : undefined
  } catch {
    return undefined
  }
}

/** Saves the state; a failure (read-only folder, full disk) only means the next start uses the default place. */
export function saveWindowState(dataDir: string, state: WindowState): void {
  try {
    const file = path.join(dataDir, FILE)
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(state))
    fs.renameSync(`${file}.tmp`, file)
  } catch {
    // Not worth troubling the user about.
  }
}

/**
 * The saved bounds if a good part of the window's title bar (100 px of its width,
 * half its height) would be on one of these screens, enough to grab it there.
 */
export function visibleBounds(bounds: Bounds, screens: readonly Bounds[]): Bounds | undefined {
  const titleBar = { x: bounds.x, y: bounds.y, width: bounds.width, height: 40 }
  // Width and height each: a sliver two pixels high along a wide window has the area but cannot be grabbed.
  const onScreen = screens.some((screen) => {
    const { width, height } = overlap(titleBar, screen)
    return width >= Math.min(100, bounds.width) && height >= titleBar.height / 2
  })
  return onScreen ? bounds : undefined
}

function overlap(a: Bounds, b: Bounds): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return width > 0 && height > 0 ? { width, height } : { width: 0, height: 0 }
}

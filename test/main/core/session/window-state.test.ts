import fs from 'node:fs'
import path from 'node:path'
import { describe, expect } from 'vitest'
import { loadWindowState, saveWindowState, visibleBounds, type Bounds } from '../../../../src-main/core/session/window-state'
import { test } from '../../support/fixtures'

const LAPTOP: Bounds = { x: 0, y: 0, width: 1440, height: 900 }
/** A second monitor to the right of the laptop, a little higher. */
const MONITOR: Bounds = { x: 1440, y: -200, width: 2560, height: 1440 }

describe('the window state', () => {
  test('is saved in the data folder and loaded again', ({ tempDir }) => {
    const dataDir = tempDir()
    expect(loadWindowState(dataDir)).toBeUndefined()
    const state = { bounds: { x: 1500, y: -150, width: 1200, height: 800 }, maximized: true }
    saveWindowState(dataDir, state)
    expect(loadWindowState(dataDir)).toEqual(state)
    expect(fs.readdirSync(dataDir)).toEqual(['window-state.json'])
    saveWindowState(dataDir, { bounds: { x: 10, y: 20, width: 900, height: 700 }, maximized: false })
    expect(loadWindowState(dataDir)).toEqual({ bounds: { x: 10, y: 20, width: 900, height: 700 }, maximized: false })
  })

  test('ignores a file that is not a sound state', ({ tempDir }) => {
    const dataDir = tempDir()
    const file = path.join(dataDir, 'window-state.json')
    const good = { bounds: { x: 0, y: 0, width: 800, height: 600 }, maximized: false }
    for (const content of [
      '',
      'not json',
      '{"bounds":',
      'null',
      '[]',
      '42',
      JSON.stringify({ maximized: false }),
      JSON.stringify({ ...good, maximized: 'yes' }),
      JSON.stringify({ ...good, bounds: { ...good.bounds, x: 'left' } }),
      JSON.stringify({ ...good, bounds: { ...good.bounds, width: 10.5 } }),
      JSON.stringify({ ...good, bounds: { ...good.bounds, width: 50 } }),
      JSON.stringify({ ...good, bounds: { ...good.bounds, height: 20 } }),
      JSON.stringify({ ...good, bounds: { ...good.bounds, y: null } }),
      '{"bounds":{"x":1e400,"y":0,"width":800,"height":600},"maximized":false}',
    ]) {
      fs.writeFileSync(file, content)
      expect(loadWindowState(dataDir), content).toBeUndefined()
    }
    fs.writeFileSync(file, JSON.stringify(good))
    expect(loadWindowState(dataDir)).toEqual(good)
  })

  test('saving never throws where the folder cannot take the file', ({ tempDir }) => {
    const dataDir = tempDir()
    const state = { bounds: { x: 0, y: 0, width: 800, height: 600 }, maximized: false }
    expect(() => saveWindowState(path.join(dataDir, 'missing'), state)).not.toThrow()
    fs.writeFileSync(path.join(dataDir, 'a-file'), '')
    expect(() => saveWindowState(path.join(dataDir, 'a-file'), state)).not.toThrow()
    expect(fs.readdirSync(dataDir)).toEqual(['a-file'])
  })
})

describe('visibleBounds', () => {
  test('keeps bounds whose title bar is on a screen, wholly or in good part', () => {
    const screens = [LAPTOP, MONITOR]
    for (const bounds of [
      { x: 100, y: 100, width: 1000, height: 700 },
      { x: 2000, y: -150, width: 1200, height: 800 }, // on the monitor, above the laptop's top
      { x: 1000, y: 50, width: 1000, height: 700 }, // across both
      { x: -800, y: 0, width: 1000, height: 700 }, // partly off to the left, 200 px of its title bar on the laptop
      { x: 1300, y: 0, width: 1000, height: 700 }, // its right part over the edge of the laptop, on the monitor
      { x: 100, y: -20, width: 1000, height: 700 }, // half its title bar above the laptop's top: still to be grabbed
      { x: -900, y: 0, width: 1000, height: 700 }, // 100 px of its title bar on the laptop
    ]) {
      expect(visibleBounds(bounds, screens), JSON.stringify(bounds)).toEqual(bounds)
    }
  })

  test('rejects bounds off every screen', () => {
    const screens = [LAPTOP, MONITOR]
    for (const bounds of [
      { x: 5000, y: 0, width: 1000, height: 700 }, // right of the monitor (a monitor that was unplugged)
      { x: -3000, y: 0, width: 1000, height: 700 },
      { x: 100, y: 2000, width: 1000, height: 700 },
      { x: 100, y: -1000, width: 1000, height: 700 },
      { x: 100, y: -30, width: 1000, height: 700 }, // 10 px of its title bar on the laptop: a sliver, wide as it is
      { x: 100, y: -38, width: 1300, height: 700 }, // 2 px: the area of 100 × 20, none of the height
      { x: 2000, y: 1230, width: 500, height: 700 }, // 10 px of its title bar at the monitor's bottom
      { x: -950, y: 0, width: 1000, height: 700 }, // 50 px of title bar: too little to grab
    ]) {
      expect(visibleBounds(bounds, screens), JSON.stringify(bounds)).toBeUndefined()
    }
    expect(visibleBounds({ x: 0, y: 0, width: 800, height: 600 }, [])).toBeUndefined()
  })

  test('rejects the bounds of a monitor that is gone, keeps them while it is there', () => {
    const onMonitor = { x: 2000, y: 0, width: 1200, height: 800 }
    expect(visibleBounds(onMonitor, [LAPTOP, MONITOR])).toEqual(onMonitor)
    expect(visibleBounds(onMonitor, [LAPTOP])).toBeUndefined()
  })
})

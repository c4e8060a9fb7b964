// `npm start` where Electron cannot be had but a Chromium-family browser is installed: the app opens in
// a window of its own (`--app=URL`, no tabs, no address bar) on a browser profile inside the app's data
// folder; closing that window stops nothing; Ctrl-C closes the app and the window. The real thing runs
// under Xvfb with /usr/bin/chromium, in a pseudo-terminal (support/terminal.py), and the screen is saved
// to test-results/screenshots/npm-start-app-window.png for a person to look at.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { chromium } from '@playwright/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appWindowArgs, browserProfileDir, findAppBrowser } from '../../../src-main/launch/app-window'
import { builtFile, ROOT } from '../support/build'

describe('the browser for the app window', () => {
  const only = (...files: string[]) => (file: string) => files.includes(file)

  it('is CHROME_PATH, else the first of the usual names on the PATH, else none', () => {
    const env = { DISPLAY: ':0', PATH: '/opt/bin:/usr/bin' }
    expect(findAppBrowser({ ...env, CHROME_PATH: '/x/chrome' }, 'linux', only('/x/chrome', '/usr/bin/chromium'))).toBe('/x/chrome')
    expect(findAppBrowser({ ...env, CHROME_PATH: '/gone' }, 'linux', only('/usr/bin/chromium'))).toBe('/usr/bin/chromium')
    expect(findAppBrowser(env, 'linux', only('/usr/bin/google-chrome', '/opt/bin/microsoft-edge'))).toBe('/usr/bin/google-chrome')
    expect(findAppBrowser(env, 'linux', only('/usr/bin/chromium-browser'))).toBe('/usr/bin/chromium-browser')
    expect(findAppBrowser(env, 'linux', only())).toBeUndefined()
  })

  it('is none on Linux without a screen, or when TUNESHELF_APP_WINDOW=0 asks for none', () => {
    expect(findAppBrowser({ PATH: '/usr/bin' }, 'linux', only('/usr/bin/chromium'))).toBeUndefined()
    expect(findAppBrowser({ PATH: '/usr/bin', WAYLAND_DISPLAY: 'wayland-0' }, 'linux', only('/usr/bin/chromium'))).toBe('/usr/bin/chromium')
    expect(findAppBrowser({ PATH: '/usr/bin', DISPLAY: ':0', TUNESHELF_APP_WINDOW: '0' }, 'linux', only('/usr/bin/chromium'))).toBeUndefined()
  })

  it('is looked for where the installers put it on macOS and Windows', () => {
    expect(findAppBrowser({ PATH: '/usr/bin' }, 'darwin', only('/Users/a/Applications/Chromium.app/Contents/MacOS/Chromium'), '/Users/a')).toBe(
      '/Users/a/Applications/Chromium.app/Contents/MacOS/Chromium',
    )
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe'
    expect(findAppBrowser({ PATH: 'C:\\Windows', 'PROGRAMFILES(X86)': 'C:\\Program Files (x86)' }, 'win32', only(edge))).toBe(edge)
    expect(findAppBrowser({ PATH: 'C:\\Windows;C:\\Tools' }, 'win32', only('C:\\Tools\\chromium.exe'))).toBe('C:\\Tools\\chromium.exe')
  })

  it('opens the address as an app, on a profile of its own in the data folder, without first-run questions', () => {
    expect(appWindowArgs('http://127.0.0.1:5/?token=t', '/data/Tuneshelf')).toEqual([
      '--app=http://127.0.0.1:5/?token=t',
      '--user-data-dir=/data/Tuneshelf/browser-profile',
      '--no-first-run',
      '--no-default-browser-check',
    ])
  })
})

const CHROMIUM = '/usr/bin/chromium'
const missing = [CHROMIUM, '/usr/bin/xvfb-run', '/usr/bin/Xvfb'].filter((file) => !fs.existsSync(file))
const python = (() => {
  try {
    return process.platform === 'linux' ? execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() : undefined
  } catch {
    return undefined
  }
})()
const skipWhy = process.platform !== 'linux' ? 'not Linux' : missing.length > 0 ? `no ${missing.join(', ')}` : python === undefined ? 'no python3 (for the pseudo-terminal)' : undefined
const SCREENSHOT = path.join(ROOT, 'test-results/screenshots/npm-start-app-window.png')

/** An XWD image (Xvfb's frame buffer file, 24 or 32 bits a pixel) as a PNG, with nothing but zlib. */
function xwdToPng(xwd: Buffer): Buffer {
  const field = (index: number): number => xwd.readUInt32BE(index * 4)
  const [headerSize, width, height, byteOrder, bitsPerPixel, bytesPerLine, colours] = [field(0), field(4), field(5), field(7), field(11), field(12), field(19)]
  const pixels = headerSize + colours * 12
  const bytesPerPixel = bitsPerPixel / 8
  const rows = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = pixels + y * bytesPerLine + x * bytesPerPixel
      const value = byteOrder === 0 ? xwd.readUIntLE(at, bytesPerPixel) : xwd.readUIntBE(at, bytesPerPixel)
      const to = y * (width * 3 + 1) + 1 + x * 3
      rows[to] = (value >> 16) & 0xff
      rows[to + 1] = (value >> 8) & 0xff
      rows[to + 2] = value & 0xff
    }
  }
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const framed = Buffer.alloc(body.length + 8)
    framed.writeUInt32BE(data.length, 0)
    body.copy(framed, 4)
    framed.writeUInt32BE(zlib.crc32(body), body.length + 4)
    return framed
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8 bits a channel, RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0))])
}

/** The processes whose command line names this profile folder: the browser and its helpers. */
function browserProcesses(profile: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profile)
      } catch {
        return false
      }
    })
    .map(Number)
}

describe.skipIf(skipWhy !== undefined)(`npm start with Chromium under Xvfb${skipWhy ? ` (skipped: ${skipWhy})` : ''}`, () => {
  let xvfb: ChildProcess
  let display = ''
  let frameBuffers = ''
  const folders: string[] = []

  beforeAll(async () => {
    frameBuffers = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-xvfb-'))
    folders.push(frameBuffers)
    xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x800x24', '-nolisten', 'tcp', '-fbdir', frameBuffers], { stdio: ['ignore', 'pipe', 'ignore'] })
    display = await new Promise<string>((resolve, reject) => {
      xvfb.stdout!.setEncoding('utf8').once('data', (text: string) => resolve(`:${text.trim()}`))
      xvfb.once('exit', () => reject(new Error('Xvfb ended before it gave its display')))
    })
  }, 30_000)

  afterAll(() => {
    xvfb?.kill('SIGTERM')
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true })
  })

  /** npm start in a terminal on that screen, the browser being /usr/bin/chromium able to be driven (DevTools on a free port). */
  function npmStart() {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-window-'))
    folders.push(home)
    // As root (a container), Chromium starts only without its sandbox.
    const chrome = path.join(home, 'chromium-with-devtools')
    fs.writeFileSync(chrome, `#!/bin/sh\nexec ${CHROMIUM} ${process.getuid?.() === 0 ? '--no-sandbox ' : ''}--remote-debugging-port=0 "$@"\n`, { mode: 0o755 })
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env['PATH'] ?? ''}`,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, 'config'),
      DISPLAY: display,
      CHROME_PATH: chrome,
      TUNESHELF_WEB_RENDERER_DIR: path.dirname(builtFile('renderer/index.html')),
      TUNESHELF_ELECTRON_PACKAGE: path.join(home, 'no-electron-package'),
    }
    for (const name of ['INIT_CWD', 'WAYLAND_DISPLAY', 'TUNESHELF_APP_WINDOW']) delete env[name]
    const terminal = spawn(python!, [path.join(ROOT, 'test/main/support/terminal.py'), 'npm', 'start'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] })
    let shown = ''
    terminal.stdout!.setEncoding('utf8').on('data', (chunk: string) => (shown += chunk))
    terminal.stderr!.setEncoding('utf8').on('data', (chunk: string) => (shown += chunk))
    const exit = new Promise<void>((resolve) => terminal.once('exit', () => resolve()))
    const profile = browserProfileDir(path.join(home, 'config', 'Tuneshelf'))
    return {
      profile,
      shown: () => shown,
      ctrlC: () => {
        if (terminal.exitCode === null && terminal.signalCode === null) terminal.stdin!.write('c')
      },
      /** Ends once the job and all it started are gone; kills them all if that takes longer than 30 s. */
      ended: async () => {
        const late = setTimeout(() => terminal.kill('SIGTERM'), 30_000)
        await exit
        clearTimeout(late)
      },
      /** The window's page, through DevTools. */
      page: async () => {
        await expect.poll(() => shown, { timeout: 60_000, interval: 100 }).toMatch(/tuneshelf: opened the app in a window of /)
        const portFile = path.join(profile, 'DevToolsActivePort')
        const port = () => (fs.existsSync(portFile) ? /^\d+\n/.exec(fs.readFileSync(portFile, 'utf8'))?.[0].trim() : undefined)
        await expect.poll(port, { timeout: 20_000 }).toBeDefined()
        const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port()}`)
        const url = /listening on (\S+)/.exec(shown)![1]!
        // The app's page, at its address or already past it (the app drops the token from the address once read).
        const ours = () => browser.contexts().flatMap((context) => context.pages()).find((page) => page.url().startsWith(new URL(url).origin))
        await expect.poll(() => ours() !== undefined, { timeout: 20_000 }).toBe(true)
        return { url, page: ours()! }
      },
    }
  }

  it('opens the app in its own window, on its own profile; Ctrl-C closes the app and the window', async () => {
    const run = npmStart()
    try {
      const { page } = await run.page()
      // The app has drawn its first screen (then a moment for the demo catalogue's first rows).
      await page.locator('#app > *').first().waitFor({ timeout: 20_000 })
      await page.waitForTimeout(2_500)
      fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true })
      fs.writeFileSync(SCREENSHOT, xwdToPng(fs.readFileSync(path.join(frameBuffers, 'Xvfb_screen0'))))
      expect(run.shown()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/\?token=\S+\r?$/m)
      expect(browserProcesses(run.profile).length).toBeGreaterThan(0)
      run.ctrlC()
      await run.ended()
      expect(run.shown()).toMatch(/tuneshelf web: closed\r?$/m)
      expect(run.shown()).not.toMatch(/again: exiting without closing|window was closed/)
      expect(browserProcesses(run.profile)).toEqual([])
    } finally {
      run.ctrlC()
      await run.ended()
    }
  }, 150_000)

  it('closing the window stops nothing: the app is still served until Ctrl-C', async () => {
    const run = npmStart()
    try {
      const { page, url } = await run.page()
      await page.close()
      await expect.poll(() => run.shown(), { timeout: 20_000 }).toMatch(/tuneshelf: the app's window was closed; the app is still served at that address until Ctrl-C\./)
      expect((await fetch(url)).status).toBe(200)
      run.ctrlC()
      await run.ended()
      expect(run.shown()).toMatch(/tuneshelf web: closed\r?$/m)
    } finally {
      run.ctrlC()
      await run.ended()
    }
  }, 150_000)
})

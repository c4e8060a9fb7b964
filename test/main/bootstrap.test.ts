/**
 * The Electron glue with a stand-in `electron` module: one instance, a
 * hardened window, every permission refused, the contract on ipcMain with its
 * sender check, the media protocol, links only to http(s), and a quit that
 * waits for the core (the demo catalogue stopped, the cache closed).
 * Behind it runs the real core: its host, started through a stand-in for
 * Electron's utility process that forks it as a Node process, with its
 * session on a real (small) demo catalogue.
 */
import { fork } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { BrowserWindowConstructorOptions } from 'electron'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HOST_SCRIPT } from '../../src-main/core/host/launch'
import { MEDIA_SCHEME } from '../../src-main/security'
import { TSX } from './support/cli'

type Listener = (...args: unknown[]) => unknown

const electron = vi.hoisted(() => {
  const appListeners = new Map<string, Listener[]>()

  class FakeWebContents {
    readonly listeners = new Map<string, Listener>()
    readonly mainFrame = { url: 'file:///app/out/renderer/index.html' }
    windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined
    id = 1
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      this.windowOpenHandler = handler
    }
    on(name: string, listener: Listener) {
      this.listeners.set(name, listener)
      return this
    }
    once(name: string, listener: Listener) {
      return this.on(name, listener)
    }
    isDestroyed() {
      return false
    }
    send = vi.fn()
  }

  class FakeBrowserWindow {
    static instances: FakeBrowserWindow[] = []
    static getAllWindows() {
      return FakeBrowserWindow.instances
    }
    readonly webContents = new FakeWebContents()
    readonly listeners = new Map<string, Listener>()
    readonly loadURL = vi.fn(async (_url: string) => undefined)
    readonly loadFile = vi.fn(async (_path: string) => undefined)
    readonly show = vi.fn()
    readonly focus = vi.fn()
    readonly maximize = vi.fn()
    constructor(readonly options: BrowserWindowConstructorOptions) {
      FakeBrowserWindow.instances.push(this)
    }
    once(name: string, listener: Listener) {
      this.listeners.set(name, listener)
    }
    on(name: string, listener: Listener) {
      this.listeners.set(name, listener)
    }
    isFocused() {
      return true
    }
    isDestroyed() {
      return false
    }
    isMinimized() {
      return false
    }
    isMaximized() {
      return false
    }
    getNormalBounds() {
      return { x: 10, y: 20, width: 1000, height: 700 }
    }
  }

  const app = {
    singleInstance: true,
    dataDir: '',
    on: vi.fn((name: string, listener: Listener) => {
      appListeners.set(name, [...(appListeners.get(name) ?? []), listener])
      return app
    }),
    emit(name: string, ...args: unknown[]) {
      for (const listener of appListeners.get(name) ?? []) listener(...args)
    },
    requestSingleInstanceLock: vi.fn(() => app.singleInstance),
    whenReady: vi.fn(async () => undefined),
    getPath: vi.fn(() => app.dataDir),
    setPath: vi.fn(),
    getVersion: vi.fn(() => '0.1.0'),
    quit: vi.fn(),
    exit: vi.fn(),
    showAboutPanel: vi.fn(),
  }
  const ipcMain = {
    handlers: new Map<string, Listener>(),
    handle: vi.fn((channel: string, handler: Listener) => ipcMain.handlers.set(channel, handler)),
    removeHandler: vi.fn((channel: string) => ipcMain.handlers.delete(channel)),
  }
  const protocol = {
    privileged: [] as unknown[],
    registerSchemesAsPrivileged: vi.fn((schemes: unknown[]) => protocol.privileged.push(...schemes)),
    handlers: new Map<string, (request: Request) => Promise<Response>>(),
    handle: vi.fn((scheme: string, handler: (request: Request) => Promise<Response>) => protocol.handlers.set(scheme, handler)),
  }
  const defaultSession = {
    requestHandler: undefined as Listener | undefined,
    checkHandler: undefined as Listener | undefined,
    setPermissionRequestHandler: vi.fn((handler: Listener) => (defaultSession.requestHandler = handler)),
    setPermissionCheckHandler: vi.fn((handler: Listener) => (defaultSession.checkHandler = handler)),
  }
  const shell = {
    openExternal: vi.fn(async (_url: string) => undefined),
    openPath: vi.fn(async (_path: string) => ''),
    showItemInFolder: vi.fn(),
  }
  const Menu = { buildFromTemplate: vi.fn((template: unknown) => ({ template })), setApplicationMenu: vi.fn() }
  class Notification {
    static isSupported = () => true
    show = vi.fn()
  }
  const dialog = { showErrorBox: vi.fn(), showOpenDialog: vi.fn(async () => ({ canceled: true, filePaths: [] })) }
  // Given its implementation below, once node:child_process can be imported.
  const utilityProcess = { fork: vi.fn() }
  const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] }

  function reset() {
    appListeners.clear()
    FakeBrowserWindow.instances = []
    ipcMain.handlers.clear()
    protocol.handlers.clear()
    app.singleInstance = true
  }

  return { app, BrowserWindow: FakeBrowserWindow, ipcMain, protocol, session: { defaultSession }, shell, Menu, Notification, dialog, screen, utilityProcess, reset }
})

vi.mock('electron', () => electron)

// Electron's utility process, as a forked Node process running the same host script from the sources:
// the host speaks to it over Node's IPC channel where Electron's parentPort is missing.
electron.utilityProcess.fork.mockImplementation((script: string, args: string[]) => {
  const child = fork(script, args, { execArgv: ['--import', TSX], serialization: 'advanced', stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
  return {
    pid: child.pid,
    stdout: child.stdout,
    stderr: child.stderr,
    postMessage: (message: unknown) => child.connected && child.send(message as never),
    on: (name: string, listener: Listener) => child.on(name, listener),
    off: (name: string, listener: Listener) => child.off(name, listener),
    once: (name: string, listener: Listener) => child.once(name, (code: number | null) => listener(code ?? -1)),
    kill: () => child.kill('SIGKILL'),
  }
})

const { bootstrap, createMainWindow } = await import('../../src-main/bootstrap')

const tempDirs: string[] = []
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-bootstrap-'))
  tempDirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

/** The demo catalogue the app starts when no service is set: a small real one. */
const windowOptions = {
  preloadPath: '/app/out/preload/index.cjs',
  rendererFile: '/app/out/renderer/index.html',
  hostScript: HOST_SCRIPT,
  hostOptions: { demo: { artists: 20, seed: 9, maxFileMb: 2 } },
}
const APP_URL = 'file:///app/out/renderer/index.html'

/** Quits the app as a user would and waits until the session has closed. */
async function quit(): Promise<void> {
  const event = { preventDefault: vi.fn() }
  electron.app.emit('before-quit', event)
  expect(event.preventDefault).toHaveBeenCalledOnce()
  await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalled(), { timeout: 10_000 })
}

/** An IPC call from the app's own window. */
function call(channel: string, ...args: unknown[]): Promise<unknown> {
  const window = electron.BrowserWindow.instances[0]!
  const handler = electron.ipcMain.handlers.get(channel)!
  return handler({ senderFrame: window.webContents.mainFrame, sender: window.webContents }, args) as Promise<unknown>
}

beforeEach(() => {
  electron.reset()
  electron.app.dataDir = tempDir()
})
afterEach(() => {
  vi.clearAllMocks()
})

describe('the main window', () => {
  it('is sandboxed and context-isolated, with no Node, web security on and no webviews', () => {
    createMainWindow({ ...windowOptions, dataDir: tempDir(), isAppUrl: (url) => url === APP_URL })
    const options = electron.BrowserWindow.instances[0]!.options
    expect(options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    })
    expect(options).toMatchObject({ minWidth: 800, minHeight: 600 })
  })

  it('stays on the app page: navigation away, new windows and webviews are all refused', () => {
    createMainWindow({ ...windowOptions, dataDir: tempDir(), isAppUrl: (url) => url === APP_URL })
    const contents = electron.BrowserWindow.instances[0]!.webContents
    for (const url of ['https://example.org/', 'file:///etc/passwd', 'javascript:alert(1)']) {
      const event = { preventDefault: vi.fn() }
      contents.listeners.get('will-navigate')!(event, url)
      expect(event.preventDefault, url).toHaveBeenCalled()
    }
    const own = { preventDefault: vi.fn() }
    contents.listeners.get('will-navigate')!(own, APP_URL)
    expect(own.preventDefault).not.toHaveBeenCalled()
    expect(contents.windowOpenHandler!({ url: 'https://example.org/' })).toEqual({ action: 'deny' })
    const webview = { preventDefault: vi.fn() }
    contents.listeners.get('will-attach-webview')!(webview)
    expect(webview.preventDefault).toHaveBeenCalled()
    expect(electron.shell.openExternal).not.toHaveBeenCalled()
  })

  it('opens where it was closed last time, when that place is on a screen', () => {
    const dataDir = tempDir()
    createMainWindow({ ...windowOptions, dataDir, isAppUrl: () => true })
    electron.BrowserWindow.instances[0]!.listeners.get('close')!()
    createMainWindow({ ...windowOptions, dataDir, isAppUrl: () => true })
    expect(electron.BrowserWindow.instances[1]!.options).toMatchObject({ x: 10, y: 20, width: 1000, height: 700 })
  })
})

describe('bootstrap', () => {
  it('runs one instance: a second one quits at once and opens nothing', async () => {
    electron.app.singleInstance = false
    expect(await bootstrap({ ...windowOptions, dataDir: electron.app.dataDir })).toBeUndefined()
    expect(electron.app.quit).toHaveBeenCalled()
    expect(electron.BrowserWindow.instances).toHaveLength(0)
  })

  it('serves the contract, the media protocol and the menu over the demo catalogue, and quits gracefully', async () => {
    await bootstrap({ ...windowOptions, dataDir: electron.app.dataDir })
    expect(electron.BrowserWindow.instances).toHaveLength(1)
    expect(electron.protocol.privileged).toEqual([
      { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true } },
    ])
    expect(electron.protocol.handlers.has(MEDIA_SCHEME)).toBe(true)
    expect(electron.Menu.setApplicationMenu).toHaveBeenCalled()
    // Every permission refused.
    const granted = vi.fn()
    electron.session.defaultSession.requestHandler!({}, 'notifications', granted)
    expect(granted).toHaveBeenCalledWith(false)
    expect(electron.session.defaultSession.checkHandler!()).toBe(false)

    // The core runs in its utility process; the demo was started there and is synced in the background; the window's calls reach it.
    expect(electron.utilityProcess.fork).toHaveBeenCalledOnce()
    expect(electron.utilityProcess.fork.mock.calls[0]![2]).toMatchObject({ serviceName: 'Tuneshelf core' })
    await vi.waitFor(async () => expect(await call('catalogue:status')).toMatchObject({ ok: true, value: { artists: 20, lastFullSyncAt: expect.any(Number) } }), {
      timeout: 20_000,
    })
    expect(await call('app:info')).toMatchObject({ ok: true, value: { transport: 'electron', avatarBase: `${MEDIA_SCHEME}://app/avatars/` } })

    // A foreign page gets nothing.
    const foreign = { senderFrame: { url: 'https://evil.example/' }, sender: { mainFrame: { url: 'https://evil.example/' } } }
    expect(await electron.ipcMain.handlers.get('catalogue:levels')!({ ...foreign, sender: { ...foreign.sender, mainFrame: foreign.senderFrame } }, [])).toMatchObject({
      ok: false,
    })

    // Links: only http(s) addresses built in main ever reach the browser.
    expect(await call('app:openLink', { kind: 'website', value: 'example.com/band' })).toEqual({ ok: true, value: { address: 'https://example.com/band', opened: true } })
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://example.com/band')
    for (const value of ['javascript:alert(1)', 'file:///etc/passwd', `${MEDIA_SCHEME}://app/downloads/1`, 'data:text/html,<b>x</b>', 'vbscript:x']) {
      expect(await call('app:openLink', { kind: 'website', value }), value).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    }
    expect(electron.shell.openExternal).toHaveBeenCalledTimes(1)

    // The media protocol answers from the session: a cached avatar.
    const { value: page } = (await call('catalogue:list', { perPage: 1 })) as { value: { artists: { avatarThumb: string }[] } }
    const avatar = await electron.protocol.handlers.get(MEDIA_SCHEME)!(
      new Request(`${MEDIA_SCHEME}://app/avatars/${encodeURIComponent(page.artists[0]!.avatarThumb)}`),
    )
    expect(avatar.status).toBe(200)
    expect(avatar.headers.get('content-type')).toBe('image/svg+xml')

    const { value: status } = (await call('catalogue:status')) as { value: { baseUrl: string } }
    // Quitting waits for the core: the demo stopped, the log written.
    await quit()
    await expect(fetch(status.baseUrl)).rejects.toThrow()
    const log = fs.readFileSync(path.join(electron.app.dataDir, 'tuneshelf.log'), 'utf8')
    expect(log).toMatch(/"message":"starting"/)
    expect(log).toMatch(/"message":"stopped"/)
    // The quit that follows goes through.
    const again = { preventDefault: vi.fn() }
    electron.app.emit('before-quit', again)
    expect(again.preventDefault).not.toHaveBeenCalled()
  }, 60_000)

  it('says why it cannot start, and exits, when the catalogue cannot be opened', async () => {
    // A data folder whose settings cannot be read as a folder: a file in the way of the cache folder.
    fs.writeFileSync(path.join(electron.app.dataDir, 'catalogues'), 'not a folder')
    expect(await bootstrap({ ...windowOptions, dataDir: electron.app.dataDir })).toBeUndefined()
    expect(electron.dialog.showErrorBox).toHaveBeenCalledWith('Tuneshelf cannot start', expect.stringMatching(/is a file, not a folder/))
    expect(electron.app.exit).toHaveBeenCalledWith(1)
  })
})

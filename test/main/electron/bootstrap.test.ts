/**
 * The Electron glue with a stand-in `electron` module: one instance, a
 * hardened window, every permission refused, the contract on ipcMain with its
 * sender check, the media protocol, links only to http(s), and a quit that
 * waits for the core (the demo catalogue stopped, the cache closed).
 * Behind it runs the real core: its host, started through a stand-in for
 * Electron's utility process that forks it as a Node process, with its
 * session on a real (small) demo catalogue.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HOST_SCRIPT } from '../../../src-main/main-process/host-launch'
import { MEDIA_SCHEME } from '../../../src-main/electron/security'

vi.mock('electron', async () => (await import('../support/fake-electron')).electron)
const { electron } = await import('../support/fake-electron')

const { bootstrap, createMainWindow } = await import('../../../src-main/electron/bootstrap')

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
      contents.emit('will-navigate', event, url)
      expect(event.preventDefault, url).toHaveBeenCalled()
    }
    const own = { preventDefault: vi.fn() }
    contents.emit('will-navigate', own, APP_URL)
    expect(own.preventDefault).not.toHaveBeenCalled()
    expect(contents.windowOpenHandler!({ url: 'https://example.org/' })).toEqual({ action: 'deny' })
    const webview = { preventDefault: vi.fn() }
    contents.emit('will-attach-webview', webview)
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

  it('opens on a screen when asked (a click on a new-tracks notification with no window open)', () => {
    createMainWindow({ ...windowOptions, dataDir: tempDir(), isAppUrl: () => true, route: '/whats-new' })
    expect(electron.BrowserWindow.instances[0]!.loadURL).toHaveBeenCalledWith('app://tuneshelf/index.html#/whats-new')
  })
})

describe('bootstrap', () => {
  it('runs one instance: a second one quits at once and opens nothing', async () => {
    electron.app.singleInstance = false
    expect(await bootstrap({ ...windowOptions, dataDir: electron.app.dataDir })).toBeUndefined()
    expect(electron.app.quit).toHaveBeenCalled()
    expect(electron.BrowserWindow.instances).toHaveLength(0)
  })

  it('takes a data folder given relative to the current folder (TUNESHELF_DATA_DIR=profile) as Electron needs it: absolute', async () => {
    electron.app.singleInstance = false
    await bootstrap({ ...windowOptions, dataDir: path.join('profiles', 'second') })
    expect(electron.app.setPath).toHaveBeenCalledWith('userData', path.resolve('profiles', 'second'))
  })

  it("gives itself the installer's app id on Windows, so that its notifications are shown as Tuneshelf's", async () => {
    const appId = /^appId:\s*(\S+)\s*$/m.exec(fs.readFileSync(path.join(import.meta.dirname, '../../../electron-builder.yml'), 'utf8'))![1]
    electron.app.singleInstance = false
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!
    try {
      Object.defineProperty(process, 'platform', { ...platform, value: 'linux' })
      await bootstrap({ ...windowOptions, dataDir: electron.app.dataDir })
      expect(electron.app.setAppUserModelId).not.toHaveBeenCalled()
      Object.defineProperty(process, 'platform', { ...platform, value: 'win32' })
      await bootstrap({ ...windowOptions, dataDir: electron.app.dataDir })
      expect(electron.app.setAppUserModelId).toHaveBeenCalledWith(appId)
    } finally {
      Object.defineProperty(process, 'platform', platform)
    }
  })

  it('serves the contract, the media protocol and the menu over the demo catalogue, and quits gracefully', async () => {
    await bootstrap({ ...windowOptions, dataDir: electron.app.dataDir })
    expect(electron.BrowserWindow.instances).toHaveLength(1)
    expect(electron.protocol.privileged).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
      { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true } },
    ])
    expect(electron.protocol.handlers.has(MEDIA_SCHEME)).toBe(true)
    // The window's page comes from app:// (test/main/attacks/10-app-scheme.test.ts), and its calls are answered.
    expect(electron.protocol.handlers.has('app')).toBe(true)
    expect(electron.BrowserWindow.instances[0]!.loadURL).toHaveBeenCalledWith('app://tuneshelf/index.html')
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
    // The host's pid, as Electron has it once the process has spawned.
    expect(log).toMatch(/"message":"core started","pid":\d+/)
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

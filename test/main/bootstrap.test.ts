import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { BrowserWindowConstructorOptions } from 'electron'
import { bootstrap, createMainWindow, type MainWindowOptions } from '../../src-main/bootstrap'
import { startCatalogueService, type RunningCatalogueService } from '../../src-main/core/demo/index'

// A stand-in for the parts of Electron that the bootstrap touches.
const electron = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => void
  const appListeners = new Map<string, Listener[]>()

  class FakeWebContents {
    readonly listeners = new Map<string, Listener>()
    windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      this.windowOpenHandler = handler
    }
    on(name: string, listener: Listener) {
      this.listeners.set(name, listener)
      return this
    }
    getURL() {
      return 'file:///app/out/renderer/index.html'
    }
  }

  class FakeBrowserWindow {
    static instances: FakeBrowserWindow[] = []
    static getAllWindows() {
      return FakeBrowserWindow.instances
    }
    readonly webContents = new FakeWebContents()
    readonly loadURL = vi.fn(async (_url: string) => undefined)
    readonly loadFile = vi.fn(async (_path: string) => undefined)
    readonly show = vi.fn()
    readonly once = vi.fn()
    constructor(readonly options: unknown) {
      FakeBrowserWindow.instances.push(this)
    }
  }

  const app = {
    on: vi.fn((name: string, listener: Listener) => {
      appListeners.set(name, [...(appListeners.get(name) ?? []), listener])
      return app
    }),
    emit(name: string, ...args: unknown[]) {
      for (const listener of appListeners.get(name) ?? []) listener(...args)
    },
    whenReady: vi.fn(async () => undefined),
    quit: vi.fn(),
  }

  const shell = { openExternal: vi.fn(async (_url: string) => undefined) }

  function reset() {
    appListeners.clear()
    FakeBrowserWindow.instances = []
  }

  return { app, BrowserWindow: FakeBrowserWindow, shell, reset }
})

vi.mock('electron', () => ({
  app: electron.app,
  BrowserWindow: electron.BrowserWindow,
  shell: electron.shell,
}))

vi.mock('../../src-main/core/demo/index', () => ({ startCatalogueService: vi.fn() }))

const windowOptions: MainWindowOptions = {
  preloadPath: '/app/out/preload/index.cjs',
  rendererFile: '/app/out/renderer/index.html',
}

function createdWindow() {
  expect(electron.BrowserWindow.instances).toHaveLength(1)
  const [window] = electron.BrowserWindow.instances
  if (window === undefined) throw new Error('no window was created')
  return window
}

function cancellableEvent() {
  return { preventDefault: vi.fn() }
}

beforeEach(() => {
  electron.reset()
  vi.spyOn(console, 'info').mockImplementation(() => undefined)
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
})

afterEach(() => {
  vi.clearAllMocks()
  vi.restoreAllMocks()
})

describe('createMainWindow', () => {
  it('creates a sandboxed, context-isolated window without Node integration', () => {
    createMainWindow(windowOptions)

    const options = createdWindow().options as BrowserWindowConstructorOptions
    expect(options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    })
  })

  it('loads the built renderer, or the dev server when one is given', () => {
    createMainWindow(windowOptions)
    createMainWindow({ ...windowOptions, rendererUrl: 'http://localhost:5173' })

    const [built, dev] = electron.BrowserWindow.instances
    expect(built?.loadFile).toHaveBeenCalledWith('/app/out/renderer/index.html')
    expect(built?.loadURL).not.toHaveBeenCalled()
    expect(dev?.loadURL).toHaveBeenCalledWith('http://localhost:5173')
    expect(dev?.loadFile).not.toHaveBeenCalled()
  })

  it('never opens new windows, and hands only web addresses to the browser', () => {
    createMainWindow(windowOptions)
    const handler = createdWindow().webContents.windowOpenHandler

    expect(handler?.({ url: 'https://example.org/artist' })).toEqual({ action: 'deny' })
    expect(handler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(electron.shell.openExternal).toHaveBeenCalledTimes(1)
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://example.org/artist')
  })

  it('blocks navigation away from the app page', () => {
    createMainWindow(windowOptions)
    const willNavigate = createdWindow().webContents.listeners.get('will-navigate')

    const away = cancellableEvent()
    willNavigate?.(away, 'https://example.org/')
    expect(away.preventDefault).toHaveBeenCalled()
  })
})

describe('bootstrap', () => {
  it('starts the demo catalogue on a free port and closes it before the app quits', async () => {
    const close = vi.fn(async () => undefined)
    // The bootstrap uses only the address and close() of the running service.
    const service: Pick<RunningCatalogueService, 'baseUrl' | 'close'> = { baseUrl: 'http://127.0.0.1:4321', close }
    vi.mocked(startCatalogueService).mockResolvedValue(service as RunningCatalogueService)

    await bootstrap(windowOptions)

    expect(createdWindow().options).toMatchObject({
      webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false },
    })
    expect(startCatalogueService).toHaveBeenCalledWith({ port: 0 })

    const firstQuit = cancellableEvent()
    electron.app.emit('will-quit', firstQuit)
    expect(firstQuit.preventDefault).toHaveBeenCalledOnce()
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalledOnce())
    expect(close).toHaveBeenCalledOnce()

    // The quit that follows the close goes through.
    const secondQuit = cancellableEvent()
    electron.app.emit('will-quit', secondQuit)
    expect(secondQuit.preventDefault).not.toHaveBeenCalled()
    expect(close).toHaveBeenCalledOnce()
  })

  it('keeps running when the demo catalogue fails to start, and still quits', async () => {
    vi.mocked(startCatalogueService).mockRejectedValue(new Error('not yet'))

    await bootstrap(windowOptions)
    createdWindow()

    electron.app.emit('will-quit', cancellableEvent())
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalledOnce())
    expect(console.error).toHaveBeenCalledWith(
      'Tuneshelf: the demo catalogue did not start',
      expect.any(Error),
    )
  })
})

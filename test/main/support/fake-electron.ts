/**
 * A stand-in for the `electron` module, for tests of the Electron glue (src-main/electron/):
 *
 *   vi.mock('electron', async () => (await import('./support/fake-electron')).electron)
 *   const { electron } = await import('./support/fake-electron')
 *
 * It records what main asks of Electron (windows, IPC handlers, protocols, permissions, the shell),
 * and runs Electron's utility process as a forked Node process with the same host script from the
 * sources, which speaks to main through a process.parentPort as in the app (FakeUtilityProcess).
 * Where the app depends on how Electron behaves, the stand-in behaves so, and says where Electron does.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import os from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { BrowserWindowConstructorOptions, NotificationConstructorOptions } from 'electron'
import { vi } from 'vitest'
import { TSX } from './cli'

type Listener = (...args: unknown[]) => unknown

/**
 * A window's web contents. An EventEmitter, as Electron's WebContents is (lib/browser/api/web-contents.ts
 * gives it EventEmitter's prototype): any number of listeners per event, on/once/off.
 */
export class FakeWebContents extends EventEmitter {
  static lastId = 0
  readonly mainFrame = { url: 'app://tuneshelf/index.html' }
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined
  readonly id = ++FakeWebContents.lastId
  private destroyed = false
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler
  }
  isDestroyed() {
    return this.destroyed
  }
  send = vi.fn()

  /**
   * A frame starts navigating to url, told as shell/browser/api/electron_api_web_contents.cc
   * (WebContents::EmitNavigationEvent) tells it: first an Event carrying the details
   * (docs/api/web-contents.md, "Event: 'did-start-navigation'", Electron 45), then the deprecated
   * positional url, isSameDocument, isMainFrame, frameProcessId, frameRoutingId. Same-document
   * navigations are told too: history.pushState/replaceState (vue-router's hash history) and
   * fragment changes.
   */
  startNavigation(url: string, { isSameDocument, isMainFrame = true }: { isSameDocument: boolean; isMainFrame?: boolean }) {
    const frame = isMainFrame ? this.mainFrame : { url: 'about:blank' }
    const routingId = isMainFrame ? 1 : 2
    let defaultPrevented = false
    const details = {
      preventDefault: () => void (defaultPrevented = true),
      get defaultPrevented() {
        return defaultPrevented
      },
      url,
      isSameDocument,
      isMainFrame,
      processId: 1,
      routingId,
      frame,
      initiator: frame,
    }
    this.emit('did-start-navigation', details, url, isSameDocument, isMainFrame, 1, routingId)
  }

  /** The window's page is gone for good: isDestroyed() from now on, then 'destroyed' (WebContents::WebContentsDestroyed). */
  destroy() {
    this.destroyed = true
    this.emit('destroyed')
  }
}

/**
 * A native notification. Electron delivers its events to the JS object only while that object is
 * alive: once it is garbage-collected, a click on what the system still shows is lost
 * (docs/api/notification.md, Notification.handleActivation: "Notification object was garbage
 * collected"; electron/electron#16922, #12690). So the system's side here holds what it shows only
 * weakly, and a system click reaches the object only if the app still holds it.
 */
export class FakeNotification extends EventEmitter {
  static isSupported = () => true
  /** What the system was asked to show, in order: the options, and the object weakly. */
  static shown: { options: NotificationConstructorOptions | undefined; notification: WeakRef<FakeNotification> }[] = []
  constructor(readonly options?: NotificationConstructorOptions) {
    super()
  }
  show() {
    FakeNotification.shown.push({ options: this.options, notification: new WeakRef(this) })
  }
  /** What the system does with the index-th notification shown; whether it reached the object (it was still alive). */
  private static tell(index: number, ...event: unknown[]): boolean {
    const notification = FakeNotification.shown[index]?.notification.deref()
    notification?.emit(...(event as [string, ...unknown[]]))
    return notification !== undefined
  }
  /** The user clicks it ('click': an Event). */
  static click(index: number): boolean {
    return FakeNotification.tell(index, 'click', {})
  }
  /** The user (or a timeout) closes it ('close': an Event with the reason on Windows). */
  static close(index: number): boolean {
    return FakeNotification.tell(index, 'close', { reason: 'userCanceled' })
  }
  /** The system could not show it ('failed': an Event and the error, macOS and Windows). */
  static fail(index: number): boolean {
    return FakeNotification.tell(index, 'failed', {}, 'the notification could not be shown')
  }
}
export const electron = (() => {
  const appListeners = new Map<string, Listener[]>()

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
    readonly restore = vi.fn()
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
    // Electron refuses a relative path (shell/browser/api/electron_api_app.cc, App::SetPath).
    setPath: vi.fn((_name: string, where: string) => {
      if (!path.isAbsolute(where)) throw new Error('Path must be absolute')
    }),
    setAppUserModelId: vi.fn(),
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
  const dialog = { showErrorBox: vi.fn(), showOpenDialog: vi.fn(async () => ({ canceled: true, filePaths: [] })) }
  // Given its implementation below (FakeUtilityProcess).
  const utilityProcess = { fork: vi.fn() }
  const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] }

  function reset() {
    appListeners.clear()
    FakeBrowserWindow.instances = []
    FakeNotification.shown = []
    ipcMain.handlers.clear()
    protocol.handlers.clear()
    app.singleInstance = true
  }

  return { app, BrowserWindow: FakeBrowserWindow, ipcMain, protocol, session: { defaultSession }, shell, Menu, Notification: FakeNotification, dialog, screen, utilityProcess, reset }
})()

/** The host's script is started with this beside tsx: Electron's process.parentPort, and no process.send. */
const PARENT_PORT = fileURLToPath(new URL('./parent-port.ts', import.meta.url))

/**
 * Electron's utility process (lib/browser/api/utility-process.ts, shell/browser/api/electron_api_utility_process.cc,
 * docs/api/utility-process.md) as a forked Node process running the same script from the sources:
 *
 * - the script has `process.parentPort` and no `process.send` (./parent-port.ts), as in Electron;
 * - `pid` is undefined until 'spawn', and again once it has exited;
 * - stdout and stderr are streams of their own fed from the pipes, and Electron takes every listener off
 *   them (and drops them) as it emits 'exit'. Its output is read on a socket of its own, in no set order
 *   with the exit (which comes over Mojo): here the exit overtakes the last output, the worst case;
 * - 'exit' gives a number: the exit code, or the signal's number for a process a signal ended, 0 after kill();
 * - kill() sends SIGTERM, then SIGKILL if it is still there after 2 s (base::EnsureProcessTerminated);
 * - fatalError() is a fatal V8 error in it: 'error' (type, location, report), then it crashes.
 */
class FakeUtilityProcess extends EventEmitter {
  private child: ChildProcess | null
  private spawned = false
  private killed = false
  private out: PassThrough | null = null
  private err: PassThrough | null = null

  constructor(script: string, args: string[], options: { stdio?: string }) {
    super()
    if (options.stdio === 'pipe') {
      this.out = new PassThrough()
      this.err = new PassThrough()
    }
    const child = fork(script, args, { execArgv: ['--import', TSX, '--import', PARENT_PORT], serialization: 'advanced', stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
    this.child = child
    for (const [from, to] of [[child.stdout!, this.out], [child.stderr!, this.err]] as const) {
      if (!to) {
        from.resume()
        continue
      }
      // Later than the exit: see above.
      from.on('data', (chunk: Buffer) => setTimeout(() => to.write(chunk), OUTPUT_LAG_MS))
      from.on('end', () => setTimeout(() => to.end(), OUTPUT_LAG_MS))
    }
    child.once('spawn', () => {
      this.spawned = true
      this.emit('spawn')
    })
    child.on('message', (message) => this.emit('message', message))
    child.once('exit', (code, signal) => {
      // A process that kill() ended exited gracefully to Electron (UtilityProcessWrapper::HandleTermination).
      const exitCode = code ?? (this.killed && (signal === 'SIGTERM' || signal === 'SIGKILL') ? 0 : os.constants.signals[signal!])
      try {
        this.emit('exit', exitCode)
      } finally {
        this.child = null
        for (const stream of [this.out, this.err]) stream?.removeAllListeners()
        this.out = null
        this.err = null
      }
    })
  }

  get pid(): number | undefined {
    return this.spawned && this.child ? this.child.pid : undefined
  }

  get stdout(): PassThrough | null {
    return this.out
  }

  get stderr(): PassThrough | null {
    return this.err
  }

  postMessage(message: unknown): void {
    if (this.child?.connected) this.child.send(message as never)
  }

  kill(): boolean {
    // Nothing to kill before 'spawn' or after 'exit' (UtilityProcessWrapper::Kill: no pid).
    const child = this.child
    if (!child || this.pid === undefined) return false
    this.killed = child.kill('SIGTERM')
    setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'), 2000).unref()
    return this.killed
  }

  /** A fatal V8 error in the process (UtilityProcessWrapper::OnV8FatalError), which then crashes (node_service.cc). */
  fatalError(location = 'v8::internal::Heap::FatalProcessOutOfMemory'): void {
    this.emit('error', 'FatalError', location, '{"header":{"event":"Allocation failed - JavaScript heap out of memory"}}')
    this.child?.kill('SIGKILL')
  }
}

/** How much later than the exit the stand-in's last output comes (see FakeUtilityProcess). */
const OUTPUT_LAG_MS = 50

electron.utilityProcess.fork.mockImplementation(
  (script: string, args: string[] = [], options: { stdio?: string } = {}) => new FakeUtilityProcess(script, args, options),
)

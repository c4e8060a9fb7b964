// Electron glue, kept apart from index.ts so that a test can drive it with a
// mocked 'electron' module. The application itself lives in core/ (run by the
// core's host in a utility process: core/host/) and ipc/ (routing the contract).
import path from 'node:path'
import { BrowserWindow, Menu, app, dialog, ipcMain, protocol, session as electronSession } from 'electron'
import { desktopDataDir } from '../core/files/data-folders'
import type { Disposable } from '../core/base/events'
import { CoreClient } from '../main-process/core-client'
import type { LaunchOptions } from '../core/host/messages'
import type { ServiceInfo } from '../core/shared/types'
import { createLog, type Log } from '../core/base/log'
import { toTuneshelfError } from '../core/shared/errors'
import { createDispatch } from '../main-process/dispatch'
import { registerIpc } from './ipc'
import { mediaResponse } from '../main-process/media'
import { windowHandlers } from '../main-process/window-handlers'
import { applicationMenu } from './app-menu'
import { appResponse } from './app-protocol'
import { notifyOnCompletion, showNotification, showWhatsNew } from './notifications'
import { electronPlatform } from './platform'
import { APP_PAGE_URL, APP_SCHEME, MEDIA_SCHEME, PRIVILEGED_SCHEMES, appUrlTest, denyPermissions, hardenWebContents } from './security'
import { utilityHost } from './utility-host'
import { rememberWindowPlace, savedWindowPlace } from './window-state'

/** Where the main window finds its preload, its page and its icon. */
export interface MainWindowOptions {
  /** Absolute path of the built (CommonJS) preload script. */
  preloadPath: string
  /** The renderer's dev server address; when set it is loaded instead of the built page. */
  rendererUrl?: string | undefined
  /** Absolute path of the built renderer's index.html: its folder is what app:// serves, and nothing else. */
  rendererFile: string
  /** Window icon; Linux needs it, macOS and Windows take the packaged one. */
  icon?: string | undefined
}

export interface BootstrapOptions extends MainWindowOptions {
  /** The data folder (by default the desktop app's, core/files/data-folders.ts: Electron's userData for Tuneshelf). */
  dataDir?: string
  /** Absolute path of the built core host (core-host.js), started as a utility process. */
  hostScript: string
  /** What the core's host is started with besides the data folder and the demo's port (tests start a small demo). */
  hostOptions?: Pick<LaunchOptions, 'demo'>
}

/** The app's id on Windows: electron-builder.yml's appId, which the installer gives the app's shortcut. */
export const APP_USER_MODEL_ID = 'app.tuneshelf.desktop'

/** The demo catalogue's preferred port on 127.0.0.1, so its cached addresses stay valid between runs. */
const DEMO_PORT = 47811

// Registered before the app is ready, as Electron requires: the window's app:// and the media protocol.
protocol.registerSchemesAsPrivileged(PRIVILEGED_SCHEMES)

/** Opens the one application window: sandboxed, context-isolated, no Node, web security on, where it was last time. */
export function createMainWindow(
  options: MainWindowOptions & { dataDir: string; isAppUrl: (url: string) => boolean; /** The screen to open on (the router's hash path). */ route?: string },
): BrowserWindow {
  const place = savedWindowPlace(options.dataDir)
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    ...(place.bounds ?? {}),
    minWidth: 800,
    minHeight: 600,
    show: false,
    title: 'Tuneshelf',
    ...(options.icon === undefined ? {} : { icon: options.icon }),
    webPreferences: {
      preload: options.preloadPath, // eng-disable PRELOAD_JS_CHECK -- the preload exposes exactly the contract's channels and nothing of Node or Electron (test/main/main-process/preload.test.ts)
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
      // A middle click must not open a window either (new windows are denied anyway).
      disableBlinkFeatures: 'Auxclick',
    },
  })
  hardenWebContents(window.webContents, options.isAppUrl)
  window.once('ready-to-show', () => {
    if (place.maximized) window.maximize()
    window.show()
  })
  rememberWindowPlace(window, options.dataDir)
  // Never a file:// page, where the CSP's 'self' would be every local file, downloads included.
  void window.loadURL(`${options.rendererUrl || APP_PAGE_URL}${options.route === undefined ? '' : `#${options.route}`}`)
  return window
}

/**
 * Wires the app's life cycle: one instance, the session over the data folder
 * (the demo catalogue when no service is set), the IPC contract, the media
 * protocol, the menu, notifications, and a graceful quit. Resolves with the
 * main window, or undefined when another instance already runs.
 */
export async function bootstrap(options: BootstrapOptions): Promise<BrowserWindow | undefined> {
  // One data folder for the window, Chromium's profile and the single-instance lock, and the same one
  // `npm start` serves in a browser where there is no Electron binary; it must be set before the lock.
  // Electron takes only an absolute path (setPath throws otherwise): TUNESHELF_DATA_DIR=profile is the current folder's.
  const dataDir = path.resolve(options.dataDir ?? desktopDataDir())
  app.setPath('userData', dataDir)
  // Windows shows a toast only for an app whose id is that of a Start-menu shortcut: the installer's.
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID)
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return undefined
  }
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  await app.whenReady()

  const log = createLog(path.join(dataDir, 'tuneshelf.log'))
  log.info('starting', { version: app.getVersion(), electron: process.versions.electron, platform: process.platform })
  denyPermissions(electronSession.defaultSession)
  const isAppUrl = appUrlTest(options)
  // The window's own files need nothing of the core: served from the start.
  const rendererDir = path.dirname(options.rendererFile)
  protocol.handle(APP_SCHEME, (request) => appResponse(rendererDir, request))

  let core: CoreClient
  try {
    const launch = utilityHost(options.hostScript, { ...options.hostOptions, dataDir, demoPort: DEMO_PORT }, (line) => log.warn('core', { line }))
    core = await CoreClient.start({ launch })
  } catch (error) {
    const failure = toTuneshelfError(error)
    log.error('could not open the catalogue', { code: failure.code, message: failure.message })
    dialog.showErrorBox('Tuneshelf cannot start', failure.message)
    app.exit(1)
    return undefined
  }
  const { snapshot: started } = await core.snapshot()
  log.info('core started', { pid: core.pid, service: started.service.baseUrl })
  const disposables: Disposable[] = [logEvents(core, log, started.service)]

  let window: BrowserWindow | undefined
  const platform = electronPlatform({ logFile: log.file, window: () => window })
  protocol.handle(MEDIA_SCHEME, (request) => mediaResponse(core, request))
  disposables.push(
    registerIpc({
      ipcMain,
      dispatch: createDispatch(core, windowHandlers(core, platform, dataDir)),
      session: core,
      isAppUrl,
      onRefused: (channel, url) => log.warn('refused a call from a page that is not the app', { channel, url }),
    }),
  )
  Menu.setApplicationMenu(applicationMenu({ logFile: log.file, dataDir, development: options.rendererUrl !== undefined }))

  const open = (route?: string): BrowserWindow => {
    window = createMainWindow({ ...options, dataDir, isAppUrl, route })
    return window
  }
  disposables.push(
    notifyOnCompletion({
      session: core,
      service: started.service,
      windowFocused: () => window?.isFocused() === true,
      show: showNotification,
      // A window open now is sent there; a new one (none was open: macOS keeps the app without one) opens there,
      // since a route sent before its page subscribed would be lost.
      openWhatsNew: () => (window && !window.isDestroyed() ? showWhatsNew(window) : void open('/whats-new')),
    }),
  )
  app.on('second-instance', () => {
    if (!window || window.isDestroyed()) return void open()
    if (window.isMinimized()) window.restore()
    window.focus()
  })
  app.on('activate', () => {
    // macOS keeps the app running without windows; clicking the dock icon reopens one.
    if (BrowserWindow.getAllWindows().length === 0) open()
  })

  // Quitting waits for the core: transfers paused with their bytes, the cache closed, the demo stopped.
  let closed = false
  app.on('before-quit', (event) => {
    if (closed) return
    event.preventDefault()
    closed = true
    for (const disposable of disposables.splice(0)) disposable.dispose()
    core
      .close()
      .catch((error: unknown) => log.error('closing the core failed', { message: (error as Error).message }))
      .finally(() => {
        log.info('stopped')
        app.quit()
      })
  })
  return open()
}

/** What the log keeps of the session: syncs, download outcomes, notices with their codes. */
function logEvents(core: CoreClient, log: Log, startedWith: ServiceInfo): Disposable {
  let syncing = false
  let service = startedWith
  return core.onDidEmit((event) => {
    switch (event.type) {
      case 'sync-state':
        if (event.state.status === 'running' && !syncing) log.info('sync started', { service: service.baseUrl })
        if (event.state.status === 'idle' && syncing) {
          if (event.state.lastError) log.error('sync failed', { code: event.state.lastError.code, message: event.state.lastError.message })
          else log.info('sync ended', { lastRun: event.state.lastRun })
        }
        syncing = event.state.status !== 'idle'
        return
      case 'downloads-changed':
        for (const download of event.downloads) {
          if (download.state === 'completed') log.info('download completed', { id: download.id, uploadId: download.uploadId, file: download.targetPath })
          if (download.state === 'failed') log.error('download failed', { id: download.id, uploadId: download.uploadId, message: download.error })
        }
        return
      case 'queue-paused':
        return log.warn('downloads paused', { message: event.message })
      case 'service':
        service = event.service
        return log.info('service switched', { service: event.service.baseUrl, demo: event.service.demo })
      case 'notice':
        return log.warn(event.message, { code: event.error?.code })
      default:
        return
    }
  })
}

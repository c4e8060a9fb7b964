// Electron glue, kept apart from index.ts so that a test can drive it with a
// mocked 'electron' module. The application itself lives in core/.
import { app, BrowserWindow, shell } from 'electron'
import { startCatalogueService, type RunningCatalogueService } from './core/demo/index'

/** Where the main window finds its preload, its page and its icon. */
export interface MainWindowOptions {
  /** Absolute path of the built (CommonJS) preload script. */
  preloadPath: string
  /** The renderer's dev server address; when set it is loaded instead of rendererFile. */
  rendererUrl?: string | undefined
  /** Absolute path of the built renderer's index.html. */
  rendererFile: string
  /** Window icon; Linux needs it, macOS and Windows take the packaged one. */
  icon?: string | undefined
}

/** Opens the one application window, sandboxed and context-isolated. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Tuneshelf',
    autoHideMenuBar: true,
    ...(options.icon === undefined ? {} : { icon: options.icon }),
    webPreferences: {
      preload: options.preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  })

  window.once('ready-to-show', () => window.show())

  // Links that would open a new window go to the user's browser instead, and
  // only when they are web addresses.
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isWebAddress(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  // The window never navigates away from the app's own page.
  window.webContents.on('will-navigate', (event, url) => {
    if (url !== window.webContents.getURL()) event.preventDefault()
  })

  if (options.rendererUrl) {
    void window.loadURL(options.rendererUrl)
  } else {
    void window.loadFile(options.rendererFile)
  }
  return window
}

/**
 * Wires the app's life cycle: the main window once Electron is ready, the
 * built-in demo catalogue beside it, and the catalogue closed before quitting.
 * Resolves with the main window.
 */
export async function bootstrap(options: MainWindowOptions): Promise<BrowserWindow> {
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  await app.whenReady()

  const catalogue = startDemoCatalogue()
  let catalogueClosed = false
  app.on('will-quit', (event) => {
    if (catalogueClosed) return
    // Hold the quit until the demo service has let go of its port.
    event.preventDefault()
    catalogueClosed = true
    void catalogue
      .then((service) => service?.close())
      .catch((error: unknown) => console.error('Tuneshelf: closing the demo catalogue failed', error))
      .finally(() => app.quit())
  })

  app.on('activate', () => {
    // macOS keeps the app running without windows; clicking the dock icon reopens one.
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow(options)
  })

  return createMainWindow(options)
}

/** Starts the built-in demo catalogue; a failure is logged and leaves the app running. */
async function startDemoCatalogue(): Promise<RunningCatalogueService | undefined> {
  try {
    const service = await startCatalogueService({ port: 0 })
    console.info(`Tuneshelf: demo catalogue on ${service.baseUrl}`)
    return service
  } catch (error) {
    console.error('Tuneshelf: the demo catalogue did not start', error)
    return undefined
  }
}

function isWebAddress(url: string): boolean {
  try {
    const { protocol } = new URL(url)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

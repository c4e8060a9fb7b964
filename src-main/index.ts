// Electron entry point: only wiring. Everything testable lives in electron/
// (Electron glue, bootstrap.ts first) and core/ (the application, plain Node).
// First: refuses an old Node.js with one line (Electron's own is always recent enough; this keeps every entry alike).
import './core/startup/node-check'
import { join } from 'node:path'
import { app } from 'electron'
import icon from '../resources/icon.png?asset'
import { bootstrap } from './electron/bootstrap'

bootstrap({
  preloadPath: join(import.meta.dirname, '../preload/index.cjs'),
  // The core's host, built beside this file (electron.vite.config.ts), runs as a utility process.
  hostScript: join(import.meta.dirname, 'core-host.js'),
  rendererUrl: app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'],
  rendererFile: join(import.meta.dirname, '../renderer/index.html'),
  icon: process.platform === 'linux' ? icon : undefined,
  // A data folder of one's own (tests, a second profile); Electron's userData otherwise.
  dataDir: process.env['TUNESHELF_DATA_DIR'] || undefined,
}).catch((error: unknown) => {
  console.error('Tuneshelf: start-up failed', error)
  app.exit(1)
})

// An app of the test's own: its own demo catalogue service and its own `npm run web`
// over its own data folder, for tests that change the service, stop the demo or
// need a cache whose every sync they control (the shared bridge is left alone).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { URL } from 'node:url'
import { startCatalogueService, type CatalogueServiceOptions, type RunningCatalogueService } from '../../../src-main/demo/index'
import { startWebBridge, type RunningWebBridge } from './web-bridge'

export interface IsolatedAppOptions {
  /** The demo catalogue (small by default: a sync takes about a second). */
  catalogue?: Omit<CatalogueServiceOptions, 'port'>
  /** Runs on the demo before the bridge starts (and its first sync with it): remove an artist, add a fault. */
  beforeStart?: (demo: RunningCatalogueService) => void
}

export interface IsolatedApp {
  /** The demo service now running (another object after restartDemo). */
  demo: RunningCatalogueService
  bridge: RunningWebBridge
  dataDir: string
  /** The address that opens a screen of the app, e.g. url('settings'). */
  url(screen?: string): string
  /** Stops the demo service, as a network that goes away. */
  stopDemo(): Promise<void>
  /** Starts the same catalogue again on the same port, with the changes made to it. */
  restartDemo(): Promise<void>
  /** Stops the bridge (as Ctrl-C), then the demo, and removes the data folder. */
  close(): Promise<void>
}

export const SMALL_CATALOGUE = { artists: 60, seed: 11, maxFileMb: 2 } as const

/** Starts a demo service and `npm run web` pointed at it over a fresh data folder. */
export async function startIsolatedApp(options: IsolatedAppOptions = {}): Promise<IsolatedApp> {
  const catalogue = { ...SMALL_CATALOGUE, ...options.catalogue }
  let demo = await startCatalogueService(catalogue)
  let running = true
  const port = Number(new URL(demo.baseUrl).port)
  options.beforeStart?.(demo)
  const dataDir = await mkdtemp(join(tmpdir(), 'tuneshelf-e2e-own-'))
  let bridge: RunningWebBridge
  try {
    bridge = await startWebBridge({ baseUrl: demo.baseUrl, dataDir })
  } catch (error) {
    await demo.close()
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
  const app: IsolatedApp = {
    get demo() {
      return demo
    },
    bridge,
    dataDir,
    url: (screen) => (screen ? `${bridge.url}#/${screen}` : bridge.url),
    stopDemo: async () => {
      if (!running) return
      running = false
      await demo.close()
    },
    restartDemo: async () => {
      if (running) return
      // The same catalogue, with every change the test made to it (new uploads, edits).
      demo = await startCatalogueService({ ...catalogue, port, resume: demo })
      running = true
    },
    close: async () => {
      const code = await bridge.stop()
      if (running) await demo.close()
      await rm(dataDir, { recursive: true, force: true })
      if (code !== 0) throw new Error(`npm run web exited with ${code}; stderr:\n${bridge.stderr()}`)
    },
  }
  return app
}

// An app of a test's own: `npm run web` over a fresh data folder, pointed at a demo
// catalogue of its own (made to order, and free to stop) or at an address nobody answers.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startCatalogueService, type CatalogueServiceOptions, type RunningCatalogueService } from '../../../src-main/demo/index'
import { startWebBridge, type RunningWebBridge } from './web-bridge'

export interface PrivateApp {
  /** The app's own demo; undefined when it points at a service that does not answer. */
  demo: RunningCatalogueService | undefined
  bridge: RunningWebBridge
  /** Stops the app as a user does, then the demo, and deletes the data folder. */
  close(): Promise<void>
}

/** Starts a demo made with these options (or none: the app then points at a closed port) and the app over it. */
export async function startPrivateApp(catalogue: Omit<CatalogueServiceOptions, 'port'> | 'unreachable'): Promise<PrivateApp> {
  const demo = catalogue === 'unreachable' ? undefined : await startCatalogueService(catalogue)
  const dataDir = await mkdtemp(join(tmpdir(), 'tuneshelf-e2e-private-'))
  // Port 9 (discard) on loopback: nothing listens there, so every request is refused at once.
  const baseUrl = demo?.baseUrl ?? 'http://127.0.0.1:9'
  let bridge: RunningWebBridge
  try {
    bridge = await startWebBridge({ baseUrl, dataDir })
  } catch (error) {
    await demo?.close()
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
  return {
    demo,
    bridge,
    close: async () => {
      const code = await bridge.stop()
      await demo?.close()
      await rm(dataDir, { recursive: true, force: true })
      if (code !== 0) throw new Error(`npm run web exited with ${code} on SIGTERM; stderr:\n${bridge.stderr()}`)
    },
  }
}

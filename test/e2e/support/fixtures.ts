// Playwright fixtures shared by the end-to-end specs: the demo catalogue service and
// the app as `npm run web` serves it (the built renderer, its API backed by the core
// library over a fresh data folder), once per worker; and a page object per test.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test as base } from '@playwright/test'
import { startCatalogueService, type CatalogueServiceOptions, type RunningCatalogueService } from '../../../src-main/demo/index'
import { AppPage } from './app-page'
import { startWebBridge, type RunningWebBridge } from './web-bridge'

/** The catalogue the tests browse: small enough to sync in a second or two, with small files. */
export const DEMO_CATALOGUE: Required<Omit<CatalogueServiceOptions, 'port' | 'latencyMs' | 'resume'>> = { artists: 200, seed: 7, maxFileMb: 8 }

interface TestFixtures {
  /** The app's page, not yet opened. */
  app: AppPage
}

interface WorkerFixtures {
  /** The demo catalogue service the app is pointed at (tests may stop or edit it). */
  demo: RunningCatalogueService
  /** `npm run web` over a temporary data folder, pointed at the demo. */
  bridge: RunningWebBridge
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  demo: [
    // Playwright reads the fixtures a function needs from its destructuring, so the empty pattern stays.
    async ({}, use) => {
      const service = await startCatalogueService(DEMO_CATALOGUE)
      await use(service)
      await service.close()
    },
    { scope: 'worker' },
  ],

  bridge: [
    async ({ demo }, use) => {
      const dataDir = await mkdtemp(join(tmpdir(), 'tuneshelf-e2e-'))
      // It builds the renderer first if out/renderer is missing or older than its sources.
      const bridge = await startWebBridge({ baseUrl: demo.baseUrl, dataDir })
      await use(bridge)
      // Stopped as a user stops it (Ctrl-C): the session closes gracefully and the process exits 0.
      const code = await bridge.stop()
      await rm(dataDir, { recursive: true, force: true })
      if (code !== 0) throw new Error(`npm run web exited with ${code} on SIGTERM; stderr:\n${bridge.stderr()}`)
    },
    { scope: 'worker', timeout: 180_000 },
  ],

  app: async ({ page, bridge }, use) => {
    await use(new AppPage(page, bridge.url))
  },
})

export { expect } from '@playwright/test'

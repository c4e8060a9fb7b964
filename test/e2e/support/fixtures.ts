// Playwright fixtures shared by the end-to-end specs: the built renderer served
// over http once per worker, and a page object per test.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { test as base } from '@playwright/test'
import { AppPage } from './app-page'
import { rendererDir, startStaticServer } from './static-server'

interface TestFixtures {
  /** The app's page, not yet opened. */
  app: AppPage
}

interface WorkerFixtures {
  /** Base address of the static server that serves out/renderer/. */
  rendererUrl: string
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  rendererUrl: [
    // Playwright reads the fixtures a function needs from its destructuring, so the empty pattern stays.
    async ({}, use) => {
      if (!existsSync(join(rendererDir, 'index.html'))) {
        throw new Error(
          `No built renderer in ${rendererDir}: run \`npm run build\` first (\`npm run test:e2e\` does).`,
        )
      }
      const server = await startStaticServer(rendererDir)
      await use(server.url)
      await server.close()
    },
    { scope: 'worker' },
  ],

  app: async ({ page, rendererUrl }, use) => {
    await use(new AppPage(page, `${rendererUrl}/index.html`))
  },
})

export { expect } from '@playwright/test'

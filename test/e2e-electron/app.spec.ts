// The packaged app itself, driven through Playwright's Electron support. It
// needs the Electron binary and a display; without the binary it skips.
import { fileURLToPath } from 'node:url'
import { _electron as electron, expect, test } from '@playwright/test'
import { AppPage } from '../e2e/support/app-page'
import { findElectronBinary } from './support/electron-binary'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const binary = findElectronBinary()
const noDisplay =
  process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY']
    ? 'there is no display (DISPLAY is unset), so the Electron suite is skipped; run it under xvfb-run'
    : undefined
const skipReason = binary.missing ?? noDisplay

if (skipReason !== undefined) console.warn(`[electron] skipped: ${skipReason}`)
test.skip(skipReason !== undefined, skipReason)

test('opens the main window on the built renderer, sandboxed', async () => {
  const runningAsRoot = process.getuid?.() === 0
  const app = await electron.launch({
    executablePath: binary.path,
    cwd: projectRoot,
    // Chromium refuses to start as root with its OS sandbox on (CI containers run as root).
    args: ['.', ...(runningAsRoot ? ['--no-sandbox'] : [])],
  })
  try {
    const page = await app.firstWindow()
    const appPage = new AppPage(page, page.url())

    await expect(appPage.heading).toBeVisible()
    await expect(appPage.runtimeNote).toContainText('Electron')
    // The renderer sees the preload's API and nothing of Node.
    const exposed = await page.evaluate(() => {
      const scope = globalThis as { api?: { platform?: unknown }; require?: unknown; process?: unknown }
      return { platform: typeof scope.api?.platform, require: typeof scope.require, process: typeof scope.process }
    })
    expect(exposed).toEqual({ platform: 'string', require: 'undefined', process: 'undefined' })

    await appPage.screenshot('electron-home')
  } finally {
    await app.close()
  }
})

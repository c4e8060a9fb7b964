// Page object for the renderer: selectors live here, specs read as steps.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'

/** Where screenshots go, to be looked at by a person (test-results/screenshots). */
export const screenshotDir = join(import.meta.dirname, '../../../test-results/screenshots')

/** The Tuneshelf window, as a user sees it. */
export class AppPage {
  /** Uncaught errors and console errors seen since the page object was made. */
  readonly errors: string[] = []

  constructor(
    readonly page: Page,
    /** The address that opens the app: the one `npm run web` prints, token included. */
    readonly url: string,
  ) {
    page.on('pageerror', (error) => this.errors.push(`pageerror: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() !== 'error') return
      const { url } = message.location()
      this.errors.push(`console: ${message.text()}${url ? ` (${url})` : ''}`)
    })
  }

  /** Opens the app's first screen. */
  async open(): Promise<void> {
    await this.page.goto(this.url)
  }

  /** Saves a full-page screenshot as test-results/screenshots/<name>.png and returns its path. */
  async screenshot(name: string): Promise<string> {
    await mkdir(screenshotDir, { recursive: true })
    const path = join(screenshotDir, `${name}.png`)
    await this.page.screenshot({ path, fullPage: true })
    return path
  }
}

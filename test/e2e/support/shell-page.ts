// Page object for the app's shell: the navigation, the sync status, the offline
// banner, the messages, the skip link, the scroll of the content and the state of
// a stopped bridge; and the helpers every screen's check
// uses (open a screen, a screenshot of the whole screen, axe, focus rings).
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, type Locator, type Page } from '@playwright/test'
import { screenshotDir } from './app-page'

/** The screens, by the name their screenshots and routes use. */
export type ScreenName = 'artists' | 'artist' | 'downloads' | 'tiers' | 'whats-new' | 'settings'

/** The main navigation's links, in order. */
export const NAV_LINKS = ['Artists', "What's new", 'Downloads', 'Tiers', 'Settings'] as const

export class ShellPage {
  constructor(
    readonly page: Page,
    /** The address that opens the app (token included), without a hash. */
    readonly baseUrl: string,
  ) {}

  /** Opens a route, e.g. 'settings' or 'artists/someone', and waits for the shell to be drawn. */
  async open(route: string): Promise<void> {
    // The page takes the token out of its address once read, so once open, a screen is a change
    // of hash (as a click in the app is), not a reload that would forget its messages and state.
    if (new URL(this.page.url()).origin === new URL(this.baseUrl).origin) {
      await this.page.evaluate((hash) => {
        window.location.hash = hash
      }, `#/${route}`)
    } else {
      await this.page.goto(`${this.baseUrl}#/${route}`)
    }
    await expect(this.nav).toBeVisible()
  }

  get nav(): Locator {
    return this.page.getByRole('navigation', { name: 'Main' })
  }

  navLink(name: (typeof NAV_LINKS)[number]): Locator {
    return this.nav.getByRole('link', { name, exact: true })
  }

  get skipLink(): Locator {
    return this.page.getByRole('link', { name: 'Skip to content' })
  }

  get content(): Locator {
    return this.page.locator('main#content')
  }

  get syncStatus(): Locator {
    return this.page.getByTestId('sync-status')
  }

  get syncNow(): Locator {
    return this.syncStatus.getByRole('button', { name: 'Sync now' })
  }

  get cancelSync(): Locator {
    return this.syncStatus.getByRole('button', { name: 'Cancel sync' })
  }

  /** The button a "Cancel sync" turns into while it can be taken back. */
  get keepSyncing(): Locator {
    return this.syncStatus.getByRole('button', { name: 'Keep syncing' })
  }

  get syncProgress(): Locator {
    return this.syncStatus.getByRole('progressbar', { name: 'Sync progress' })
  }

  get offlineBanner(): Locator {
    return this.page.getByTestId('offline-banner')
  }

  /**
   * From now on, counts each time the offline banner comes on screen, however briefly (a look
   * now and then would miss one that came and went); the function returns the count so far.
   */
  async countOfflineBanners(): Promise<() => Promise<number>> {
    await this.page.evaluate(() => {
      const seen = { count: 0, shown: false }
      const look = (): void => {
        const shown = document.querySelector('[data-testid="offline-banner"]') !== null
        if (shown && !seen.shown) seen.count++
        seen.shown = shown
      }
      look()
      new MutationObserver(look).observe(document.body, { childList: true, subtree: true })
      ;(window as unknown as { offlineBanners: typeof seen }).offlineBanners = seen
    })
    return () => this.page.evaluate(() => (window as unknown as { offlineBanners: { count: number } }).offlineBanners.count)
  }

  /** The messages region (errors and notes). */
  get messages(): Locator {
    return this.page.getByRole('region', { name: 'Messages' })
  }

  /** One message, by (part of) its title. */
  message(title: string | RegExp): Locator {
    return this.messages.locator('.notice').filter({ has: this.page.locator('.title', { hasText: title }) })
  }

  /** "and K more messages": the older errors folded away. */
  get foldedMessages(): Locator {
    return this.page.getByTestId('notices-folded')
  }

  /** The full-width state of a window whose `npm run web` stopped. */
  get bridgeStopped(): Locator {
    return this.page.getByTestId('bridge-stopped')
  }

  /** The screen's heading (h1). */
  get heading(): Locator {
    return this.content.getByRole('heading', { level: 1 })
  }

  /** How far the content is scrolled, in pixels. */
  async contentScrollTop(): Promise<number> {
    return this.content.evaluate((main) => main.scrollTop)
  }

  /** Scrolls the content to top (as far as it goes) and says where it got. */
  async scrollContentTo(top: number): Promise<number> {
    return this.content.evaluate((main, to) => {
      main.scrollTop = to
      return main.scrollTop
    }, top)
  }

  /** A press of the mouse's back (3) or forward (4) button, as the window hears it. */
  async mouseButton(button: 3 | 4): Promise<void> {
    await this.page.evaluate((which) => {
      const target = document.querySelector('main#content') ?? document.body
      for (const type of ['mousedown', 'mouseup']) target.dispatchEvent(new MouseEvent(type, { button: which, bubbles: true, cancelable: true }))
    }, button)
  }

  /**
   * Shows messages as the app's own code does (the notices store, through the app's Pinia): what the
   * message area does with many is the shell's to test, whatever made them.
   */
  async showMessages(kind: 'error' | 'note', titles: string[]): Promise<void> {
    await this.page.evaluate(
      ({ kind, titles }) => {
        type Notices = { error(error: unknown, doing?: string): void; note(title: string, message?: string): void }
        const app = (document.querySelector('#app') as unknown as { __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, Notices> } } } } }).__vue_app__
        const notices = app.config.globalProperties.$pinia._s.get('notices')!
        for (const title of titles) {
          if (kind === 'error') notices.error(new Error(`${title} went wrong`), title)
          else notices.note(title, 'a note')
        }
      },
      { kind, titles },
    )
  }

  /** Waits until the status says a sync completed (and none runs). */
  async waitForSynced(timeout = 60_000): Promise<void> {
    await expect(this.syncStatus).toContainText(/Synced/, { timeout })
  }

  /** Runs a sync from the status bar and waits for it to end. */
  async syncAndWait(timeout = 60_000): Promise<void> {
    await this.syncNow.click()
    // Started: the button becomes Cancel while it runs, then comes back; a fast sync may skip the first.
    await expect(this.syncNow).toBeVisible({ timeout })
    await this.waitForSynced(timeout)
  }

  /** The colour theme the page is drawn in (the chosen one, or the system's). */
  async drawnTheme(): Promise<'light' | 'dark'> {
    return this.page.evaluate(() => (getComputedStyle(document.documentElement).colorScheme.includes('dark') ? 'dark' : 'light'))
  }

  /**
   * Saves a screenshot of the whole screen as test-results/screenshots/<name>.png: the
   * window grows to the content's height (the content scrolls inside the shell), then shrinks back.
   */
  async screenshot(name: string): Promise<string> {
    await mkdir(screenshotDir, { recursive: true })
    const path = join(screenshotDir, `${name}.png`)
    const viewport = this.page.viewportSize() ?? { width: 1200, height: 800 }
    // No hover left on whatever the last click was on.
    await this.page.mouse.move(viewport.width - 2, viewport.height - 2)
    const overflow = await this.content.evaluate((main) => main.scrollHeight - main.clientHeight)
    if (overflow > 0) await this.page.setViewportSize({ width: viewport.width, height: Math.min(viewport.height + overflow, 4000) })
    try {
      await this.page.screenshot({ path, animations: 'disabled', caret: 'hide' })
    } finally {
      if (overflow > 0) await this.page.setViewportSize(viewport)
    }
    return path
  }

  /** axe-core's serious and critical violations on the page as it is, one line per element. */
  async seriousViolations(): Promise<string[]> {
    // Legacy mode: axe.run in the page itself. The window has no frames, so the default (a run per frame,
    // then the results merged in a new blank page it opens) checks nothing more, only slower.
    const results = await new AxeBuilder({ page: this.page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).setLegacyMode().analyze()
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .flatMap((violation) =>
        violation.nodes.map((node) => `${violation.impact} ${violation.id}: ${node.target.join(' ')} (${node.failureSummary?.split('\n').slice(1).join(' ').trim() ?? violation.help})`),
      )
  }

  /**
   * Presses Tab up to `limit` times from where focus is, and returns each control reached with
   * whether its focus is visible (an outline or a ring drawn on it or on the label that holds it).
   */
  async tabThrough(limit: number): Promise<{ name: string; visible: boolean }[]> {
    const reached: { name: string; visible: boolean }[] = []
    for (let index = 0; index < limit; index++) {
      await this.page.keyboard.press('Tab')
      const focused = await this.page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null
        if (!element || element === document.body) return null
        const drawn = (target: Element | null): boolean => {
          if (!target) return false
          const style = getComputedStyle(target)
          const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
          return outline || (style.boxShadow !== 'none' && style.boxShadow !== '')
        }
        const name =
          element.getAttribute('aria-label') ||
          (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60) ||
          element.getAttribute('name') ||
          element.id ||
          element.tagName.toLowerCase()
        return { name: `${element.tagName.toLowerCase()} "${name}"`, visible: drawn(element) || drawn(element.closest('label')) }
      })
      if (!focused) break
      reached.push(focused)
    }
    return reached
  }
}

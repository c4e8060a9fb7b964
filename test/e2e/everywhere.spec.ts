// What holds on every screen: browsing from the cache with the service gone (the banner
// saying how old the cache is, a failed sync named by its cause and dismissible), the
// keyboard alone (skip link, navigation, a visible focus on every control), axe-core
// with no serious or critical violation in light and dark, and room enough at 800×600.
import type { Locator, Page } from '@playwright/test'
import type { RunningWebBridge } from './support/web-bridge'
import { expect, test } from './support/fixtures'
import { startIsolatedApp } from './support/isolated-app'
import { NAV_LINKS, ShellPage, type ScreenName } from './support/shell-page'

// The shared demo's first sync, axe and the many screens take their time on a busy machine.
test.describe.configure({ timeout: 120_000 })

/** The first artist of the list (by the default order), for the artist screen. */
async function firstArtist(bridge: RunningWebBridge): Promise<{ username: string; name: string }> {
  const result = await bridge.call('catalogue:list', { offset: 0, limit: 1 })
  if (!result.ok) throw new Error(result.error.message)
  const [artist] = result.value.artists
  return { username: artist!.username, name: artist!.name }
}

/** A screen: its route and its heading's name. */
interface Screen {
  route: string
  heading: string
}

/** Every screen (the artist screen shows the given artist, named by its heading). */
function screens(artist: { username: string; name: string }): Record<ScreenName, Screen> {
  return {
    artists: { route: 'artists', heading: 'Artists' },
    artist: { route: `artists/${encodeURIComponent(artist.username)}`, heading: artist.name },
    downloads: { route: 'downloads', heading: 'Downloads' },
    tiers: { route: 'tiers', heading: 'Tiers' },
    'whats-new': { route: 'whats-new', heading: "What's new" },
    settings: { route: 'settings', heading: 'Settings' },
  }
}

/**
 * Opens a screen and waits until it has drawn what it loads (its own heading, nothing busy); returns
 * its heading, and whether this was a change of screen. Its heading by name: the screens' code loads
 * on first use, and until it is there the screen left stays drawn, heading and all (on a busy machine,
 * long enough for a test to start on the wrong screen).
 */
async function openScreen(shell: ShellPage, { route, heading }: Screen): Promise<{ heading: Locator; changed: boolean }> {
  const changed = new URL(shell.page.url()).hash.split('?')[0] !== `#/${route}`
  await shell.open(route)
  const drawn = shell.content.getByRole('heading', { level: 1, name: heading })
  await expect(drawn).toBeVisible()
  await expect(shell.content.locator('[aria-busy="true"]')).toHaveCount(0)
  return { heading: drawn, changed }
}

async function synced(page: Page, bridge: RunningWebBridge): Promise<ShellPage> {
  const shell = new ShellPage(page, bridge.url)
  await shell.open('artists')
  await shell.waitForSynced()
  return shell
}

test.describe('offline', () => {
  test('with the service gone everything browses from the cache, the banner says how old it is, and it comes back online', async ({ page }) => {
    // The session checks the service every 2 s here (the bridge's test timing; the app: every 30 s).
    test.setTimeout(120_000)
    const own = await startIsolatedApp()
    try {
      const shell = new ShellPage(page, own.url())
      await shell.open('artists')
      await shell.waitForSynced()
      const artist = await firstArtist(own.bridge)
      await expect(shell.offlineBanner).toBeHidden()

      await own.stopDemo()
      // A sync started now fails once its retries run out; the banner comes with the next check.
      await shell.syncNow.click()
      await expect(shell.offlineBanner).toBeVisible({ timeout: 45_000 })
      await expect(shell.offlineBanner).toContainText('Offline.')
      await expect(shell.offlineBanner).toContainText(/the catalogue was synced (just now|\d+ minutes? ago)/)

      // Every screen still shows the cache.
      await shell.navLink('Artists').click()
      await expect(shell.content.getByText(artist.name, { exact: true }).first()).toBeVisible()
      await shell.open(`artists/${encodeURIComponent(artist.username)}`)
      await expect(shell.content.getByRole('heading', { level: 1, name: artist.name })).toBeVisible()
      await shell.navLink("What's new").click()
      // After the first sync alone, What's new shows its newest uploads.
      await expect(page.getByRole('region', { name: 'Newest uploads', exact: true })).toBeVisible()
      await shell.navLink('Downloads').click()
      await expect(shell.content.getByRole('heading', { level: 1, name: 'Downloads' })).toBeVisible()
      await shell.navLink('Tiers').click()
      await expect(shell.content.getByRole('heading', { level: 1, name: 'Tiers' })).toBeVisible()
      await shell.navLink('Settings').click()
      await expect(page.getByTestId('current-service')).toContainText(own.demo.baseUrl)
      await expect(shell.offlineBanner).toBeVisible()

      // The failed sync is a message naming its cause, dismissible.
      const failed = shell.message('Sync: The service cannot be reached')
      await expect(failed).toBeVisible({ timeout: 45_000 })
      await expect(shell.syncStatus).toContainText('Sync failed · last synced')
      await shell.navLink('Artists').click()
      await expect(shell.content.getByText(artist.name, { exact: true }).first()).toBeVisible()
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme })
        expect(await shell.seriousViolations(), `offline, ${theme}`).toEqual([])
        await shell.screenshot(`shell-offline-${theme}`)
      }
      await page.emulateMedia({ colorScheme: 'light' })
      await failed.getByRole('button', { name: 'Dismiss: Sync: The service cannot be reached' }).click()
      await expect(failed).toHaveCount(0)

      // The same catalogue on the same port: online again, and a sync works.
      await own.restartDemo()
      await expect(shell.offlineBanner).toBeHidden({ timeout: 45_000 })
      await shell.syncAndWait()
      await expect(shell.messages.locator('.notice.error')).toHaveCount(0)
    } finally {
      await own.close()
    }
  })
})

test.describe('keyboard only', () => {
  test('the skip link comes first and moves to the content; Tab reaches the navigation and Enter opens each screen, focused on its heading', async ({ page, bridge }) => {
    const shell = await synced(page, bridge)
    await page.reload()
    await expect(shell.nav).toBeVisible()

    await page.keyboard.press('Tab')
    await expect(shell.skipLink).toBeFocused()
    await expect(shell.skipLink).toBeInViewport()
    const before = page.url()
    await page.keyboard.press('Enter')
    await expect(shell.content).toBeFocused()
    // The skip link moves the focus only: the hash router must not read '#content' as a route.
    expect(page.url()).toBe(before)

    await page.reload()
    await expect(shell.nav).toBeVisible()
    await page.keyboard.press('Tab')
    for (const name of NAV_LINKS) {
      await page.keyboard.press('Tab')
      await expect(shell.navLink(name)).toBeFocused()
    }
    // Open each screen with Enter: the focus moves to its heading (a screen reader says where it is).
    const headings: Record<(typeof NAV_LINKS)[number], string> = {
      Artists: 'Artists',
      "What's new": "What's new",
      Downloads: 'Downloads',
      Tiers: 'Tiers',
      Settings: 'Settings',
    }
    for (const name of [...NAV_LINKS].reverse()) {
      await shell.navLink(name).focus()
      await page.keyboard.press('Enter')
      const heading = shell.content.getByRole('heading', { level: 1, name: headings[name] })
      await expect(heading).toBeVisible()
      await expect(shell.navLink(name)).toHaveAttribute('aria-current', 'page')
      // Artists is kept as it was left, so it may keep its own focus (its list); any other screen's heading takes it.
      if (name !== 'Artists') await expect(heading).toBeFocused()
    }
  })

  test('every control of every screen shows where the focus is', async ({ page, bridge }) => {
    const shell = await synced(page, bridge)
    const artist = await firstArtist(bridge)
    for (const [name, screen] of Object.entries(screens(artist))) {
      const { heading, changed } = await openScreen(shell, screen)
      // A change of screen ends by focusing its heading (use-screen-change.ts): Tab starts once it has, as a
      // user's would, not on a screen whose change is still under way (the heading taken mid-way, no control).
      if (changed) await expect(heading).toBeFocused()
      await shell.skipLink.focus()
      await page.keyboard.press('Enter')
      const reached = await shell.tabThrough(40)
      expect.soft(reached.length, `${name}: Tab reaches controls`).toBeGreaterThan(0)
      expect.soft(reached.filter((stop) => !stop.visible).map((stop) => stop.name), `${name}: controls without a visible focus`).toEqual([])
    }
  })
})

test.describe('axe-core', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`no serious or critical violation on any screen, ${theme}`, async ({ page, bridge }) => {
      await page.emulateMedia({ colorScheme: theme })
      const shell = await synced(page, bridge)
      expect(await shell.drawnTheme()).toBe(theme)
      const artist = await firstArtist(bridge)
      for (const [name, screen] of Object.entries(screens(artist))) {
        await openScreen(shell, screen)
        expect.soft(await shell.seriousViolations(), `${name} (${theme})`).toEqual([])
      }
    })
  }
})

test.describe('800×600', () => {
  test('every screen fits the smallest window without scrolling sideways', async ({ page, bridge }) => {
    await page.setViewportSize({ width: 800, height: 600 })
    const shell = await synced(page, bridge)
    const artist = await firstArtist(bridge)
    for (const [name, screen] of Object.entries(screens(artist))) {
      await openScreen(shell, screen)
      const overflow = await page.evaluate(() => {
        const main = document.querySelector('main')!
        return { page: document.documentElement.scrollWidth - window.innerWidth, content: main.scrollWidth - main.clientWidth }
      })
      expect.soft(overflow, `${name} at 800×600`).toEqual({ page: 0, content: 0 })
      await page.screenshot({ path: `test-results/screenshots/small-window/${name}.png` })
    }
  })
})

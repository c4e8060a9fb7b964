import { DEMO_CATALOGUE, expect, test } from './support/fixtures'

/** What the first screen says once the demo catalogue is synced into the bridge's cache. */
const SYNCED = `Web bridge on linux · ${DEMO_CATALOGUE.artists.toLocaleString('en')} artists cached`

test.describe('first screen', () => {
  test('shows the app name and, once the demo is synced, where it runs and how many artists are cached', async ({ app }) => {
    // The note is read when the page opens: a user who opens it during the first sync reloads to see it done.
    await expect(async () => {
      await app.open()
      await expect(app.runtimeNote).toHaveText(SYNCED, { timeout: 2_000 })
    }).toPass({ timeout: 60_000 })

    await expect(app.heading).toBeVisible()
    expect(app.errors).toEqual([])
    await app.screenshot('home')
  })

  test('follows the dark colour scheme', async ({ app, page }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect(async () => {
      await app.open()
      await expect(app.runtimeNote).toHaveText(SYNCED, { timeout: 2_000 })
    }).toPass({ timeout: 60_000 })

    await expect(app.heading).toBeVisible()
    await expect(app.welcomeCard).toHaveCSS('background-color', 'rgb(28, 28, 42)')
    expect(app.errors).toEqual([])
    await app.screenshot('home-dark')
  })
})

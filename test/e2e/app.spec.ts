import { expect, test } from './support/fixtures'

test.describe('first screen', () => {
  test('shows the app name and renders without errors', async ({ app }) => {
    await app.open()

    await expect(app.heading).toBeVisible()
    // Opened in a plain browser, the page has no preload API and says so.
    await expect(app.runtimeNote).toHaveText('Browser preview')
    expect(app.errors).toEqual([])

    await app.screenshot('home')
  })

  test('says which Electron it runs on when the preload API is there', async ({ app, page }) => {
    // Stands in for the preload script, which defines window.api before the page's scripts run.
    await page.addInitScript(() => {
      Object.defineProperty(window, 'api', {
        value: { platform: 'linux', versions: { electron: '40.10.6', chrome: '144.0.0.0', node: '24.11.1' } },
      })
    })
    await app.open()

    await expect(app.runtimeNote).toHaveText('Electron 40.10.6 on linux')
    expect(app.errors).toEqual([])
  })

  test('follows the dark colour scheme', async ({ app, page }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await app.open()

    await expect(app.heading).toBeVisible()
    await expect(app.welcomeCard).toHaveCSS('background-color', 'rgb(28, 28, 42)')
    await app.screenshot('home-dark')
  })
})

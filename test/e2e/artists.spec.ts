// The Artists screen against the demo catalogue: the lists match the service's, the keyboard
// alone gets around, the screen keeps its place, and hostile names stay text.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { screenshotDir } from './support/app-page'
import { ArtistsPage, serviceUsernames } from './support/artists-page'
import { seriousViolations } from './support/axe-check'
import { valueOf, whenSynced } from './support/catalogue-ready'
import { expect, test } from './support/fixtures'
import { startIsolatedApp } from './support/isolated-app'
import { startPrivateApp } from './support/private-app'
import { badgeContrast } from './support/visual-checks'
import { WhatsNewPage } from './support/whats-new-page'

const HOSTILE_NAME = '<img src=x onerror=alert(1)>'

let artists: ArtistsPage
/** Dialogs the page opened: a script smuggled in by a name would open one (alert). */
let dialogs: string[]

test.beforeEach(({ page }) => {
  dialogs = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
})

test.afterEach(({ app }) => {
  expect(dialogs).toEqual([])
  expect(app.errors).toEqual([])
})

test.describe('on the shared demo catalogue', () => {
  test.beforeEach(async ({ page, bridge, app }) => {
    await whenSynced(bridge)
    artists = new ArtistsPage(page, app.url)
    await artists.open()
  })

  test('shows the first rows and the count of artists with tracks, as the service lists them', async ({ demo }) => {
    const expected = await serviceUsernames(demo.baseUrl, {})
    await artists.expectTotal(expected.length)
    // The catalogue has artists without tracks: the default leaves them out, as the service does.
    expect(expected.length).toBeLessThan((await serviceUsernames(demo.baseUrl, { include_blank: 1 })).length)
    const first = artists.row(expected[0]!)
    await expect(first).toBeVisible()
    await expect(first).toContainText(`@${expected[0]}`)
    await expect(first.locator('img, [aria-hidden="true"]').first()).toBeVisible()
    expect((await artists.drawnUsernames()).slice(0, 5)).toEqual(expected.slice(0, 5))
  })

  test('every filter, sort order and reverse lists the same artists in the same order as the service', async ({ demo }) => {
    // Eight cases, each a scroll through the whole list: past 30 s on a busy machine.
    test.setTimeout(90_000)
    const sortBy = (label: string) => async (): Promise<void> => {
      await artists.sort.selectOption({ label })
    }
    const cases: { name: string; set: () => Promise<void>; query: Parameters<typeof serviceUsernames>[1] }[] = [
      { name: 'trending (the default)', set: async () => {}, query: {} },
      { name: 'with artists without tracks', set: () => artists.includeBlank.check(), query: { include_blank: 1 } },
      { name: 'top', set: sortBy('Top'), query: { include_blank: 1, sort: 'top' } },
      { name: 'top reversed', set: () => artists.reverse.click(), query: { include_blank: 1, sort: 'top', sort_r: 1 } },
      { name: 'recently created, reversed', set: sortBy('Recently created'), query: { include_blank: 1, sort: 'recently_created', sort_r: 1 } },
      {
        name: 'recently updated, reversed, podcasts',
        set: async () => {
          await sortBy('Recently updated')()
          await artists.showKind('Podcasts')
        },
        query: { include_blank: 1, sort: 'recently_updated', sort_r: 1, is_podcaster: 1 },
      },
      { name: 'musicians, reversed', set: () => artists.showKind('Musicians'), query: { include_blank: 1, sort: 'recently_updated', sort_r: 1, is_podcaster: 0 } },
      {
        name: 'musicians with tracks, trending',
        set: async () => {
          await artists.includeBlank.uncheck()
          await artists.reverse.click()
          await sortBy('Trending')()
        },
        query: { is_podcaster: 0 },
      },
    ]
    for (const { name, set, query } of cases) {
      await test.step(name, async () => {
        await set()
        const expected = await serviceUsernames(demo.baseUrl, query)
        await artists.expectTotal(expected.length)
        expect(await artists.allUsernames(expected.length)).toEqual(expected)
      })
    }
    await expect(artists.reverse).toHaveAttribute('aria-pressed', 'false')
  })

  test('search as you type finds the service’s artists, in the core’s relevancy order; sort waits, Escape clears', async ({ demo, bridge, page }) => {
    await artists.sort.selectOption({ label: 'Top' })
    await artists.search.click()
    await page.keyboard.type('tides')
    const expected = await serviceUsernames(demo.baseUrl, { q: 'tides' })
    expect(expected.length).toBeGreaterThan(1)
    await artists.expectTotal(expected.length)
    const shown = await artists.allUsernames(expected.length)
    // The same artists as the service finds. Its relevancy order is its own (the interface does not
    // say it); the screen shows the offline search's order exactly as the core ranks it.
    expect([...shown].sort()).toEqual([...expected].sort())
    const ranked = valueOf(await bridge.call('catalogue:list', { q: 'tides', offset: 0, limit: 1000 }))
    expect(shown).toEqual(ranked.artists.map((artist) => artist.username))
    // Sort and reverse do not apply to a search: disabled, with a note saying why.
    await expect(artists.sort).toBeDisabled()
    await expect(artists.reverse).toBeDisabled()
    await expect(artists.relevanceNote).toBeVisible()

    // Podcasts among the results, as the service filters them.
    await artists.showKind('Podcasts')
    const podcasts = await serviceUsernames(demo.baseUrl, { q: 'tides', is_podcaster: 1 })
    await artists.expectTotal(podcasts.length)
    expect((await artists.allUsernames(podcasts.length)).sort()).toEqual([...podcasts].sort())
    await artists.showKind('All')

    await artists.search.press('Escape')
    await expect(artists.search).toHaveValue('')
    await expect(artists.sort).toBeEnabled()
    await expect(artists.relevanceNote).toBeHidden()
    await artists.expectTotal((await serviceUsernames(demo.baseUrl, { sort: 'top' })).length)
    expect((await artists.drawnUsernames()).slice(0, 5)).toEqual((await serviceUsernames(demo.baseUrl, { sort: 'top' })).slice(0, 5))
  })

  test('a skeleton while the first rows come; a failure named by its cause, with a way to try again', async ({ demo, page }) => {
    const expected = await serviceUsernames(demo.baseUrl, {})
    // The first answer is held back until the skeleton has been seen.
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/api/catalogue:list', async (route) => {
      await released
      await route.continue()
    })
    await page.reload()
    await expect(artists.loading).toBeVisible()
    await expect(artists.count).toHaveText('Loading artists…')
    release()
    await artists.expectTotal(expected.length)
    await expect(artists.loading).toBeHidden()
    await page.unroute('**/api/catalogue:list')

    // The core fails the next list: the screen says so, by the error's cause, and tries again on request.
    let failing = true
    await page.route('**/api/catalogue:list', (route) =>
      failing
        ? route.fulfill({ json: { ok: false, error: { name: 'CorruptCacheError', code: 'corrupt_cache', message: 'the cache file is damaged', retryable: false } } })
        : route.continue(),
    )
    await artists.showKind('Podcasts')
    await expect(page.getByText('Could not list the artists', { exact: true })).toBeVisible()
    await expect(page.getByText('Could not list the artists: Damaged cache')).toBeVisible()
    failing = false
    await page.getByRole('button', { name: 'Try again' }).click()
    await artists.expectTotal((await serviceUsernames(demo.baseUrl, { is_podcaster: 1 })).length)
  })

  test('a search that matches nothing says so and offers to clear it', async ({ demo }) => {
    await artists.search.fill('zzqxv')
    await expect(artists.page.getByText('No artists match “zzqxv”')).toBeVisible()
    await expect(artists.count).toHaveText('0 artists')
    await artists.page.getByRole('button', { name: 'Clear the search' }).click()
    await expect(artists.search).toHaveValue('')
    await artists.expectTotal((await serviceUsernames(demo.baseUrl, {})).length)
  })

  test('keyboard only: / and Ctrl+F find the search box, arrows move through the rows, Enter opens the artist', async ({ demo, bridge, page }) => {
    const expected = await serviceUsernames(demo.baseUrl, {})
    await artists.expectTotal(expected.length)
    await page.keyboard.press('/')
    await expect(artists.search).toBeFocused()
    await page.keyboard.type('/')
    // Typed into the box, / is text: it does not move the focus.
    await expect(artists.search).toHaveValue('/')
    // Its answer (no artist) hides the list: Down after Escape must still reach it once its rows are back.
    await expect(page.getByText('No artists match “/”')).toBeVisible()
    // Rows that come after the key (as on a busy machine) are the case that once lost the focus.
    let rowsBack = (): void => {}
    const rowsHeld = new Promise<void>((resolve) => (rowsBack = resolve))
    await page.route('**/api/catalogue:list', async (route) => {
      await rowsHeld
      await route.continue()
    })
    await page.keyboard.press('Escape')
    await expect(artists.search).toHaveValue('')
    await page.keyboard.press('ArrowDown')
    rowsBack()
    await expect(artists.list).toBeFocused()
    await expect(artists.selectedRow).toHaveAttribute('data-username', expected[0]!)
    await page.unroute('**/api/catalogue:list')
    await page.keyboard.press('Control+f')
    await expect(artists.search).toBeFocused()

    // Down from the search box goes into the list, on its first row.
    await page.keyboard.press('ArrowDown')
    await expect(artists.list).toBeFocused()
    await expect(artists.selectedRow).toHaveAttribute('data-username', expected[0]!)
    const activeId = await artists.selectedRow.getAttribute('id')
    await expect(artists.list).toHaveAttribute('aria-activedescendant', activeId!)
    for (let i = 0; i < 14; i++) await page.keyboard.press('ArrowDown')
    await expect(artists.selectedRow).toHaveAttribute('data-username', expected[14]!)
    await expect(artists.selectedRow).toBeInViewport({ ratio: 1 })
    await page.keyboard.press('ArrowUp')
    await expect(artists.selectedRow).toHaveAttribute('data-username', expected[13]!)
    await page.keyboard.press('End')
    await expect(artists.selectedRow).toHaveAttribute('data-username', expected[expected.length - 1]!)
    await expect(artists.selectedRow).toBeInViewport({ ratio: 1 })
    await page.keyboard.press('Home')
    await expect(artists.selectedRow).toHaveAttribute('data-username', expected[0]!)

    // Typing in the list types into the search box.
    await page.keyboard.type('lu')
    await expect(artists.search).toBeFocused()
    await expect(artists.search).toHaveValue('lu')
    await page.keyboard.press('Escape')
    await expect(artists.search).toHaveValue('')
    await page.keyboard.press('ArrowDown')
    await expect(artists.list).toBeFocused()

    // Ctrl+F from the list goes back to the search box.
    await page.keyboard.press('Control+f')
    await expect(artists.search).toBeFocused()
    await page.keyboard.type('tides')
    // In the offline search's order, as the core ranks it.
    const found = valueOf(await bridge.call('catalogue:list', { q: 'tides', offset: 0, limit: 1000 })).artists.map((artist) => artist.username)
    await artists.expectTotal(found.length)
    await page.keyboard.press('Enter')
    await expect(artists.list).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(artists.selectedRow).toHaveAttribute('data-username', found[1]!)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`#/artists/${encodeURIComponent(found[1]!)}$`))
  })

  test('coming back from an artist keeps the filters, the scroll and the row', async ({ demo, page }) => {
    await artists.showKind('Musicians')
    await artists.sort.selectOption({ label: 'Top' })
    await artists.reverse.click()
    const expected = await serviceUsernames(demo.baseUrl, { is_podcaster: 0, sort: 'top', sort_r: 1 })
    await artists.expectTotal(expected.length)

    await artists.list.evaluate((element) => (element.scrollTop = 56 * 60 + 20))
    const target = expected[64]!
    await artists.row(target).click()
    await expect(page).toHaveURL(new RegExp(`#/artists/${encodeURIComponent(target)}$`))
    await expect(artists.list).toBeHidden()

    await page.goBack()
    await expect(artists.list).toBeVisible()
    await expect(artists.kind('Musicians')).toBeChecked()
    await expect(artists.sort).toHaveValue('top')
    await expect(artists.reverse).toHaveAttribute('aria-pressed', 'true')
    await expect.poll(() => artists.scrollTop()).toBe(56 * 60 + 20)
    await expect(artists.row(target)).toBeInViewport()
    await expect(artists.selectedRow).toHaveAttribute('data-username', target)
    await artists.expectTotal(expected.length)

    // Through the navigation too, not only the browser's Back.
    await page.getByRole('link', { name: 'Settings' }).click()
    await expect(artists.list).toBeHidden()
    await page.getByRole('link', { name: 'Artists' }).click()
    await expect.poll(() => artists.scrollTop()).toBe(56 * 60 + 20)
    await expect(artists.kind('Musicians')).toBeChecked()
  })

  test('a reload, or a restart, keeps the filters and the scroll: the same rows in view', async ({ app, demo, page }) => {
    await artists.includeBlank.check()
    await artists.sort.selectOption({ label: 'Recently created' })
    await artists.reverse.click()
    const expected = await serviceUsernames(demo.baseUrl, { include_blank: 1, sort: 'recently_created', sort_r: 1 })
    await artists.expectTotal(expected.length)
    expect(expected.length).toBeGreaterThan(150)

    // Far down the list, a row cut by the top edge.
    const offset = 56 * (expected.length - 40) + 20
    await artists.list.evaluate((element, to) => (element.scrollTop = to), offset)
    const firstInView = expected.length - 39
    await expect.poll(async () => (await artists.usernamesInView())[0]).toBe(expected[firstInView])
    const inView = await artists.usernamesInView()
    expect(inView.length).toBeGreaterThan(3)
    expect(inView).toEqual(expected.slice(firstInView, firstInView + inView.length))
    await app.screenshot('artists-before-reload')

    await page.reload()
    await expect(artists.heading).toBeVisible()
    await expect(artists.includeBlank).toBeChecked()
    await expect(artists.sort).toHaveValue('recently_created')
    await expect(artists.reverse).toHaveAttribute('aria-pressed', 'true')
    await artists.expectTotal(expected.length)
    await expect.poll(() => artists.scrollTop()).toBe(offset)
    await expect.poll(() => artists.usernamesInView()).toEqual(inView)
    await app.screenshot('artists-after-reload')

    // Reloaded on an artist's screen: the list is where it was when the user goes back to it.
    await artists.row(inView[2]!).click()
    await expect(artists.list).toBeHidden()
    await page.reload()
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Artists')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Artists' }).click()
    await artists.expectTotal(expected.length)
    await expect.poll(() => artists.scrollTop()).toBe(offset)
    await expect.poll(() => artists.usernamesInView()).toEqual(inView)

    // New filters start their list at the top, and so does the next reload.
    await artists.showKind('Podcasts')
    await expect.poll(() => artists.scrollTop()).toBe(0)
    await page.reload()
    await expect(artists.kind('Podcasts')).toBeChecked()
    await artists.expectTotal((await serviceUsernames(demo.baseUrl, { include_blank: 1, sort: 'recently_created', sort_r: 1, is_podcaster: 1 })).length)
    expect(await artists.scrollTop()).toBe(0)

    // A search is kept too: the same words, the same artists found.
    await artists.search.fill(expected[0]!)
    await expect(artists.list).toHaveAttribute('data-shown-search', expected[0]!)
    await artists.settled()
    const found = await artists.count.textContent()
    const foundRows = await artists.drawnUsernames()
    await page.reload()
    await expect(artists.search).toHaveValue(expected[0]!)
    await expect(artists.count).toHaveText(found!)
    await artists.settled()
    expect(await artists.drawnUsernames()).toEqual(foundRows)
  })

  test('hostile names are shown as text: nothing they contain becomes an element', async ({ demo, page }) => {
    const hostile = demo.catalogue.artists.filter((artist) => artist.pfName === HOSTILE_NAME && artist.numTracks > 0)
    expect(hostile.length).toBeGreaterThan(0)
    await artists.search.fill(hostile[0]!.username)
    const row = artists.row(hostile[0]!.username)
    await expect(row).toBeVisible()
    await expect(row.getByText(HOSTILE_NAME, { exact: true })).toBeVisible()
    await expect(page.locator('img[src="x"]')).toHaveCount(0)

    // The whole list, with every hostile name the demo has, injects nothing either.
    await artists.search.fill('')
    await artists.includeBlank.check()
    const everyone = await serviceUsernames(demo.baseUrl, { include_blank: 1 })
    await artists.expectTotal(everyone.length)
    await artists.allUsernames(everyone.length)
    await expect(page.locator('img[src="x"], #artist-list b, #artist-list script')).toHaveCount(0)
  })

  test('the screen in light and dark at 1280×800 and 800×600: screenshots, no serious accessibility violation, badges that stand out', async ({ demo, page }) => {
    await mkdir(screenshotDir, { recursive: true })
    const expected = await serviceUsernames(demo.baseUrl, {})
    for (const size of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
      await page.setViewportSize(size)
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        await artists.open()
        await artists.expectTotal(expected.length)
        await page.keyboard.press('/')
        await page.keyboard.press('ArrowDown')
        await page.keyboard.press('ArrowDown')
        await expect(artists.selectedRow).toHaveAttribute('data-username', expected[1]!)
        // Images come once the list is still: wait for those in view.
        await expect
          .poll(() => artists.rows.locator('img').evaluateAll((images) => images.length > 0 && images.every((image) => (image as HTMLImageElement).complete)))
          .toBe(true)
        expect(await seriousViolations(page)).toEqual([])
        // The "Podcast" badge stands out on any row, the keyboard's included.
        const badges = await artists.list.locator('.badge').all()
        expect(badges.length).toBeGreaterThan(0)
        for (const badge of badges) {
          const contrast = await badgeContrast(badge)
          expect(contrast.text, `a badge's text in ${scheme}`).toBeGreaterThanOrEqual(4.5)
          expect(contrast.outline, `a badge's outline in ${scheme}`).toBeGreaterThanOrEqual(3)
        }
        const name = size.width === 1280 ? `artists-${scheme}` : `artists-${scheme}-800x600`
        await page.screenshot({ path: join(screenshotDir, `${name}.png`) })
      }
    }
  })
})

test.describe('on a catalogue of its own', () => {
  test('first run with the service out of reach: the screen says so, and offers its settings and a sync', async ({ page }) => {
    const own = await startPrivateApp('unreachable')
    try {
      artists = new ArtistsPage(page, own.bridge.url)
      await artists.open()
      await expect(artists.unreachable).toBeVisible({ timeout: 15_000 })
      await expect(artists.unreachable).toContainText('Nothing is cached yet')
      await expect(artists.unreachable).toContainText('http://127.0.0.1:9')
      await expect(page.getByText('Syncing the catalogue')).toHaveCount(0)
      await expect(artists.count).toHaveText('0 artists')
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        expect(await seriousViolations(page)).toEqual([])
        await page.screenshot({ path: join(screenshotDir, `artists-unreachable-${scheme}.png`) })
      }
      await page.emulateMedia({ colorScheme: 'light' })
      // The first sync tries again for a while ("Syncing…"), then gives up: Sync now is offered.
      const syncNow = artists.unreachable.getByRole('button', { name: 'Sync now' })
      await expect(syncNow).toBeEnabled({ timeout: 30_000 })
      await syncNow.click()
      // The service cannot be reached: the failure is named by its cause.
      await expect(page.getByText(/cannot be reached/).first()).toBeVisible()

      // What's new says the same.
      await page.evaluate(() => (window.location.hash = '#/whats-new'))
      await expect(new WhatsNewPage(page).unreachable).toBeVisible()

      // The settings: the service's section, where its address is changed.
      await page.evaluate(() => (window.location.hash = '#/artists'))
      await artists.unreachable.getByRole('link', { name: 'Service settings' }).click()
      await expect(page).toHaveURL(/#\/settings/)
      await expect(page.getByRole('region', { name: 'Catalogue service' })).toBeInViewport()
      await expect(page.getByLabel('Base URL')).toBeVisible()
    } finally {
      await own.close()
    }
  })

  test('the list follows the catalogue when a sync changes it, and keeps its place', async ({ page }) => {
    const own = await startIsolatedApp()
    try {
      await whenSynced(own.bridge)
      artists = new ArtistsPage(page, own.bridge.url)
      await artists.open()
      const expected = await serviceUsernames(own.demo.baseUrl, {})
      await artists.expectTotal(expected.length)
      const renamed = expected[2]!
      await page.keyboard.press('/')
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('ArrowDown')
      await expect(artists.selectedRow).toHaveAttribute('data-username', renamed)

      own.demo.catalogue.editArtist(renamed, { pfName: 'Renamed While Watching' })
      const synced = await own.bridge.call('sync:start')
      expect(synced.ok).toBe(true)
      // No reload: the catalogue-changed event brings the new name into the row on screen.
      await expect(artists.row(renamed)).toContainText('Renamed While Watching')
      await expect(artists.selectedRow).toHaveAttribute('data-username', renamed)
      await expect(artists.list).toBeFocused()
    } finally {
      await own.close()
    }
  })
})

// The tiers screen: the four access levels, an artist's fit worked out from the demo's
// own uploads, and this month's downloads against each level's bandwidth. The shared
// demo's files are small (every artist fits every level), so the levels that do not fit
// are shown by an app of the test's own over a demo with files of up to 4 GiB.
import { ACCESS_LEVELS } from '../../src-main/demo/responses'
import type { ArtistRecord, Catalogue, TrackRecord } from '../../src-main/demo/catalogue'
import type { AccessLevel } from '../../src-main/core/shared/catalogue'
import { cheapestFit, tierFits, type TierFit } from '../../src-main/core/shared/tiers'
import { valueOf, whenSynced } from './support/catalogue-ready'
import { ArtistPage } from './support/artist-page'
import { DownloadsPage } from './support/downloads-page'
import { AppPage } from './support/app-page'
import { seriousViolations } from './support/axe-check'
import { ShellPage } from './support/shell-page'
import { expect, test } from './support/fixtures'
import { startIsolatedApp } from './support/isolated-app'
import { startPrivateApp, type PrivateApp } from './support/private-app'
import { TiersPage } from './support/tiers-page'
import type { RunningWebBridge } from './support/web-bridge'

const LEVELS: AccessLevel[] = Object.values(ACCESS_LEVELS)

/** What each level's card says, written out: the service's decimal units, as the levels give them. */
const FIGURES = [
  { name: 'Free', price: '$0', maxFileSize: '100 MB', bandwidth: '30 GB', storage: '2 GB' },
  { name: 'Silver', price: '$8', maxFileSize: '4,096 MB', bandwidth: '100 GB', storage: '60 GB' },
  { name: 'Gold', price: '$15', maxFileSize: '4,096 MB', bandwidth: '250 GB', storage: '100 GB' },
  { name: 'Platinum', price: '$59', maxFileSize: '4,096 MB', bandwidth: '1 TB', storage: '250 GB' },
]

/** The fit of every level for an artist of the demo, from the demo's own uploads. */
function expectedFits(catalogue: Catalogue, username: string): TierFit[] {
  const artist = catalogue.findArtist(username)!
  return tierFits(
    LEVELS,
    catalogue.tracksOf(artist).map((track) => track.bytes),
  )
}

/** Checks every card against the fits worked out from the demo: verdict, and both bars' figures. */
async function expectFits(tiers: TiersPage, fits: TierFit[]): Promise<void> {
  for (const fit of fits) {
    const name = fit.level.name
    await expect(tiers.verdict(name)).toHaveText(fit.fits ? 'Fits' : 'Does not fit')
    const largest = await tiers.readMeter(tiers.meter(name, 'Largest upload'))
    expect(largest).toMatchObject({ value: fit.largestBytes, max: fit.maxFileBytes, now: Math.min(fit.largestBytes, fit.maxFileBytes) })
    expect(largest.text.endsWith(', over the limit')).toBe(!fit.fitsFileSize)
    const total = await tiers.readMeter(tiers.meter(name, 'All uploads'))
    expect(total).toMatchObject({ value: fit.totalBytes, max: fit.storageBytes, now: Math.min(fit.totalBytes, fit.storageBytes) })
    expect(total.text.endsWith(', over the limit')).toBe(!fit.fitsStorage)
  }
  const cheapest = cheapestFit(fits)
  if (cheapest) await expect(tiers.cheapest).toHaveText(`Cheapest level that fits: ${cheapest.level.name}, ${FIGURES.find((row) => row.name === cheapest.level.name)!.price} per month`)
  else await expect(tiers.cheapest).toContainText('No level fits')
  for (const level of LEVELS) {
    await expect(tiers.level(level.name).getByText('Cheapest fit', { exact: true })).toHaveCount(cheapest?.level.id === level.id ? 1 : 0)
  }
}

async function monthBytes(bridge: RunningWebBridge): Promise<number> {
  return valueOf(await bridge.call('downloads:monthlyBytes')).bytes
}

test.describe('tiers screen', () => {
  test.beforeEach(async ({ bridge }) => {
    await whenSynced(bridge)
  })

  test('shows the four access levels side by side with their price and limits', async ({ page, bridge, app }) => {
    const tiers = new TiersPage(page, bridge.url)
    await tiers.open()
    await expect(tiers.heading).toBeVisible()
    await expect(tiers.levels).toHaveCount(4)
    for (const row of FIGURES) {
      await expect(tiers.price(row.name)).toHaveText(row.price)
      await expect(tiers.maxFileSize(row.name)).toHaveText(row.maxFileSize)
      await expect(tiers.bandwidth(row.name)).toHaveText(row.bandwidth)
      await expect(tiers.storage(row.name)).toHaveText(row.storage)
    }
    // Side by side: the four cards share one row at the default window size.
    const tops = await tiers.levels.evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().top)))
    expect(new Set(tops).size).toBe(1)
    expect(app.errors).toEqual([])
  })

  test("an artist picked in the search box shows which levels fit, as worked out from the demo's uploads", async ({ page, bridge, demo }) => {
    const tiers = new TiersPage(page, bridge.url)
    // An artist with a good few tracks, found by a word of its name.
    const artist = demo.catalogue.artists.find((candidate) => !candidate.removed && candidate.numTracks >= 10 && /^[A-Za-z ]+$/.test(candidate.pfName))!
    await tiers.open()
    await tiers.artistSearch.fill(artist.pfName)
    const option = tiers.artistOptions.filter({ hasText: artist.username })
    await expect(option).toBeVisible()
    // By keyboard: down to the artist's option, Enter picks it.
    await tiers.artistSearch.focus()
    const index = await tiers.artistOptions.evaluateAll((options, username) => options.findIndex((element) => element.textContent?.includes(username)), artist.username)
    await expect(tiers.artistSearch).toHaveAttribute('aria-activedescendant', 'tiers-artist-options-0')
    for (let step = 0; step < index; step++) await page.keyboard.press('ArrowDown')
    await expect(option).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('Enter')

    await expect(page).toHaveURL(new RegExp(`#/tiers\\?artist=${encodeURIComponent(artist.username).replace(/\./g, '\\.')}$`))
    await expect(tiers.chosenArtist.getByRole('heading', { level: 2 })).toHaveText(artist.pfName)
    await expect(tiers.chosenArtist).toContainText(`${artist.numTracks} uploads`)
    await expectFits(tiers, expectedFits(demo.catalogue, artist.username))

    // "Clear artist" goes back to the levels alone.
    await tiers.chosenArtist.getByRole('button', { name: 'Clear artist' }).click()
    await expect(tiers.verdict('Free')).toHaveCount(0)
    await expect(page).toHaveURL(/#\/tiers$/)
  })

  test('?artist= from the artist screen opens with the fit; an unknown artist says so', async ({ page, bridge, demo }) => {
    const tiers = new TiersPage(page, bridge.url)
    const artist = demo.catalogue.artists.find((candidate) => !candidate.removed && candidate.numTracks >= 3 && candidate.index > 100)!
    // Any case: usernames are matched without regard to case.
    await tiers.open(artist.username.toUpperCase())
    await expect(tiers.chosenArtist.getByRole('heading', { level: 2 })).toHaveText(artist.pfName)
    await expectFits(tiers, expectedFits(demo.catalogue, artist.username))

    await tiers.open('nobody-by-this-name')
    await expect(tiers.chosenArtist.getByRole('alert')).toHaveText('There is no artist "nobody-by-this-name" in the cache.')
    await expect(tiers.levels).toHaveCount(4)
  })

  test("this month's downloaded bytes against each level's monthly bandwidth", async ({ page, bridge }) => {
    const tiers = new TiersPage(page, bridge.url)
    await tiers.open()
    await expect(tiers.levels).toHaveCount(4)
    // Downloads of other tests may still be moving the figure: read it until it holds still.
    await expect
      .poll(async () => {
        const bytes = await monthBytes(bridge)
        await tiers.open()
        const readings = await Promise.all(LEVELS.map(async (level) => tiers.readMeter(tiers.meter(level.name, 'Downloaded this month'))))
        return readings.every((reading, index) => reading.value === bytes && reading.max === LEVELS[index]!.bandwidth * 1e9)
      })
      .toBe(true)
    await expect(tiers.month).toContainText(/Downloaded in \w+ \d{4}: \d/)
  })
})

test.describe('tiers screen at both sizes', () => {
  test('at 1280×800 and 800×600, light and dark: no sideways scrolling, no serious violation', async ({ page, bridge, demo }) => {
    await whenSynced(bridge)
    const tiers = new TiersPage(page, bridge.url)
    const shell = new ShellPage(page, bridge.url)
    const artist = demo.catalogue.artists.find((candidate) => !candidate.removed && candidate.numTracks >= 5)!
    await tiers.open(artist.username)
    await expect(tiers.chosenArtist).toContainText(artist.username)
    await expect(tiers.verdict('Free')).toBeVisible()
    for (const [width, height] of [[1280, 800], [800, 600]] as const) {
      await page.setViewportSize({ width, height })
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme })
        const overflow = await page.evaluate(() => {
          const main = document.querySelector('main')!
          return main.scrollWidth - main.clientWidth
        })
        expect.soft(overflow, `${width}×${height} ${theme}: sideways`).toBe(0)
        expect.soft(await seriousViolations(page), `${width}×${height} ${theme}`).toEqual([])
        // The whole screen: the window grows to the content's height for the shot.
        await shell.screenshot(`tiers-${width}x${height}-${theme}`)
      }
    }
  })
})

test.describe('tiers screen with big uploads, offline, and with nothing cached', () => {
  // Apps of their own: started, synced and stopped within the test.
  test.describe.configure({ timeout: 180_000 })
  let own: PrivateApp | undefined

  test.afterEach(async () => {
    await own?.close()
    own = undefined
  })

  test('levels that do not fit, and no level at all; offline from the cache; screenshots', async ({ page }) => {
    // Files of up to 4 GiB: the largest is over every level's 4,096 MB, others over Free's 100 MB only.
    own = await startPrivateApp({ artists: 40, seed: 7, maxFileMb: 4096 })
    const { bridge } = own
    const catalogue = own.demo!.catalogue
    await whenSynced(bridge)
    const app = new AppPage(page, bridge.url)
    const tiers = new TiersPage(page, bridge.url)
    const fitsOf = (username: string): TierFit[] => expectedFits(catalogue, username)
    const notFree = catalogue.artists.find((artist) => {
      const fits = fitsOf(artist.username)
      return !fits[0]!.fits && fits.some((fit) => fit.fits)
    })!
    const none = catalogue.artists.find((artist) => !fitsOf(artist.username).some((fit) => fit.fits))!
    // One small download, so this month's bars have something to show.
    const small = catalogue.artists.flatMap((artist) => catalogue.tracksOf(artist)).find((track) => track.bytes > 5_000_000 && track.bytes < 20_000_000)!
    valueOf(await bridge.call('downloads:enqueue', { uploadIds: [small.uploadId] }))
    await expect.poll(async () => valueOf(await bridge.call('downloads:monthlyBytes')).bytes, { timeout: 30_000 }).toBe(small.bytes)

    await tiers.open(none.username)
    // A new address in the same page: the cards change a moment later, so wait for this artist's panel.
    await expect(tiers.chosenArtist).toContainText(none.username)
    await expectFits(tiers, fitsOf(none.username))
    await expect(tiers.level('Free').getByText('The largest upload is over its file size limit', { exact: false })).toBeVisible()

    await tiers.open(notFree.username)
    // A new address in the same page: the cards change a moment later, so wait for this artist's panel.
    await expect(tiers.chosenArtist).toContainText(notFree.username)
    await expectFits(tiers, fitsOf(notFree.username))
    await expect(tiers.verdict('Free')).toHaveText('Does not fit')
    expect(await tiers.readMeter(tiers.meter('Free', 'Downloaded this month'))).toMatchObject({ value: small.bytes, max: 30e9 })
    expect(app.errors).toEqual([])
    // Tall enough for the whole screen: the content scrolls inside the window, which a full-page shot does not follow.
    await page.setViewportSize({ width: 1200, height: 1080 })
    await app.screenshot('tiers-light')
    expect(await seriousViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect(page.locator('body')).toHaveCSS('color', 'rgb(236, 235, 246)')
    await app.screenshot('tiers-dark')
    expect(await seriousViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'light' })

    // Offline: the service is gone; the levels and the fit come from the cache.
    const baseUrl = own.demo!.baseUrl
    await own.demo!.close()
    await expect(fetch(baseUrl)).rejects.toThrow()
    await tiers.open(notFree.username)
    await expect(tiers.levels).toHaveCount(4)
    await expect(tiers.chosenArtist).toContainText(notFree.username)
    await expectFits(tiers, fitsOf(notFree.username))
    await tiers.artistSearch.fill(none.pfName)
    await expect(tiers.artistOptions.filter({ hasText: none.username })).toBeVisible()
    expect(app.errors).toEqual([])
  })

  test('with no levels cached the screen says what to do, and so does an empty download queue', async ({ page }) => {
    own = await startPrivateApp('unreachable')
    const tiers = new TiersPage(page, own.bridge.url)
    await tiers.open()
    await expect(tiers.emptyState).toBeVisible()
    await expect(tiers.emptyState.getByRole('button', { name: /Sync now|Syncing/ })).toBeVisible()
    await expect(tiers.levels).toHaveCount(0)

    const downloads = new DownloadsPage(page, own.bridge.url)
    await downloads.open()
    await expect(downloads.emptyState).toContainText('Open an artist and download a track')
    await expect(downloads.emptyState.getByRole('link', { name: 'Browse artists' })).toBeVisible()
  })
})

test.describe('sizes in one system of units', () => {
  test.describe.configure({ timeout: 180_000 })

  // Once "108.0 MB" on Downloads and the artist page (binary units) but "113 MB" on Tiers for the
  // same file, and "4.0 GB" against "4.29 GB" for the same month: now decimal units everywhere.
  test("an upload of 108,000,000 bytes reads 108 MB everywhere, and the month's bytes read the same on Downloads and Tiers", async ({ page }) => {
    let chosen: { artist: ArtistRecord; track: TrackRecord } | undefined
    const own = await startIsolatedApp({
      beforeStart: (demo) => {
        const artist = demo.catalogue.artists.find((candidate) => !candidate.removed && candidate.numTracks >= 2 && candidate.numTracks <= 5)!
        const track = demo.catalogue.tracksOf(artist).find((candidate) => candidate.ext !== 'wav')!
        demo.catalogue.resizeUpload(track.uploadId, 108_000_000)
        chosen = { artist, track: { ...track, bytes: 108_000_000 } }
      },
    })
    try {
      const { artist, track } = chosen!
      await whenSynced(own.bridge)

      const screen = new ArtistPage(page, own.bridge.url)
      await screen.open(artist.username)
      await expect(screen.trackFact(track.uploadId, 'size')).toHaveText('108 MB')

      const tiers = new TiersPage(page, own.bridge.url)
      await tiers.open(artist.username)
      await expect(tiers.chosenArtist).toContainText('largest 108 MB')
      expect((await tiers.readMeter(tiers.meter('Free', 'Largest upload'))).text).toMatch(/^108 MB of 100 MB /)
      await expect(tiers.verdict('Free')).toHaveText('Does not fit')

      const [download] = valueOf(await own.bridge.call('downloads:enqueue', { uploadIds: [track.uploadId] })).downloads
      await expect.poll(async () => valueOf(await own.bridge.call('downloads:monthlyBytes')).bytes, { timeout: 120_000 }).toBe(108_000_000)

      const downloads = new DownloadsPage(page, own.bridge.url)
      await downloads.open()
      await expect(downloads.row(download!.id)).toContainText('108 MB')
      await expect(downloads.monthBytes).toHaveText('108 MB downloaded')

      await tiers.open()
      await expect(tiers.month).toContainText(': 108 MB')
      expect((await tiers.readMeter(tiers.meter('Free', 'Downloaded this month'))).text).toMatch(/^108 MB of 30 GB /)
    } finally {
      await own.close()
    }
  })
})

// Words that tell the truth (issue 26 §3), read on screen: the Offline banner only when the last
// requests got no answer, and "nothing cached" only of a cache that holds nothing; "Download all"
// that says it is working out rather than a verdict it does not have, then what it queued; a first
// visit during the first sync that says it fetches the tracks and does not call their coming a
// change; a Follow toggle on every row, and What's new's Play that says why it is off.
// Screenshots of each in light and dark, with axe.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import type { ArtistSummary } from '../../src-main/core/shared/types'
import { screenshotDir } from './support/app-page'
import { ArtistPage } from './support/artist-page'
import { ArtistsPage } from './support/artists-page'
import { valueOf } from './support/catalogue-ready'
import { expect, test } from './support/fixtures'
import { FollowsPage } from './support/follows-page'
import { holdCalls } from './support/held-calls'
import { startIsolatedApp, type IsolatedApp, type IsolatedAppOptions } from './support/isolated-app'
import { PlayerBar } from './support/player-bar'
import { ShellPage } from './support/shell-page'
import { badgeContrast } from './support/visual-checks'
import { WhatsNewPage } from './support/whats-new-page'

// Syncs against real services on a machine that may be busy: room for a slow one.
test.describe.configure({ timeout: 120_000 })

/** An isolated app, closed however the test ends. */
async function withOwnApp(options: IsolatedAppOptions, run: (own: IsolatedApp) => Promise<void>): Promise<void> {
  const own = await startIsolatedApp(options)
  try {
    await run(own)
  } finally {
    await own.close()
  }
}

/** The screen as it is, in both themes: no serious axe violation, and a screenshot of each. */
async function lookAt(page: Page, shell: ShellPage, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await expect.poll(() => shell.drawnTheme()).toBe(scheme)
    expect(await shell.seriousViolations(), `${name} ${scheme}`).toEqual([])
    await shell.screenshot(`${name}-${scheme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/** A close-up of part of the screen (and what floats above it) in both themes, with axe over the whole page. */
async function closeUp(page: Page, shell: ShellPage, part: Locator, name: string): Promise<void> {
  await part.scrollIntoViewIfNeeded()
  const box = (await part.boundingBox())!
  const viewport = page.viewportSize()!
  const top = Math.max(0, box.y - 56)
  const clip = { x: 0, y: top, width: viewport.width, height: Math.min(viewport.height - top, box.height + 80) }
  await mkdir(screenshotDir, { recursive: true })
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await expect.poll(() => shell.drawnTheme()).toBe(scheme)
    expect(await shell.seriousViolations(), `${name} ${scheme}`).toEqual([])
    await page.screenshot({ path: join(screenshotDir, `${name}-${scheme}.png`), clip, animations: 'disabled', caret: 'hide' })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

test.describe('online, and what the cache holds', () => {
  test('a sync that gets answers is online, though a check of the service gets none in time', async ({ page }) => {
    await withOwnApp({}, async (own) => {
      const shell = new ShellPage(page, own.url())
      await shell.open('artists')
      await shell.waitForSynced()
      // The service now takes 7 s to answer its checks (the app waits 5), and sends its list pages slowly.
      own.demo.faults.add({ path: '/api/v1/access_levels', times: 1000, fault: { kind: 'delay', ms: 7_000 } })
      own.demo.faults.add({ path: '/api/v1/artists', times: 1000, fault: { kind: 'slow', bytesPerSecond: 2_000 } })
      await expect(shell.offlineBanner).toBeVisible({ timeout: 20_000 })
      await expect(shell.offlineBanner).toContainText('you are browsing the cache (the catalogue was synced')

      await shell.syncNow.click()
      await expect(shell.syncStatus).toContainText('Syncing')
      // Its first list page is coming: the service answers, and the window says so at once.
      await expect(shell.offlineBanner).toBeHidden({ timeout: 5_000 })
      const banners = await shell.countOfflineBanners()
      // Longer than a check on its way when the sync started takes to give up: the banner stays away while the sync runs.
      await page.waitForTimeout(7_000)
      await expect(shell.syncStatus).toContainText('Syncing')
      expect(await banners()).toBe(0)
      await lookAt(page, shell, 'words-online-while-syncing')
      // Cancel sync can be taken back for 5 s (Keep syncing); then it stops.
      await shell.cancelSync.click()
      await expect(shell.syncNow).toBeVisible({ timeout: 15_000 })
    })
  })

  test('with the first sync\'s artists on screen, it is "not complete", never "nothing cached"', async ({ page }) => {
    // The artists' details never come in time: their lists do, so the cache holds artists and no sync completes.
    const details = { path: '/api/v1/artists/*', times: 10_000, fault: { kind: 'delay', ms: 120_000 } } as const
    await withOwnApp({ beforeStart: (demo) => demo.faults.add(details) }, async (own) => {
      const shell = new ShellPage(page, own.url())
      const artists = new ArtistsPage(page, own.url())
      await artists.open()
      await expect(artists.rows.first()).toBeVisible({ timeout: 30_000 })
      await expect(shell.syncStatus).toContainText('Syncing · Artist details', { timeout: 30_000 })
      await shell.cancelSync.click()
      await expect(shell.syncStatus).toContainText('First sync not complete · the next sync resumes it', { timeout: 15_000 })
      await expect(shell.syncStatus).not.toContainText('Not synced yet')
      await expect(artists.rows.first()).toBeVisible()
      await lookAt(page, shell, 'words-first-sync-not-complete')

      // The service gone, a sync fails for the network: offline, browsing part of the catalogue.
      await own.stopDemo()
      await shell.syncNow.click()
      await expect(shell.offlineBanner).toBeVisible({ timeout: 30_000 })
      await expect(shell.offlineBanner).toContainText('you are browsing the cache (part of the catalogue: the first sync is not complete)')
      await expect(shell.offlineBanner).not.toContainText('nothing is cached')
      await expect(shell.syncStatus).toContainText('Sync failed · first sync not complete')
      await expect(shell.syncStatus).not.toContainText('nothing cached')
      await expect(artists.rows.first()).toBeVisible()
      await lookAt(page, shell, 'words-offline-first-sync-not-complete')
    })
  })
})

test.describe('"Download all" on an artist page', () => {
  test('says it is working out what is left, not a verdict; once queued, what it queued', async ({ page }) => {
    await withOwnApp({}, async (own) => {
      const shell = new ShellPage(page, own.url())
      await shell.open('artists')
      await shell.waitForSynced()
      const artist = own.demo.catalogue.artists.find((candidate) => !candidate.removed && candidate.numTracks >= 5 && candidate.numTracks <= 12)!
      const count = own.demo.catalogue.tracksOf(artist).length
      // The core is slow to work the estimate out, as on a machine busy with a sync and downloads.
      const estimates = await holdCalls(page, 'downloads:estimate')
      const screen = new ArtistPage(page, own.url())
      await screen.open(artist.username)
      await expect.poll(() => estimates.count).toBeGreaterThan(0)
      await expect(screen.downloadAllEstimate).toHaveText('Working out what is left to download…')
      // No verdict: the button is not greyed out as if nothing were left.
      await expect(screen.downloadAll).toBeEnabled()
      await expect(page.getByTestId('play-all')).toBeDisabled()
      await lookAt(page, shell, 'words-download-all-working')

      await estimates.release()
      await expect(screen.downloadAllEstimate).toHaveText(new RegExp(`^${count} files, .+: fits in the .+ free on disk$`))

      // Queued while the next estimate is slow again: the page says what it queued, not that the files fit.
      estimates.hold()
      await screen.downloadAll.click()
      await expect(shell.message('Queued')).toContainText(`${count} tracks`)
      await expect(screen.downloadAllEstimate).toHaveText(new RegExp(`^${count} files queued, `))
      await expect(screen.downloadAll).toBeDisabled()
      await lookAt(page, shell, 'words-download-all-queued')
      // The estimate, once in, finds nothing left: the page still says what was queued.
      const answered = page.waitForResponse('**/api/downloads:estimate')
      await estimates.release()
      await answered
      await expect(screen.downloadAllEstimate).toHaveText(new RegExp(`^${count} files queued, `))

      // Another visit: everything is downloaded or on its way.
      await shell.navLink('Artists').click()
      await screen.open(artist.username)
      await expect(screen.downloadAllEstimate).toHaveText('Everything is downloaded or queued')
    })
  })
})

test.describe('a first visit during the first sync', () => {
  test('says it fetches the tracks, then shows them without calling it a change', async ({ page }) => {
    // The sync's details take two minutes each: it is still under way, the artists' tracks not all in.
    const details = { path: '/api/v1/artists/*', times: 10_000, fault: { kind: 'delay', ms: 120_000 } } as const
    await withOwnApp({ beforeStart: (demo) => demo.faults.add(details) }, async (own) => {
      const shell = new ShellPage(page, own.url())
      const artists = new ArtistsPage(page, own.url())
      await artists.open()
      await expect(shell.syncStatus).toContainText('Syncing · Artist details', { timeout: 30_000 })
      // The artist listed with most tracks whose list entry carried only some of them.
      const listed = valueOf(await own.bridge.call('catalogue:list', { perPage: 50, includeBlank: true, sort: 'top' })).artists
      const candidates = listed.filter((entry: ArtistSummary) => entry.numTracks > 0 && entry.numTracks <= 60).sort((a, b) => b.numTracks - a.numTracks)
      let pick: { username: string; numTracks: number; shown: number } | undefined
      for (const entry of candidates) {
        const cached = valueOf(await own.bridge.call('catalogue:artist', entry.username))
        if (cached.detailFetchedAt === null && cached.tracks.length < cached.numTracks) {
          pick = { username: cached.username, numTracks: cached.numTracks, shown: cached.tracks.length }
          break
        }
      }
      expect(pick, 'an artist whose tracks are not all in yet').toBeDefined()
      const { username, numTracks, shown } = pick!

      // The window's fetch of the artist and its estimates wait until the test has read the screen.
      const refresh = await holdCalls(page, 'catalogue:refreshArtist')
      const estimates = await holdCalls(page, 'downloads:estimate')
      const screen = new ArtistPage(page, own.url())
      await screen.open(username)
      await expect.poll(() => refresh.count).toBe(1)
      await expect(screen.checking).toHaveText('Fetching the tracks…')
      await expect(screen.partialTracks).toHaveText(`Showing ${shown} of ${numTracks} tracks: fetching the full list from the service…`)
      await expect(screen.view).not.toContainText('comes with the next sync')
      await expect(screen.view).not.toContainText('No tracks yet')
      await lookAt(page, shell, 'words-first-visit-fetching')

      // The service answers the window's fetch at once (the sync's own requests still wait).
      own.demo.faults.clear()
      await refresh.release()
      await expect(screen.rows).toHaveCount(numTracks, { timeout: 30_000 })
      await expect(screen.partialTracks).toHaveCount(0)
      await expect(screen.checking).toHaveCount(0)
      // The tracks came in: what "Download all" would take is worked out again, not judged on the old list.
      await expect(screen.downloadAllEstimate).toHaveText('Working out what is left to download…')
      await expect(screen.downloadAll).toBeEnabled()
      await estimates.release()
      await expect(screen.downloadAllEstimate).toHaveText(new RegExp(`^${numTracks} files?, .+ free on disk$`))
      // Not "Updated": nothing the user had seen changed.
      await expect(shell.message('Updated')).toHaveCount(0)
      await expect(shell.messages).not.toContainText('changed on the service')
      await lookAt(page, shell, 'words-first-visit-tracks-in')
    })
  })
})

test.describe('controls that show they are there, and say why they are off', () => {
  let own: IsolatedApp
  test.describe.configure({ mode: 'serial' })
  test.beforeAll(async () => {
    own = await startIsolatedApp()
  })
  test.afterAll(async () => {
    await own?.close()
  })

  test('Follow is on every artist row, with its key on the keyboard\'s row', async ({ page }) => {
    const shell = new ShellPage(page, own.url())
    const follows = new FollowsPage(page, own.url())
    const { artists } = follows
    await shell.open('artists')
    await shell.waitForSynced()
    await artists.settled()
    const [first, second] = await artists.drawnUsernames()
    // No pointer on the list and no keyboard in it: every row shows its toggle, in words.
    await page.mouse.move(1, 1)
    for (const username of [first!, second!]) {
      const toggle = follows.rowToggle(username)
      await expect(toggle).toHaveText('Follow')
      expect(await toggle.evaluate((element) => getComputedStyle(element).opacity)).toBe('1')
      expect((await badgeContrast(toggle)).text).toBeGreaterThanOrEqual(4.5)
      await expect(toggle).toHaveAttribute('title', /^Follow .+ \(F\)$/)
    }
    // The keyboard's row shows the key that follows, in the place of its icon.
    await artists.search.click()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await expect(artists.selectedRow).toHaveAttribute('data-username', second!)
    const key = (username: string) => follows.rowToggle(username).evaluate((element) => getComputedStyle(element, '::before').content)
    expect(await key(second!)).toBe('"F"')
    expect(await key(first!)).toBe('none')
    await expect(artists.list).toHaveAccessibleDescription(/F follows or unfollows it/)
    await page.keyboard.press('f')
    await expect(follows.rowToggle(second!)).toHaveText('Following')
    await expect(follows.rowToggle(first!)).toHaveText('Follow')
    await lookAt(page, shell, 'words-follow-on-every-row')
  })

  test("What's new's Play on a track not downloaded says why it is off", async ({ page }) => {
    const shell = new ShellPage(page, own.url())
    const whatsNew = new WhatsNewPage(page)
    await shell.open('whats-new')
    await expect(whatsNew.newestUploads).toBeVisible({ timeout: 30_000 })
    const row = whatsNew.trackRows(whatsNew.newestUploads).first()
    const title = await row.getByTestId('whats-new-track-title').innerText()
    const play = whatsNew.play(title)
    await expect(play).toBeDisabled()
    await expect(play).toHaveAccessibleDescription('Download it to play')
    const reason = row.getByRole('tooltip')
    await expect(reason).toBeHidden()
    await play.hover()
    await expect(reason).toBeVisible()
    await expect(reason).toHaveText('Download it to play')
    await page.mouse.move(1, 1)
    await expect(reason).toBeHidden()
    // The keyboard reaches it too, and hears why; a press does nothing.
    await play.focus()
    await expect(play).toBeFocused()
    await expect(reason).toBeVisible()
    await closeUp(page, shell, row, 'words-whats-new-play-off')
    await page.keyboard.press('Enter')
    await expect(new PlayerBar(page).region).toHaveCount(0)

    await whatsNew.download(title).click()
    await expect(whatsNew.downloadState(title)).toHaveAttribute('data-state', 'completed', { timeout: 30_000 })
    await expect(play).toBeEnabled()
    await expect(play).toHaveAccessibleDescription('')
    await expect(row.getByRole('tooltip')).toHaveCount(0)
  })
})

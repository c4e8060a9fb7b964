// Following artists, as a person does it: from a row of the artists list (the pointer, and F on
// the keyboard's row), from the artist page with auto-download; the Following chip and its count;
// unfollowing; follows that survive a reload, a sync, and the service removing the artist; the
// Downloaded chip once a track is downloaded. Screenshots of the list with followed rows, the
// Following filter and the artist page followed (and gone), in light and dark.
import type { FollowedArtist } from '../../src-main/core/shared/types'
import { ArtistPage } from './support/artist-page'
import { valueOf } from './support/catalogue-ready'
import { expect, test } from './support/fixtures'
import { FollowsPage } from './support/follows-page'
import { startIsolatedApp, type IsolatedApp } from './support/isolated-app'
import { ShellPage } from './support/shell-page'

// Syncs run against a real service on a machine that may be busy: room for a slow one.
test.describe.configure({ mode: 'serial', timeout: 90_000 })

let own: IsolatedApp
/** The first rows of the list as it opens (trending order): the artists the tests follow. */
let first: string[] = []

test.beforeAll(async () => {
  own = await startIsolatedApp()
})

test.afterAll(async () => {
  await own?.close()
})

/** What the core keeps, asked over the bridge as the window asks it. */
async function followed(): Promise<FollowedArtist[]> {
  return valueOf(await own.bridge.call('follows:list'))
}

function titleOf(username: string): string {
  // Removed artists too, which findArtist no longer finds.
  const artist = own.demo.catalogue.artists.find((candidate) => candidate.username === username)!
  return artist.pfName.trim() === '' ? artist.username : artist.pfName
}

async function screenshots(page: import('@playwright/test').Page, shell: ShellPage, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await expect.poll(() => shell.drawnTheme()).toBe(scheme)
    await shell.screenshot(`${name}-${scheme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

test('follows from a row, with the pointer and with F, and lists them under Following with its count', async ({ page }) => {
  const shell = new ShellPage(page, own.url())
  const follows = new FollowsPage(page, own.url())
  const { artists } = follows
  await shell.open('artists')
  await shell.waitForSynced()
  await artists.settled()
  first = (await artists.drawnUsernames()).slice(0, 4)
  await expect(follows.chip('Following')).toHaveText('Following (0)')
  // Nothing followed yet: the filter says how to follow, and leads back to every artist.
  await follows.chip('Following').click()
  await expect(page.getByText('No followed artists here')).toBeVisible()
  await page.getByRole('button', { name: 'Show all artists' }).click()
  await expect(follows.chip('Following')).toHaveAttribute('aria-pressed', 'false')
  await artists.settled()

  // The pointer: the row's toggle follows, and does not open the artist.
  await artists.row(first[0]!).hover()
  await follows.rowToggle(first[0]!).click()
  await expect(follows.rowToggle(first[0]!)).toHaveText('Following')
  await expect(follows.rowToggle(first[0]!)).toHaveAttribute('data-followed', 'true')
  await expect(artists.heading).toBeVisible()

  // The keyboard: from the search box to the list, down one row, F.
  await artists.search.click()
  await page.keyboard.press('ArrowDown')
  await expect(artists.selectedRow).toHaveAttribute('data-username', first[0]!)
  await page.keyboard.press('ArrowDown')
  await expect(artists.selectedRow).toHaveAttribute('data-username', first[1]!)
  await page.keyboard.press('f')
  await expect(follows.rowToggle(first[1]!)).toHaveAttribute('data-followed', 'true')
  // F is not a letter of a search.
  await expect(artists.search).toHaveValue('')
  await expect(artists.selectedRow).toContainText('followed')

  await expect(follows.chip('Following')).toHaveText('Following (2)')
  await expect.poll(async () => (await followed()).map((artist) => artist.username).sort()).toEqual([first[0]!, first[1]!].sort())
  expect(await shell.seriousViolations()).toEqual([])
  await screenshots(page, shell, 'follow-artists')

  await follows.chip('Following').click()
  await expect(follows.chip('Following')).toHaveAttribute('aria-pressed', 'true')
  await artists.expectTotal(2)
  expect(await artists.drawnUsernames()).toEqual([first[0]!, first[1]!])
  await screenshots(page, shell, 'follow-following')

  // Pressed again, the chip shows every artist.
  await follows.chip('Following').click()
  await expect(follows.chip('Following')).toHaveAttribute('aria-pressed', 'false')
  await expect(artists.count).not.toHaveText('2 artists')
})

test('follows from the artist page, with auto-download, and unfollows', async ({ page }) => {
  const shell = new ShellPage(page, own.url())
  const follows = new FollowsPage(page, own.url())
  const artistPage = new ArtistPage(page, own.url())
  const username = first[2]!
  const title = titleOf(username)
  await artistPage.open(username)
  await expect(follows.autoDownload).toHaveCount(0)
  await follows.pageButton('Follow', title).click()
  await expect(follows.pageButton('Unfollow', title)).toBeVisible()
  await expect(follows.following).toHaveText('Following')
  await expect(follows.autoDownload).not.toBeChecked()
  await follows.autoDownload.check()
  await expect(follows.autoDownload).toBeChecked()
  await expect.poll(async () => (await followed()).find((artist) => artist.username === username)?.autoDownload).toBe(true)
  await expect(follows.followArea).toContainText('New tracks a sync finds are downloaded by themselves.')
  expect(await shell.seriousViolations()).toEqual([])
  await screenshots(page, shell, 'follow-artist')

  // Back on the list: three followed; one unfollowed from its row.
  await artistPage.backLink.click()
  await expect(follows.chip('Following')).toHaveText('Following (3)')
  await follows.chip('Following').click()
  await follows.artists.expectTotal(3)
  await follows.artists.row(first[0]!).hover()
  await follows.rowToggle(first[0]!).click()
  await follows.artists.expectTotal(2)
  await expect(follows.chip('Following')).toHaveText('Following (2)')
  expect(await follows.artists.drawnUsernames()).toEqual([first[1]!, first[2]!])
  await expect.poll(async () => (await followed()).map((artist) => artist.username).sort()).toEqual([first[1]!, first[2]!].sort())
})

test('follows survive a reload, a sync, and the service removing the artist', async ({ page }) => {
  const shell = new ShellPage(page, own.url())
  const follows = new FollowsPage(page, own.url())
  await shell.open('artists')
  await expect(follows.chip('Following')).toHaveText('Following (2)')
  await page.reload()
  await expect(follows.chip('Following')).toHaveText('Following (2)')
  await expect(follows.rowToggle(first[1]!)).toHaveAttribute('data-followed', 'true')

  // The service drops one followed artist: after a sync it is still followed, listed as gone.
  own.demo.catalogue.removeArtist(first[1]!)
  await shell.syncAndWait()
  await expect.poll(async () => (await followed()).map((artist) => [artist.username, artist.gone]).sort()).toEqual(
    [
      [first[1]!, true],
      [first[2]!, false],
    ].sort(),
  )
  await follows.chip('Following').click()
  await follows.artists.expectTotal(2)
  expect(await follows.artists.drawnUsernames()).toEqual([first[2]!, first[1]!])
  await expect(follows.artists.row(first[1]!)).toContainText('Gone')

  const artistPage = new ArtistPage(page, own.url())
  await follows.artists.row(first[1]!).click()
  await expect(artistPage.goneBanner).toBeVisible()
  await expect(follows.pageButton('Unfollow', titleOf(first[1]!))).toBeVisible()
  await expect(follows.following).toBeVisible()
  await expect(follows.followArea).toContainText('You still follow this artist, though it is no longer on the service')
  await screenshots(page, shell, 'follow-artist-gone')
})

test('Downloaded lists the artists with a downloaded track', async ({ page }) => {
  const shell = new ShellPage(page, own.url())
  const follows = new FollowsPage(page, own.url())
  const artistPage = new ArtistPage(page, own.url())
  await shell.open('artists')
  await expect(follows.chip('Downloaded')).toHaveText('Downloaded (0)')
  const username = first[3]!
  const track = own.demo.catalogue.tracksOf(own.demo.catalogue.findArtist(username)!)[0]!
  await artistPage.open(username)
  await artistPage.trackButton(track.uploadId, 'Download').click()
  await expect(artistPage.trackState(track.uploadId)).toHaveAttribute('data-state', 'completed', { timeout: 30_000 })

  await artistPage.backLink.click()
  await expect(follows.chip('Downloaded')).toHaveText('Downloaded (1)')
  await follows.chip('Downloaded').click()
  await follows.artists.expectTotal(1)
  expect(await follows.artists.drawnUsernames()).toEqual([username])
  // The two chips narrow the list one at a time.
  await follows.chip('Following').click()
  await expect(follows.chip('Downloaded')).toHaveAttribute('aria-pressed', 'false')
  await follows.artists.expectTotal(2)
})

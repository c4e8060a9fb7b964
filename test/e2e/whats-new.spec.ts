// What's new: the first sync is the starting point (and shows in the status while it runs);
// an edited catalogue, once synced, lists its new and changed artists and tracks, by sync,
// without a reload; syncs that bring nothing move the news along until nothing is new.
import type { ArtistRecord } from '../../src-main/core/demo/catalogue'
import { expect, test } from './support/fixtures'
import { startIsolatedApp, type IsolatedApp } from './support/isolated-app'
import { ShellPage } from './support/shell-page'
import { separatorsAtLineEnds } from './support/visual-checks'
import { WhatsNewPage } from './support/whats-new-page'

// Syncs run against real services on a machine that may be busy: room for a slow one.
test.describe.configure({ mode: 'serial', timeout: 90_000 })

const RENAMED = 'Renamed by the test'

let own: IsolatedApp
/** Taken off the service before the first sync and put back after it: new in the second. */
let comesLater: ArtistRecord
/** Renamed after the first sync: changed in the second. */
let renamed: ArtistRecord

test.beforeAll(async () => {
  own = await startIsolatedApp({
    beforeStart: (demo) => {
      const withTracks = demo.catalogue.artists.filter((artist) => artist.numTracks > 0 && artist.numTracks <= 8)
      // The one that comes later brings a track without a title: listed as "Untitled", like everywhere else.
      comesLater = withTracks.find((artist) => demo.catalogue.tracksOf(artist).some((track) => track.title.trim() === ''))!
      renamed = withTracks.find((artist) => artist !== comesLater)!
      demo.catalogue.removeArtist(comesLater.username)
      // Artist details come slowly during the first sync, so it is still running when the window opens.
      demo.faults.add({ path: '/api/v1/artists/*', times: 16, fault: { kind: 'slow', bytesPerSecond: 2000 } })
    },
  })
})

test.afterAll(async () => {
  await own?.close()
})

test('the first sync shows in the status with its progress, and is the starting point, not news', async ({ page }) => {
  const shell = new ShellPage(page, own.url())
  const whatsNew = new WhatsNewPage(page)
  await shell.open('whats-new')
  await expect(whatsNew.heading).toBeVisible()

  await expect(shell.syncStatus).toContainText('Syncing')
  await expect(shell.syncProgress).toBeVisible()
  await expect(shell.cancelSync).toBeVisible()
  await expect(whatsNew.firstSyncUnderWay).toBeVisible()
  await shell.screenshot('shell-syncing-light')

  await shell.waitForSynced()
  await expect(shell.syncProgress).toBeHidden()
  await expect(whatsNew.firstSync).toBeVisible()
  await expect(page.getByText('Come back after the next one.')).toBeVisible()
})

test('after the catalogue is edited and synced, the new and changed artists and tracks are listed without a reload', async ({ page }) => {
  const shell = new ShellPage(page, own.url())
  const whatsNew = new WhatsNewPage(page)
  await shell.open('whats-new')
  await expect(whatsNew.firstSync).toBeVisible()

  own.demo.catalogue.editArtist(renamed.username, { pfName: RENAMED })
  own.demo.catalogue.restoreArtist(comesLater.username)
  await shell.syncNow.click()

  const newArtists = whatsNew.group('New artists')
  const changedArtists = whatsNew.group('Changed artists')
  await expect(newArtists).toContainText(comesLater.pfName)
  await expect(newArtists).toContainText(`@${comesLater.username}`)
  await expect(changedArtists).toContainText(RENAMED)
  await expect(changedArtists).not.toContainText(comesLater.pfName)
  // The artist that came brought its tracks, listed under its name; the one without a title is "Untitled".
  await expect(whatsNew.group('New tracks')).toContainText(comesLater.pfName)
  await expect(whatsNew.group('New tracks').getByText('Untitled', { exact: true })).toBeVisible()
  await expect(whatsNew.group('Changed tracks')).toHaveCount(0)
  await expect(whatsNew.summary).toHaveText(
    `2 artists and ${comesLater.numTracks} ${comesLater.numTracks === 1 ? 'track' : 'tracks'} appeared or changed in the last sync.`,
  )
  await expect(whatsNew.run('The last sync')).toContainText(/just now/)

  // Each artist links to its screen.
  await whatsNew.artistLink(changedArtists, RENAMED).click()
  await expect(page).toHaveURL(new RegExp(`#/artists/${renamed.username}$`))
})

test('syncs that bring nothing move the news to "the sync before", then leave nothing new', async ({ page }) => {
  const shell = new ShellPage(page, own.url())
  const whatsNew = new WhatsNewPage(page)
  await shell.open('whats-new')
  await expect(whatsNew.group('New artists')).toBeVisible()

  await shell.syncNow.click()
  await expect(whatsNew.run('The sync before')).toBeVisible()
  await expect(whatsNew.run('The last sync')).toContainText('No artist or track appeared or changed in this sync.')
  await expect(whatsNew.group('New artists', 'The sync before')).toContainText(comesLater.pfName)
  await expect(whatsNew.group('Changed artists', 'The sync before')).toContainText(RENAMED)
  await expect(whatsNew.summary).toContainText('appeared or changed in the last two syncs.')

  // The lists, checked by axe and looked at in both themes and both sizes: in the smallest window they fit
  // without scrolling sideways, and no "·" starts or ends a line of facts.
  for (const size of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
    await page.setViewportSize(size)
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      expect(await shell.drawnTheme()).toBe(scheme)
      expect(await shell.seriousViolations()).toEqual([])
      expect(await shell.content.evaluate((main) => main.scrollWidth - main.clientWidth)).toBe(0)
      for (const line of await whatsNew.factLines.all()) expect(await separatorsAtLineEnds(line)).toEqual([])
      await shell.screenshot(size.width === 1280 ? `whats-new-${scheme}` : `whats-new-${scheme}-800x600`)
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1200, height: 800 })

  await shell.syncNow.click()
  await expect(whatsNew.nothingNew).toBeVisible()
  await expect(page.getByText('The last syncs brought no new or changed artist or track.', { exact: false })).toBeVisible()
  await expect(whatsNew.run('The sync before')).toHaveCount(0)
})

// New tracks that come by themselves, as a person lives it under `npm run web`: the app synced,
// an artist followed with auto-download on (from the artist's page), the demo catalogue gives
// that artist new uploads while the app runs, "Sync now"; one notice says so, its button opens
// What's new, and the new tracks are on the Downloads screen, downloaded. Then the setting
// "Check for new tracks" is changed on the Settings screen, and kept.
import type { ArtistRecord } from '../../src-main/demo/catalogue'
import { formatBytes } from '../../src-main/core/shared/format'
import { valueOf } from './support/catalogue-ready'
import { expect, test } from './support/fixtures'
import { FollowsPage } from './support/follows-page'
import { startIsolatedApp, type IsolatedApp } from './support/isolated-app'
import { ShellPage } from './support/shell-page'

// Syncs and downloads run against real services on a machine that may be busy.
test.describe.configure({ mode: 'serial', timeout: 90_000 })

let own: IsolatedApp
/** Followed with auto-download on; given new uploads while the app runs. */
let artist: ArtistRecord
let added: string[] = []

test.beforeAll(async () => {
  own = await startIsolatedApp()
  // A plain display name, so the notice's words can be written here as a person reads them.
  artist = own.demo.catalogue.artists.find((candidate) => candidate.numTracks >= 2 && candidate.numTracks <= 8 && /^[A-Z][a-z]+ [A-Z][a-z]+$/.test(candidate.pfName))!
})

test.afterAll(async () => {
  await own?.close()
})

test('a followed artist\'s new uploads: one notice, What\'s new from it, and the tracks downloaded by themselves', async ({ page }) => {
  const shell = new ShellPage(page, own.url())
  const follows = new FollowsPage(page, own.url())
  await shell.open(`artists/${encodeURIComponent(artist.username)}`)
  await shell.waitForSynced()

  // Followed from the artist's page, auto-download switched on.
  await follows.followArea.getByRole('button', { name: /^Follow / }).click()
  await expect(follows.following).toBeVisible()
  await follows.autoDownload.click()
  await expect(follows.autoDownload).toBeChecked()

  // The service publishes two new uploads of that artist while the app runs; a sync finds them.
  const [batch] = own.demo.addUploads({ artists: [artist.username], perArtist: 2 })
  added = batch!.uploadIds
  const titles = added.map((id) => own.demo.catalogue.findUpload(id)!.track.title)
  await shell.syncNow.click()

  const notice = shell.message(`2 new tracks from ${artist.pfName}`)
  await expect(notice).toBeVisible({ timeout: 30_000 })
  // One notice for the sync, not one per track.
  await expect(shell.messages.locator('.notice')).toHaveCount(1)
  await expect(notice).toContainText('From artists you follow.')
  const open = notice.getByRole('button', { name: "Open What's new" })
  await expect(open).toBeVisible()

  // Looked at in both themes (the notice waits to be read: it does not close by itself).
  await notice.scrollIntoViewIfNeeded()
  await shell.screenshot('new-tracks-notice-light')
  valueOf(await own.bridge.call('settings:set', { theme: 'dark' }))
  await expect.poll(() => shell.drawnTheme()).toBe('dark')
  await shell.screenshot('new-tracks-notice-dark')
  valueOf(await own.bridge.call('settings:set', { theme: 'system' }))
  await expect(notice).toBeVisible()

  // Its button opens What's new, where the new tracks are; the notice is done.
  await open.click()
  await expect(page).toHaveURL(/#\/whats-new$/)
  await expect(shell.heading).toHaveText("What's new")
  await expect(notice).toHaveCount(0)
  for (const title of titles) await expect(shell.content.getByText(title, { exact: true }).first()).toBeVisible()

  // On the Downloads screen, the new tracks are downloaded, queued by themselves.
  await shell.navLink('Downloads').click()
  const completed = page.getByRole('region', { name: 'Completed', exact: true })
  for (const title of titles) await expect(completed.getByText(title, { exact: true }).first()).toBeVisible({ timeout: 30_000 })
  const listed = valueOf(await own.bridge.call('downloads:list'))
  expect(listed.filter((download) => added.includes(download.uploadId)).map((download) => download.state)).toEqual(['completed', 'completed'])
})

test('a sync that brings nothing new says nothing, and queues nothing again', async ({ page }) => {
  const shell = new ShellPage(page, own.url())
  await shell.open('downloads')
  await shell.waitForSynced()
  await shell.syncAndWait()
  await expect(shell.messages.locator('.notice')).toHaveCount(0)
  const listed = valueOf(await own.bridge.call('downloads:list'))
  expect(listed.filter((download) => added.includes(download.uploadId))).toHaveLength(2)
})

test('"Check now" on a followed artist\'s page and in the Following filter: a quick check of a request or a few finds the new track', async ({ page }) => {
  const shell = new ShellPage(page, own.url())
  await shell.open(`artists/${encodeURIComponent(artist.username)}`)
  await shell.waitForSynced()
  const checkNow = page.getByTestId('artist-follow').getByRole('button', { name: 'Check now for new tracks' })
  await expect(checkNow).toBeVisible()
  await shell.screenshot('check-now-artist-light')

  const [batch] = own.demo.addUploads({ artists: [artist.username] })
  const title = own.demo.catalogue.findUpload(batch!.uploadIds[0]!)!.track.title
  own.demo.requests.reset()
  await checkNow.click()
  await expect(shell.message(`1 new track from ${artist.pfName}`)).toBeVisible({ timeout: 30_000 })
  await expect(shell.content.getByText(title, { exact: true }).first()).toBeVisible()
  // The recently updated list's first page (the changed artist on top) and the second (all as cached: the check
  // stops), the one artist that changed, and its new file (auto-download is on).
  expect(valueOf(await own.bridge.call('sync:state')).lastRun).toMatchObject({ kind: 'quick', state: 'completed' })
  // Access levels are not counted: the session's online check asks for them every 2 s here (test timing) whenever no
  // sync runs, so one may fall between the reset and the check's start or after its end. That a quick check asks for
  // none is pinned where nothing else asks the service (test/main/cli/sync-new-tracks.test.ts).
  expect([own.demo.requests.list, own.demo.requests.artist, own.demo.requests.file], own.demo.requests.summary()).toEqual([2, 1, 1])

  // The Following filter of the Artists screen offers it too.
  await shell.open('artists')
  await page.getByRole('group', { name: 'Narrow to' }).getByRole('button', { name: /^Following/ }).click()
  await expect(page.getByRole('group', { name: 'Narrow to' }).getByRole('button', { name: 'Check now for new tracks' })).toBeEnabled()
  await shell.screenshot('check-now-following-light')
})

test('a flood past the auto-download limit: the notice and What\'s new say what was held back, and "Download the rest" queues it', async ({ page }) => {
  const shell = new ShellPage(page, own.url())
  // The limit, lowered on the Settings screen as a person would: 3 new tracks per artist per sync.
  await shell.open('settings')
  const limit = page.getByRole('spinbutton', { name: 'Auto-download: new tracks per artist, each sync' })
  await expect(limit).toHaveValue('50')
  await expect(page.getByRole('spinbutton', { name: 'Auto-download: size per artist, each sync' })).toHaveValue('2000')
  await limit.scrollIntoViewIfNeeded()
  await shell.screenshot('settings-auto-download-limits-light')
  await limit.fill('3')
  await limit.press('Enter')
  await expect.poll(async () => valueOf(await own.bridge.call('settings:get')).autoDownloadMaxTracks).toBe(3)

  // Eight new uploads at once: the newest three are downloaded, five held back.
  const [batch] = own.demo.addUploads({ artists: [artist.username], perArtist: 8 })
  const flood = batch!.uploadIds
  const held = flood.slice(0, 5)
  const heldBytes = formatBytes(held.reduce((sum, id) => sum + own.demo.catalogue.findUpload(id)!.track.bytes, 0))
  await shell.syncNow.click()
  const notice = shell.message(`8 new tracks from ${artist.pfName}`)
  await expect(notice).toBeVisible({ timeout: 30_000 })
  const words = `held back 5 new tracks of ${artist.pfName} (${heldBytes}) over the auto-download limit`
  await expect(notice).toContainText(`Auto-download ${words}: Download the rest in What's new.`)

  await notice.getByRole('button', { name: "Open What's new" }).click()
  const heldBack = page.getByTestId('whats-new-held-back')
  await expect(heldBack).toContainText(`Held back 5 new tracks of ${artist.pfName} (${heldBytes}) over the auto-download limit.`)
  await expect(heldBack).toContainText('Auto-download takes at most 3 new tracks or 2 GB of each artist per sync')
  await shell.screenshot('whats-new-held-back-light')
  const queuedBefore = valueOf(await own.bridge.call('downloads:list')).filter((download) => flood.includes(download.uploadId))
  expect(queuedBefore.map((download) => download.uploadId).sort()).toEqual(flood.slice(5).sort())

  await heldBack.getByRole('button', { name: 'Download the rest' }).click()
  await expect(shell.message('Queued')).toContainText('5 held-back tracks are queued.')
  await expect(heldBack).toHaveCount(0)
  const queued = valueOf(await own.bridge.call('downloads:list')).filter((download) => flood.includes(download.uploadId))
  expect(queued.map((download) => download.uploadId).sort()).toEqual([...flood].sort())
  valueOf(await own.bridge.call('settings:set', { autoDownloadMaxTracks: 50 }))
})

test('"Check for new tracks" is chosen on the Settings screen and kept', async ({ page }) => {
  const shell = new ShellPage(page, own.url())
  await shell.open('settings')
  const check = page.getByRole('combobox', { name: 'Check for new tracks' })
  await expect(check).toHaveValue('every-15-minutes')
  await check.selectOption({ label: 'Every 5 minutes' })
  await expect.poll(async () => valueOf(await own.bridge.call('settings:get')).checkForNewTracks).toBe('every-5-minutes')
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Check for new tracks' })).toHaveValue('every-5-minutes')
  await page.getByRole('combobox', { name: 'Check for new tracks' }).scrollIntoViewIfNeeded()
  await shell.screenshot('settings-check-for-new-tracks-light')
  valueOf(await own.bridge.call('settings:set', { theme: 'dark' }))
  await expect.poll(() => shell.drawnTheme()).toBe('dark')
  await shell.screenshot('settings-check-for-new-tracks-dark')
  valueOf(await own.bridge.call('settings:set', { theme: 'system' }))
  await page.getByRole('combobox', { name: 'Check for new tracks' }).selectOption('off')
  await expect.poll(async () => valueOf(await own.bridge.call('settings:get')).checkForNewTracks).toBe('off')
})

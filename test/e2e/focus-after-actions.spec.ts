// Where the focus goes after a keyboard action takes away the control that had it: never to the page
// (document.body), but to the control that takes its place (Follow and Unfollow swap; a track's
// Download becomes its Pause; Pause becomes Resume), or to the nearest sensible one (the row the
// selection bar was left for, the next group when Clear completed takes its group away); a button
// that is off while its action runs (Download all) keeps it.
import type { Page } from '@playwright/test'
import { ArtistPage } from './support/artist-page'
import { pickArtist } from './support/catalogue-picks'
import { pickUploads, valueOf } from './support/catalogue-ready'
import { enqueue, ownQueue, rowOf, SLOW } from './support/downloads-queue'
import { DownloadsPage } from './support/downloads-page'
import { expect, test } from './support/fixtures'
import { FollowsPage } from './support/follows-page'

/** Whether the focus fell to the page (no control holds it). */
function onBody(page: Page): Promise<boolean> {
  return page.evaluate(() => document.activeElement === null || document.activeElement === document.body)
}

test.describe('the focus after keyboard actions', () => {
  test.describe.configure({ timeout: 90_000 })
  const own = ownQueue(test, 'tuneshelf-e2e-focus-', { asDownloadFolder: true })

  test('Follow and Unfollow on the artist page hand the focus to each other', async ({ page, bridge, demo, app }) => {
    const followedBefore = new Set(valueOf(await bridge.call('follows:list')).map((artist) => artist.username))
    const { artist } = pickArtist(demo, (candidate, list) => list.length > 0 && !followedBefore.has(candidate.username) && /^[A-Za-z]+ [A-Za-z]+$/.test(candidate.pfName))
    const title = artist.pfName
    const screen = new ArtistPage(page, bridge.url)
    const follows = new FollowsPage(page, bridge.url)
    await screen.open(artist.username)

    await follows.pageButton('Follow', title).focus()
    await page.keyboard.press('Enter')
    await expect(follows.following).toBeVisible()
    await expect(follows.pageButton('Unfollow', title)).toBeFocused()
    await page.keyboard.press('Space')
    await expect(follows.autoDownload).toHaveCount(0)
    await expect(follows.pageButton('Follow', title)).toBeFocused()
    expect(await onBody(page)).toBe(false)
    // The button turns as soon as the window asks; the core's list follows once it has written the change.
    await expect.poll(async () => valueOf(await bridge.call('follows:list')).some((followed) => followed.username === artist.username)).toBe(false)
    expect(app.errors).toEqual([])
  })

  test("a track's Download hands the focus to its Pause, and Pause to Resume", async ({ page, bridge, demo, app }) => {
    const listed = new Set(valueOf(await bridge.call('downloads:list')).map((download) => download.uploadId))
    const { artist, tracks } = pickArtist(demo, (_artist, list) => list.length >= 2 && list.length <= 10 && list.some((track) => track.bytes > 1_000_000 && !listed.has(track.uploadId)))
    const track = tracks.find((candidate) => candidate.bytes > 1_000_000 && !listed.has(candidate.uploadId))!
    // Slow: the download runs while the test looks at its buttons.
    demo.faults.add({ path: `/hotlink/${track.uploadId}.${track.ext}`, fault: SLOW })
    const screen = new ArtistPage(page, bridge.url)
    await screen.open(artist.username)

    await screen.trackButton(track.uploadId, 'Download').focus()
    await page.keyboard.press('Enter')
    await expect(screen.trackButton(track.uploadId, 'Pause')).toBeFocused()
    own.ids = valueOf(await bridge.call('downloads:list')).filter((download) => download.uploadId === track.uploadId).map((download) => download.id)
    // Off while the request is on its way, and holding the focus all the while; then Pause pauses.
    await expect(screen.trackButton(track.uploadId, 'Pause')).not.toHaveAttribute('aria-disabled', 'true')
    await page.keyboard.press('Enter')
    await expect(screen.trackState(track.uploadId)).toHaveAttribute('data-state', 'paused')
    await expect(screen.trackButton(track.uploadId, 'Resume')).toBeFocused()
    // Cancel: the row's Download again.
    await page.keyboard.press('Tab')
    await expect(screen.trackButton(track.uploadId, 'Cancel')).toBeFocused()
    await expect(screen.trackButton(track.uploadId, 'Cancel')).not.toHaveAttribute('aria-disabled', 'true')
    await page.keyboard.press('Enter')
    await expect(screen.trackButton(track.uploadId, 'Download')).toBeFocused()
    expect(await onBody(page)).toBe(false)
    expect(app.errors).toEqual([])
  })

  test('"Download all" on the artist page keeps the focus while it queues, and after', async ({ page, bridge, demo, app }) => {
    const listed = new Set(valueOf(await bridge.call('downloads:list')).map((download) => download.uploadId))
    const { artist, tracks } = pickArtist(
      demo,
      (_artist, list) => list.length >= 1 && list.length <= 2 && list.every((track) => track.bytes < 1_000_000 && !listed.has(track.uploadId)),
    )
    const screen = new ArtistPage(page, bridge.url)
    await screen.open(artist.username)
    await expect(screen.downloadAll).toBeEnabled()

    await screen.downloadAll.focus()
    await page.keyboard.press('Enter')
    await expect(screen.downloadAllEstimate).toHaveText(/^\d+ files? queued, /, { timeout: 30_000 })
    own.ids = valueOf(await bridge.call('downloads:list')).filter((download) => tracks.some((track) => track.uploadId === download.uploadId)).map((download) => download.id)
    // Off now (nothing is left to queue), and still holding the focus: a press does nothing.
    await expect(screen.downloadAll).toBeDisabled()
    await expect(screen.downloadAll).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(screen.downloadAll).toBeFocused()
    expect(app.errors).toEqual([])
  })

  test('"Clear selection" and Escape in the selection bar give the focus back to the row', async ({ page, bridge, demo, app }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    valueOf(await bridge.call('settings:set', { downloadConcurrency: 1 }))
    const uploads = pickUploads(demo.catalogue, 3, 130, 2_000_000)
    for (const upload of uploads) demo.faults.add({ path: upload.path, fault: SLOW })
    const { ids } = await enqueue(bridge, own.folder, uploads)
    own.ids = ids
    const [, b, c] = ids as [number, number, number]
    await downloads.open()
    await expect(downloads.rowIn('Queued', c)).toBeVisible()

    // Selected from the keyboard, then to the bar's Clear selection, pressed.
    await downloads.checkbox(c).focus()
    await page.keyboard.press('Space')
    await expect(downloads.selectionCount).toContainText('1 selected')
    await downloads.selectionBar.getByRole('button', { name: 'Clear selection' }).focus()
    await page.keyboard.press('Enter')
    await expect(downloads.selectionBar).toHaveCount(0)
    await expect(downloads.checkbox(c)).toBeFocused()

    // Escape on a button of the bar: the same.
    await downloads.checkbox(b).focus()
    await page.keyboard.press('Space')
    await expect(downloads.selectionCount).toContainText('1 selected')
    await downloads.selectionAction('Pause').focus()
    await page.keyboard.press('Escape')
    await expect(downloads.selectionBar).toHaveCount(0)
    await expect(downloads.checkbox(b)).toBeFocused()
    expect(await onBody(page)).toBe(false)
    expect(app.errors).toEqual([])
  })

  test('"Clear completed" gives the focus to the group beside the one it cleared', async ({ page, bridge, demo, app }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const [small] = pickUploads(demo.catalogue, 1, 150, 100_000, 1_000_000)
    const [slow] = pickUploads(demo.catalogue, 1, 160, 2_000_000)
    demo.faults.add({ path: slow!.path, fault: SLOW })
    const { ids } = await enqueue(bridge, own.folder, [small!, slow!])
    own.ids = ids
    const [done, held] = ids as [number, number]
    valueOf(await bridge.call('downloads:pause', [held]))
    await expect.poll(async () => (await rowOf(bridge, done))?.state, { timeout: 30_000 }).toBe('completed')
    await downloads.open()
    await expect(downloads.rowIn('Paused', held)).toBeVisible()

    const clear = downloads.group('Completed').getByRole('button', { name: /^Clear completed/ })
    await clear.focus()
    await page.keyboard.press('Enter')
    await expect(downloads.group('Completed')).toHaveCount(0)
    await expect(page.locator(':focus')).toHaveAttribute('aria-label', /^Select all in /)
    expect(await onBody(page)).toBe(false)
    expect(app.errors).toEqual([])
  })
})

// Screenshots of the downloads screen with a queue in every state (downloading, queued, paused,
// failed, completed, a completed file gone from disk, cancelled, and a selection), in light and
// dark, at 1280×800 and 800×600 as the screen opens and tall enough for every group, each with
// an accessibility check. Written to test-results/screenshots/downloads-*.png, to be looked at.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pickUploads, valueOf, whenSynced, type DemoUpload } from './support/catalogue-ready'
import { enqueue, rowOf, SLOW, tidy } from './support/downloads-queue'
import { DownloadsPage } from './support/downloads-page'
import { seriousViolations } from './support/axe-check'
import { expect, test } from './support/fixtures'

test.describe('downloads screen, as it looks', () => {
  let folder: string
  let queuedIds: number[] = []

  test.beforeEach(async ({ bridge, demo }) => {
    await whenSynced(bridge)
    demo.faults.clear()
    folder = await mkdtemp(join(tmpdir(), 'tuneshelf-e2e-downloads-'))
    queuedIds = []
  })

  test.afterEach(async ({ bridge, demo }) => {
    demo.faults.clear()
    await tidy(bridge, queuedIds)
    valueOf(await bridge.call('settings:set', { downloadFolder: null, theme: 'system' }))
    await rm(folder, { recursive: true, force: true })
  })

  test('screenshots in light and dark, at 1280×800 and 800×600, with a queue in every state', async ({ page, bridge, demo, app }) => {
    test.setTimeout(120_000)
    const downloads = new DownloadsPage(page, bridge.url)
    valueOf(await bridge.call('settings:set', { theme: 'system' }))
    const [slow, paused, failing, done, cancelled, gone, ...more] = pickUploads(demo.catalogue, 9, 190, 1_000_000, 6_000_000) as DemoUpload[]
    for (const upload of [slow!, paused!, cancelled!, ...more]) demo.faults.add({ path: upload.path, times: 5, fault: SLOW })
    demo.faults.add({ path: failing!.path, fault: { kind: 'status', status: 404 } })
    // The finished file deleted from disk first: its row offers "Download again".
    const gotten = await enqueue(bridge, folder, [gone!])
    await expect.poll(async () => (await rowOf(bridge, gotten.ids[0]!))?.state, { timeout: 30_000 }).toBe('completed')
    await rm((await rowOf(bridge, gotten.ids[0]!))!.targetPath)
    const { ids } = await enqueue(bridge, folder, [done!, failing!, slow!, paused!, cancelled!, ...more])
    queuedIds = [...gotten.ids, ...ids]
    const [doneId, failingId, slowId, pausedId, cancelledId] = ids as [number, number, number, number, number]

    // Tall enough for every group from the start: the list draws the rows in view, and the test looks at rows of each group.
    await page.setViewportSize({ width: 1200, height: 1500 })
    await downloads.open()
    await expect(downloads.rowIn('Completed', doneId)).toBeVisible({ timeout: 30_000 })
    await expect(downloads.rowIn('Failed', failingId)).toBeVisible({ timeout: 30_000 })
    await expect(downloads.rowIn('Downloading', pausedId)).toBeVisible({ timeout: 30_000 })
    await downloads.action(pausedId, 'Pause').click()
    await expect(downloads.rowIn('Paused', pausedId)).toBeVisible()
    await downloads.action(cancelledId, 'Cancel').click()
    await downloads.expectRowIn('Cancelled', cancelledId)
    await expect(downloads.rowIn('Downloading', slowId).getByTestId('time-left')).toHaveText(/left$/)
    await expect(downloads.row(gotten.ids[0]!).getByTestId('file-missing')).toBeVisible()
    await expect(downloads.group('Queued')).toBeVisible()
    await downloads.checkbox(doneId).check()
    await downloads.checkbox(failingId).check()
    expect(app.errors).toEqual([])

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await expect(page.locator('body')).toHaveCSS('color', scheme === 'dark' ? 'rgb(236, 235, 246)' : 'rgb(27, 26, 46)')
      // What the screen opens on: the heading, the figures and the first groups.
      for (const [width, height] of [[1280, 800], [800, 600]] as const) {
        await page.setViewportSize({ width, height })
        await downloads.scrollToTop()
        await app.screenshot(`downloads-${width}-${scheme}`)
      }
      // Tall enough for every group: the content scrolls inside the window, which a full-page shot does not follow.
      await page.setViewportSize({ width: 1200, height: 1500 })
      await app.screenshot(`downloads-${scheme}`)
      expect(await seriousViolations(page)).toEqual([])
    }
    expect(app.errors).toEqual([])
  })
})

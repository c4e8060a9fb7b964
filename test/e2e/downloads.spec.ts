// The downloads screen against the demo, through the app as `npm run web` serves it.
// The bridge is shared by every spec of the worker: each test queues its own uploads
// into a folder of its own, finds its rows by download id, and never assumes an empty queue.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatBytes } from '../../src-main/core/shared/format'
import { pickUploads, valueOf, whenSynced, type DemoUpload } from './support/catalogue-ready'
import { DownloadsPage } from './support/downloads-page'
import { seriousViolations } from './support/axe-check'
import { expect, test } from './support/fixtures'
import type { RunningWebBridge } from './support/web-bridge'

/** Slow enough that a few-megabyte file is still running while the test looks at it, for a minute or more. */
const SLOW = { kind: 'slow', bytesPerSecond: 48_000 } as const

/** What a test queued: the uploads and their download ids, in the same order. */
interface Queued {
  uploads: DemoUpload[]
  ids: number[]
}

/** Queues uploads into folder: the download folder of the settings for the test (a request names no folder of its own). */
async function enqueue(bridge: RunningWebBridge, folder: string, uploads: DemoUpload[]): Promise<Queued> {
  valueOf(await bridge.call('settings:set', { downloadFolder: folder }))
  const result = valueOf(await bridge.call('downloads:enqueue', { uploadIds: uploads.map((upload) => upload.track.uploadId) }))
  const ids = uploads.map((upload) => result.downloads.find((download) => download.uploadId === upload.track.uploadId)!.id)
  return { uploads, ids }
}

/** Takes a test's rows off the queue (stopping any still running), so later tests see a quiet queue. */
async function tidy(bridge: RunningWebBridge, ids: number[]): Promise<void> {
  const rows = valueOf(await bridge.call('downloads:list'))
  const mine = rows.filter((row) => ids.includes(row.id)).map((row) => row.id)
  if (mine.length > 0) valueOf(await bridge.call('downloads:remove', mine))
}

async function monthBytes(bridge: RunningWebBridge): Promise<number> {
  return valueOf(await bridge.call('downloads:monthlyBytes')).bytes
}

test.describe('downloads screen', () => {
  // Each test waits for real transfers, some of them slowed on purpose.
  test.describe.configure({ timeout: 90_000 })
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
    valueOf(await bridge.call('settings:set', { downloadFolder: null }))
    await rm(folder, { recursive: true, force: true })
  })

  test('groups the queue, with progress, speed and time left while downloading, and totals', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const uploads = pickUploads(demo.catalogue, 5, 150, 2_500_000)
    for (const upload of uploads) demo.faults.add({ path: upload.path, fault: SLOW })
    const { ids } = await enqueue(bridge, folder, uploads)
    queuedIds = ids
    const concurrency = valueOf(await bridge.call('settings:get')).downloadConcurrency

    await downloads.open()
    await expect(downloads.heading).toBeVisible()

    // The first ones run (as many as the queue runs at once); the rest wait in Queued.
    const running = downloads.rowIn('Downloading', ids[0]!)
    await expect(running).toBeVisible()
    await expect(running.getByRole('progressbar')).toBeVisible()
    await expect(running.getByText(/^\d+%$/)).toBeVisible()
    await expect(running.getByTestId('speed')).toHaveText(/\d B\/s$|\d KB\/s$|\d MB\/s$/)
    await expect(running.getByTestId('time-left')).toHaveText(/^\d+ (s|min)( \d+ min)? left$|^\d+ h( \d+ min)? left$/)
    await expect(running.getByText(new RegExp(`of ${formatBytes(uploads[0]!.track.bytes).replace('.', '\\.')}$`))).toBeVisible()
    // The percent moves on as bytes arrive.
    const first = Number((await running.getByText(/^\d+%$/).textContent())!.replace('%', ''))
    await expect.poll(async () => Number((await running.getByText(/^\d+%$/).textContent())!.replace('%', '')), { timeout: 20_000 }).toBeGreaterThan(first)

    if (concurrency < ids.length) await expect(downloads.rowIn('Queued', ids[ids.length - 1]!)).toBeVisible()
    await expect(downloads.row(ids[0]!).getByRole('link', { name: uploads[0]!.artist.username })).toBeVisible()

    // The totals: this group's files and bytes, and the overall progress of what is left.
    await expect(downloads.group('Downloading').getByTestId('group-totals')).toHaveText(/^\d+ files? · .+B$/)
    await expect(downloads.overallProgress).toContainText('to go')
    await expect(downloads.page.getByRole('progressbar', { name: 'Overall progress' })).toBeVisible()
    await expect(downloads.monthBytes).toHaveText(/^[\d.]+ [KMG]?B downloaded\s*$/)
  })

  test('pauses and resumes one download and a selection; cancels, retries and removes', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const uploads = pickUploads(demo.catalogue, 4, 160, 2_500_000)
    // Slow for the first request of each file only: what is resumed or retried comes at full speed.
    for (const upload of uploads) demo.faults.add({ path: upload.path, fault: SLOW })
    const before = await monthBytes(bridge)
    const { ids } = await enqueue(bridge, folder, uploads)
    queuedIds = ids
    const [one, two, three, four] = ids as [number, number, number, number]

    await downloads.open()
    await expect(downloads.row(one)).toBeVisible()

    // Pause one, by keyboard: the row moves to Paused and the focus goes with it.
    await downloads.action(one, 'Pause').focus()
    await page.keyboard.press('Enter')
    await expect(downloads.rowIn('Paused', one)).toBeVisible()
    await expect(downloads.rowIn('Paused', one).getByText(/^\d+%$/)).toBeVisible()
    await expect(downloads.action(one, 'Resume')).toBeFocused()
    // A paused download offers what its state allows, and nothing else.
    await expect(downloads.row(one).getByRole('button')).toHaveText(['Resume', 'Cancel', 'Remove'])

    // Resume it: it waits its turn behind the three that run now (the fourth took its place).
    await page.keyboard.press('Enter')
    await expect(downloads.rowIn('Paused', one)).toHaveCount(0)
    await expect(downloads.rowIn('Queued', one).or(downloads.rowIn('Downloading', one))).toBeVisible()
    await expect(downloads.action(one, 'Pause')).toBeFocused()

    // A selection of two: pause both; the resumed one gets a turn and completes (its slow request is over).
    await downloads.checkbox(two).check()
    await downloads.checkbox(three).check()
    await expect(downloads.selectionCount).toHaveText(/^2 selected/)
    await downloads.selectionAction('Pause').click()
    await expect(downloads.rowIn('Paused', two)).toBeVisible()
    await expect(downloads.rowIn('Paused', three)).toBeVisible()
    await expect(downloads.rowIn('Completed', one)).toBeVisible({ timeout: 20_000 })
    await expect(downloads.row(one).getByRole('button')).toHaveText(['Open', 'Show in folder', 'Remove'])
    // The selection stays, and now offers what paused downloads allow; resuming both completes them.
    await expect(downloads.selectionAction('Resume')).toBeVisible()
    await expect(downloads.selectionAction('Pause')).toHaveCount(0)
    await downloads.selectionAction('Resume').click()
    await expect(downloads.rowIn('Completed', two)).toBeVisible({ timeout: 20_000 })
    await expect(downloads.rowIn('Completed', three)).toBeVisible({ timeout: 20_000 })
    await page.keyboard.press('Escape')
    await expect(downloads.selectionBar).toHaveCount(0)

    // Cancel the last one while it runs, retry it (from zero, at full speed now), then remove it.
    await expect(downloads.rowIn('Downloading', four)).toBeVisible()
    await downloads.action(four, 'Cancel').click()
    await expect(downloads.rowIn('Cancelled', four)).toBeVisible()
    await expect(downloads.row(four).getByRole('button')).toHaveText(['Retry', 'Remove'])
    await downloads.action(four, 'Retry').click()
    await expect(downloads.rowIn('Completed', four)).toBeVisible({ timeout: 20_000 })
    await downloads.action(four, 'Remove').click()
    await expect(downloads.row(four)).toHaveCount(0)

    // This month's bytes grew by what was downloaded, and the screen says so.
    const after = await monthBytes(bridge)
    expect(after).toBeGreaterThanOrEqual(before + uploads.reduce((sum, upload) => sum + upload.track.bytes, 0))
    await expect.poll(async () => (await downloads.monthBytes.textContent())?.trim()).toBe(`${formatBytes(await monthBytes(bridge))} downloaded`)
  })

  test('selects with the keyboard: arrows move between rows, Space selects, Ctrl+A all, Escape none', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const uploads = pickUploads(demo.catalogue, 3, 170, 2_500_000)
    for (const upload of uploads) demo.faults.add({ path: upload.path, fault: SLOW })
    const { ids } = await enqueue(bridge, folder, uploads)
    queuedIds = ids
    valueOf(await bridge.call('downloads:pause', ids))

    await downloads.open()
    const paused = downloads.group('Paused')
    for (const id of ids) await expect(downloads.rowIn('Paused', id)).toBeVisible()
    const rows = paused.locator('li[data-download-id]')
    const count = await rows.count()
    const at = await rows.evaluateAll((elements, first) => elements.findIndex((element) => element.getAttribute('data-download-id') === String(first)), ids[0])

    await downloads.checkbox(ids[0]!).focus()
    await page.keyboard.press('Space')
    await expect(downloads.checkbox(ids[0]!)).toBeChecked()
    await page.keyboard.press('ArrowDown')
    await expect(rows.nth(Math.min(at + 1, count - 1)).getByRole('checkbox')).toBeFocused()
    await page.keyboard.press('ArrowUp')
    await expect(downloads.checkbox(ids[0]!)).toBeFocused()
    await expect(downloads.selectionCount).toHaveText(/^1 selected/)

    await page.keyboard.press('Control+a')
    await expect(downloads.selectAll('Paused')).toBeChecked()
    for (const id of ids) await expect(downloads.checkbox(id)).toBeChecked()
    await page.keyboard.press('Escape')
    await expect(downloads.selectionBar).toHaveCount(0)

    // "Select all" in a group selects exactly that group's rows.
    await downloads.selectAll('Paused').check()
    await expect(downloads.selectionCount).toHaveText(new RegExp(`^${count} selected`))
    await expect(downloads.selectionAction('Resume')).toBeVisible()
    await downloads.selectAll('Paused').uncheck()
    await expect(downloads.selectionBar).toHaveCount(0)
  })

  test('a failing download shows its error and can be retried; open and show in folder need the desktop app', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const [upload] = pickUploads(demo.catalogue, 1, 180, 500_000, 3_000_000)
    demo.faults.add({ path: upload!.path, fault: { kind: 'status', status: 404 } })
    const { ids } = await enqueue(bridge, folder, [upload!])
    queuedIds = ids
    const id = ids[0]!

    await downloads.open()
    const failed = downloads.rowIn('Failed', id)
    await expect(failed).toBeVisible({ timeout: 20_000 })
    await expect(failed.getByTestId('download-error')).toContainText('answered 404: the file is not on the server')
    await expect(downloads.row(id).getByRole('button')).toHaveText(['Retry', 'Cancel', 'Remove'])

    await downloads.action(id, 'Retry').click()
    await expect(downloads.rowIn('Completed', id)).toBeVisible({ timeout: 30_000 })

    await downloads.action(id, 'Open').click()
    const openAlert = downloads.alerts.filter({ hasText: `Could not open "${upload!.track.title}"` })
    await expect(openAlert).toContainText('Not available here')
    await expect(openAlert).toContainText('needs the desktop app')
    await openAlert.getByRole('button', { name: /^Dismiss/ }).click()
    await expect(openAlert).toHaveCount(0)

    await downloads.action(id, 'Show in folder').click()
    const revealAlert = downloads.alerts.filter({ hasText: `Could not show "${upload!.track.title}" in its folder` })
    await expect(revealAlert).toContainText('needs the desktop app')
    await revealAlert.getByRole('button', { name: /^Dismiss/ }).click()
  })

  test('screenshots in light and dark, with a queue in every state', async ({ page, bridge, demo, app }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    valueOf(await bridge.call('settings:set', { theme: 'system' }))
    const [slow, paused, failing, done, cancelled] = pickUploads(demo.catalogue, 5, 190, 1_000_000, 6_000_000) as [
      DemoUpload,
      DemoUpload,
      DemoUpload,
      DemoUpload,
      DemoUpload,
    ]
    demo.faults.add({ path: slow.path, fault: SLOW })
    demo.faults.add({ path: paused.path, fault: SLOW })
    demo.faults.add({ path: cancelled.path, fault: SLOW })
    demo.faults.add({ path: failing.path, fault: { kind: 'status', status: 404 } })
    const { ids } = await enqueue(bridge, folder, [done, failing, slow, paused, cancelled])
    queuedIds = ids
    const [doneId, failingId, slowId, pausedId, cancelledId] = ids as [number, number, number, number, number]

    await downloads.open()
    await expect(downloads.rowIn('Completed', doneId)).toBeVisible({ timeout: 30_000 })
    await expect(downloads.rowIn('Failed', failingId)).toBeVisible({ timeout: 30_000 })
    await expect(downloads.rowIn('Downloading', pausedId)).toBeVisible({ timeout: 30_000 })
    await downloads.action(pausedId, 'Pause').click()
    await expect(downloads.rowIn('Paused', pausedId)).toBeVisible()
    await downloads.action(cancelledId, 'Cancel').click()
    await expect(downloads.rowIn('Cancelled', cancelledId)).toBeVisible()
    await expect(downloads.rowIn('Downloading', slowId).getByTestId('time-left')).toHaveText(/left$/)
    await downloads.checkbox(doneId).check()
    await downloads.checkbox(failingId).check()
    expect(app.errors).toEqual([])
    // Tall enough for every group: the content scrolls inside the window, which a full-page shot does not follow.
    await page.setViewportSize({ width: 1200, height: 1000 })
    await app.screenshot('downloads-light')
    expect(await seriousViolations(page)).toEqual([])

    await page.emulateMedia({ colorScheme: 'dark' })
    await expect(page.locator('body')).toHaveCSS('color', 'rgb(236, 235, 246)')
    await app.screenshot('downloads-dark')
    expect(await seriousViolations(page)).toEqual([])
    expect(app.errors).toEqual([])
  })
})

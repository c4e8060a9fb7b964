// The downloads screen against the demo, through the app as `npm run web` serves it.
// The bridge is shared by every spec of the worker: each test queues its own uploads
// into a folder of its own, finds its rows by download id, and never assumes an empty queue.
import { rm } from 'node:fs/promises'
import { formatBytes } from '../../src-main/core/shared/format'
import { pickUploads, valueOf } from './support/catalogue-ready'
import { enqueue, monthBytes, ownQueue, rowOf, shownName, SLOW, untitledUpload } from './support/downloads-queue'
import { DownloadsPage } from './support/downloads-page'
import { expect, test } from './support/fixtures'

test.describe('downloads screen', () => {
  // Each test waits for real transfers, some of them slowed on purpose.
  test.describe.configure({ timeout: 90_000 })
  const own = ownQueue(test, 'tuneshelf-e2e-downloads-')

  test('groups the queue, with progress, speed and time left while downloading, and totals', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const uploads = pickUploads(demo.catalogue, 5, 150, 2_500_000)
    for (const upload of uploads) demo.faults.add({ path: upload.path, fault: SLOW })
    const { ids } = await enqueue(bridge, own.folder, uploads)
    own.ids = ids
    const concurrency = valueOf(await bridge.call('settings:get')).downloadConcurrency

    await downloads.open()
    await expect(downloads.heading).toBeVisible()

    // The first ones run (as many as the queue runs at once); the rest wait in Queued.
    const running = downloads.rowIn('Downloading', ids[0]!)
    await expect(running).toBeVisible()
    await expect(running.getByRole('progressbar')).toBeVisible()
    await expect(running.getByText(/^\d+%$/)).toBeVisible()
    await expect(running.getByTestId('speed')).toHaveText(/\d B\/s$|\d kB\/s$|\d MB\/s$/)
    await expect(running.getByTestId('time-left')).toHaveText(/^\d+ (s|min)( \d+ min)? left$|^\d+ h( \d+ min)? left$/)
    await expect(running.getByText(new RegExp(`of ${formatBytes(uploads[0]!.track.bytes).replace('.', '\\.')}$`))).toBeVisible()
    // The percent moves on as bytes arrive.
    const first = Number((await running.getByText(/^\d+%$/).textContent())!.replace('%', ''))
    await expect.poll(async () => Number((await running.getByText(/^\d+%$/).textContent())!.replace('%', '')), { timeout: 20_000 }).toBeGreaterThan(first)

    expect(concurrency, 'the queue runs fewer at once than are queued').toBeLessThan(ids.length)
    await expect(downloads.rowIn('Queued', ids[ids.length - 1]!)).toBeVisible()
    await expect(downloads.artistLink(ids[0]!)).toHaveText(shownName(uploads[0]!))

    // The totals: this group's files and bytes, and the overall progress of what is left.
    await expect(downloads.group('Downloading').getByTestId('group-totals')).toHaveText(/^\d+ files? · .+B$/)
    await expect(downloads.overallProgress).toContainText('to go')
    await expect(downloads.page.getByRole('progressbar', { name: 'Overall progress' })).toBeVisible()
    await expect(downloads.monthBytes).toHaveText(/^[\d.,]+ (?:B|kB|MB|GB|TB) downloaded\s*$/)
  })

  test('pauses and resumes one download and a selection; cancels, retries and removes', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const uploads = pickUploads(demo.catalogue, 4, 160, 2_500_000)
    // Slow for the first request of each file only: what is resumed or retried comes at full speed.
    for (const upload of uploads) demo.faults.add({ path: upload.path, fault: SLOW })
    const before = await monthBytes(bridge)
    const { ids } = await enqueue(bridge, own.folder, uploads)
    own.ids = ids
    const [one, two, three, four] = ids as [number, number, number, number]

    await downloads.open()
    await expect(downloads.row(one)).toBeVisible()

    // Pause one, by keyboard: the row moves to Paused, and the focus stays in its place (the next running row's Pause).
    await downloads.action(one, 'Pause').focus()
    await page.keyboard.press('Enter')
    await expect(downloads.rowIn('Paused', one)).toBeVisible()
    await expect(downloads.rowIn('Paused', one).getByText(/^\d+%$/)).toBeVisible()
    await expect(downloads.action(two, 'Pause')).toBeFocused()
    // A paused download offers what its state allows, and nothing else.
    await expect(downloads.row(one).getByRole('button')).toHaveText(['Resume', 'Cancel', 'Remove'])

    // Resume it: it waits its turn behind the three that run now (the fourth took its place).
    await downloads.action(one, 'Resume').click()
    await expect(downloads.rowIn('Paused', one)).toHaveCount(0)
    await expect(downloads.rowIn('Queued', one).or(downloads.rowIn('Downloading', one))).toBeVisible()

    // A selection of two: pause both; the resumed one gets a turn and completes (its slow request is over).
    await downloads.checkbox(two).check()
    await downloads.checkbox(three).check()
    await expect(downloads.selectionCount).toHaveText(/^2 selected/)
    await downloads.selectionAction('Pause').click()
    await expect(downloads.rowIn('Paused', two)).toBeVisible()
    await expect(downloads.rowIn('Paused', three)).toBeVisible()
    await downloads.expectRowIn('Completed', one, 20_000)
    await expect(downloads.row(one).getByRole('button')).toHaveText(['Open', 'Show in folder', 'Remove'])
    // The selection stays, and now offers what paused downloads allow; resuming both completes them.
    await expect(downloads.selectionAction('Resume')).toBeVisible()
    await expect(downloads.selectionAction('Pause')).toHaveCount(0)
    await downloads.selectionAction('Resume').click()
    await downloads.expectRowIn('Completed', two, 20_000)
    await downloads.expectRowIn('Completed', three, 20_000)
    await page.keyboard.press('Escape')
    await expect(downloads.selectionBar).toHaveCount(0)

    // Cancel the last one while it runs, retry it (from zero, at full speed now), then remove it.
    await expect(downloads.rowIn('Downloading', four)).toBeVisible()
    await downloads.action(four, 'Cancel').click()
    // Cancelled is below Completed, which other tests of the worker fill: the row may be out of view, so not drawn.
    await downloads.expectRowIn('Cancelled', four)
    await expect(downloads.row(four).getByRole('button')).toHaveText(['Retry', 'Remove'])
    await downloads.action(four, 'Retry').click()
    await downloads.expectRowIn('Completed', four, 20_000)
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
    const { ids } = await enqueue(bridge, own.folder, uploads)
    own.ids = ids
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

  test('a failing download shows its error and can be retried; in a browser, open and show in folder are disabled and say why', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const [upload] = pickUploads(demo.catalogue, 1, 180, 500_000, 3_000_000)
    demo.faults.add({ path: upload!.path, fault: { kind: 'status', status: 404 } })
    const { ids } = await enqueue(bridge, own.folder, [upload!])
    own.ids = ids
    const id = ids[0]!

    await downloads.open()
    const failed = downloads.rowIn('Failed', id)
    await expect(failed).toBeVisible({ timeout: 20_000 })
    await expect(failed.getByTestId('download-error')).toContainText('answered 404: the file is not on the server')
    await expect(downloads.row(id).getByRole('button')).toHaveText(['Retry', 'Cancel', 'Remove'])

    await downloads.action(id, 'Retry').click()
    await downloads.expectRowIn('Completed', id, 30_000)

    // `npm run web` is not the desktop app (app:info says so): the buttons are there, disabled, saying why, and do nothing.
    const hint = 'Needs the desktop app: a browser cannot open files or folders on this computer'
    for (const label of ['Open', 'Show in folder']) {
      const button = downloads.action(id, label)
      await expect(button).toHaveAttribute('aria-disabled', 'true')
      await expect(button).toHaveAttribute('title', hint)
      await expect(button).toHaveAccessibleDescription(hint)
      // Clicked all the same (Playwright would wait for an enabled button): nothing happens.
      await button.click({ force: true })
    }
    await expect(downloads.group('Completed').getByTestId('desktop-only')).toHaveText('Open and Show in folder need the desktop app')
    await downloads.checkbox(id).check()
    await expect(downloads.selectionAction('Open')).toHaveAttribute('aria-disabled', 'true')
    await expect(downloads.selectionAction('Open')).toHaveAttribute('title', hint)
    await downloads.selectionAction('Open').click({ force: true })
    await expect(downloads.alerts).toHaveCount(0)
  })

  test('bulk Cancel while files complete: cancels what it still can, and says in the core\'s words what it skipped', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const [finisher, ...slow] = pickUploads(demo.catalogue, 3, 60, 600_000, 1_500_000)
    // All three run slowly, the finisher too: it is still running when the window selects and cancels it,
    // however loaded the machine (a faster finisher could complete before the click, and the window
    // would not offer to cancel it).
    for (const upload of [finisher!, ...slow]) demo.faults.add({ path: upload.path, fault: SLOW })
    const { ids } = await enqueue(bridge, own.folder, [finisher!, ...slow])
    own.ids = ids
    const [finisherId, ...slowIds] = ids as [number, ...number[]]

    await downloads.open()
    await expect(downloads.rowIn('Downloading', finisherId)).toBeVisible()
    // These three, ticked one by one: the shared bridge's queue may hold other tests' downloads too.
    for (const id of ids) await downloads.checkbox(id).check()
    await expect(downloads.selectionCount).toHaveText(/^3 selected/)
    // The request reaches the core once the finisher has completed there: the race of a queue that moves on.
    // Paused and resumed meanwhile, the finisher goes on from its bytes with a request the service answers at
    // full speed (its slow answer was the first one only), so it completes first.
    await page.route('**/api/downloads:cancel', async (route) => {
      valueOf(await bridge.call('downloads:pause', [finisherId]))
      valueOf(await bridge.call('downloads:resume', [finisherId]))
      await expect.poll(async () => (await rowOf(bridge, finisherId))?.state, { timeout: 30_000 }).toBe('completed')
      await route.continue()
    })
    await downloads.selectionAction('Cancel').click()

    // The cancel reaches the core only once the finisher has completed (the route above waits up to 30 s
    // for it), so the rows move after that, not within the default 5 s of the click.
    await downloads.expectRowIn('Completed', finisherId, 30_000)
    // The note comes with the cancel's answer and closes by itself 6 s later (notices.ts): read it
    // before waiting for the rows, which a loaded machine may take seconds to move.
    const note = downloads.notes.filter({ hasText: 'Cancelled 2 of 3 downloads' })
    await expect(note).toContainText(`1 skipped: download ${finisherId} is completed: only a queued or downloading or paused or failed download can be cancelled`, { timeout: 15_000 })
    for (const id of slowIds) await expect(downloads.rowIn('Cancelled', id)).toBeVisible({ timeout: 15_000 })
    await expect(downloads.alerts).toHaveCount(0)
    for (const id of slowIds) expect((await rowOf(bridge, id))?.state).toBe('cancelled')
  })

  test("a bulk action the core refuses is told in the core's words", async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const uploads = pickUploads(demo.catalogue, 2, 70, 2_500_000)
    for (const upload of uploads) demo.faults.add({ path: upload.path, fault: SLOW })
    const { ids } = await enqueue(bridge, own.folder, uploads)
    own.ids = ids
    await downloads.open()
    for (const id of ids) await downloads.checkbox(id).check()
    const refusal = { name: 'ReadOnlyError', code: 'read_only', message: 'the data folder /x is read-only: downloading needs to write to it', retryable: false }
    await page.route('**/api/downloads:pause', (route) => route.fulfill({ json: { ok: false, error: refusal } }))
    await downloads.selectionAction('Pause').click()
    const alert = downloads.alerts.filter({ hasText: 'Could not pause 2 downloads: Read-only data folder' })
    await expect(alert).toContainText(refusal.message)
    await expect(alert).not.toContainText('[object Object]')
    // Nothing was paused: the rows are back where they were.
    for (const id of ids) await expect(downloads.rowIn('Paused', id)).toHaveCount(0)
  })

  test('Pause all and Resume all act on the whole queue, whatever is selected', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const uploads = pickUploads(demo.catalogue, 5, 80, 2_500_000)
    for (const upload of uploads) demo.faults.add({ path: upload.path, times: 20, fault: SLOW })
    const { ids } = await enqueue(bridge, own.folder, uploads)
    own.ids = ids
    await downloads.open()
    await expect(downloads.rowIn('Downloading', ids[0]!)).toBeVisible()
    await downloads.checkbox(ids[0]!).check()

    await downloads.pauseAll.click()
    for (const id of ids) await expect(downloads.rowIn('Paused', id)).toBeVisible()
    await expect.poll(async () => (await Promise.all(ids.map((id) => rowOf(bridge, id)))).map((row) => row?.state)).toEqual(ids.map(() => 'paused'))
    await expect(downloads.pauseAll).toHaveAttribute('aria-disabled', 'true')
    // The header says what is there: paused files, not "nothing".
    await expect(page.getByTestId('queue-totals')).toHaveText(/^[\d,]+ paused\s*nothing running or queued/)

    await downloads.resumeAll.click()
    await expect(downloads.group('Paused')).toHaveCount(0)
    await expect(downloads.rowIn('Downloading', ids[0]!)).toBeVisible()
    await expect.poll(async () => (await Promise.all(ids.map((id) => rowOf(bridge, id)))).every((row) => row?.state === 'queued' || row?.state === 'downloading')).toBe(true)
  })

  test('the overall progress covers the whole batch since the queue was idle, completed files included, with speed and time left', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const [quick, other] = pickUploads(demo.catalogue, 2, 90, 200_000, 1_000_000)
    const [large] = pickUploads(demo.catalogue, 1, 95, 3_000_000)
    demo.faults.add({ path: large!.path, fault: SLOW })
    const uploads = [quick!, other!, large!]
    const { ids } = await enqueue(bridge, own.folder, uploads)
    own.ids = ids
    await downloads.open()
    await downloads.expectRowIn('Completed', ids[0]!, 30_000)
    await downloads.expectRowIn('Completed', ids[1]!, 30_000)
    await expect(downloads.rowIn('Downloading', ids[2]!)).toBeVisible()

    const total = uploads.reduce((sum, upload) => sum + upload.track.bytes, 0)
    await expect(downloads.overallProgress).toContainText('1 file to go')
    await expect(downloads.overallProgress).toContainText('2 of 3 files done')
    await expect(downloads.overallProgress).toContainText(`of ${formatBytes(total)}`)
    const bar = page.getByRole('progressbar', { name: 'Overall progress' })
    await expect(bar).toHaveAttribute('aria-valuemax', String(total))
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(quick!.track.bytes + other!.track.bytes)
    await expect(downloads.overallSpeed).toHaveText(/\d (B|kB|MB)\/s$/)
    await expect(downloads.overallTimeLeft).toHaveText(/left$/)

    // A reload in the middle of the batch reads the same batch back.
    await page.reload()
    await expect(downloads.overallProgress).toContainText(`of ${formatBytes(total)}`)
  })

  test('names: the artist\'s name, and "Untitled" for a blank title, on the row and its buttons', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const upload = untitledUpload(demo.catalogue, 100)
    const { ids } = await enqueue(bridge, own.folder, [upload])
    own.ids = ids
    const id = ids[0]!
    await downloads.open()
    await downloads.expectRowIn('Completed', id, 30_000)
    await expect(downloads.row(id).locator('.title')).toHaveText('Untitled')
    await expect(downloads.artistLink(id)).toHaveText(upload.artist.pfName)
    await expect(downloads.row(id).getByRole('button', { name: 'Remove Untitled', exact: true })).toBeVisible()
    await expect(downloads.row(id).getByRole('button', { name: 'Open Untitled', exact: true })).toBeVisible()
    await expect(downloads.checkbox(id)).toHaveAccessibleName('Select Untitled')
  })

  test('Cancel on a queued row keeps the user\'s place; Cancel and Remove say what they do', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    await page.setViewportSize({ width: 1280, height: 800 })
    const uploads = pickUploads(demo.catalogue, 30, 110, 2_000_000)
    for (const upload of uploads) demo.faults.add({ path: upload.path, times: 5, fault: SLOW })
    const { ids } = await enqueue(bridge, own.folder, uploads)
    own.ids = ids
    await downloads.open()
    // The 11th and 12th queued rows (the screen draws the rows in view: it is scrolled to them).
    const queuedIds = async (): Promise<number[]> => valueOf(await bridge.call('downloads:page', { group: 'queued', offset: 0, limit: 50 })).downloads.map((row) => row.id)
    await expect.poll(async () => (await queuedIds()).length).toBeGreaterThan(20)
    await expect(downloads.group('Queued').getByTestId('group-totals')).toHaveText(/^(2\d|30) files/)
    const [target, next] = (await queuedIds()).slice(10, 12) as [number, number]
    await downloads.scrollToRow(next)
    await downloads.action(target, 'Cancel').scrollIntoViewIfNeeded()
    await downloads.action(target, 'Cancel').focus()
    const before = await downloads.scrollTop()
    await page.keyboard.press('Enter')
    // Cancelled (its row is in the Cancelled group, further down than the screen draws).
    await expect.poll(async () => (await rowOf(bridge, target))?.state).toBe('cancelled')
    await expect(downloads.group('Cancelled')).toBeAttached()
    await expect(downloads.rowIn('Queued', target)).toHaveCount(0)
    // The focus is on the next queued row, same button; the screen did not jump to the Cancelled group.
    await expect(downloads.action(next, 'Cancel')).toBeFocused()
    expect(Math.abs((await downloads.scrollTop()) - before)).toBeLessThan(80)
    await expect(downloads.action(next, 'Cancel')).toBeInViewport()
    await page.waitForTimeout(500)
    expect(Math.abs((await downloads.scrollTop()) - before)).toBeLessThan(80)

    // What Cancel and Remove do is said: under the heading, and on each button.
    await expect(downloads.actionsHelp).toHaveText(
      'Cancel stops a download and deletes the part downloaded so far. Remove takes a download off this list; its file stays on disk.',
    )
    await expect(downloads.action(next, 'Cancel')).toHaveAttribute('title', 'Stop the download and delete the part downloaded so far')
    await expect(downloads.action(next, 'Cancel')).toHaveAccessibleDescription('Stop the download and delete the part downloaded so far')
    await expect(downloads.action(next, 'Remove')).toHaveAttribute('title', 'Take it off this list; a downloaded file stays on disk')
  })

  test('a download that completes while its button has the focus hands it to the next row, not to the page', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    // A small file that ends in seconds, then two large ones that run on meanwhile.
    const [small] = pickUploads(demo.catalogue, 1, 120, 200_000, 400_000)
    const large = pickUploads(demo.catalogue, 2, 160, 2_000_000)
    demo.faults.add({ path: small!.path, times: 1, fault: SLOW })
    for (const upload of large) demo.faults.add({ path: upload.path, times: 5, fault: { kind: 'slow', bytesPerSecond: 20_000 } })
    const { ids } = await enqueue(bridge, own.folder, [small!, ...large])
    own.ids = ids
    const [done, next] = ids as [number, number]
    await downloads.open()
    await expect(downloads.rowIn('Downloading', done)).toBeVisible()
    await expect(downloads.rowIn('Downloading', next)).toBeVisible()
    await downloads.action(done, 'Pause').focus()

    await downloads.expectRowIn('Completed', done, 30_000)
    await expect(downloads.action(next, 'Pause')).toBeFocused()
  })

  test('a finished file deleted from disk offers "Download again" instead of Open', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const [upload] = pickUploads(demo.catalogue, 1, 120, 200_000, 1_500_000)
    const { ids } = await enqueue(bridge, own.folder, [upload!])
    own.ids = ids
    const id = ids[0]!
    await expect.poll(async () => (await rowOf(bridge, id))?.state, { timeout: 30_000 }).toBe('completed')
    await rm((await rowOf(bridge, id))!.targetPath)

    await downloads.open()
    await downloads.expectRowIn('Completed', id)
    await expect(downloads.row(id).getByTestId('file-missing')).toHaveText('The file is no longer on disk')
    await expect(downloads.row(id).getByRole('group', { name: /^Actions for / }).getByRole('button')).toHaveText(['Download again', 'Remove'])
    await downloads.action(id, 'Download again').click()
    await expect(downloads.rowIn('Completed', id).getByRole('button')).toHaveText(['Open', 'Show in folder', 'Remove'], { timeout: 30_000 })
    expect((await rowOf(bridge, id))?.fileMissing).toBe(false)
  })

  test('completed downloads are listed newest first, by when each finished, not in queue order', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const [first, second, third] = pickUploads(demo.catalogue, 3, 130, 100_000, 1_000_000)
    // One after another, each finished before the next is queued: finished in queue order, listed the other way round.
    const ids: number[] = []
    for (const upload of [first!, second!, third!]) {
      const queued = await enqueue(bridge, own.folder, [upload])
      ids.push(queued.ids[0]!)
      own.ids = [...ids]
      await expect.poll(async () => (await rowOf(bridge, queued.ids[0]!))?.state, { timeout: 30_000 }).toBe('completed')
    }
    await downloads.open()
    await downloads.expectRowIn('Completed', ids[2]!)
    const shown = async (): Promise<number[]> =>
      (await downloads.group('Completed').locator('li[data-download-id]').evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-download-id')))))
        .filter((id) => ids.includes(id))
    await expect.poll(shown).toEqual([ids[2], ids[1], ids[0]])
    // The oldest's file deleted and downloaded again: it finishes last, and goes on top.
    await rm((await rowOf(bridge, ids[0]!))!.targetPath)
    valueOf(await bridge.call('downloads:redownload', [ids[0]!]))
    await expect.poll(async () => (await rowOf(bridge, ids[0]!))?.state, { timeout: 30_000 }).toBe('completed')
    await expect.poll(shown, { timeout: 10_000 }).toEqual([ids[0], ids[2], ids[1]])
  })
})

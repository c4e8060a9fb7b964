// A queue people expect, through the app as `npm run web` serves it: queued downloads reordered by
// their buttons, the selection bar, dragging and the keyboard, and started in that order (one at a
// time); Clear completed (the files stay); the speed limit of the settings, applied live; and the
// totals at the top. Screenshots of the screen with its totals and a context menu, light and dark.
import fs from 'node:fs'
import { pickUploads, valueOf } from './support/catalogue-ready'
import { ContextMenuPage } from './support/context-menu'
import { enqueue, ownQueue, queueInLine, rowOf } from './support/downloads-queue'
import { DownloadsPage } from './support/downloads-page'
import { expect, test } from './support/fixtures'
import type { AppPage } from './support/app-page'

/** The ids of a group's rows, top to bottom. */
async function order(downloads: DownloadsPage, group: 'Queued' | 'Completed'): Promise<number[]> {
  return downloads.group(group).locator('li[data-download-id]').evaluateAll((rows) => rows.map((row) => Number((row as HTMLElement).dataset.downloadId)))
}

/** A speed as the screen writes it ("256 kB/s", "1.2 MB/s"), in bytes a second; NaN for none ("—"). */
function speedOf(text: string): number {
  const match = /([\d.,]+)\s*(B|kB|MB|GB)\/s/.exec(text)
  if (!match) return Number.NaN
  return Number(match[1]!.replace(/,/g, '')) * { B: 1, kB: 1e3, MB: 1e6, GB: 1e9 }[match[2] as 'B']
}

/** test-results/screenshots/<name>-light.png and -dark.png, to be looked at. */
async function screenshot(app: AppPage, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await app.page.emulateMedia({ colorScheme: scheme })
    await app.screenshot(`${name}-${scheme}`)
  }
  await app.page.emulateMedia({ colorScheme: null })
}

test.describe('the download queue', () => {
  test.describe.configure({ timeout: 120_000 })
  const own = ownQueue(test, 'tuneshelf-e2e-queue-')

  test('reorders queued downloads by buttons, the selection bar, dragging and the keyboard, and starts them in that order', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    // Each file slow, so the one running holds the others in line while the test reorders them.
    const ids = await queueInLine(own, bridge, demo, 4, 20)
    const [a, b, c, d] = ids as [number, number, number, number]

    await downloads.open()
    await expect(downloads.rowIn('Downloading', a)).toBeVisible()
    await expect.poll(() => order(downloads, 'Queued')).toEqual([b, c, d])

    // A row's button: d to the top.
    await downloads.row(d).getByRole('button', { name: /^Move to top / }).click()
    await expect.poll(() => order(downloads, 'Queued')).toEqual([d, b, c])

    // Dragged: c dropped on the upper half of d goes before it. Taken by its artist's name, which
    // moves the row (a link would drag its own address otherwise).
    await downloads.row(c).locator('a.artist').dragTo(downloads.row(d), { targetPosition: { x: 300, y: 4 } })
    await expect.poll(() => order(downloads, 'Queued')).toEqual([c, d, b])

    // The keyboard: Alt+ArrowDown moves the focused row one place down; the focus stays on it.
    await downloads.checkbox(c).focus()
    await page.keyboard.press('Alt+ArrowDown')
    await expect.poll(() => order(downloads, 'Queued')).toEqual([d, c, b])
    await expect(downloads.checkbox(c)).toBeFocused()
    await page.keyboard.press('Alt+ArrowUp')
    await expect.poll(() => order(downloads, 'Queued')).toEqual([c, d, b])
    await page.keyboard.press('Alt+ArrowDown')
    await expect.poll(() => order(downloads, 'Queued')).toEqual([d, c, b])

    // The selection bar: b to the top.
    await downloads.checkbox(b).check()
    await downloads.selectionBar.getByRole('button', { name: /^Move to top / }).click()
    await expect.poll(() => order(downloads, 'Queued')).toEqual([b, d, c])
    await downloads.selectionBar.getByRole('button', { name: 'Clear selection' }).click()

    // The order the queue starts them in: each time the running one pauses, the top of the queue starts.
    for (const [running, next] of [[a, b], [b, d], [d, c]] as const) {
      valueOf(await bridge.call('downloads:pause', [running]))
      await expect(downloads.rowIn('Downloading', next)).toBeVisible()
      expect((await rowOf(bridge, next))!.state).toBe('downloading')
    }
    // The order outlives a reload: it is the core's.
    await page.reload()
    await expect(downloads.rowIn('Downloading', c)).toBeVisible()
  })

  test('moves a queued row as many places as Alt+arrow is pressed, however fast the presses come', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const ids = await queueInLine(own, bridge, demo, 6, 170)
    const [a, b, c, d, e, f] = ids as [number, number, number, number, number, number]
    await downloads.open()
    await expect(downloads.rowIn('Downloading', a)).toBeVisible()
    await expect.poll(() => order(downloads, 'Queued')).toEqual([b, c, d, e, f])

    // Four presses in a row, sooner than the core answers the first: four places down, the focus on the row.
    await downloads.checkbox(b).focus()
    for (let press = 0; press < 4; press++) await page.keyboard.press('Alt+ArrowDown')
    await expect.poll(() => order(downloads, 'Queued')).toEqual([c, d, e, f, b])
    await expect(downloads.checkbox(b)).toBeFocused()
    // And back up three, pressed within one task (no answer can come between them).
    await downloads.checkbox(b).evaluate((check) => {
      for (let press = 0; press < 3; press++) check.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', altKey: true, bubbles: true, cancelable: true }))
    })
    await expect.poll(() => order(downloads, 'Queued')).toEqual([c, b, d, e, f])
    await expect(downloads.checkbox(b)).toBeFocused()
    expect(valueOf(await bridge.call('downloads:list', 'queued')).map((row) => row.id).filter((id) => ids.includes(id))).toEqual([c, b, d, e, f])
  })

  test('Move to top from the keyboard on a row far down the queue: the screen comes with the row, the focus in sight', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const ids = await queueInLine(own, bridge, demo, 12, 120)
    const last = ids.at(-1)!
    await page.setViewportSize({ width: 1280, height: 600 })
    await downloads.open()
    // Far down: the screen is scrolled to it (the list draws the rows in view).
    await downloads.scrollToRow(last)
    await expect(downloads.rowIn('Queued', last)).toBeVisible()
    const top = downloads.row(last).getByRole('button', { name: /^Move to top / })
    await top.focus()
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await order(downloads, 'Queued'))[0]).toBe(last)
    await expect(downloads.row(last).locator(':focus')).toHaveCount(1)
    await expect(downloads.row(last).locator(':focus')).toBeInViewport({ ratio: 1 })
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  test('clears the completed downloads, with their count; the files stay on disk', async ({ page, bridge, demo }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const uploads = pickUploads(demo.catalogue, 2, 40, 100_000, 1_000_000)
    const { ids } = await enqueue(bridge, own.folder, uploads)
    own.ids = ids
    await expect.poll(async () => (await Promise.all(ids.map((id) => rowOf(bridge, id)))).map((row) => row?.state)).toEqual(['completed', 'completed'])
    const files = await Promise.all(ids.map(async (id) => (await rowOf(bridge, id))!.targetPath))
    const completed = valueOf(await bridge.call('downloads:list', 'completed')).length

    await downloads.open()
    const clear = downloads.group('Completed').getByRole('button', { name: `Clear completed (${completed})` })
    await expect(clear).toBeVisible()
    await clear.click()
    await expect(downloads.group('Completed')).toHaveCount(0)
    for (const id of ids) await expect(downloads.row(id)).toHaveCount(0)
    expect(valueOf(await bridge.call('downloads:list', 'completed'))).toEqual([])
    for (const file of files) expect(fs.existsSync(file)).toBe(true)
  })

  test('applies the speed limit of the settings live, and shows the total speed and time left at the top', async ({ page, bridge, demo, app }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    // Big enough that neither limit lets it finish while the test looks (6 MB at 256 kB/s: over 20 s, even
    // with the first burst and a slow page load on a loaded machine).
    const [big] = pickUploads(demo.catalogue, 1, 60, 6_000_000)
    // Limited from the Settings screen, as a user does.
    await page.goto(`${bridge.url}#/settings`)
    const limit = page.getByLabel('Download speed limit')
    await limit.selectOption({ label: '256 kB/s' })
    await expect(page.getByTestId('speed-limit-now')).toHaveText('256 kB/s')
    const { ids } = await enqueue(bridge, own.folder, [big!])
    own.ids = ids

    await downloads.open()
    await expect(downloads.rowIn('Downloading', ids[0]!)).toBeVisible({ timeout: 15_000 })
    const totals = page.getByTestId('queue-totals')
    await expect(totals).toContainText('1 downloading')
    await expect(page.getByTestId('speed-limit-badge')).toHaveText('Limit 256 kB/s')
    // The speed is a moving average: once it settles from the first burst, it is the limit's.
    const totalSpeed = async (): Promise<number> => speedOf(await page.getByTestId('total-speed').innerText())
    await expect.poll(async () => Math.abs((await totalSpeed()) - 256_000), { timeout: 15_000 }).toBeLessThan(80_000)
    await expect(page.getByTestId('total-time-left')).toHaveText(/^\d+ (s|min) left · [\d.]+ MB$/)
    await screenshot(app, 'queue-totals')

    // Lower, live (a limit of one's own, 64 kB/s): the same download slows down (the row's speed and the total follow).
    await page.goto(`${bridge.url}#/settings`)
    await limit.selectOption({ label: 'Custom…' })
    await page.getByLabel('Custom limit in kB/s').fill('64')
    await page.getByLabel('Custom limit in kB/s').press('Enter')
    await expect(page.getByTestId('speed-limit-now')).toHaveText('64 kB/s')
    await downloads.open()
    await expect.poll(totalSpeed, { timeout: 15_000 }).toBeLessThan(120_000)
    const percent = async (): Promise<number> => Number((await downloads.row(ids[0]!).getByText(/^\d+%$/).textContent())!.replace('%', ''))
    const slowFrom = await percent()
    expect((await rowOf(bridge, ids[0]!))!.state).toBe('downloading')

    // No limit: it finishes at once.
    valueOf(await bridge.call('settings:set', { downloadSpeedLimit: null }))
    await expect(downloads.rowIn('Completed', ids[0]!)).toBeVisible({ timeout: 15_000 })
    expect(slowFrom).toBeLessThan(100)
  })

  test('screenshots: a download row menu, light and dark', async ({ page, bridge, demo, app }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const menu = new ContextMenuPage(page)
    const ids = await queueInLine(own, bridge, demo, 3, 80)
    await downloads.open()
    await expect(downloads.rowIn('Queued', ids[2]!)).toBeVisible()
    await menu.openOn(downloads.row(ids[1]!), { x: 260, y: 20 })
    await menu.expectInsideWindow()
    await screenshot(app, 'queue-context-menu')
  })
})

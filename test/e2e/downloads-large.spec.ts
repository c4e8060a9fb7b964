// The downloads screen on a queue of thousands (every track of the demo, about 2,200, held in line by a
// slow queue that runs one at a time), through the app as `npm run web` serves it: the window reads the
// rows in view, Select all (Ctrl+A) and Pause each answer within 100 ms in the window (the selection's
// count, the groups' counts and the rows in view change at once; the core's answer settles them),
// Resume all and Move to top likewise (the median of three rounds each); the screen scrolled to the middle of the
// queue shows its rows.
// Screenshots in light and dark at 1200×800 and 800×600 with an axe check: downloads-large-*.png.
import type { Page } from '@playwright/test'
import { valueOf } from './support/catalogue-ready'
import { ownQueue, SLOW } from './support/downloads-queue'
import { DownloadsPage } from './support/downloads-page'
import { seriousViolations } from './support/axe-check'
import { expect, test } from './support/fixtures'

/** How long the window may take to show what an action did. */
const BUDGET_MS = 100

/** What the page must show for an action to have been answered. */
type Shown =
  /** The selection bar counts this many. */
  | { selected: string }
  /** These groups' figures start so ('' for a group not shown, '*' for one shown). */
  | { groups: Record<string, string> }
  /** The queued group's first row drawn is this download. */
  | { firstQueued: number }

/**
 * Times, in the page, from the input event the browser got (its own timestamp) to the first DOM state that
 * shows `shown`: watched by a MutationObserver, so the time is when the page showed it, not when the test saw it.
 */
async function timeInPage(page: Page, trigger: () => Promise<void>, shown: Shown): Promise<number> {
  await page.evaluate((wanted) => {
    const probe = { start: 0, end: 0 }
    ;(window as unknown as { probe: typeof probe }).probe = probe
    const figures = (group: string): string =>
      document.querySelector(`section[data-group="${group}"] [data-testid="group-totals"]`)?.textContent?.trim() ?? ''
    const holds = (): boolean => {
      if ('selected' in wanted) return document.querySelector('[data-testid="selection-count"]')?.textContent?.trim().startsWith(wanted.selected) ?? false
      if ('groups' in wanted) {
        return Object.entries(wanted.groups).every(([group, text]) => (text === '' ? figures(group) === '' : text === '*' ? figures(group) !== '' : figures(group).startsWith(text)))
      }
      const rows = [...document.querySelectorAll<HTMLElement>('section[data-group="queued"] li[data-download-id]')]
      rows.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
      return rows[0]?.dataset.downloadId === String(wanted.firstQueued)
    }
    const seen = (): void => {
      if (probe.start > 0 && probe.end === 0 && holds()) probe.end = performance.now()
    }
    for (const type of ['keydown', 'click']) {
      document.addEventListener(
        type,
        (event) => {
          if (probe.start === 0) probe.start = event.timeStamp
          queueMicrotask(seen)
        },
        { capture: true, once: true },
      )
    }
    new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
  }, shown)
  await trigger()
  await expect.poll(() => page.evaluate(() => (window as unknown as { probe: { end: number } }).probe.end), { timeout: 30_000 }).toBeGreaterThan(0)
  return page.evaluate(() => {
    const { start, end } = (window as unknown as { probe: { start: number; end: number } }).probe
    return end - start
  })
}

/** A count as the screen writes it. */
const count = (value: number): string => value.toLocaleString('en-US')

test.describe('the downloads screen on a queue of thousands', () => {
  test.describe.configure({ timeout: 300_000 })
  const own = ownQueue(test, 'tuneshelf-e2e-large-')

  test('Select all and Pause answer at once in the window; the rows in view and the counts follow; the middle of the queue is there', async ({ page, bridge, demo, app }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    // One at a time, each slow: the queue holds its thousands in line while the test acts on them.
    valueOf(await bridge.call('settings:set', { downloadConcurrency: 1, theme: 'system' }))
    demo.faults.add({ path: '/hotlink/*', times: 1_000_000, fault: SLOW })
    const uploadIds = demo.catalogue.artists.filter((artist) => !artist.removed).flatMap((artist) => demo.catalogue.tracksOf(artist).map((track) => track.uploadId))
    valueOf(await bridge.call('settings:set', { downloadFolder: own.folder }))
    const { downloads: queued } = valueOf(await bridge.call('downloads:enqueue', { uploadIds }))
    own.ids = queued.map((download) => download.id)
    const total = queued.length
    expect(total).toBeGreaterThan(2000)
    await expect.poll(async () => valueOf(await bridge.call('downloads:summary')).groups.downloading.files).toBe(1)

    await page.setViewportSize({ width: 1200, height: 800 })
    const reads = { page: 0, list: 0 }
    page.on('request', (request) => {
      if (request.url().includes('/api/downloads:page')) reads.page++
      if (request.url().includes('/api/downloads:list')) reads.list++
    })
    await downloads.open()
    await expect(downloads.group('Queued').getByTestId('group-totals')).toHaveText(/^2,\d{3} files/)
    // The window read the rows in view, a page at a time, never the whole queue.
    const firstQueued = valueOf(await bridge.call('downloads:page', { group: 'queued', offset: 0, limit: 1 })).downloads
    await expect(downloads.rowIn('Queued', firstQueued[0]!.id)).toBeVisible()
    expect(reads.list).toBe(0)
    expect(reads.page).toBeLessThan(10)
    expect(await downloads.group('Queued').locator('li[data-download-id]').count()).toBeLessThan(40)

    // Three rounds, each timed in the window (the median is held to the budget: a loaded machine has its moments):
    // Select all, Pause; Resume all; Move to top of every queued one but the first.
    const times: Record<'Select all' | 'Pause' | 'Resume all' | 'Move to top', number[]> = { 'Select all': [], Pause: [], 'Resume all': [], 'Move to top': [] }
    for (let round = 0; round < 3; round++) {
      const shown = valueOf(await bridge.call('downloads:page', { group: 'queued', offset: 0, limit: 3 })).downloads
      await expect(downloads.rowIn('Queued', shown[0]!.id)).toBeVisible()
      // Select all, from the keyboard on a row: every download of the queue (the bridge's queue may hold other tests' too).
      const all = Object.values(valueOf(await bridge.call('downloads:summary')).groups).reduce((sum, group) => sum + group.files, 0)
      await downloads.checkbox(shown[0]!.id).focus()
      times['Select all'].push(await timeInPage(page, () => page.keyboard.press('Control+a'), { selected: `${count(all)} selected` }))
      await expect(downloads.selectAll('Queued')).toBeChecked()
      await expect(downloads.checkbox(shown[2]!.id)).toBeChecked()

      // Pause, from the selection bar: every row that runs or waits goes to Paused, the rows in view with it. (A small
      // file may complete meanwhile, even slowed: what is paused is counted from the core's answer.)
      times.Pause.push(await timeInPage(page, () => downloads.selectionAction('Pause').click(), { groups: { paused: '*', queued: '', downloading: '' } }))
      await expect(downloads.rowIn('Paused', shown[1]!.id)).toBeVisible()
      await expect(downloads.rowIn('Paused', shown[1]!.id).getByRole('button', { name: /^Resume / })).toBeVisible()
      await expect(downloads.group('Queued')).toHaveCount(0)
      await expect(downloads.selectionCount).toHaveText(new RegExp(`^${count(all)} selected`))
      // The core's answer settles it: nothing runs or waits there either, and the screen counts what it paused.
      await expect.poll(async () => {
        const { groups } = valueOf(await bridge.call('downloads:summary'))
        return groups.queued.files + groups.downloading.files
      }, { timeout: 60_000 }).toBe(0)
      const paused = valueOf(await bridge.call('downloads:summary')).groups.paused.files
      expect(paused).toBeGreaterThan(total - 20)
      await expect(downloads.group('Paused').getByTestId('group-totals')).toHaveText(new RegExp(`^${count(paused)} files`))
      await page.keyboard.press('Escape')
      await expect(downloads.selectionBar).toHaveCount(0)

      if (round === 0) {
        // The middle of the queue: scrolled to, its rows are read and drawn, and no more than those around it.
        const middle = valueOf(await bridge.call('downloads:page', { group: 'paused', offset: Math.floor(total / 2), limit: 1 })).downloads[0]!
        await page.locator('main#content').evaluate((element) => element.scrollTo(0, element.scrollHeight / 2))
        await downloads.scrollToRow(middle.id)
        await expect(downloads.rowIn('Paused', middle.id)).toBeVisible()
        expect(await page.locator('li[data-download-id]').count()).toBeLessThan(60)
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme })
          await expect(page.locator('li.placeholder')).toHaveCount(0)
          await app.screenshot(`downloads-large-middle-1200-${scheme}`)
        }
        await page.emulateMedia({ colorScheme: null })
      }

      // Resume all, from the top of the screen.
      await downloads.scrollToTop()
      times['Resume all'].push(await timeInPage(page, () => downloads.resumeAll.click(), { groups: { paused: '', queued: `${count(paused)} files` } }))
      await expect.poll(async () => valueOf(await bridge.call('downloads:summary')).groups.paused.files, { timeout: 60_000 }).toBe(0)

      // Move to top: every queued one but the first, which comes after them all.
      const queuedNow = valueOf(await bridge.call('downloads:page', { group: 'queued', offset: 0, limit: 2 })).downloads
      await expect(downloads.rowIn('Queued', queuedNow[0]!.id)).toBeVisible()
      await downloads.selectAll('Queued').check()
      await downloads.checkbox(queuedNow[0]!.id).uncheck()
      times['Move to top'].push(await timeInPage(page, () => downloads.selectionBar.getByRole('button', { name: /^Move to top / }).click(), { firstQueued: queuedNow[1]!.id }))
      // In the core too: the one left out is now after all the others (unless it has started meanwhile).
      await expect.poll(async () => {
        const order = valueOf(await bridge.call('downloads:list', 'queued')).toSorted((a, b) => a.queueOrder - b.queueOrder || a.id - b.id).map((row) => row.id)
        const at = order.indexOf(queuedNow[0]!.id)
        return at === -1 || at === order.length - 1
      }, { timeout: 60_000 }).toBe(true)
      await downloads.selectionBar.getByRole('button', { name: 'Clear selection' }).click()
      await expect(downloads.selectionBar).toHaveCount(0)
    }
    const median = (values: number[]): number => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!
    console.log(
      `${count(total)} downloads, in the window (ms, each round; median): ` +
        Object.entries(times).map(([what, values]) => `${what} ${values.map((value) => value.toFixed(0)).join(', ')}; ${median(values).toFixed(0)}`).join(' | '),
    )
    expect(app.errors).toEqual([])

    // How it looks: the top of the screen, light and dark, at 1200×800 and 800×600, checked by axe.
    await downloads.scrollToTop()
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      for (const [width, height] of [[1200, 800], [800, 600]] as const) {
        await page.setViewportSize({ width, height })
        await downloads.scrollToTop()
        await expect(page.locator('li.placeholder')).toHaveCount(0)
        await app.screenshot(`downloads-large-${width}-${scheme}`)
      }
      expect(await seriousViolations(page)).toEqual([])
    }
    await page.emulateMedia({ colorScheme: null })

    for (const [what, values] of Object.entries(times)) expect(median(values), `${what} on ${total} downloads, in the window`).toBeLessThan(BUDGET_MS)
  })
})

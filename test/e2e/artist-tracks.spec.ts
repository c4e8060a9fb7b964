// An artist with a thousand tracks: the list draws the rows in view only (a few hundred
// elements, not ten thousand), paints at once, keeps up while "Download all" queues every
// track, and stays a list to the keyboard and to screen readers, row state and all.
import type { ArtistRecord, TrackRecord } from '../../src-main/demo/catalogue'
import { ArtistPage } from './support/artist-page'
import { downloadNow } from './support/catalogue-picks'
import { expect, test } from './support/fixtures'
import { startIsolatedApp, type IsolatedApp } from './support/isolated-app'
import { giveTracks } from './support/long-artist'

test.describe.configure({ mode: 'serial', timeout: 120_000 })

const TRACKS = 1000
/** Elements under the screen's main element for a thousand tracks (about 16 a row were drawn for every row). */
const MAX_NODES = 1500

let own: IsolatedApp
let artist: ArtistRecord
let tracks: TrackRecord[]

test.beforeAll(async () => {
  test.setTimeout(180_000)
  own = await startIsolatedApp({
    catalogue: { artists: 40, seed: 5, maxFileMb: 1 },
    beforeStart: (demo) => {
      artist = giveTracks(demo, TRACKS)
      tracks = demo.catalogue.tracksOf(artist)
    },
  })
  const synced = await own.bridge.call('sync:start')
  if (!synced.ok) throw new Error(synced.error.message)
})

test.afterAll(async () => {
  await own?.close()
})

test('a thousand tracks paint at once and draw a bounded number of elements', async ({ page }) => {
  const screen = new ArtistPage(page, own.bridge.url)
  // The app opened on another screen first: the figure is the artist screen's, not the page load's.
  await screen.shell.open('whats-new')
  await expect(page.getByRole('heading', { level: 1, name: "What's new" })).toBeVisible()
  const figures = await page.evaluate(async (username) => {
    const longest: number[] = []
    const observer = new PerformanceObserver((list) => longest.push(...list.getEntries().map((entry) => entry.duration)))
    observer.observe({ type: 'longtask' })
    const start = performance.now()
    window.location.hash = `#/artists/${encodeURIComponent(username)}`
    // The first row in the document, then the frame that paints it.
    await new Promise<void>((resolve) => {
      const check = (): void => (document.querySelector('main [data-upload-id]') ? resolve() : void requestAnimationFrame(check))
      check()
    })
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
    const paintMs = performance.now() - start
    observer.disconnect()
    // When the cache's answer (the artist and its tracks) was in: what comes after it is the drawing.
    const answer = performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.endsWith('/api/catalogue:artist') && entry.startTime >= start)
      .map((entry) => (entry as PerformanceResourceTiming).responseEnd - start)[0]
    return { paintMs, answerMs: answer ?? 0, nodes: document.querySelectorAll('main *').length, longestTaskMs: Math.max(0, ...longest) }
  }, artist.username)
  console.log(
    `${TRACKS} tracks: first paint ${Math.round(figures.paintMs)} ms after the click, ${Math.round(figures.paintMs - figures.answerMs)} ms after the cache's answer; ` +
      `longest task ${Math.round(figures.longestTaskMs)} ms; ${figures.nodes} elements`,
  )
  await expect(screen.name).toHaveText(artist.pfName.trim())
  await expect(page.getByRole('heading', { name: /^Tracks/ })).toContainText(TRACKS.toLocaleString('en'))
  expect(figures.nodes).toBeLessThan(MAX_NODES)
})

test('the keyboard walks the whole list: arrows, Page keys, Home and End; Tab goes on to the row’s buttons', async ({ page }) => {
  const screen = new ArtistPage(page, own.bridge.url)
  await screen.open(artist.username)
  await expect(screen.rows.first()).toHaveAttribute('aria-setsize', String(TRACKS))
  // From "Download all", Tab enters the list on its first row.
  await screen.downloadAll.focus()
  await page.keyboard.press('Tab')
  await expect(screen.focusedRow).toHaveAttribute('aria-posinset', '1')
  await page.keyboard.press('ArrowDown')
  await expect(screen.focusedRow).toHaveAttribute('aria-posinset', '2')
  await page.keyboard.press('End')
  await expect(screen.focusedRow).toHaveAttribute('aria-posinset', String(TRACKS))
  await expect(screen.focusedRow).toHaveAttribute('data-upload-id', tracks[TRACKS - 1]!.uploadId)
  await expect(screen.focusedRow).toBeInViewport()
  await page.keyboard.press('PageUp')
  const paged = Number(await screen.focusedRow.getAttribute('aria-posinset'))
  expect(paged).toBeLessThan(TRACKS - 3)
  await expect(screen.focusedRow).toBeInViewport()
  await page.keyboard.press('ArrowUp')
  await expect(screen.focusedRow).toHaveAttribute('aria-posinset', String(paged - 1))
  // Tab goes into the row, to its button; the row stays the keyboard's.
  await page.keyboard.press('Tab')
  await expect(page.locator(':focus')).toHaveAccessibleName(/^Download /)
  await expect(screen.focusedRow).toHaveAttribute('aria-posinset', String(paged - 1))
  await page.keyboard.press('Home')
  await expect(screen.focusedRow).toHaveAttribute('aria-posinset', '1')
  await expect(screen.focusedRow).toBeInViewport()
  // However far the list is scrolled away, the keyboard's row stays drawn: the focus is not lost.
  await screen.shell.content.evaluate((main) => (main.scrollTop = main.scrollHeight))
  await expect(screen.rows.last()).toHaveAttribute('aria-posinset', String(TRACKS))
  await expect(screen.focusedRow).toHaveAttribute('aria-posinset', '1')
  expect(await screen.rows.count()).toBeLessThan(40)
  expect(await screen.shell.seriousViolations()).toEqual([])
})

test('a row far down shows its download and what plays, as drawn when scrolled to', async ({ page }) => {
  // The last WAV of the list (the player plays the demo's WAV files), a few rows above its end.
  const index = tracks.findLastIndex((track) => track.ext === 'wav')
  expect(index).toBeGreaterThan(TRACKS - 40)
  const far = tracks[index]!
  await downloadNow(own.bridge, [far.uploadId])
  const screen = new ArtistPage(page, own.bridge.url)
  await screen.open(artist.username)
  await expect(screen.track(far.uploadId)).toHaveCount(0)
  await screen.downloadAll.focus()
  await page.keyboard.press('Tab')
  await page.keyboard.press('End')
  for (let row = TRACKS - 1; row > index; row--) await page.keyboard.press('ArrowUp')
  await expect(screen.focusedRow).toHaveAttribute('data-upload-id', far.uploadId)
  await screen.trackButton(far.uploadId, 'Play').click()
  await expect(screen.trackButton(far.uploadId, 'Pause')).toBeVisible()
  // Away and back: the row is drawn anew, and still says it plays.
  await page.keyboard.press('Home')
  await expect(screen.track(far.uploadId)).toHaveCount(0)
  await page.keyboard.press('End')
  await expect(screen.trackButton(far.uploadId, 'Pause')).toBeVisible()
  await screen.trackButton(far.uploadId, 'Pause').click()
  await expect(screen.trackButton(far.uploadId, 'Play')).toBeVisible()
})

test('"Download all" of a thousand tracks: the frames that follow, printed', async ({ page }) => {
  const screen = new ArtistPage(page, own.bridge.url)
  // The files trickle: the rows move from Download to Queued and on, the queue busy all along.
  own.demo.faults.add({ path: '/hotlink/*', times: 10_000, fault: { kind: 'slow', bytesPerSecond: 20_000 } })
  try {
    await screen.open(artist.username)
    await expect(screen.downloadAll).toBeEnabled()
    // Frames for three seconds from the click: the queue's answer, a thousand rows' events, the notes.
    const measured = page.evaluate(
      () =>
        new Promise<number[]>((resolve) => {
          const frames: number[] = []
          const tick = (at: number): void => {
            frames.push(at)
            if (at - frames[0]! < 3000) requestAnimationFrame(tick)
            else resolve(frames.slice(1).map((next, index) => next - frames[index]!))
          }
          requestAnimationFrame(tick)
        }),
    )
    await screen.downloadAll.click()
    const gaps = await measured
    await expect(screen.shell.message('Queued')).toBeVisible({ timeout: 30_000 })
    const sorted = [...gaps].sort((a, b) => a - b)
    const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0
    console.log(`Download all of ${TRACKS} tracks: ${gaps.length} frames, p95 ${Math.round(p95)} ms, longest ${Math.round(sorted.at(-1) ?? 0)} ms`)
    await expect(screen.rows.first().locator('[data-state]')).not.toHaveAttribute('data-state', 'none')
    expect(await screen.rows.count()).toBeLessThan(40)
  } finally {
    own.demo.faults.clear()
    const queued = await own.bridge.call('downloads:list')
    if (queued.ok) await own.bridge.call('downloads:cancel', queued.value.filter((download) => download.state !== 'completed').map((download) => download.id))
  }
})

test('screenshots of the long list scrolled midway, light and dark, at 1280×800 and 800×600', async ({ page }) => {
  await own.bridge.call('settings:set', { theme: 'system' })
  const screen = new ArtistPage(page, own.bridge.url)
  for (const size of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
    await page.setViewportSize(size)
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await screen.open(artist.username)
      await screen.shell.content.evaluate((main) => (main.scrollTop = main.scrollHeight / 2))
      // The rows drawn are those midway (and the keyboard's, the first).
      await expect.poll(async () => Number(await screen.rows.last().getAttribute('aria-posinset'))).toBeGreaterThan(TRACKS / 3)
      expect(await screen.shell.content.evaluate((main) => main.scrollWidth - main.clientWidth)).toBeLessThanOrEqual(0)
      await page.screenshot({ path: `test-results/screenshots/artist-long-${scheme}${size.width === 1280 ? '' : '-800x600'}.png` })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
})

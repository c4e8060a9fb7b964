/**
 * npm run bench:ui — the Artists screen in Chromium (headless, the flags of
 * playwright.config.ts) on a 100,000-artist cache, through the contract's
 * handlers as `npm run web` serves them:
 *  1. first rows visible after navigating to the screen (goal ≤ 300 ms);
 *  2. a search keystroke to its rows painted, p95 (goal ≤ 100 ms, any debounce included);
 *  3. scrolling the whole list: frame time p95 (goal ≤ 16.7 ms);
 *  4. the JS heap after scrolling the whole list (goal ≤ 150 MB).
 * The cache is filled first through the sync's own list ingest (every sort order
 * and the podcaster pass, as a full sync records them) with every avatar
 * thumbnail, from a 100,000-artist demo catalogue that then keeps running as the
 * service, so the app is online and its cache is fresh (no sync starts).
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../../src-main/core/startup/node-check'
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Page, type PlaywrightTestConfig } from '@playwright/test'
import * as v from 'valibot'
import { listArtistSchema } from '../../src-main/core/api/schemas'
import { normaliseBaseUrl } from '../../src-main/core/shared/urls'
import { recordAvatars } from '../../src-main/core/db/avatars'
import { openDatabase } from '../../src-main/core/db/connection'
import { optimizeSearchIndex } from '../../src-main/core/db/search-answers'
import { LIST_PASSES, applyLists, endRun, recordListPage, startOrResumeRun } from '../../src-main/core/db/sync-store'
import { avatarSvg } from '../../src-main/demo/avatars'
import { Catalogue } from '../../src-main/demo/catalogue'
import { listArtistJson } from '../../src-main/demo/responses'
import { openLibrary } from '../../src-main/core/library/library'
import { SettingsStore } from '../../src-main/core/library/settings'

/** `npm run web` as the end-to-end tests start it (test/e2e/support/web-bridge.ts), the part the bench uses. */
interface WebBridge {
  url: string
  stop(): Promise<number | null>
}

/**
 * The Playwright configuration and the end-to-end tests' web bridge, loaded when the bench runs:
 * they belong to the end-to-end type-check project (with the DOM's types), not to this one.
 */
async function endToEndSupport(): Promise<{ config: PlaywrightTestConfig; startWebBridge: (options: { baseUrl: string; dataDir: string }) => Promise<WebBridge> }> {
  const config = (await import(new URL('../../playwright.config.ts', import.meta.url).href)) as { default: PlaywrightTestConfig }
  const bridge = (await import(new URL('../e2e/support/web-bridge.ts', import.meta.url).href)) as {
    startWebBridge: (options: { baseUrl: string; dataDir: string }) => Promise<WebBridge>
  }
  return { config: config.default, startWebBridge: bridge.startWebBridge }
}

// What the code sent into the page uses of it: this project type-checks with Node's types, not the DOM's.
interface PageElement {
  dataset: Record<string, string | undefined>
  value: string
  scrollTop: number
  clientHeight: number
  scrollHeight: number
  getAttribute(name: string): string | null
  checkVisibility(): boolean
  querySelector(selector: string): PageElement | null
  querySelectorAll(selector: string): { length: number }
  addEventListener(type: string, listener: (event: { timeStamp: number }) => void, options?: { capture?: boolean; once?: boolean }): void
}
declare const window: unknown
declare const document: PageElement & { fonts: { ready: Promise<unknown> }; getElementById(id: string): PageElement | null }
declare function requestAnimationFrame(callback: (timestamp: number) => void): number
declare class MutationObserver {
  constructor(callback: () => void)
  observe(target: unknown, options: Record<string, boolean>): void
  disconnect(): void
}

const ARTISTS = Number(process.env['BENCH_UI_ARTISTS'] ?? 100_000)
const SEED = 1
/** Pixels scrolled per frame through the whole list: 20 rows a frame, 1,200 rows (67,000 px) a second, as when dragging the scroll bar. */
const SCROLL_STEP = Number(process.env['BENCH_UI_SCROLL_STEP'] ?? 1120)
/** One frame at 60 Hz, as rAF timestamps give it (they are rounded to 0.1 ms, so an on-time frame reads 16.6 to 16.8). */
const FRAME_MS = 1000 / 60
const NAVIGATIONS = 12
const CLI = fileURLToPath(new URL('../../src-main/demo/cli.ts', import.meta.url))
const benchStarted = performance.now()
/** Where the bench is, on stderr (the figures go to stdout). */
const progress = (step: string): void => void process.stderr.write(`[${((performance.now() - benchStarted) / 1000).toFixed(1)} s] ${step}\n`)
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-bench-ui-'))

function startService(): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--artists', String(ARTISTS), '--seed', String(SEED)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve({ baseUrl: /listening on (\S+)/.exec(chunk.toString())![1]!, child }))
    child.once('exit', (code) => reject(new Error(`catalogue exited with ${code}`)))
  })
}

/** Fills the cache of baseUrl in dataDir as a full sync's list passes would, plus every avatar thumbnail; returns seconds taken. */
async function fillCache(catalogue: Catalogue, dataDir: string, baseUrl: string): Promise<number> {
  const started = performance.now()
  const library = openLibrary({ dataDir, baseUrl })
  const cacheFile = library.cacheFile
  await library.dispose()
  const db = openDatabase(cacheFile)
  try {
    const { run } = startOrResumeRun(db, Date.now())
    // Each artist as the client validates its list entry, once for all five passes.
    const entries = new Map<number, v.InferOutput<typeof listArtistSchema>>()
    const entry = (artist: (typeof catalogue.artists)[number]): v.InferOutput<typeof listArtistSchema> => {
      let parsed = entries.get(artist.index)
      if (!parsed) entries.set(artist.index, (parsed = v.parse(listArtistSchema, JSON.parse(listArtistJson(baseUrl, catalogue, artist)))))
      return parsed
    }
    for (const pass of LIST_PASSES) {
      const query = { perPage: 50, reverse: false, includeBlank: true, sort: pass === 'podcasters' ? ('trending' as const) : pass, isPodcaster: pass === 'podcasters' ? (1 as const) : undefined }
      const pages = catalogue.list({ ...query, page: 1 }).pages
      for (let page = 1; page <= pages; page++) {
        recordListPage(db, run.id, pass, page, pages, 50, catalogue.list({ ...query, page }).artists.map(entry))
      }
    }
    applyLists(db, run.id, Date.now())
    // The thumbnails a sync caches, so every row draws its image as it would after a real sync.
    const thumbs = db.prepare('SELECT username, avatar_thumb AS url FROM artists').all() as { username: string; url: string }[]
    for (let i = 0; i < thumbs.length; i += 5000) {
      const images = thumbs.slice(i, i + 5000).map(({ username, url }) => ({ url, contentType: 'image/svg+xml', body: Buffer.from(avatarSvg(username, 64)) }))
      recordAvatars(db, images, Date.now())
    }
    // A sync's end: the search index's upkeep (in steps in a sync, in one piece here), then the run's.
    db.transaction(() => optimizeSearchIndex(db)).immediate()
    endRun(db, run.id, 'completed', Date.now())
    db.pragma('optimize')
  } finally {
    db.close()
  }
  return (performance.now() - started) / 1000
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** A measure that did not end in time fails the bench instead of waiting for ever. */
function within<T>(promise: Promise<T>, what: string, timeoutMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing after ${timeoutMs} ms`)), timeoutMs)))
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

const ms = (value: number): string => `${value.toFixed(1)} ms`

/**
 * Installed in every document the page loads: `benchAfterPaint()` resolves with performance.now()
 * once the frame showing the DOM as it is now has been painted; `benchWhen(ready)` once ready()
 * holds after a change of the DOM; `benchFirstRows` with the paint of the first artist rows.
 */
function paintProbe(): void {
  const w = window as unknown as Record<string, unknown>
  const afterPaint = (): Promise<number> =>
    // The frame's callbacks run before it is painted; a task queued from them runs after.
    new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)))
  const when = (ready: () => boolean): Promise<void> =>
    new Promise((resolve) => {
      if (ready()) return resolve()
      const observer = new MutationObserver(() => {
        if (!ready()) return
        observer.disconnect()
        resolve()
      })
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
    })
  const rowsShown = (): boolean => document.querySelector('#artist-list [role="option"][data-username]')?.checkVisibility() === true
  w['benchAfterPaint'] = afterPaint
  w['benchWhen'] = when
  w['benchRowsShown'] = rowsShown
  w['benchFirstRows'] = when(rowsShown).then(afterPaint)
}

interface Probe {
  benchAfterPaint: () => Promise<number>
  benchWhen: (ready: () => boolean) => Promise<void>
  benchRowsShown: () => boolean
  benchFirstRows: Promise<number>
}

interface Figures {
  navigation: number[]
  coldStart: number[]
  searchStepwise: number[]
  searchTyped: number[]
  frames: number[]
  framesLoading: number
  heapUsed: number
  heapAfterGc: number
  rowsInDom: number
}

/** 1. Clicks "Artists" from another screen of a freshly loaded window, and times the click to the first rows painted. */
async function measureNavigation(page: Page, url: string, figures: Figures): Promise<void> {
  for (let round = 0; round < NAVIGATIONS; round++) {
    // A new document each time: a change of the hash alone would keep the screen from the round before.
    await page.goto('about:blank')
    await page.goto(`${url}#/settings`)
    await page.getByRole('link', { name: 'Artists' }).waitFor()
    await page.getByTestId('sync-status').waitFor()
    await page.evaluate(() => document.fonts.ready.then(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))))
    await page.evaluate(() => {
      const probe = window as unknown as Probe & { benchNavigation?: Promise<number> }
      probe.benchNavigation = new Promise<number>((resolve) => {
        document.addEventListener(
          'click',
          (event) => {
            const clicked = event.timeStamp
            void probe.benchWhen(probe.benchRowsShown).then(() => probe.benchAfterPaint().then((painted) => resolve(painted - clicked)))
          },
          { capture: true, once: true },
        )
      })
    })
    await page.getByRole('link', { name: 'Artists' }).click()
    const measured = page.evaluate(() => (window as unknown as { benchNavigation: Promise<number> }).benchNavigation)
    figures.navigation.push(await within(measured, 'first rows after navigation'))
  }
  // A window opened straight on the screen: from the start of the page's navigation to its first rows painted.
  for (let round = 0; round < 5; round++) {
    await page.goto('about:blank')
    await page.goto(`${url}#/artists`)
    figures.coldStart.push(await within(page.evaluate(() => (window as unknown as Probe).benchFirstRows), 'first rows of a new window'))
  }
}

/** The words typed: parts of real artists' names and usernames, a few letters to a whole word. */
function searchWords(catalogue: Catalogue, count: number): string[] {
  let seed = 11
  const random = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    return seed % n
  }
  const words: string[] = []
  while (words.length < count) {
    const artist = catalogue.artists[random(catalogue.artists.length)]!
    const parts = `${artist.pfName} ${artist.username}`.split(/[^\p{L}\p{N}]+/u).filter((word) => /^[a-z]{3,}$/i.test(word))
    if (parts.length > 0) words.push(parts[random(parts.length)]!.toLowerCase().slice(0, 9))
  }
  return words
}

/**
 * 2. Keystrokes in the search box. Each keystroke is timed from its keydown event to the first paint
 * of rows at least as new as it (a later keystroke's rows count: typed fast, the rows in between are
 * never fetched). Stepwise waits for each keystroke's rows before the next key; typed presses keys
 * 80 ms apart, as a quick typist does, with Escape (clear the search) after each word.
 */
async function measureSearch(page: Page, words: string[], figures: Figures): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>
    const afterPaint = (window as unknown as Probe).benchAfterPaint
    const input = document.getElementById('artist-search')!
    const list = document.getElementById('artist-list')!
    const pending: { at: number; expected: string }[] = []
    const samples: number[] = []
    w['benchSearchSamples'] = samples
    const settle = (): void => {
      if (pending.length === 0 || list.getAttribute('aria-busy') !== 'false') return
      const shown = list.dataset['shownSearch'] ?? ''
      if (!list.querySelector('[role="option"][data-username]')) return
      for (let j = pending.length - 1; j >= 0; j--) {
        if (pending[j]!.expected !== shown) continue
        const done = pending.splice(0, j + 1)
        void afterPaint().then((painted) => samples.push(...done.map((keystroke) => painted - keystroke.at)))
        return
      }
    }
    const observer = new MutationObserver(settle)
    observer.observe(list, { subtree: true, childList: true, attributes: true })
    w['benchSearchStop'] = () => observer.disconnect()
    input.addEventListener(
      'keydown',
      (event) => {
        const at = event.timeStamp
        // What the list will show for this keystroke, once its handlers and Vue's update ran.
        setTimeout(() => {
          pending.push({ at, expected: input.value.trim() })
          settle()
        }, 0)
      },
      { capture: true },
    )
  })
  const search = page.locator('#artist-search')
  await search.focus()
  const sampleCount = (): Promise<number> => page.evaluate(() => ((window as unknown as Record<string, number[]>)['benchSearchSamples'] ?? []).length)
  const takeSamples = (): Promise<number[]> =>
    page.evaluate(() => (window as unknown as Record<string, number[]>)['benchSearchSamples']!.splice(0))

  // Stepwise: each keystroke's rows before the next key.
  const half = Math.ceil(words.length / 2)
  for (const word of words.slice(0, half)) {
    for (const key of [...word, 'Escape']) {
      const before = await sampleCount()
      await page.keyboard.press(key)
      await page.waitForFunction((n) => ((window as unknown as Record<string, number[]>)['benchSearchSamples'] ?? []).length > n, before)
    }
  }
  figures.searchStepwise.push(...(await takeSamples()))

  // Typed: 80 ms between keys, whatever the list is doing.
  let typed = 0
  for (const word of words.slice(half)) {
    await page.keyboard.type(word, { delay: 80 })
    await page.keyboard.press('Escape')
    typed += word.length + 1
    await page.waitForFunction((n) => ((window as unknown as Record<string, number[]>)['benchSearchSamples'] ?? []).length >= n, typed)
  }
  figures.searchTyped.push(...(await takeSamples()))
  await page.evaluate(() => (window as unknown as { benchSearchStop: () => void }).benchSearchStop())
}

/** 3 and 4. Scrolls the list from top to bottom by SCROLL_STEP pixels every frame; frame times from rAF timestamps; then the heap. */
async function measureScroll(page: Page, figures: Figures): Promise<void> {
  // Every artist of the cache, those without tracks too.
  await page.getByRole('checkbox', { name: 'Include artists without tracks' }).check()
  await page.getByTestId('artist-count').filter({ hasText: `${ARTISTS.toLocaleString('en')} artists` }).waitFor()
  const list = page.locator('#artist-list')
  await list.evaluate((element) => (element.scrollTop = 0))
  await page.locator('#artist-list [role="option"][data-username]').first().waitFor()
  const result = await list.evaluate(
    (element, step) =>
      new Promise<{ deltas: number[]; loading: number; rows: number }>((resolve) => {
        const deltas: number[] = []
        let loading = 0
        let rows = 0
        let last: number | undefined
        const frame = (timestamp: number): void => {
          if (last !== undefined) deltas.push(timestamp - last)
          last = timestamp
          // A frame that shows a row still waiting for its artist (overscan rows off screen included).
          if (element.querySelector('[role="option"]:not([data-username])')) loading += 1
          rows = Math.max(rows, element.querySelectorAll('[role="option"]').length)
          if (element.scrollTop + element.clientHeight >= element.scrollHeight - 1) return resolve({ deltas, loading, rows })
          element.scrollTop += step
          requestAnimationFrame(frame)
        }
        requestAnimationFrame(frame)
      }),
    SCROLL_STEP,
  )
  figures.frames = result.deltas
  figures.framesLoading = result.loading
  figures.rowsInDom = result.rows

  const cdp = await page.context().newCDPSession(page)
  figures.heapUsed = (await cdp.send('Runtime.getHeapUsage')).usedSize
  await cdp.send('HeapProfiler.collectGarbage')
  figures.heapAfterGc = (await cdp.send('Runtime.getHeapUsage')).usedSize
  await cdp.detach()
}

async function main(): Promise<void> {
  progress(`a demo catalogue of ${ARTISTS.toLocaleString('en')} artists`)
  const catalogue = new Catalogue({ artists: ARTISTS, seed: SEED, maxFileMb: 4096 })
  const service = await startService()
  const baseUrl = normaliseBaseUrl(service.baseUrl)
  const dataDir = path.join(work, 'data')
  let bridge: WebBridge | undefined
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined
  try {
    progress('filling the cache')
    const fillSeconds = await fillCache(catalogue, dataDir, baseUrl)
    progress('starting npm run web')
    // The cache is complete and fresh: no sync in the background while measuring.
    const settings = new SettingsStore(dataDir)
    settings.update({ baseUrl, syncOnStart: false })
    settings.dispose()
    const { config, startWebBridge } = await endToEndSupport()
    bridge = await startWebBridge({ baseUrl, dataDir })
    const { use } = config
    const viewport = use?.viewport ?? { width: 1200, height: 800 }
    browser = await chromium.launch({ ...use?.launchOptions, headless: true })
    const page = await browser.newPage({ viewport, colorScheme: 'light' })
    // tsx names functions with an __name helper that exists only in Node: the page gets a stand-in, so functions sent to it run.
    await page.addInitScript({ content: 'globalThis.__name = (target) => target' })
    await page.addInitScript(paintProbe)
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))

    const figures: Figures = {
      navigation: [],
      coldStart: [],
      searchStepwise: [],
      searchTyped: [],
      frames: [],
      framesLoading: 0,
      heapUsed: 0,
      heapAfterGc: 0,
      rowsInDom: 0,
    }
    progress('navigation')
    await measureNavigation(page, bridge.url, figures)
    const total = await page.getByTestId('artist-count').textContent()
    progress('search')
    await measureSearch(page, searchWords(catalogue, 24), figures)
    progress('scrolling')
    await measureScroll(page, figures)
    if (errors.length > 0) throw new Error(`the page failed: ${errors.join('; ')}`)

    const search = [...figures.searchStepwise, ...figures.searchTyped]
    const frames = figures.frames
    // A frame is late when it took longer than one 60 Hz interval, beyond the timestamps' rounding.
    const onTime = (delta: number): boolean => delta < FRAME_MS + 0.5
    const dropped = frames.filter((delta) => !onTime(delta)).length
    const pass = (ok: boolean): string => (ok ? 'ok' : 'MISSED')
    console.log(`UI on ${ARTISTS.toLocaleString('en')} artists (${total?.trim()} listed by default), Chromium headless ${viewport.width}×${viewport.height}, cache filled in ${fillSeconds.toFixed(1)} s`)
    console.log(
      `1. first rows visible after navigating to Artists   p50 ${ms(percentile(figures.navigation, 50))}  max ${ms(Math.max(...figures.navigation))}` +
        `  (goal ≤ 300 ms: ${pass(Math.max(...figures.navigation) <= 300)}; ${figures.navigation.length} clicks from Settings in fresh windows)`,
    )
    console.log(`   a window opened on Artists: first rows painted ${ms(percentile(figures.coldStart, 50))} after navigation start (median of ${figures.coldStart.length})`)
    console.log(
      `2. search keystroke to rows painted, p95 ${ms(percentile(search, 95))}  (goal ≤ 100 ms: ${pass(percentile(search, 95) <= 100)}; no debounce)` +
        `  p50 ${ms(percentile(search, 50))}  max ${ms(Math.max(...search))}`,
    )
    console.log(`   one key at a time: p50 ${ms(percentile(figures.searchStepwise, 50))}  p95 ${ms(percentile(figures.searchStepwise, 95))}  (${figures.searchStepwise.length} keystrokes)`)
    console.log(`   typed 80 ms apart: p50 ${ms(percentile(figures.searchTyped, 50))}  p95 ${ms(percentile(figures.searchTyped, 95))}  (${figures.searchTyped.length} keystrokes)`)
    console.log(
      `3. scrolling the whole list, frame time p95 ${ms(percentile(frames, 95))}  (goal ≤ 16.7 ms, one 60 Hz frame: ${pass(onTime(percentile(frames, 95)))})` +
        `  p99 ${ms(percentile(frames, 99))}  max ${ms(Math.max(...frames))}`,
    )
    console.log(
      `   ${frames.length.toLocaleString('en')} frames at ${SCROLL_STEP} px a frame; ${dropped} late (longer than one frame); ${figures.framesLoading} with a row still loading; at most ${figures.rowsInDom} rows in the DOM`,
    )
    const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`
    console.log(`4. JS heap after scrolling the whole list ${mb(figures.heapUsed)}  (goal ≤ 150 MB: ${pass(figures.heapUsed <= 150 * 1024 * 1024)}); ${mb(figures.heapAfterGc)} after a garbage collection`)
  } finally {
    await browser?.close()
    await bridge?.stop()
    service.child.kill('SIGTERM')
    fs.rmSync(work, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})

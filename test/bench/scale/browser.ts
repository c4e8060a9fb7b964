/**
 * The real window for parts 4 and 5: the built renderer in Chromium (the system's, with the
 * launch flags of playwright.config.ts), opened on the address the web bridge printed, with a
 * probe installed in the page before its own scripts run (probe.ts).
 */
import { chromium, type Browser, type CDPSession, type Page, type PlaywrightTestConfig } from '@playwright/test'
import { installProbe } from './probe'

export interface Window {
  browser: Browser
  page: Page
  /** The Chrome DevTools Protocol session of the page: its main thread's cumulative times (Performance.getMetrics). */
  cdp: CDPSession
  errors: string[]
  close(): Promise<void>
}

/** The renderer main thread's cumulative times (seconds), as Performance.getMetrics gives them. */
export type MainThreadTimes = Record<'TaskDuration' | 'ScriptDuration' | 'LayoutDuration' | 'RecalcStyleDuration', number>

export async function openWindow(url: string): Promise<Window> {
  // The configuration belongs to the end-to-end type-check project: loaded when the bench runs.
  const config = (await import(new URL('../../../playwright.config.ts', import.meta.url).href)) as { default: PlaywrightTestConfig }
  const { use } = config.default
  const browser = await chromium.launch({ ...use?.launchOptions, headless: true })
  const page = await browser.newPage({ viewport: use?.viewport ?? { width: 1200, height: 800 }, colorScheme: 'light', locale: 'en-US' })
  // tsx names functions with an __name helper that exists only in Node: the page gets a stand-in.
  await page.addInitScript({ content: 'globalThis.__name = (target) => target' })
  await page.addInitScript(installProbe)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  await page.goto(url)
  return { browser, page, cdp, errors, close: () => browser.close() }
}

export async function mainThreadTimes(cdp: CDPSession): Promise<MainThreadTimes> {
  const { metrics } = await cdp.send('Performance.getMetrics')
  const get = (name: string): number => metrics.find((metric) => metric.name === name)?.value ?? 0
  return { TaskDuration: get('TaskDuration'), ScriptDuration: get('ScriptDuration'), LayoutDuration: get('LayoutDuration'), RecalcStyleDuration: get('RecalcStyleDuration') }
}

/**
 * Part 4 — the cost of one event through the whole path (writer → host → main → the window's
 * stream → the window's stores and screen), with 40 and with 10,000 downloads queued: it should
 * not depend on the queue's length. For each length, a copy of the big cache, the app, that many
 * files of 1 to 5 MB queued, 4 at once under a 2 MB/s speed limit (so that files complete every
 * second or so, each a downloads-changed event, between the download-progress events, while the
 * transfers themselves cost the host little), and the real window in Chromium on the Downloads
 * screen. After a few seconds to settle, over a steady window of BENCH_WINDOW_S seconds:
 *  - bytes on the stream per batch and per event (the page's EventSource messages);
 *  - processor time per event (events the host sent main) of the host process (/proc/<pid>/stat)
 *    and of main (process.cpuUsage() in the process running startWebApp);
 *  - the window's time per batch: the stream handler's own time (the stores applying the events),
 *    and to the end of Vue's re-render it caused (probe.ts); and the page's script in all, every
 *    task's (DevTools' Performance.getMetrics; its tasks, layout and style times as context).
 * Goal: each figure at 10,000 ≤ 1.2 × at 40.
 */
import type { Page } from '@playwright/test'
import { mainThreadTimes, openWindow, type MainThreadTimes } from './browser'
import { config } from './config'
import type { Context } from './context'
import type { StreamBatch } from './probe'
import { openQueue } from './queue'
import { mean, ms, n, percentile, processCpuSeconds, sleep } from './stats'

/** Bytes a second for all downloads together: a file completes every second or two, the transfers stay cheap, and 40 files last the window. */
const SPEED_LIMIT = 2_000_000
const SETTLE_MS = 5_000
const GOAL = 1.2

interface EventCost {
  files: number
  batches: number
  events: number
  seconds: number
  bytesPerBatch: number
  bytesPerEvent: number
  hostMsPerEvent: number
  mainMsPerEvent: number
  handlerMsPerBatch: number
  scriptMsPerBatch: number
  scriptP99: number
  pageScriptMsPerBatch: number
  pageContext: string
}

export async function part4(context: Context): Promise<void> {
  console.log(`\n4. the cost of one event through the whole path, ${config.eventQueues.map(n).join(' and ')} queued (files of 1–5 MB, ${config.concurrency} at once, ${SPEED_LIMIT / 1e6} MB/s limit, the Downloads screen open in Chromium)`)
  const results: EventCost[] = []
  for (const files of config.eventQueues) results.push(await measure(context, files))
  const [first, last] = [results[0]!, results.at(-1)!]
  if (first === last) return
  const figures: [string, (cost: EventCost) => number, (value: number) => string][] = [
    ['bytes per batch on the stream', (cost) => cost.bytesPerBatch, (value) => `${value.toFixed(0)} B`],
    ['bytes per event on the stream', (cost) => cost.bytesPerEvent, (value) => `${value.toFixed(0)} B`],
    ["host's processor per event", (cost) => cost.hostMsPerEvent, ms],
    ["main's processor per event", (cost) => cost.mainMsPerEvent, ms],
    ["window's stream handler per batch", (cost) => cost.handlerMsPerBatch, ms],
    ["window's script per batch (+ re-render)", (cost) => cost.scriptMsPerBatch, ms],
    ["page's script per batch (DevTools)", (cost) => cost.pageScriptMsPerBatch, ms],
  ]
  console.log(`   ${n(last.files)} against ${n(first.files)} queued (goal ≤ ${GOAL} ×):`)
  for (const [name, value, format] of figures) {
    const ratio = value(last) / value(first)
    console.log(`      ${name.padEnd(42)} ${format(value(last)).padStart(10)} against ${format(value(first)).padStart(10)}: ${ratio.toFixed(2)} × ${ratio <= GOAL ? 'met' : 'MISSED'}`)
    context.rows.push({ figure: `4. ${name}, ${n(last.files)} queued: ${format(value(last))}`, goal: `≤ ${GOAL} × ${n(first.files)} queued`, reference: `${n(first.files)} queued ${format(value(first))}`, ratio, met: ratio <= GOAL })
  }
}

async function measure(context: Context, files: number): Promise<EventCost> {
  context.step(`part 4: ${n(files)} queued, the window open on Downloads`)
  const queue = await openQueue(context, `events-${files}`, await context.uploads('small', files), SPEED_LIMIT)
  const win = await openWindow(`${queue.app.url}#/downloads`)
  try {
    const { page, cdp } = win
    await page.locator('[data-group="queued"]').waitFor({ timeout: 120_000 })
    await sleep(SETTLE_MS)
    await recording(page, true)
    const hostBefore = processCpuSeconds(queue.app.hostPid)
    const pageBefore = await mainThreadTimes(cdp)
    await queue.app.measure()
    await sleep(config.windowSeconds * 1000)
    const main = await queue.app.measured()
    const pageAfter = await mainThreadTimes(cdp)
    const hostSeconds = processCpuSeconds(queue.app.hostPid) - hostBefore
    await recording(page, false)
    const batches = await page.evaluate(() => (globalThis as unknown as { benchStream: { batches: StreamBatch[] } }).benchStream.batches)
    if (win.errors.length > 0) console.log(`      page errors: ${win.errors.slice(0, 3).join('; ')}`)
    const snapshots = await page.evaluate(() => (globalThis as unknown as { benchStream: { snapshots: number } }).benchStream.snapshots)
    if (snapshots > 1 || queue.stream.drops > 0) console.log(`      streams cut by the bridge: the window's ${snapshots - 1}, the bench's ${queue.stream.drops}`)
    await queue.app.call('downloads:pauseAll')
    const delta = (key: keyof MainThreadTimes): number => (pageAfter[key] - pageBefore[key]) * 1000
    const delivered = batches.reduce((sum, batch) => sum + batch.events, 0)
    const cost: EventCost = {
      files,
      batches: batches.length,
      events: main.events,
      seconds: main.seconds,
      bytesPerBatch: mean(batches.map((batch) => batch.bytes)),
      bytesPerEvent: batches.reduce((sum, batch) => sum + batch.bytes, 0) / delivered,
      hostMsPerEvent: (hostSeconds * 1000) / main.events,
      mainMsPerEvent: (main.cpuSeconds * 1000) / main.events,
      handlerMsPerBatch: mean(batches.map((batch) => batch.handlerMs)),
      scriptMsPerBatch: mean(batches.map((batch) => batch.scriptMs)),
      scriptP99: percentile(batches.map((batch) => batch.scriptMs), 99),
      pageScriptMsPerBatch: delta('ScriptDuration') / batches.length,
      pageContext: `tasks ${ms(delta('TaskDuration') / batches.length)}, layout ${ms(delta('LayoutDuration') / batches.length)}, style ${ms(delta('RecalcStyleDuration') / batches.length)}`,
    }
    console.log(`   ${n(files)} queued: ${n(cost.events)} events from the host over ${cost.seconds.toFixed(1)} s, ${n(cost.batches)} batches (${n(delivered)} events) on the window's stream`)
    console.log(`      stream: ${cost.bytesPerBatch.toFixed(0)} B a batch, ${cost.bytesPerEvent.toFixed(0)} B an event`)
    console.log(`      processor per event: host ${ms(cost.hostMsPerEvent)} (${hostSeconds.toFixed(2)} s in all), main ${ms(cost.mainMsPerEvent)} (${main.cpuSeconds.toFixed(2)} s)`)
    console.log(
      `      the window per batch: handler ${ms(cost.handlerMsPerBatch)}, with re-render ${ms(cost.scriptMsPerBatch)} (p99 ${ms(cost.scriptP99)}); ` +
        `the page's script in all ${ms(cost.pageScriptMsPerBatch)} (its main thread: ${cost.pageContext})`,
    )
    if (batches.length === 0) console.log('      no events in the window: the queue ran out before it (a larger BENCH_EVENT_QUEUES)')
    return cost
  } finally {
    await win.close()
    await queue.close()
  }
}

function recording(page: Page, on: boolean): Promise<void> {
  return page.evaluate((value) => {
    const stream = (globalThis as unknown as { benchStream: { recording: boolean; batches: unknown[] } }).benchStream
    stream.recording = value
    if (value) stream.batches = []
  }, on)
}

/**
 * Part 6 — does the window wait on the core at scale? A worker thread (caller.ts) calls
 * catalogue:list (a search for "a", 50 a page), catalogue:artist and downloads:state one after
 * another, one frame apart, as the window does:
 *  a. during the app's first sync of the big catalogue (100,000 artists by default): part 1's
 *     sync of that size when part 1 runs too (its figure says so), else a sync of its own;
 *  b. during a queue of the 10,000 largest files (as part 3's longest queue), for the window.
 * Printed: p50/p99/max of each call, goal p99 ≤ 16 ms and max ≤ 50 ms, and main's event-loop
 * delay (monitorEventLoopDelay in the process running startWebApp), goal max ≤ 20 ms.
 */
import fs from 'node:fs'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import type { App } from './app'
import type { CallerJob, CallerResult, CallsMeasure } from './caller'
import { config } from './config'
import type { Context } from './context'
import { LARGEST } from './part3-downloads'
import { openQueue } from './queue'
import { ms, n, percentile, s } from './stats'
import { appSync } from './syncs'

const CHANNELS = ['catalogue:list', 'catalogue:artist', 'downloads:state'] as const

/** Runs the caller on a worker thread while main measures its event loop. */
export async function calls(app: App, until: CallerJob['until']): Promise<CallsMeasure> {
  await app.measure()
  const workerData: CallerJob = { origin: app.origin, token: app.token, until }
  const worker = new Worker(new URL('./caller.ts', import.meta.url), { workerData })
  const result = await new Promise<CallerResult>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  await worker.terminate()
  const main = await app.measured()
  return { calls: result, loopMax: main.loop.max, loopP99: main.loop.p99 }
}

function report(context: Context, title: string, short: string, measured: CallsMeasure): void {
  console.log(`   ${title}`)
  console.log(`      ${'call'.padEnd(20)}${'calls'.padStart(7)}${'p50'.padStart(10)}${'p99'.padStart(10)}${'max'.padStart(10)}   goal p99 ≤ 16, max ≤ 50`)
  for (const channel of CHANNELS) {
    const times = measured.calls.times[channel] ?? []
    const [p50, p99, max] = [percentile(times, 50), percentile(times, 99), Math.max(...times)]
    const met = p99 <= 16 && max <= 50
    console.log(`      ${channel.padEnd(20)}${String(times.length).padStart(7)}${ms(p50).padStart(10)}${ms(p99).padStart(10)}${ms(max).padStart(10)}   ${met ? 'met' : 'MISSED'}`)
    context.rows.push({ figure: `6. ${short}: ${channel} p99 ${ms(p99)}, max ${ms(max)}`, goal: 'p99 ≤ 16 ms, max ≤ 50 ms', reference: `p50 ${ms(p50)}`, ratio: p99 / 16, met })
  }
  const loopMet = measured.loopMax <= 20
  console.log(`      main's event-loop delay: p99 ${ms(measured.loopP99)}, max ${ms(measured.loopMax)} (goal max ≤ 20 ms: ${loopMet ? 'met' : 'MISSED'})`)
  if (measured.calls.failures.length > 0) console.log(`      failed calls: ${measured.calls.failures.slice(0, 3).join('; ')}`)
  context.rows.push({ figure: `6. ${short}: main's loop delay max ${ms(measured.loopMax)}`, goal: 'max ≤ 20 ms', reference: `p99 ${ms(measured.loopP99)}`, ratio: measured.loopMax / 20, met: loopMet })
}

export async function part6(context: Context): Promise<void> {
  console.log(`\n6. the window's calls from a worker thread, one frame apart: catalogue:list ("a", 50 a page), catalogue:artist, downloads:state`)
  // Part 1 ran that sync with these calls when it ran; else a sync of its own.
  let sync = context.syncCalls
  if (!sync) {
    const service = await context.bigService()
    context.step(`part 6: calls during the app's first sync of ${n(config.cacheArtists)} artists`)
    const dataDir = path.join(context.work, 'calls-sync')
    const run = await appSync(service.baseUrl, dataDir, config.concurrency, (app) => calls(app, { sync: true }))
    fs.rmSync(dataDir, { recursive: true, force: true })
    sync = { measured: run.during!, seconds: run.wall }
  }
  report(context, `a. during the app's first sync of ${n(config.cacheArtists)} artists (it took ${s(sync.seconds)} with the calls going on)`, 'during the sync', sync.measured)

  // As part 3's longest queue.
  const files = Math.max(...config.queues)
  context.step(`part 6: calls during a queue of ${n(files)} files`)
  const queue = await openQueue(context, 'calls-queue', await context.uploads({ largest: LARGEST(config.windowSeconds) }, files), null)
  try {
    report(context, `b. during ${n(files)} downloads queued, the largest files, ${config.concurrency} at once (${config.windowSeconds} s)`, `${n(files)} queued`, await calls(queue.app, { seconds: config.windowSeconds }))
    await queue.app.call('downloads:pauseAll')
  } finally {
    await queue.close()
  }
}

/**
 * Part 3 — downloads with short and long queues. For each queue length (40, 1,000, 10,000 by
 * default) a copy of the big cache, the app (downloadConcurrency 4) and that many files queued
 * in one call: the largest files of the catalogue first (64 MiB each, as many as the window can
 * reach: every run downloads the same files), then the smallest, so that the queue fits the disk
 * (the app refuses a queue larger than the free space: 10,000 files of 64 MiB are 671 GB). So
 * the runs differ in the queue's length alone:
 *  - time to queue: the enqueue call to its answer, and to its rows on the event stream;
 *  - MB/s over a steady window: the bytes the events report moved from the enqueue's answer
 *    until BENCH_WINDOW_S seconds have passed or three quarters of the shortest queue completed
 *    (all runs alike: 40 files may all finish inside the window, and its tail runs fewer than 4);
 *  - the reference from the same run: curl fetching the files the app worked on in its window
 *    (those it completed and those running at its end, whole), 4 at a time, then sha256sum and
 *    sync of them, as bench:download does.
 * Goals: each long queue ≥ 0.9 × the first queue's MB/s; each ≥ 1/1.1 of curl's MB/s, the ratio
 * bench:download asks of its 200 files at concurrency 4 (≤ 1.1 × curl + sha256sum + sync in time).
 */
import path from 'node:path'
import { config } from './config'
import type { Context } from './context'
import { curlReference } from './curl'
import { openQueue } from './queue'
import { mbps, ms, n, s, sleep } from './stats'

/** bench:download's goal for many files at concurrency 4: at most 1.1 × the reference's time. */
const DOWNLOAD_BENCH_RATIO = 1.1

/** The largest files at the head of every queue: more than the window reaches at 500 MB/s. */
export const LARGEST = (seconds: number): number => Math.ceil((seconds * 500e6) / (64 * 1024 * 1024))

export interface QueueThroughput {
  files: number
  bytesPerSecond: number
}

export async function part3(context: Context): Promise<void> {
  console.log(
    `\n3. downloads with ${config.queues.map(n).join(', ')} files queued on a ${n(config.cacheArtists)}-artist cache (the ${LARGEST(config.windowSeconds)} largest files first, ` +
      `then the smallest; ${config.concurrency} at once)`,
  )
  const results: QueueThroughput[] = []
  for (const files of config.queues) {
    const result = await throughput(context, files)
    results.push(result)
  }
  const reference = results[0]!
  for (const result of results.slice(1)) {
    const ratio = result.bytesPerSecond / reference.bytesPerSecond
    console.log(`   ${n(result.files)} queued against ${n(reference.files)}: ${ratio.toFixed(2)} × (goal ≥ 0.9: ${ratio >= 0.9 ? 'met' : 'MISSED'})`)
    context.rows.push({
      figure: `3. ${n(result.files)} queued: ${mbps(result.bytesPerSecond)}`,
      goal: `≥ 0.9 × ${n(reference.files)} queued`,
      reference: `${n(reference.files)} queued ${mbps(reference.bytesPerSecond)}`,
      ratio,
      met: ratio >= 0.9,
    })
  }
}

async function throughput(context: Context, files: number): Promise<QueueThroughput> {
  const uploads = await context.uploads({ largest: LARGEST(config.windowSeconds) }, files)
  context.step(`part 3: ${n(files)} queued`)
  const queue = await openQueue(context, `queue-${files}`, uploads, null)
  let windowBytes: number
  let seconds: number
  let worked: typeof uploads
  try {
    const started = performance.now()
    const before = queue.bytes()
    const enough = Math.ceil(Math.min(...config.queues) * 0.75)
    while (performance.now() - started < config.windowSeconds * 1000 && queue.completed().size < enough) await sleep(100)
    seconds = (performance.now() - started) / 1000
    windowBytes = queue.bytes() - before
    // The files the app worked on: completed, or running at the window's end.
    const running = await queue.app.call<{ id: number }[]>('downloads:list', 'downloading')
    const touched = new Set([...queue.completed(), ...running.map((row) => row.id)])
    const ids = new Set(queue.downloads.filter((download) => touched.has(download.id)).map((download) => download.uploadId))
    worked = uploads.filter((upload) => ids.has(upload.id))
    await queue.app.call('downloads:pauseAll')
  } finally {
    await queue.close()
  }
  const rate = windowBytes / seconds
  const curl = curlReference(worked, path.join(context.work, 'curl'), config.concurrency)
  const curlRate = curl.bytes / curl.seconds
  const ratio = rate / curlRate
  const goal = 1 / DOWNLOAD_BENCH_RATIO
  const rows = Number.isNaN(queue.rowsMs) ? 'its rows never came: the bridge cut the event stream' : `its rows on the event stream after ${ms(queue.rowsMs)}`
  console.log(`   ${n(files)} queued: enqueue answered in ${ms(queue.enqueueMs)}, ${rows}${queue.stream.drops > 0 ? ` (stream cut ${queue.stream.drops} times)` : ''}`)
  console.log(`      the app: ${mbps(rate)} over ${s(seconds)} (${(windowBytes / 1e6).toFixed(0)} MB, ${queue.completed().size} files completed)`)
  console.log(
    `      reference curl ×${config.concurrency} + sha256sum + sync of the ${worked.length} files it worked on: ${mbps(curlRate)} ` +
      `(${(curl.bytes / 1e6).toFixed(0)} MB: curl ${s(curl.curl)}, sha256sum ${s(curl.sha256sum)}, sync ${s(curl.sync)})`,
  )
  console.log(`      app / reference ${ratio.toFixed(2)} (goal ≥ ${goal.toFixed(2)}, bench:download's ≤ ${DOWNLOAD_BENCH_RATIO} in time: ${ratio >= goal ? 'met' : 'MISSED'})`)
  context.rows.push(
    { figure: `3. ${n(files)} queued: time to queue ${ms(queue.enqueueMs)}`, goal: '–', reference: Number.isNaN(queue.rowsMs) ? 'stream cut before its rows' : `rows on the stream ${ms(queue.rowsMs)}` },
    { figure: `3. ${n(files)} queued: ${mbps(rate)}`, goal: `≥ ${goal.toFixed(2)} × curl (as bench:download)`, reference: `curl+sha256sum+sync ${mbps(curlRate)}`, ratio, met: ratio >= goal },
  )
  return { files, bytesPerSecond: rate }
}

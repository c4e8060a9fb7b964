/**
 * The downloading process of the download benchmark: the real queue on a
 * synced cache, timed, with its peak resident memory.
 * Usage: download-run.ts DATA_DIR BASE_URL TO_DIR CONCURRENCY UPLOAD_ID...
 */
import { openCache } from '../../src-main/core/db/connection'
import { DownloadManager } from '../../src-main/core/downloads/manager'

const [dataDir, baseUrl, to, concurrency, ...uploadIds] = process.argv.slice(2)
const { db } = openCache(dataDir!, baseUrl!)
const downloads = new DownloadManager({ db, baseUrl: baseUrl!, downloadDir: to!, concurrency: Number(concurrency) })
await downloads.start()
// What the process holds before any byte is downloaded (Node, the tsx loader, the cache).
const rssBeforeMb = process.memoryUsage().rss / 1024 / 1024
const started = performance.now()
const queued = await downloads.enqueueUploads(uploadIds)
await downloads.whenIdle()
const seconds = (performance.now() - started) / 1000
const failed = queued.map((d) => downloads.get(d.id)!).filter((d) => d.state !== 'completed')
await downloads.stop()
db.close()
process.stdout.write(`${JSON.stringify({ seconds, rssBeforeMb, peakRssMb: process.resourceUsage().maxRSS / 1024, failed: failed.length })}\n`)

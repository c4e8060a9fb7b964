/**
 * The downloading process of the download benchmark: the real queue on a
 * synced cache, timed, with its processor time and its peak resident memory.
 * Usage: download-run.ts DATA_DIR BASE_URL TO_DIR CONCURRENCY UPLOAD_ID...
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../../src-main/core/startup/node-check'
import { openLibrary } from '../../src-main/core/library/library'

const [dataDir, baseUrl, to, concurrency, ...uploadIds] = process.argv.slice(2)
const library = openLibrary({ dataDir: dataDir!, baseUrl: baseUrl!, mustExist: true })
const downloads = library.downloads
downloads.setConcurrency(Number(concurrency))
downloads.start()
// What the process holds before any byte is downloaded (Node, the bundled core, the cache).
const rssBeforeMb = process.memoryUsage().rss / 1024 / 1024
const started = performance.now()
const cpuBefore = process.cpuUsage()
const queued = await downloads.enqueue({ uploadIds, folder: to! })
await downloads.whenIdle()
const seconds = (performance.now() - started) / 1000
// The download's own processor time (user and system), the process's start-up apart.
const cpu = process.cpuUsage(cpuBefore)
const cpuSeconds = (cpu.user + cpu.system) / 1e6
const failed = queued.downloads.map((d) => downloads.get(d.id)).filter((d) => d.state !== 'completed')
await library.dispose()
process.stdout.write(`${JSON.stringify({ seconds, cpuSeconds, rssBeforeMb, peakRssMb: process.resourceUsage().maxRSS / 1024, failed: failed.length })}\n`)

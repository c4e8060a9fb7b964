/**
 * npm run bench:download — the download queue against curl with the same
 * durability, side by side, on the demo service (its own process) over loopback.
 * A download the queue reports finished is on disk (flushed, then renamed): it
 * survives a power cut. So the references are curl followed by a flush of the
 * same files, and each goal is printed beside its figure and reference:
 *  1. one 512 MiB file against `curl -o F && sync F`: ratio ≤ 1.1;
 *  2. 200 files of 1 to 5 MB at concurrency 4 against
 *     `curl --parallel --parallel-max 4 ... && sync FILES`: ratio ≤ 1.3;
 *  3. peak RSS ≤ 150 MB whatever the file size (the 512 MiB file, a smaller
 *     one, and the 200 files).
 * curl without the flush is printed as context.
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../../src-main/core/node-check'
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import Database from 'better-sqlite3'
import { openLibrary } from '../../src-main/core/library'

const CATALOGUE = fileURLToPath(new URL('../../src-main/core/demo/cli.ts', import.meta.url))
const RUNNER_SOURCE = fileURLToPath(new URL('./download-run.ts', import.meta.url))
/**
 * Rounds of each measure, alternating tuneshelf and curl, every file deleted after
 * its round. On a virtual machine, the first writes into memory the guest never
 * used cost several times more than writes into pages freed by an earlier file;
 * alternating gives both sides the same memory, and the median hides the first touch.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-download-bench-'))

async function startService(maxFileMb: number): Promise<{ baseUrl: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CATALOGUE, '--port', '0', '--artists', '1100', '--seed', '1', '--max-file-mb', String(maxFileMb)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const baseUrl = await new Promise<string>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(/listening on (\S+)/.exec(chunk.toString())![1]!)))
  return { baseUrl, stop: () => child.kill('SIGTERM') }
}

function runQueue(dataDir: string, baseUrl: string, concurrency: number, uploadIds: string[]): { seconds: number; rssBeforeMb: number; peakRssMb: number } {
  const to = fs.mkdtempSync(path.join(work, 'to-'))
  const output = execFileSync(process.execPath, [runner, dataDir, baseUrl, to, String(concurrency), ...uploadIds], {
    maxBuffer: 1024 * 1024,
  }).toString()
  const result = JSON.parse(output) as { seconds: number; rssBeforeMb: number; peakRssMb: number; failed: number }
  if (result.failed > 0) throw new Error(`${result.failed} downloads failed`)
  fs.rmSync(to, { recursive: true, force: true })
  return result
}

/** Seconds for curl with these arguments; with files to flush, until `sync FILE...` has written them to disk. */
function timeCurl(args: string[], flush: readonly string[] = []): number {
  const started = performance.now()
  execFileSync('curl', ['-sS', '--no-progress-meter', ...args], { stdio: ['ignore', 'ignore', 'inherit'] })
  if (flush.length > 0) execFileSync('sync', [...flush])
  return (performance.now() - started) / 1000
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/**
 * The downloading process runs bundled JavaScript, as the app ships it (electron-vite
 * bundles the main process), not through the tsx loader, whose compiler alone holds
 * some 40 MB: the memory measured is the downloader's.
 */
let runner = ''
async function bundleRunner(): Promise<void> {
  // Inside the project, so that its imports of got and better-sqlite3 resolve to node_modules.
  runner = fileURLToPath(new URL('../../out/bench/download-run.mjs', import.meta.url))
  await build({ entryPoints: [RUNNER_SOURCE], outfile: runner, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' })
}

async function main(): Promise<void> {
  await bundleRunner()
  const service = await startService(512)
  const dataDir = path.join(work, 'data')
  const library = openLibrary({ dataDir, baseUrl: service.baseUrl })
  await library.sync.start({ skipAvatars: true })
  await library.dispose()
  // Picking uploads by size is the benchmark's own question: it reads the cache directly.
  const db = new Database(library.cacheFile, { readonly: true })
  const upload = (bytes: number): { id: string; url: string } =>
    db.prepare('SELECT upload_id AS id, hotlink_path AS url FROM tracks WHERE bytes = ? LIMIT 1').get(bytes) as { id: string; url: string }

  const verdict = (met: boolean): string => (met ? 'met' : 'MISSED')
  const seconds = (value: number): string => `${value.toFixed(2)} s`
  const peaks: string[] = []
  let largestPeak = 0
  const notePeak = (label: string, runs: readonly { peakRssMb: number; rssBeforeMb: number }[]): void => {
    const peak = Math.max(...runs.map((run) => run.peakRssMb))
    largestPeak = Math.max(largestPeak, peak)
    peaks.push(`${label} ${peak.toFixed(0)} MB (${median(runs.map((run) => run.rssBeforeMb)).toFixed(0)} MB before it)`)
  }
  console.log(`Downloads against the same durability: median of ${ROUNDS} rounds alternating tuneshelf and the references`)

  const MIB = 512
  const big = upload(MIB * 1024 * 1024)
  const curlFile = path.join(work, 'curl.bin')
  const ours: ReturnType<typeof runQueue>[] = []
  const curl: number[] = []
  const curlDurable: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    ours.push(runQueue(dataDir, service.baseUrl, 1, [big.id]))
    // curl leaves the file in the page cache; the queue flushes it to disk before calling it done.
    curlDurable.push(timeCurl(['-o', curlFile, big.url], [curlFile]))
    fs.rmSync(curlFile)
    curl.push(timeCurl(['-o', curlFile, big.url]))
    fs.rmSync(curlFile)
  }
  const oursBig = median(ours.map((run) => run.seconds))
  const ratioBig = oursBig / median(curlDurable)
  console.log(`1. one ${MIB} MiB file`)
  console.log(`   tuneshelf (queue, SHA-256, flushed, renamed)  ${seconds(oursBig)} (${(MIB / oursBig).toFixed(0)} MiB/s)`)
  console.log(`   reference curl -o F && sync F                 ${seconds(median(curlDurable))} (${(MIB / median(curlDurable)).toFixed(0)} MiB/s)`)
  console.log(`   ratio ${ratioBig.toFixed(2)}, goal ≤ 1.1: ${verdict(ratioBig <= 1.1)}`)
  console.log(`   context: curl -o F without sync ${seconds(median(curl))} (ratio ${(oursBig / median(curl)).toFixed(2)}); every round, tuneshelf / reference: ${ours.map((run, i) => `${run.seconds.toFixed(2)}/${curlDurable[i]!.toFixed(2)}`).join(', ')}`)
  notePeak(`${MIB} MiB file`, ours)
  // A smaller file of the same run shows whether memory grows with the file.
  const medium = db.prepare('SELECT upload_id AS id, bytes FROM tracks WHERE bytes BETWEEN 100000000 AND 200000000 ORDER BY bytes DESC LIMIT 1').get() as { id: string; bytes: number } | undefined
  if (medium) notePeak(`${(medium.bytes / 1024 / 1024).toFixed(0)} MiB file`, [runQueue(dataDir, service.baseUrl, 1, [medium.id])])

  const small = db
    .prepare('SELECT upload_id AS id, hotlink_path AS url FROM tracks WHERE bytes BETWEEN 1048576 AND 5242880 ORDER BY upload_id LIMIT 200')
    .all() as { id: string; url: string }[]
  const config = path.join(work, 'curl.config')
  const curlDir = path.join(work, 'curl')
  fs.writeFileSync(config, small.map((u, i) => `url = "${u.url}"\noutput = "${path.join(curlDir, `${i}.bin`)}"\n`).join(''))
  const curlFiles = small.map((_, i) => path.join(curlDir, `${i}.bin`))
  const parallel = ['--parallel', '--parallel-max', '4', '--parallel-immediate', '-K', config]
  const oursSmall: ReturnType<typeof runQueue>[] = []
  const curlSmall: number[] = []
  const curlSmallDurable: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    oursSmall.push(runQueue(dataDir, service.baseUrl, 4, small.map((u) => u.id)))
    for (const [times, flushed] of [[curlSmallDurable, curlFiles], [curlSmall, []]] as const) {
      fs.mkdirSync(curlDir)
      times.push(timeCurl(parallel, flushed))
      fs.rmSync(curlDir, { recursive: true })
    }
  }
  const totalMb = (db.prepare(`SELECT sum(bytes) FROM tracks WHERE upload_id IN (${small.map(() => '?').join(',')})`).pluck().get(...small.map((u) => u.id)) as number) / 1024 / 1024
  const oursMany = median(oursSmall.map((run) => run.seconds))
  const ratioMany = oursMany / median(curlSmallDurable)
  console.log(`2. ${small.length} files of 1 to 5 MB (${totalMb.toFixed(0)} MiB), concurrency 4`)
  console.log(`   tuneshelf (queue, SHA-256, flushed, renamed)                       ${seconds(oursMany)}`)
  console.log(`   reference curl --parallel --parallel-max 4 ... && sync FILES...    ${seconds(median(curlSmallDurable))}`)
  console.log(`   ratio ${ratioMany.toFixed(2)}, goal ≤ 1.3: ${verdict(ratioMany <= 1.3)}`)
  console.log(`   context: curl --parallel without sync ${seconds(median(curlSmall))} (ratio ${(oursMany / median(curlSmall)).toFixed(2)}); every round, tuneshelf / reference: ${oursSmall.map((run, i) => `${run.seconds.toFixed(2)}/${curlSmallDurable[i]!.toFixed(2)}`).join(', ')}`)
  notePeak(`${small.length} files`, oursSmall)
  console.log('3. peak RSS of the downloading process, whatever the file size')
  console.log(`   ${peaks.join('; ')}`)
  console.log(`   largest ${largestPeak.toFixed(0)} MB, goal ≤ 150 MB: ${verdict(largestPeak <= 150)}`)
  db.close()
  service.stop()
}

main()
  .catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(() => fs.rmSync(work, { recursive: true, force: true }))

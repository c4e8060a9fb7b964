/**
 * npm run bench:download — the download queue against curl, side by side, on
 * the demo service (its own process) over loopback:
 *  1. one 512 MiB file (and a 128 MiB one, to show memory does not grow with
 *     size) against `curl -o`: goal, time ratio ≤ 1.1, peak RSS ≤ 150 MB;
 *  2. 200 files of 1 to 5 MB at concurrency 4 against
 *     `curl --parallel --parallel-max 4`: goal, ratio ≤ 1.2.
 * Tuneshelf also hashes (SHA-256) and flushes every file to disk; curl does neither,
 * so each measure also shows curl followed by `sync FILE...`.
 */
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
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
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

  console.log(`1. one large file, this downloader (queue, SHA-256, fsync) against curl -o; median of ${ROUNDS} alternating rounds`)
  for (const mib of [512]) {
    const big = upload(mib * 1024 * 1024)
    const curlFile = path.join(work, 'curl.bin')
    const ours: ReturnType<typeof runQueue>[] = []
    const curl: number[] = []
    const curlDurable: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      ours.push(runQueue(dataDir, service.baseUrl, 1, [big.id]))
      curl.push(timeCurl(['-o', curlFile, big.url]))
      fs.rmSync(curlFile)
      // curl leaves the file in the page cache; the queue flushes it to disk before calling it done.
      curlDurable.push(timeCurl(['-o', curlFile, big.url], [curlFile]))
      fs.rmSync(curlFile)
    }
    const oursSeconds = median(ours.map((run) => run.seconds))
    const peakRssMb = Math.max(...ours.map((run) => run.peakRssMb))
    const rssBeforeMb = median(ours.map((run) => run.rssBeforeMb))
    console.log(`   ${mib} MiB: tuneshelf ${oursSeconds.toFixed(2)} s (${(mib / oursSeconds).toFixed(0)} MiB/s, peak RSS ${peakRssMb.toFixed(0)} MB, ${rssBeforeMb.toFixed(0)} MB before the download), curl -o ${median(curl).toFixed(2)} s (${(mib / median(curl)).toFixed(0)} MiB/s): ratio ${(oursSeconds / median(curl)).toFixed(2)} (goal ≤ 1.1)`)
    console.log(`   reference with the same durability, curl -o then sync FILE: ${median(curlDurable).toFixed(2)} s: ratio ${(oursSeconds / median(curlDurable)).toFixed(2)}`)
    console.log(`   every round, tuneshelf / curl: ${ours.map((run, i) => `${run.seconds.toFixed(2)}/${curl[i]!.toFixed(2)}`).join(', ')}`)
  }
  // A smaller file of the same run shows whether memory grows with the file.
  const medium = db.prepare('SELECT upload_id AS id, bytes FROM tracks WHERE bytes BETWEEN 100000000 AND 200000000 ORDER BY bytes DESC LIMIT 1').get() as { id: string; bytes: number } | undefined
  if (medium) {
    const ours = runQueue(dataDir, service.baseUrl, 1, [medium.id])
    console.log(`   ${(medium.bytes / 1024 / 1024).toFixed(0)} MiB: peak RSS ${ours.peakRssMb.toFixed(0)} MB, ${ours.rssBeforeMb.toFixed(0)} MB before the download (memory does not follow the file size) (goal ≤ 150 MB)`)
  }

  const small = db
    .prepare('SELECT upload_id AS id, hotlink_path AS url FROM tracks WHERE bytes BETWEEN 1048576 AND 5242880 ORDER BY upload_id LIMIT 200')
    .all() as { id: string; url: string }[]
  const config = path.join(work, 'curl.config')
  const curlDir = path.join(work, 'curl')
  fs.writeFileSync(config, small.map((u, i) => `url = "${u.url}"\noutput = "${path.join(curlDir, `${i}.bin`)}"\n`).join(''))
  const curlFiles = small.map((_, i) => path.join(curlDir, `${i}.bin`))
  const parallel = ['--parallel', '--parallel-max', '4', '--parallel-immediate', '-K', config]
  const ours: number[] = []
  const curl: number[] = []
  const curlDurable: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    ours.push(runQueue(dataDir, service.baseUrl, 4, small.map((u) => u.id)).seconds)
    for (const [times, flushed] of [[curl, []], [curlDurable, curlFiles]] as const) {
      fs.mkdirSync(curlDir)
      times.push(timeCurl(parallel, flushed))
      fs.rmSync(curlDir, { recursive: true })
    }
  }
  const totalMb = (db.prepare(`SELECT sum(bytes) FROM tracks WHERE upload_id IN (${small.map(() => '?').join(',')})`).pluck().get(...small.map((u) => u.id)) as number) / 1024 / 1024
  console.log(`2. ${small.length} files of 1 to 5 MB (${totalMb.toFixed(0)} MiB), concurrency 4; median of ${ROUNDS} alternating rounds`)
  console.log(`   tuneshelf ${median(ours).toFixed(2)} s, curl --parallel --parallel-max 4 ${median(curl).toFixed(2)} s: ratio ${(median(ours) / median(curl)).toFixed(2)} (goal ≤ 1.2)`)
  console.log(`   reference with the same durability, curl then sync FILE...: ${median(curlDurable).toFixed(2)} s: ratio ${(median(ours) / median(curlDurable)).toFixed(2)}`)
  console.log(`   every round, tuneshelf / curl: ${ours.map((seconds, i) => `${seconds.toFixed(2)}/${curl[i]!.toFixed(2)}`).join(', ')}`)
  db.close()
  service.stop()
}

main()
  .catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(() => fs.rmSync(work, { recursive: true, force: true }))

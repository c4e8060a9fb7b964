/**
 * npm run bench:download — the download queue against tools doing the same work,
 * side by side, on the demo service (its own process) over loopback. A download the
 * queue reports finished is on disk (flushed, then renamed: it survives a power cut)
 * and its SHA-256 is recorded. So the reference is curl followed by sha256sum and a
 * flush of the same files, and each goal is printed beside its figure and reference:
 *  1. one 512 MiB file against `curl -o F && sha256sum F && sync F`: ratio ≤ 1.0;
 *  2. 200 files of 1 to 5 MB at concurrency 4 against `curl --parallel --parallel-max 4`,
 *     then `sha256sum FILES` and `sync FILES`: ratio ≤ 1.1;
 *  3. peak RSS ≤ 150 MB whatever the file size (the 512 MiB file, a smaller one, the 200 files);
 *  4. processor seconds per GiB: the queue's beside curl's plus sha256sum's (no goal).
 * curl alone (no hash, no flush) is printed as context.
 *
 * BENCH_QUICK=1 (or --quick) runs a smaller version in CI-like time: one round,
 * a 64 MiB file, 40 small files. BENCH_ROUNDS=N sets the rounds of either.
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../../src-main/core/startup/node-check'
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import Database from 'better-sqlite3'
import { openLibrary } from '../../src-main/core/library/library'
import { printTable, type BenchRow } from './table'

const CATALOGUE = fileURLToPath(new URL('../../src-main/demo/cli.ts', import.meta.url))
const RUNNER_SOURCE = fileURLToPath(new URL('./download-run.ts', import.meta.url))
const QUICK = process.env.BENCH_QUICK === '1' || process.argv.includes('--quick')
/**
 * Rounds of each measure, alternating tuneshelf and the references, every file deleted
 * after its round. On a virtual machine, the first writes into memory the guest never
 * used cost several times more than writes into pages freed by an earlier file;
 * alternating gives both sides the same memory, and the median hides the first touch.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 1 : 5))
/** The single file's size (the service's largest upload) and the number of small files. */
const BIG_MIB = QUICK ? 64 : 512
const SMALL_FILES = QUICK ? 40 : 200
const GIB = 1024 * 1024 * 1024
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-download-bench-'))

interface QueueRun {
  seconds: number
  cpuSeconds: number
  rssBeforeMb: number
  peakRssMb: number
}

async function startService(maxFileMb: number): Promise<{ baseUrl: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CATALOGUE, '--port', '0', '--artists', '1100', '--seed', '1', '--max-file-mb', String(maxFileMb)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const baseUrl = await new Promise<string>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(/listening on (\S+)/.exec(chunk.toString())![1]!)))
  return { baseUrl, stop: () => child.kill('SIGTERM') }
}

function runQueue(dataDir: string, baseUrl: string, concurrency: number, uploadIds: string[]): QueueRun {
  const to = fs.mkdtempSync(path.join(work, 'to-'))
  const output = execFileSync(process.execPath, [runner, dataDir, baseUrl, to, String(concurrency), ...uploadIds], {
    maxBuffer: 1024 * 1024,
  }).toString()
  const result = JSON.parse(output) as QueueRun & { failed: number }
  if (result.failed > 0) throw new Error(`${result.failed} downloads failed`)
  fs.rmSync(to, { recursive: true, force: true })
  return result
}

/** One step of a reference: its wall seconds and the processor seconds of its processes. */
interface Step {
  seconds: number
  cpuSeconds: number
}

/**
 * Runs command through sh, whose `times` then prints the processor time of its children
 * (the command): POSIX, so it needs no tool beyond the shell.
 */
function timed(command: readonly string[]): Step {
  const started = performance.now()
  const output = execFileSync('sh', ['-c', '"$@" >/dev/null && times', 'sh', ...command], { stdio: ['ignore', 'pipe', 'inherit'] }).toString()
  const seconds = (performance.now() - started) / 1000
  // The second line: the children's user and system time, as 0m1.234s 0m0.567s.
  const children = output.trim().split('\n').at(-1)!
  const cpuSeconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0)
  return { seconds, cpuSeconds }
}

/** A reference's run: each tool's step, in order. */
interface Reference {
  curl: Step
  sha256sum?: Step
  sync?: Step
}
const total = (run: Reference): number => run.curl.seconds + (run.sha256sum?.seconds ?? 0) + (run.sync?.seconds ?? 0)

/** curl with these arguments, then, when sameWork, sha256sum and sync of the files it wrote. */
function reference(curlArgs: readonly string[], files: readonly string[], sameWork: boolean): Reference {
  const curl = timed(['curl', '-sS', '--no-progress-meter', ...curlArgs])
  if (!sameWork) return { curl }
  return { curl, sha256sum: timed(['sha256sum', ...files]), sync: timed(['sync', ...files]) }
}

function median(values: readonly number[]): number {
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

const verdict = (met: boolean): string => (met ? 'met' : 'MISSED')
const seconds = (value: number): string => `${value.toFixed(2)} s`
const perGib = (cpu: number, bytes: number): string => `${(cpu / (bytes / GIB)).toFixed(2)} s/GiB`
/** The closing table's rows, in the order of the details above it. */
const rows: BenchRow[] = []

/** Prints one measure: the queue, the same-work reference and its steps, the ratio and its goal, curl alone, CPU per GiB. */
function report(label: string, short: string, bytes: number, goal: number, ours: readonly QueueRun[], same: readonly Reference[], bare: readonly Reference[]): void {
  const oursSeconds = median(ours.map((run) => run.seconds))
  const sameSeconds = median(same.map(total))
  const ratio = oursSeconds / sameSeconds
  const mib = bytes / 1024 / 1024
  const rate = (s: number): string => `${seconds(s)} (${(mib / s).toFixed(0)} MiB/s)`
  const step = (name: 'curl' | 'sha256sum' | 'sync'): number => median(same.map((run) => run[name]!.seconds))
  const curlAlone = median(bare.map(total))
  console.log(label)
  console.log(`   tuneshelf (queue, SHA-256 while receiving, flushed, renamed)  ${rate(oursSeconds)}`)
  console.log(`   reference curl, then sha256sum, then sync of the files         ${rate(sameSeconds)} (curl ${seconds(step('curl'))}, sha256sum ${seconds(step('sha256sum'))}, sync ${seconds(step('sync'))})`)
  console.log(`   ratio ${ratio.toFixed(2)}, goal ≤ ${goal.toFixed(1)}: ${verdict(ratio <= goal)}`)
  console.log(`   context: curl alone (no hash, no flush) ${rate(curlAlone)}, tuneshelf / curl alone ${(oursSeconds / curlAlone).toFixed(2)}`)
  console.log(`   every round, tuneshelf / reference: ${ours.map((run, i) => `${run.seconds.toFixed(2)}/${total(same[i]!).toFixed(2)}`).join(', ')}`)
  const curlCpu = median(same.map((run) => run.curl.cpuSeconds))
  const hashCpu = median(same.map((run) => run.sha256sum!.cpuSeconds))
  const oursCpu = median(ours.map((run) => run.cpuSeconds))
  console.log(`   processor time: tuneshelf ${perGib(oursCpu, bytes)}; curl ${perGib(curlCpu, bytes)} + sha256sum ${perGib(hashCpu, bytes)} = ${perGib(curlCpu + hashCpu, bytes)}`)
  rows.push(
    { figure: `${short}: ${seconds(oursSeconds)}`, goal: `≤ ${goal.toFixed(1)} × reference`, reference: `curl + sha256sum + sync ${seconds(sameSeconds)}`, ratio, met: ratio <= goal },
    { figure: `${short}, curl alone as context`, goal: '–', reference: `curl alone ${seconds(curlAlone)}`, ratio: oursSeconds / curlAlone },
    {
      figure: `${short}, processor: ${perGib(oursCpu, bytes)}`,
      goal: '–',
      reference: `curl + sha256sum ${perGib(curlCpu + hashCpu, bytes)}`,
      ratio: oursCpu / (curlCpu + hashCpu),
    },
  )
}

async function main(): Promise<void> {
  await bundleRunner()
  const service = await startService(BIG_MIB)
  const dataDir = path.join(work, 'data')
  const library = openLibrary({ dataDir, baseUrl: service.baseUrl })
  await library.sync.start({ skipAvatars: true })
  await library.dispose()
  // Picking uploads by size is the benchmark's own question: it reads the cache directly.
  const db = new Database(library.cacheFile, { readonly: true })
  const upload = (bytes: number): { id: string; url: string } =>
    db.prepare('SELECT upload_id AS id, hotlink_path AS url FROM tracks WHERE bytes = ? LIMIT 1').get(bytes) as { id: string; url: string }

  const peaks: string[] = []
  let largestPeak = 0
  const notePeak = (label: string, runs: readonly QueueRun[]): void => {
    const peak = Math.max(...runs.map((run) => run.peakRssMb))
    largestPeak = Math.max(largestPeak, peak)
    const typical = runs.length > 1 ? `, median ${median(runs.map((run) => run.peakRssMb)).toFixed(0)} MB` : ''
    peaks.push(`${label} ${peak.toFixed(0)} MB${typical} (${median(runs.map((run) => run.rssBeforeMb)).toFixed(0)} MB before it)`)
  }
  console.log(`Downloads against tools doing the same work${QUICK ? ' (quick mode: smaller, fewer)' : ''}: median of ${ROUNDS} rounds alternating tuneshelf and the references`)

  const big = upload(BIG_MIB * 1024 * 1024)
  const curlFile = path.join(work, 'curl.bin')
  const ours: QueueRun[] = []
  const same: Reference[] = []
  const bare: Reference[] = []
  for (let round = 0; round < ROUNDS; round++) {
    ours.push(runQueue(dataDir, service.baseUrl, 1, [big.id]))
    for (const [runs, sameWork] of [[same, true], [bare, false]] as const) {
      runs.push(reference(['-o', curlFile, big.url], [curlFile], sameWork))
      fs.rmSync(curlFile)
    }
  }
  report(`1. one ${BIG_MIB} MiB file`, `one ${BIG_MIB} MiB file`, BIG_MIB * 1024 * 1024, 1.0, ours, same, bare)
  notePeak(`${BIG_MIB} MiB file`, ours)
  // A smaller file of the same run shows whether memory grows with the file.
  const medium = db
    .prepare('SELECT upload_id AS id, bytes FROM tracks WHERE bytes BETWEEN ? AND ? ORDER BY bytes DESC LIMIT 1')
    .get((BIG_MIB * 1024 * 1024) / 5, (BIG_MIB * 1024 * 1024) / 2.5) as { id: string; bytes: number } | undefined
  if (medium) notePeak(`${(medium.bytes / 1024 / 1024).toFixed(0)} MiB file`, [runQueue(dataDir, service.baseUrl, 1, [medium.id])])

  const small = db
    .prepare('SELECT upload_id AS id, hotlink_path AS url FROM tracks WHERE bytes BETWEEN 1048576 AND 5242880 ORDER BY upload_id LIMIT ?')
    .all(SMALL_FILES) as { id: string; url: string }[]
  const config = path.join(work, 'curl.config')
  const curlDir = path.join(work, 'curl')
  fs.writeFileSync(config, small.map((u, i) => `url = "${u.url}"\noutput = "${path.join(curlDir, `${i}.bin`)}"\n`).join(''))
  const curlFiles = small.map((_, i) => path.join(curlDir, `${i}.bin`))
  const parallel = ['--parallel', '--parallel-max', '4', '--parallel-immediate', '-K', config]
  const oursSmall: QueueRun[] = []
  const sameSmall: Reference[] = []
  const bareSmall: Reference[] = []
  for (let round = 0; round < ROUNDS; round++) {
    oursSmall.push(runQueue(dataDir, service.baseUrl, 4, small.map((u) => u.id)))
    for (const [runs, sameWork] of [[sameSmall, true], [bareSmall, false]] as const) {
      fs.mkdirSync(curlDir)
      runs.push(reference(parallel, curlFiles, sameWork))
      fs.rmSync(curlDir, { recursive: true })
    }
  }
  const smallBytes = db.prepare(`SELECT sum(bytes) FROM tracks WHERE upload_id IN (${small.map(() => '?').join(',')})`).pluck().get(...small.map((u) => u.id)) as number
  report(`2. ${small.length} files of 1 to 5 MB (${(smallBytes / 1024 / 1024).toFixed(0)} MiB), concurrency 4`, `${small.length} files, concurrency 4`, smallBytes, 1.1, oursSmall, sameSmall, bareSmall)
  notePeak(`${small.length} files`, oursSmall)
  console.log('3. peak RSS of the downloading process, whatever the file size')
  console.log(`   ${peaks.join('; ')}`)
  console.log(`   largest ${largestPeak.toFixed(0)} MB, goal ≤ 150 MB: ${verdict(largestPeak <= 150)}`)
  console.log("   (processor time above: the queue's from its first request to its last file renamed; its process's start-up apart)")
  rows.push({ figure: `peak RSS: ${largestPeak.toFixed(0)} MB`, goal: '≤ 150 MB', reference: 'the goal', ratio: largestPeak / 150, met: largestPeak <= 150 })
  printTable(`Downloads, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}${QUICK ? ', quick mode' : ''}: every figure beside its goal and reference`, rows)
  db.close()
  service.stop()
}

main()
  .catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(() => fs.rmSync(work, { recursive: true, force: true }))

/**
 * npm run bench:download — the download queue against curl, side by side, on
 * the demo service (its own process) over loopback:
 *  1. one 512 MiB file (and a 128 MiB one, to show memory does not grow with
 *     size) against `curl -o`: goal, time ratio ≤ 1.1, peak RSS ≤ 150 MB;
 *  2. 200 files of 1 to 5 MB at concurrency 4 against
 *     `curl --parallel --parallel-max 4`: goal, ratio ≤ 1.2.
 * Tuneshelf also hashes (SHA-256) and flushes every file to disk; curl does neither.
 */
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createCatalogueClient } from '../../src-main/core/api/index'
import { openCache } from '../../src-main/core/db/connection'
import { syncCatalogue } from '../../src-main/core/sync/sync'

const CATALOGUE = fileURLToPath(new URL('../../src-main/core/demo/cli.ts', import.meta.url))
const RUNNER = fileURLToPath(new URL('./download-run.ts', import.meta.url))
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
  const output = execFileSync(process.execPath, ['--import', 'tsx', RUNNER, dataDir, baseUrl, to, String(concurrency), ...uploadIds], {
    maxBuffer: 1024 * 1024,
  }).toString()
  const result = JSON.parse(output) as { seconds: number; rssBeforeMb: number; peakRssMb: number; failed: number }
  if (result.failed > 0) throw new Error(`${result.failed} downloads failed`)
  fs.rmSync(to, { recursive: true, force: true })
  return result
}

function timeCurl(args: string[]): number {
  const started = performance.now()
  execFileSync('curl', ['-sS', ...args])
  return (performance.now() - started) / 1000
}

async function main(): Promise<void> {
  const service = await startService(512)
  const dataDir = path.join(work, 'data')
  const { db } = openCache(dataDir, service.baseUrl)
  await syncCatalogue({ db, client: createCatalogueClient({ baseUrl: service.baseUrl }), skipAvatars: true })
  const upload = (bytes: number): { id: string; url: string } =>
    db.prepare('SELECT upload_id AS id, hotlink_path AS url FROM tracks WHERE bytes = ? LIMIT 1').get(bytes) as { id: string; url: string }

  console.log('1. one large file, this downloader (queue, SHA-256, fsync) against curl -o')
  for (const mib of [512]) {
    const big = upload(mib * 1024 * 1024)
    const curlFile = path.join(work, 'curl.bin')
    const ours = runQueue(dataDir, service.baseUrl, 1, [big.id])
    const curl = timeCurl(['-o', curlFile, big.url])
    fs.rmSync(curlFile)
    // curl leaves the file in the page cache; the queue flushes it to disk before calling it done.
    const durableStarted = performance.now()
    execFileSync('curl', ['-sS', '-o', curlFile, big.url])
    execFileSync('sync', [curlFile])
    const curlDurable = (performance.now() - durableStarted) / 1000
    fs.rmSync(curlFile)
    console.log(`   ${mib} MiB: tuneshelf ${ours.seconds.toFixed(2)} s (${(mib / ours.seconds).toFixed(0)} MiB/s, peak RSS ${ours.peakRssMb.toFixed(0)} MB, ${ours.rssBeforeMb.toFixed(0)} MB before the download), curl -o ${curl.toFixed(2)} s (${(mib / curl).toFixed(0)} MiB/s): ratio ${(ours.seconds / curl).toFixed(2)} (goal ≤ 1.1)`)
    console.log(`   reference with the same durability, curl -o then sync FILE: ${curlDurable.toFixed(2)} s: ratio ${(ours.seconds / curlDurable).toFixed(2)}`)
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
  const ours = runQueue(dataDir, service.baseUrl, 4, small.map((u) => u.id))
  const config = path.join(work, 'curl.config')
  const curlDir = fs.mkdtempSync(path.join(work, 'curl-'))
  fs.writeFileSync(config, small.map((u, i) => `url = "${u.url}"\noutput = "${path.join(curlDir, `${i}.bin`)}"\n`).join(''))
  const curl = timeCurl(['--parallel', '--parallel-max', '4', '--parallel-immediate', '-K', config])
  const curlFiles = fs.readdirSync(curlDir).map((name) => path.join(curlDir, name))
  fs.rmSync(curlDir, { recursive: true })
  fs.mkdirSync(curlDir)
  const durableStarted = performance.now()
  execFileSync('curl', ['-sS', '--parallel', '--parallel-max', '4', '--parallel-immediate', '-K', config])
  execFileSync('sync', curlFiles)
  const curlDurable = (performance.now() - durableStarted) / 1000
  const totalMb = (db.prepare(`SELECT sum(bytes) FROM tracks WHERE upload_id IN (${small.map(() => '?').join(',')})`).pluck().get(...small.map((u) => u.id)) as number) / 1024 / 1024
  console.log(`2. ${small.length} files of 1 to 5 MB (${totalMb.toFixed(0)} MiB), concurrency 4`)
  console.log(`   tuneshelf ${ours.seconds.toFixed(2)} s, curl --parallel --parallel-max 4 ${curl.toFixed(2)} s: ratio ${(ours.seconds / curl).toFixed(2)} (goal ≤ 1.2)`)
  console.log(`   reference with the same durability, curl then sync FILE...: ${curlDurable.toFixed(2)} s: ratio ${(ours.seconds / curlDurable).toFixed(2)}`)
  db.close()
  service.stop()
}

main()
  .catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(() => fs.rmSync(work, { recursive: true, force: true }))

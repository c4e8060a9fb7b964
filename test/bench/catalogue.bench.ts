/**
 * npm run bench:catalogue — throughput of the demo catalogue service on loopback.
 *
 * The service runs in its own process (one core), the load generator (autocannon)
 * in this one. Each figure is printed beside a reference: a bare node:http server
 * in its own process answering a fixed body of the same size (the ceiling for
 * node:http here), and curl for file bytes.
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../../src-main/core/startup/node-check'
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

const CLI = fileURLToPath(new URL('../../src-main/demo/cli.ts', import.meta.url))
const STATIC_SERVER = fileURLToPath(new URL('./static-server.ts', import.meta.url))
const DURATION = Number(process.env.BENCH_SECONDS ?? 8)
const CONNECTIONS = 32

interface Server {
  baseUrl: string
  child: ChildProcess
}

function startProcess(script: string, args: string[]): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (\S+)/.exec(output)
      if (match) resolve({ baseUrl: match[1]!, child })
    })
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)))
  })
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve))
  server.child.kill('SIGTERM')
  await exited
}

/** Peak resident memory of a process, from /proc (Linux). */
function peakRssMb(pid: number): number {
  try {
    const status = execFileSync('cat', [`/proc/${pid}/status`]).toString()
    return Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024
  } catch {
    return NaN
  }
}

async function load(name: string, paths: string[], baseUrl: string): Promise<autocannon.Result> {
  let next = 0
  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }],
  })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return result
}

function row(label: string, result: autocannon.Result, reference?: autocannon.Result): string {
  const ratio = reference ? `  ${(result.requests.average / reference.requests.average).toFixed(2)}× of reference` : ''
  return (
    `${label.padEnd(44)} ${result.requests.average.toFixed(0).padStart(7)} req/s` +
    `  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms${ratio}`
  )
}

function fetchText(url: string): Promise<string> {
  return fetch(url).then((response) => response.text())
}

/** Seconds for node:http to read a whole URL, discarding it. */
function timeDownload(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    http
      .get(url, (response) => {
        response.on('data', () => {})
        response.on('end', () => resolve((performance.now() - started) / 1000))
      })
      .on('error', reject)
  })
}

function timeCurl(url: string): number {
  const started = performance.now()
  execFileSync('curl', ['-sS', '-o', '/dev/null', url])
  return (performance.now() - started) / 1000
}

async function main(): Promise<void> {
  console.log(`demo catalogue benchmark: ${DURATION} s per run, ${CONNECTIONS} connections, service in its own process`)

  // Start-up at scale: generate and listen, in a fresh process.
  const startedAt = performance.now()
  const large = await startProcess(CLI, ['--port', '0', '--artists', '100000', '--seed', '1'])
  const readySeconds = (performance.now() - startedAt) / 1000
  await fetchText(`${large.baseUrl}/api/v1/artists?per_page=50`)
  console.log(`100,000-artist catalogue ready to serve in ${readySeconds.toFixed(2)} s (goal < 10 s), RSS ${peakRssMb(large.child.pid!).toFixed(0)} MB`)
  await stop(large)

  const service = await startProcess(CLI, ['--port', '0', '--artists', '1100', '--seed', '1', '--max-file-mb', '1024'])
  const base = service.baseUrl
  const listPaths: string[] = []
  for (const sort of ['trending', 'top', 'recently_created', 'recently_updated']) {
    for (let page = 1; page <= 22; page++) listPaths.push(`/api/v1/artists?per_page=50&include_blank=1&sort=${sort}&page=${page}`)
  }
  const listPage = await fetchText(base + listPaths[0]!)
  const names = (JSON.parse(listPage) as { artists: { artist: { username: string } }[] }).artists.map((a) => a.artist.username)
  const artistPaths = names.map((name) => `/api/v1/artists/${encodeURIComponent(name)}`)
  const artistPage = await fetchText(base + artistPaths[0]!)

  const reference = await startProcess(STATIC_SERVER, [String(Buffer.byteLength(listPage)), String(Buffer.byteLength(artistPage))])
  // Warm both servers up before measuring.
  await load('warm-up', listPaths, base)
  const lists = await load('list pages', listPaths, base)
  const listReference = await load('reference', ['/list'], reference.baseUrl)
  const artists = await load('single artists', artistPaths, base)
  const artistReference = await load('reference', ['/artist'], reference.baseUrl)
  await stop(reference)

  console.log('')
  console.log(row(`list pages (50 per page, ${(listPage.length / 1024).toFixed(0)} KiB)`, lists, listReference))
  console.log(row('  reference: static node:http, same size', listReference))
  console.log(row(`single artists (${(artistPage.length / 1024).toFixed(0)} KiB)`, artists, artistReference))
  console.log(row('  reference: static node:http, same size', artistReference))
  console.log(`goal: at least 3,000 list requests per second: ${lists.requests.average >= 3000 ? 'met' : 'NOT met'}`)

  // File bytes: the largest upload (1 GiB here), read by node:http and by curl.
  const before = peakRssMb(service.child.pid!)
  const catalogue = (await import('../../src-main/demo/catalogue')).Catalogue
  const local = new catalogue({ artists: 1100, seed: 1, maxFileMb: 1024 })
  const biggest = local.artists.flatMap((a) => local.tracksOf(a)).reduce((a, b) => (b.bytes > a.bytes ? b : a))
  const fileUrl = `${base}/hotlink/${biggest.uploadId}.${biggest.ext}`
  const gib = biggest.bytes / 1024 ** 3
  const nodeSeconds = await timeDownload(fileUrl)
  const curlSeconds = timeCurl(fileUrl)
  const after = peakRssMb(service.child.pid!)
  console.log('')
  console.log(`file bytes, ${gib.toFixed(2)} GiB upload: node:http client ${(gib / nodeSeconds).toFixed(2)} GiB/s, curl ${(gib / curlSeconds).toFixed(2)} GiB/s`)
  console.log(`service peak RSS before the file ${before.toFixed(0)} MB, after ${after.toFixed(0)} MB (files are generated, not held)`)
  await stop(service)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})

/**
 * npm run bench:quick — the quick check for new tracks on a large catalogue (100,000 demo artists
 * by default, BENCH_QUICK_ARTISTS), on loopback, the demo in a process of its own:
 *  1. the full refresh that fills the cache (the reference: what every check cost before);
 *  2. a quick check after nothing changed (goal ≤ 3 requests);
 *  3. a quick check after one batch of new uploads (the demo's batch: 3 artists, one upload each;
 *     goal ≤ 20 requests and ≤ 2 s), checked to have found every new upload;
 *  4. curl fetching the same URLs as check 3, one after another in one process: the floor.
 * Each check is run ROUNDS times (a new batch each time); the median is reported. Ends with one
 * table: figure | goal | reference | ratio | met?.
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../../src-main/core/startup/node-check'
import { execFileSync, fork, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AddedUploads, NewUploadsOptions } from '../../src-main/demo/new-uploads'
import { openLibrary } from '../../src-main/core/library/library'
import { printTable, type BenchRow } from './table'

const ARTISTS = Number(process.env.BENCH_QUICK_ARTISTS ?? 100_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-bench-quick-'))

interface Counts {
  list: number
  artist: number
  levels: number
  avatar: number
  file: number
  other: number
  total: number
}

/** The demo in its own process, and the three things this bench asks of it. */
class Demo {
  private next = 0
  private readonly waiting = new Map<number, (value: unknown) => void>()
  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {
    child.on('message', (message: { id?: number; value?: unknown }) => {
      if (message.id !== undefined) this.waiting.get(message.id)?.(message.value)
    })
  }

  static start(artists: number): Promise<Demo> {
    const child = fork(fileURLToPath(new URL('./demo-child.ts', import.meta.url)), [String(artists)], { execArgv: ['--import', 'tsx'] })
    // A remote service does not compete for this machine's processors.
    os.setPriority(child.pid!, 10)
    return new Promise((resolve, reject) => {
      child.once('message', (message: { ready?: string }) => resolve(new Demo(child, message.ready!)))
      child.once('exit', (code) => reject(new Error(`the demo exited with ${code}`)))
    })
  }

  private ask<T>(message: object): Promise<T> {
    const id = this.next++
    return new Promise((resolve) => {
      this.waiting.set(id, (value) => {
        this.waiting.delete(id)
        resolve(value as T)
      })
      this.child.send({ id, ...message })
    })
  }

  add = (options: NewUploadsOptions = {}): Promise<AddedUploads[]> => this.ask({ add: options })
  counts = (): Promise<Counts> => this.ask({ counts: true })
  reset = (): Promise<null> => this.ask({ reset: true })
  stop(): void {
    this.child.disconnect()
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const describe = (counts: Counts): string => `${counts.total} requests (${counts.list} list, ${counts.artist} artist, ${counts.levels} levels, ${counts.avatar} avatar)`

async function main(): Promise<void> {
  console.log(`bench:quick — ${ARTISTS.toLocaleString('en')} demo artists on loopback, ${ROUNDS} rounds of each check`)
  const demo = await Demo.start(ARTISTS)
  const library = openLibrary({ dataDir: path.join(work, 'data'), baseUrl: demo.baseUrl })
  const rows: BenchRow[] = []
  try {
    // 1. The full refresh that fills the cache: what every scheduled check used to cost.
    let started = performance.now()
    const full = await library.sync.start({ skipAvatars: true })
    const fullSeconds = (performance.now() - started) / 1000
    const fullCounts = await demo.counts()
    console.log(`full refresh (fills the cache): ${fullSeconds.toFixed(1)} s, ${describe(fullCounts)}, ${full.detailsFetched} details`)

    // 2. Nothing changed.
    const idle: { seconds: number; counts: Counts }[] = []
    for (let round = 0; round < ROUNDS; round++) {
      await demo.reset()
      started = performance.now()
      const report = await library.sync.start({ kind: 'quick', skipAvatars: true })
      idle.push({ seconds: (performance.now() - started) / 1000, counts: await demo.counts() })
      if (report.kind !== 'quick') throw new Error(`the check ran as a ${report.kind} sync`)
    }
    for (const [round, run] of idle.entries()) console.log(`quick check, nothing new, round ${round + 1}: ${(run.seconds * 1000).toFixed(0)} ms, ${describe(run.counts)}`)

    // 3. After one batch of new uploads; every new upload must be in the cache afterwards.
    const batches: { seconds: number; counts: Counts; urls: string[] }[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const added = await demo.add()
      await demo.reset()
      started = performance.now()
      const report = await library.sync.start({ kind: 'quick', skipAvatars: true })
      const seconds = (performance.now() - started) / 1000
      const counts = await demo.counts()
      for (const { username, uploadIds } of added) {
        const tracks = new Set(library.catalogue.artist(username).tracks.map((track) => track.uploadId))
        const missing = uploadIds.filter((id) => !tracks.has(id))
        if (missing.length > 0) throw new Error(`the quick check missed ${missing.join(', ')} of ${username}`)
      }
      const urls = [
        ...Array.from({ length: report.listPages }, (_, i) => `${demo.baseUrl}/api/v1/artists?page=${i + 1}&per_page=50&include_blank=1&sort=recently_updated`),
        ...added.map(({ username }) => `${demo.baseUrl}/api/v1/artists/${encodeURIComponent(username)}`),
      ]
      batches.push({ seconds, counts, urls })
      console.log(
        `quick check after a batch (${added.map((entry) => entry.username).join(', ')}), round ${round + 1}: ${(seconds * 1000).toFixed(0)} ms, ` +
          `${describe(counts)}; every new upload found`,
      )
    }

    // 4. curl: the same URLs, one after another in one process (one connection, as the check's client keeps alive).
    const curlSeconds = batches.map(({ urls }) => {
      const at = performance.now()
      execFileSync('curl', ['-sS', '--fail', ...urls.flatMap((url) => ['-o', '/dev/null', url])], { stdio: ['ignore', 'ignore', 'inherit'] })
      return (performance.now() - at) / 1000
    })
    console.log(`curl, the same URLs as each check after a batch: ${curlSeconds.map((s) => `${(s * 1000).toFixed(0)} ms`).join(', ')}`)

    const idleRequests = Math.max(...idle.map((run) => run.counts.total))
    const idleSeconds = median(idle.map((run) => run.seconds))
    const batchRequests = Math.max(...batches.map((run) => run.counts.total))
    const batchSeconds = median(batches.map((run) => run.seconds))
    const curlMedian = median(curlSeconds)
    rows.push(
      { figure: `full refresh: ${fullSeconds.toFixed(1)} s, ${fullCounts.total} requests`, goal: '–', reference: 'what every check cost before' },
      { figure: `quick check, nothing new: ${idleRequests} requests (most of ${ROUNDS})`, goal: '≤ 3 requests', reference: `full refresh ${fullCounts.total}`, ratio: idleRequests / 3, met: idleRequests <= 3 },
      { figure: `quick check, nothing new: ${(idleSeconds * 1000).toFixed(0)} ms (median)`, goal: '–', reference: `full refresh ${fullSeconds.toFixed(1)} s` },
      { figure: `quick check after a batch: ${batchRequests} requests (most of ${ROUNDS})`, goal: '≤ 20 requests', reference: `full refresh ${fullCounts.total}`, ratio: batchRequests / 20, met: batchRequests <= 20 },
      {
        figure: `quick check after a batch: ${(batchSeconds * 1000).toFixed(0)} ms (median)`,
        goal: '≤ 2 s',
        reference: `curl, same URLs ${(curlMedian * 1000).toFixed(0)} ms (the check is ${(batchSeconds / curlMedian).toFixed(2)} × curl)`,
        ratio: batchSeconds / 2,
        met: batchSeconds <= 2,
      },
    )
    printTable('bench:quick', rows)
  } finally {
    await library.dispose()
    demo.stop()
    fs.rmSync(work, { recursive: true, force: true })
  }
}

await main()

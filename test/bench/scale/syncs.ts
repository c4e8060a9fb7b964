/**
 * A first sync, two ways, each into a fresh data folder at the same concurrency:
 *  - the CLI (`cli sync`, its own process): wall time from spawn to exit, and its progress
 *    lines (`lists 12/821 (1%)`, one per report on a pipe) timed as they arrive;
 *  - the app (app.ts): from starting main to the event stream saying the sync is done, and the
 *    sync-progress events the stream carries, timed as they arrive, as a window sees them.
 * Both give the sync's own time too (the run's start to its end: the CLI's last line, the
 * app's sync:state lastRun), and their processor time (report-cpu.ts; /proc for the app's two). `tenths` turns progress samples into the time per list page and per
 * detail in the first and the last tenth of each stage.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { PROJECT_ROOT } from '../../../src-main/web/build'
import type { SyncProgress, SyncState } from '../../../src-main/core/shared/types'
import { startApp, type App } from './app'
import { EventStream } from './events'
import { processCpuSeconds } from './stats'

const CLI = fileURLToPath(new URL('../../../src-main/cli/main.ts', import.meta.url))
const REPORT_CPU = new URL('./report-cpu.ts', import.meta.url).href

/** One progress report and when it arrived (seconds from the start). */
export interface Sample extends SyncProgress {
  t: number
}

export interface SyncRun {
  /** From starting the process(es) to the sync reported done, seconds. */
  wall: number
  /** The run's own time (its start to its end, as the sync records it), seconds. */
  own: number
  /** Processor seconds of every process it took, start-up included: the CLI's; the app's host and main. */
  cpu: number
  samples: Sample[]
}

const SYNC_TIMEOUT_MS = 60 * 60_000

export function cliSync(baseUrl: string, dataDir: string, concurrency: number): Promise<SyncRun> {
  const started = performance.now()
  const args = ['--import', 'tsx', '--import', REPORT_CPU, CLI, 'sync', '--base-url', baseUrl, '--data-dir', dataDir, '--concurrency', String(concurrency), '--no-download']
  const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'pipe'] })
  const samples: Sample[] = []
  let stderr = ''
  let partial = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    const t = (performance.now() - started) / 1000
    stderr += chunk
    const lines = (partial + chunk).split('\n')
    partial = lines.pop()!
    for (const line of lines) {
      const match = /^(lists|details|levels|avatars)\s+(\d+)\/(\d+)/.exec(line)
      if (match) samples.push({ t, phase: match[1] as SyncProgress['phase'], done: Number(match[2]), total: Number(match[3]) })
    }
  })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const wall = (performance.now() - started) / 1000
      const own = /synced \S+ in ([\d.]+) s/.exec(stderr)
      const cpu = /bench-cpu ([\d.]+)/.exec(stderr)
      if (code !== 0 || !own) reject(new Error(`cli sync exited with ${code}: ${stderr.slice(-2000)}`))
      else resolve({ wall, own: Number(own[1]), cpu: Number(cpu?.[1] ?? NaN), samples })
    })
  })
}

/**
 * The app's first sync: it starts one by itself when it opens on an empty cache (syncOnStart),
 * as a user's first run does. `during` runs alongside once the stream is open (part 6's calls).
 */
export async function appSync<T = undefined>(baseUrl: string, dataDir: string, concurrency: number, during?: (app: App) => Promise<T>): Promise<SyncRun & { during: T | undefined }> {
  const started = performance.now()
  const app = await startApp(dataDir, { baseUrl, syncConcurrency: concurrency, syncOnStart: true })
  try {
    const stream = await EventStream.open(app.origin, app.token)
    const samples: Sample[] = []
    stream.on((event, at) => {
      if (event.type === 'sync-progress') samples.push({ t: (at - started) / 1000, ...event.progress })
    })
    const finished = (state: SyncState): boolean => state.status === 'idle' && state.lastFullSyncAt !== null
    const done = finished((await stream.snapshot).sync)
      ? Promise.resolve(performance.now())
      : stream.next((event): event is Extract<typeof event, { type: 'sync-state' }> => event.type === 'sync-state' && finished(event.state), 'the app\'s sync', SYNC_TIMEOUT_MS).then(({ at }) => at)
    const alongside = during?.(app)
    const wall = ((await done) - started) / 1000
    // Both processes' whole processor time, as the CLI's is taken: start-up included.
    const cpu = processCpuSeconds(app.hostPid) + processCpuSeconds(app.mainPid)
    const result = await alongside
    const state = await app.call<SyncState>('sync:state')
    stream.close()
    const run = state.lastRun!
    return { wall, own: (run.finishedAt! - run.startedAt) / 1000, cpu, samples, during: result }
  } finally {
    await app.close()
  }
}

/** Seconds per unit in the first and the last tenth of a stage, from its progress samples. */
export interface Tenths {
  phase: SyncProgress['phase']
  units: number
  firstMs: number
  lastMs: number
}

/**
 * A stage's first and last tenth: the reports of that phase (done rising to its final total),
 * the time at which done crossed a value read between two reports (linear), and the time per
 * unit over the first 10 % of the units the stage counted and over the last 10 %. A stage reports
 * what it counted at its start (details fetched while the lists came in), so its first tenth is
 * the first tenth of what it reports.
 */
export function tenths(samples: readonly Sample[], phase: SyncProgress['phase']): Tenths | undefined {
  const points = samples.filter((sample) => sample.phase === phase)
  if (points.length < 3) return undefined
  const total = Math.max(...points.map((point) => point.total))
  const from = points[0]!.done
  const span = total - from
  if (span < 10) return undefined
  /** When done first reached value (interpolated between the reports around it). */
  const timeAt = (value: number): number => {
    for (let i = 0; i < points.length; i++) {
      const point = points[i]!
      if (point.done < value) continue
      if (i === 0) return point.t
      const before = points[i - 1]!
      return before.t + ((point.t - before.t) * (value - before.done)) / Math.max(1, point.done - before.done)
    }
    return points.at(-1)!.t
  }
  const tenth = span / 10
  const firstMs = ((timeAt(from + tenth) - timeAt(from)) / tenth) * 1000
  const lastMs = ((timeAt(total) - timeAt(total - tenth)) / tenth) * 1000
  return { phase, units: span, firstMs, lastMs }
}

/**
 * What `npm run bench:scale` runs, from the environment: which parts (BENCH_PARTS=1,3) and at
 * which sizes. The defaults are the sizes the goals are stated for; smaller ones try it quickly:
 *
 *   BENCH_PARTS=1,2,3,4,5,6          the parts to run
 *   BENCH_SYNC_SIZES=10000,50000,100000   part 1: catalogues synced by the app and by the CLI
 *   BENCH_LATENCY_ARTISTS=2000       part 2: the catalogue synced 20 ms away
 *   BENCH_CACHE_ARTISTS=100000       parts 3–6: the cache the queues run on (and part 6's sync)
 *   BENCH_QUEUES=40,1000,10000       part 3: queue lengths (the first is the reference)
 *   BENCH_EVENT_QUEUES=40,10000      part 4: queue lengths (first against last)
 *   BENCH_BULK_ROWS=10000            part 5: rows on the Downloads screen
 *   BENCH_WINDOW_S=20                parts 3, 4, 6: the steady window, in seconds
 *   BENCH_PROFILE_DIR=DIR            V8 processor profiles of main and the core's host (each thread) in DIR
 */
import os from 'node:os'

function numbers(name: string, fallback: readonly number[]): number[] {
  const raw = process.env[name]
  if (raw === undefined || raw.trim() === '') return [...fallback]
  const values = raw.split(',').map((part) => Number(part.trim()))
  if (values.some((value) => !Number.isInteger(value) || value < 1)) throw new Error(`${name} must be whole numbers from 1, separated by commas, not ${JSON.stringify(raw)}`)
  return values
}

const one = (name: string, fallback: number): number => numbers(name, [fallback])[0]!

export const config = {
  parts: new Set(numbers('BENCH_PARTS', [1, 2, 3, 4, 5, 6])),
  syncSizes: numbers('BENCH_SYNC_SIZES', [10_000, 50_000, 100_000]),
  latencyArtists: one('BENCH_LATENCY_ARTISTS', 2_000),
  cacheArtists: one('BENCH_CACHE_ARTISTS', 100_000),
  queues: numbers('BENCH_QUEUES', [40, 1_000, 10_000]),
  eventQueues: numbers('BENCH_EVENT_QUEUES', [40, 10_000]),
  bulkRows: one('BENCH_BULK_ROWS', 10_000),
  windowSeconds: one('BENCH_WINDOW_S', 20),
  /** Requests (sync) and files (downloads) at once, in the app and in its references alike. */
  concurrency: 4,
  /** The demo's largest file: the largest files are what part 3 downloads. */
  maxFileMb: 64,
  /** Part 2's service: this far away. */
  latencyMs: 20,
  /** The demo's niceness: a service elsewhere does not compete for this machine's two processors (as in bench:responsiveness). */
  serviceNiceness: 10,
}

/** The machine's load now, to print beside the figures: other work shares its two processors. */
export function load(): string {
  const [one1, five, fifteen] = os.loadavg().map((value) => value.toFixed(2))
  return `load average ${one1}, ${five}, ${fifteen} on ${os.cpus().length} processors`
}

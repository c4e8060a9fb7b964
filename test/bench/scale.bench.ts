/**
 * npm run bench:scale — the app at scale, used as a window uses it: main running startWebApp
 * (as `npm run web`) in a process of its own, the core's host forked beside it, calls over the
 * web bridge, the session's events read from its stream as a window reads them, and the real
 * renderer in Chromium where the screen is measured. The demo catalogue runs in its own process
 * at niceness 10. Each figure is printed beside its goal and its reference from the same run:
 *  1. first sync of 10,000, 50,000 and 100,000 artists: the app against `cli sync`, and the
 *     time per list page and per detail in the first tenth of each stage against the last;
 *  2. first sync of 2,000 artists 20 ms away against its floor, and the requests it made;
 *  3. downloads with 40, 1,000 and 10,000 files queued: time to queue, MB/s, against curl;
 *  4. the cost of one event through the whole path, 40 against 10,000 queued;
 *  5. Select all, Pause, Resume and Move to top on 10,000 queued rows in the Downloads screen;
 *  6. the window's calls and main's event-loop delay during a 100,000-artist sync and a
 *     10,000-file queue.
 * Each part's module says what it measures and how (test/bench/scale/part*.ts). BENCH_PARTS
 * picks parts (BENCH_PARTS=1,3), and the sizes have variables of their own (scale/config.ts).
 * It ends with one table: figure | goal | reference | ratio | met?.
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../../src-main/core/startup/node-check'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildApp, RENDERER_OUT, RENDERER_SOURCES, rendererStaleness } from '../../src-main/web/build'
import { config, load } from './scale/config'
import { Context } from './scale/context'
import { part1 } from './scale/part1-sync'
import { part2 } from './scale/part2-latency'
import { part3 } from './scale/part3-downloads'
import { part4 } from './scale/part4-event-cost'
import { part5 } from './scale/part5-bulk'
import { part6 } from './scale/part6-calls'
import { printTable } from './table'

const PARTS: Record<number, (context: Context) => Promise<void>> = { 1: part1, 2: part2, 3: part3, 4: part4, 5: part5, 6: part6 }
/**
 * The order they run in: the short parts first (part 3 builds the big cache with `cli sync`, which
 * part 1 then takes as its CLI figure for that size), part 6 last (it times its calls during part
 * 1's sync of the big catalogue). The closing table lists them by number.
 */
const ORDER = [2, 3, 4, 5, 1, 6]

async function main(): Promise<void> {
  const started = performance.now()
  const parts = ORDER.filter((part) => config.parts.has(part))
  for (const part of config.parts) if (!PARTS[part]) throw new Error(`BENCH_PARTS: there is no part ${part} (1 to 6)`)
  // The window is the built renderer: built first if its sources changed, as `npm run web` does.
  const stale = rendererStaleness(RENDERER_OUT, RENDERER_SOURCES)
  if (stale && (parts.includes(4) || parts.includes(5))) {
    process.stderr.write(`building the renderer: ${stale}\n`)
    await buildApp()
  }
  console.log(`bench:scale, parts ${parts.join(', ')}; at the start: ${load()}`)
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-bench-scale-'))
  const context = new Context(work)
  try {
    for (const part of parts) {
      // A part that fails is a result too (and a missed goal): the others still run.
      try {
        await PARTS[part]!(context)
      } catch (error) {
        console.log(`\n${part}. failed: ${(error as Error).stack ?? String(error)}`)
        context.rows.push({ figure: `${part}. the part failed`, goal: 'runs to its end', reference: (error as Error).message.slice(0, 80), met: false })
      }
    }
  } finally {
    await context.close()
    fs.rmSync(work, { recursive: true, force: true })
  }
  const minutes = (performance.now() - started) / 60_000
  const byPart = [...context.rows].sort((a, b) => parseInt(a.figure) - parseInt(b.figure))
  printTable(`bench:scale, parts ${parts.join(', ')}, ${minutes.toFixed(1)} minutes; at the end: ${load()}`, byPart)
  const missed = context.rows.filter((row) => row.met === false).length
  console.log(missed === 0 ? '\nevery goal met' : `\n${missed} of ${context.rows.filter((row) => row.met !== undefined).length} goals missed`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})

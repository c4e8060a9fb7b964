/**
 * Part 2 — a first sync of 2,000 artists 20 ms away (demo `--latency-ms 20`, concurrency 4), by
 * the CLI and by the app, each against its floor: the requests the demo counted for that sync
 * (a fresh demo per sync, so its count is that sync's alone) × 20 ms ÷ 4, as no client can do
 * better with 4 requests in flight. The sync's own time (its run's start to its end) is held
 * against it: the floor has no process start-up in it; the wall times are context.
 * Goals: ≤ 1.15 × the floor, and only the requests a first sync needs: the list pages of the
 * five passes (computed from the same catalogue), one detail and one thumbnail per artist, and
 * the access levels once.
 */
import fs from 'node:fs'
import path from 'node:path'
import { Catalogue } from '../../../src-main/demo/catalogue'
import { LIST_PASSES } from '../../../src-main/core/db/sync-store'
import { startService } from '../service'
import { config } from './config'
import type { Context } from './context'
import { n, s } from './stats'
import { appSync, cliSync, type SyncRun } from './syncs'

const GOAL = 1.15
const PER_PAGE = 50

/** What a first sync must ask for: every page of each pass, a detail and a thumbnail per artist, the levels. */
function needed(artists: number): Record<string, number> {
  const catalogue = new Catalogue({ artists, seed: 1, maxFileMb: 4096 })
  let list = 0
  for (const pass of LIST_PASSES) {
    const podcasters = pass === 'podcasters'
    list += catalogue.list({ page: 1, perPage: PER_PAGE, includeBlank: true, reverse: false, sort: podcasters ? 'trending' : pass, isPodcaster: podcasters ? 1 : undefined }).pages
  }
  return { list, artist: artists, avatar: artists, levels: 1 }
}

/** The demo's own count: `4170 requests: 170 list, 2000 artist, 1 levels, 2000 avatar, 0 file, 0 other`. */
function counted(text: string): Record<string, number> {
  const kinds: Record<string, number> = {}
  for (const [, count, kind] of text.matchAll(/(\d+) (list|artist|levels|avatar|file|other)\b/g)) kinds[kind!] = Number(count)
  return kinds
}

export async function part2(context: Context): Promise<void> {
  const artists = config.latencyArtists
  console.log(`\n2. first sync of ${n(artists)} artists ${config.latencyMs} ms away (concurrency ${config.concurrency}), against its floor: requests × ${config.latencyMs} ms ÷ ${config.concurrency}`)
  const need = needed(artists)
  const needTotal = Object.values(need).reduce((sum, value) => sum + value, 0)
  for (const who of ['cli', 'app'] as const) {
    const service = await startService(artists, config.latencyMs, [], config.serviceNiceness)
    const dataDir = path.join(context.work, `latency-${who}`)
    context.step(`part 2: ${who} sync of ${n(artists)} artists ${config.latencyMs} ms away`)
    let run: SyncRun
    try {
      run = who === 'cli' ? await cliSync(service.baseUrl, dataDir, config.concurrency) : await appSync(service.baseUrl, dataDir, config.concurrency)
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
    const kinds = counted(await service.stop())
    const requests = Object.values(kinds).reduce((sum, value) => sum + value, 0)
    const floor = (requests * config.latencyMs) / 1000 / config.concurrency
    const ratio = run.own / floor
    const extra = requests - needTotal
    const byKind = Object.entries(kinds)
      .filter(([, count]) => count > 0)
      .map(([kind, count]) => `${n(count)} ${kind}${need[kind] !== undefined && need[kind] !== count ? ` (needs ${n(need[kind])})` : ''}`)
      .join(', ')
    console.log(`   ${who}: its sync ${s(run.own)} (wall ${s(run.wall)}), floor ${s(floor)}: ${ratio.toFixed(2)} × (goal ≤ ${GOAL}: ${ratio <= GOAL ? 'met' : 'MISSED'})`)
    console.log(`      ${n(requests)} requests: ${byKind}; ${extra === 0 ? 'only those it needs' : `${n(extra)} more than the ${n(needTotal)} it needs`}`)
    context.rows.push(
      { figure: `2. ${who} sync 20 ms away: ${s(run.own)}`, goal: `≤ ${GOAL} × floor`, reference: `floor ${s(floor)} (${n(requests)} requests)`, ratio, met: ratio <= GOAL },
      { figure: `2. ${who}: ${n(requests)} requests`, goal: 'only those needed', reference: `${n(needTotal)} needed`, ratio: requests / needTotal, met: extra <= 0 },
    )
  }
}

/**
 * Part 1 — the app's first sync against `cli sync` of the same catalogue, at 10,000, 50,000 and
 * 100,000 artists (BENCH_SYNC_SIZES): the demo in its own process at niceness 10, each sync into
 * a fresh data folder at concurrency 4, the CLI first, then the app.
 *  - wall time: the CLI from spawn to exit; the app from starting main to its event stream
 *    saying the sync is done (each includes its own start-up). Goal: app ≤ 1.1 × CLI.
 *  - flatness: the time per list page and per detail in the first tenth of each stage against
 *    the last tenth, from the sync-progress events the window's stream carries (and the CLI's
 *    progress lines, as context). Goal: last/first ≤ 1.2 (a sync that slows as the cache grows
 *    would miss it).
 * The CLI's cache of the big catalogue is kept: parts 3–6 run on copies of it (and when part 3
 * ran first, the sync that built it is this part's CLI figure for that size). With part 6, the
 * app's sync of the big catalogue is the one part 6 calls during: its figure says so.
 */
import fs from 'node:fs'
import path from 'node:path'
import { startService } from '../service'
import { config } from './config'
import type { Context } from './context'
import { n, s } from './stats'
import { appSync, cliSync, tenths, type SyncRun } from './syncs'
import { calls } from './part6-calls'

const FLAT = 1.2

export async function part1(context: Context): Promise<void> {
  console.log(`\n1. first sync, the app against cli sync (concurrency ${config.concurrency}, the demo at niceness ${config.serviceNiceness}, a fresh data folder each)`)
  for (const artists of config.syncSizes) {
    // The big catalogue is the one parts 3–6 use: kept running, and the CLI's cache of it kept too.
    const big = artists === config.cacheArtists
    const service = big ? await context.bigService() : await startService(artists, 0, [], config.serviceNiceness)
    try {
      // The cache parts 3–6 run on was made by this very command, if it was made already.
      let cli = big ? context.cacheBuild : undefined
      if (!cli) {
        const cliDir = path.join(context.work, `sync-cli-${artists}`)
        context.step(`part 1: cli sync of ${n(artists)} artists`)
        cli = await cliSync(service.baseUrl, cliDir, config.concurrency)
        if (big) context.offerCache(cliDir)
        else fs.rmSync(cliDir, { recursive: true, force: true })
      }
      const appDir = path.join(context.work, `sync-app-${artists}`)
      // Part 6 times the window's calls during this sync (a sync of 100,000 artists is long: one, not two).
      const withCalls = big && config.parts.has(6)
      context.step(`part 1: the app's first sync of ${n(artists)} artists${withCalls ? ", with part 6's calls" : ''}`)
      const app = await appSync(service.baseUrl, appDir, config.concurrency, withCalls ? (opened) => calls(opened, { sync: true }) : undefined)
      if (withCalls) context.syncCalls = { measured: app.during!, seconds: app.wall }
      fs.rmSync(appDir, { recursive: true, force: true })
      report(context, artists, app, cli, withCalls)
    } finally {
      if (!big) await service.stop()
    }
  }
}

function report(context: Context, artists: number, app: SyncRun, cli: SyncRun, withCalls: boolean): void {
  const ratio = app.wall / cli.wall
  const calls = withCalls ? ", with part 6's calls" : ''
  console.log(`   ${n(artists)} artists: the app ${s(app.wall)}${calls} (its sync ${s(app.own)}), cli sync ${s(cli.wall)} (its sync ${s(cli.own)})`)
  console.log(`      app / cli ${ratio.toFixed(2)} (goal ≤ 1.1: ${ratio <= 1.1 ? 'met' : 'MISSED'}); sync's own times ${(app.own / cli.own).toFixed(2)}`)
  // Processor time moves less than wall time on a busy machine: context for the ratio above.
  console.log(`      processor time: the app ${s(app.cpu)} (host and main), cli sync ${s(cli.cpu)}: ${(app.cpu / cli.cpu).toFixed(2)}`)
  context.rows.push(
    { figure: `1. first sync of ${n(artists)}: app ${s(app.wall)}${calls}`, goal: '≤ 1.1 × cli sync', reference: `cli sync ${s(cli.wall)}`, ratio, met: ratio <= 1.1 },
    { figure: `1. ${n(artists)}: app's processor ${s(app.cpu)}`, goal: '–', reference: `cli sync's ${s(cli.cpu)}`, ratio: app.cpu / cli.cpu },
  )
  for (const phase of ['lists', 'details'] as const) {
    const unit = phase === 'lists' ? 'list page' : 'detail'
    const ours = tenths(app.samples, phase)
    const theirs = tenths(cli.samples, phase)
    const cliText = theirs ? `; cli ${theirs.firstMs.toFixed(2)} → ${theirs.lastMs.toFixed(2)} ms (${(theirs.lastMs / theirs.firstMs).toFixed(2)})` : ''
    if (!ours) {
      console.log(`      per ${unit}: too few progress events to tell${cliText}`)
      continue
    }
    const flat = ours.lastMs / ours.firstMs
    console.log(
      `      per ${unit} (${n(ours.units)} in the stage): first tenth ${ours.firstMs.toFixed(2)} ms, last tenth ${ours.lastMs.toFixed(2)} ms, ` +
        `last/first ${flat.toFixed(2)} (goal ≤ ${FLAT}: ${flat <= FLAT ? 'met' : 'MISSED'})${cliText}`,
    )
    context.rows.push({
      figure: `1. ${n(artists)}: per ${unit}, last tenth ${ours.lastMs.toFixed(2)} ms`,
      goal: `≤ ${FLAT} × first tenth`,
      reference: `first tenth ${ours.firstMs.toFixed(2)} ms`,
      ratio: flat,
      met: flat <= FLAT,
    })
  }
}

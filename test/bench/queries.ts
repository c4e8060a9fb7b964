/**
 * Offline list and search queries on a large cache (part 3 of npm run bench:sync):
 * the cache filled through the sync's own list ingest, every query asked through the library.
 */
import path from 'node:path'
import * as v from 'valibot'
import { listArtistSchema } from '../../src-main/core/api/schemas'
import { openDatabase } from '../../src-main/core/db/connection'
import { bumpCatalogueVersion } from '../../src-main/core/db/query-cache'
import { optimizeSearchIndex, startSearchIndexUpkeep } from '../../src-main/core/db/search-answers'
import { LIST_PASSES, applyLists, dropStagedRanks, endRun, recordListPage, startOrResumeRun } from '../../src-main/core/db/sync-store'
import { Catalogue } from '../../src-main/demo/catalogue'
import { listArtistJson } from '../../src-main/demo/responses'
import { openLibrary } from '../../src-main/core/library/library'
import { UPKEEP_STEP_MS, upkeepStep } from '../../src-main/core/sync/search-upkeep'
import { SORT_ORDERS, type ArtistKind } from '../../src-main/core/shared/catalogue'
import { printTable, type BenchRow } from './table'

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** 3. Offline queries on a large cache, filled through the sync's own list ingest, asked through the library. */
export async function benchQueries(work: string, QUERY_ARTISTS: number): Promise<void> {
  const catalogue = new Catalogue({ artists: QUERY_ARTISTS, seed: 1, maxFileMb: 4096 })
  const dataDir = path.join(work, 'queries')
  const origin = 'http://127.0.0.1:1'
  // The library makes the cache; the fill writes into it directly, as a sync's batches would.
  const cacheFile = openLibrary({ dataDir, baseUrl: origin }).cacheFile
  const db = openDatabase(cacheFile)
  const { run } = startOrResumeRun(db, Date.now())
  const fillStarted = performance.now()
  for (const pass of LIST_PASSES) {
    const query = { perPage: 50, reverse: false, includeBlank: true, sort: pass === 'podcasters' ? ('trending' as const) : pass, isPodcaster: pass === 'podcasters' ? (1 as const) : undefined }
    const pages = catalogue.list({ ...query, page: 1 }).pages
    for (let page = 1; page <= pages; page++) {
      const artists = catalogue.list({ ...query, page }).artists.map((a) => v.parse(listArtistSchema, JSON.parse(listArtistJson(origin, catalogue, a))))
      recordListPage(db, run.id, pass, page, pages, 50, artists)
    }
  }
  applyLists(db, run.id, Date.now())
  const fillSeconds = (performance.now() - fillStarted) / 1000

  const time = (query: () => void): number => {
    const started = performance.now()
    query()
    return performance.now() - started
  }
  // The CPU time of the same: on a shared machine, what the work costs, whatever else waits for the cores.
  const cpuTime = (work: () => void): number => {
    const started = process.cpuUsage()
    work()
    const used = process.cpuUsage(started)
    return (used.user + used.system) / 1000
  }
  // A sync's end as a sync runs it (sync.ts): the run's staged positions dropped and the index's upkeep, in
  // steps, each its own transaction, then the run's end; each step timed, wall and CPU, under the kind of sync it ends.
  const endSteps = new Map<string, { wall: number[]; cpu: number[] }>()
  const timedStep = <T>(kind: string, work: () => T): T => {
    let result!: T
    let cpu = 0
    const wall = time(() => (cpu = cpuTime(() => (result = work()))))
    const steps = endSteps.get(kind) ?? { wall: [], cpu: [] }
    endSteps.set(kind, steps)
    steps.wall.push(wall)
    steps.cpu.push(cpu)
    return result
  }
  let syncEndsInSteps = 0
  const syncEndInSteps = (kind: string): void => {
    syncEndsInSteps++
    const job = startSearchIndexUpkeep(db)
    while (!timedStep(kind, () => upkeepStep(db, job)));
  }
  while (!timedStep('a first sync', () => db.transaction(() => dropStagedRanks(db, run.id)).immediate()));
  syncEndInSteps('a first sync')
  timedStep('a first sync', () => endRun(db, run.id, 'completed', Date.now()))
  db.pragma('optimize')
  const library = openLibrary({ dataDir, baseUrl: origin })
  const listArtists = library.catalogue.list

  let seed = 7
  const random = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    return seed % n
  }
  const kinds: ArtistKind[] = ['all', 'podcasts', 'musicians']
  const lists: number[] = []
  for (let i = 0; i < 3000; i++) {
    const kind = kinds[random(3)]!
    const includeBlank = random(2) === 1
    const total = listArtists({ kind, includeBlank, perPage: 50 }).total
    const page = 1 + random(Math.max(1, Math.ceil(total / 50)))
    lists.push(time(() => listArtists({ sort: SORT_ORDERS[random(4)]!, reverse: random(2) === 1, kind, includeBlank, page, perPage: 50 })))
  }
  // Names as a user types them: a word of a real artist's name, from its first letter up, the first page each time.
  const typed: number[] = []
  while (typed.length < 3000) {
    const artist = catalogue.artists[random(catalogue.artists.length)]!
    const words = `${artist.pfName} ${artist.username}`.split(/[^\p{L}\p{N}]+/u).filter(Boolean)
    if (words.length === 0) continue
    const word = Array.from(words[random(words.length)]!)
    for (let length = 1; length <= word.length && typed.length < 3000; length++) {
      typed.push(time(() => listArtists({ q: word.slice(0, length).join(''), kind: kinds[random(3)]!, perPage: 50 })))
    }
  }
  // The next pages of the same searches: what scrolling through results costs.
  const scrolled: number[] = []
  for (let i = 0; i < 1000; i++) {
    const q = ['harbor', 'lucy', 'night', 'wolves', 'tides'][random(5)]!
    scrolled.push(time(() => listArtists({ q, page: 2 + random(5), perPage: 50 })))
  }
  const BROAD = ['the', 'dj', 'x', 'a']
  // Next pages of broad words (up to the 1,000th result), each the first search after a change: nothing cached, nothing stored.
  const scrolledBroad: number[] = []
  const scrolledBroadCpu: number[] = []
  for (let i = 0; i < 200; i++) {
    bumpCatalogueVersion(db)
    const query = { q: [...BROAD, 's'][random(5)]!, kind: kinds[random(3)]!, page: 2 + random(19), perPage: 50 }
    scrolledBroad.push(time(() => scrolledBroadCpu.push(cpuTime(() => listArtists(query)))))
  }
  // Broad words, each the first search after a change to the catalogue outside a sync (an artist refreshed):
  // the answers stored at the last sync's end no longer hold, and nothing is cached; every result is computed.
  const broadChanged: number[] = []
  for (let i = 0; i < 200; i++) {
    bumpCatalogueVersion(db)
    broadChanged.push(time(() => listArtists({ q: BROAD[random(4)]!, kind: kinds[random(3)]!, perPage: 50 })))
  }
  // Next pages of broad words again, each the first search after a change to the index itself (an artist's bio):
  // not even the totals stored at the last sync's end hold then.
  const scrolledIndexed: number[] = []
  const scrolledIndexedCpu: number[] = []
  const edited = db.prepare('SELECT id, pf_bio FROM artists ORDER BY id LIMIT 1').get() as { id: number; pf_bio: string | null }
  const setBio = db.prepare('UPDATE artists SET pf_bio = ? WHERE id = ?')
  for (let i = 0; i < 200; i++) {
    db.transaction(() => (setBio.run(i % 2 === 0 ? `${edited.pf_bio ?? ''} edited` : edited.pf_bio, edited.id), bumpCatalogueVersion(db))).immediate()
    const query = { q: [...BROAD, 's'][random(5)]!, kind: kinds[random(3)]!, page: 2 + random(19), perPage: 50 }
    scrolledIndexed.push(time(() => scrolledIndexedCpu.push(cpuTime(() => listArtists(query)))))
  }
  // A sync's end, untimed, after those edits: the figures below start from answers that hold.
  db.transaction(() => (bumpCatalogueVersion(db), optimizeSearchIndex(db))).immediate()
  // The same, each the first search after a sync: the sync's end (the catalogue changed, the index
  // optimized, the broadest words' answers stored) runs before each, timed on its own.
  const broadSynced: number[] = []
  const syncEnds: number[] = []
  const syncEndsCpu: number[] = []
  const syncEnd = (): void => db.transaction(() => (bumpCatalogueVersion(db), optimizeSearchIndex(db))).immediate()
  for (let i = 0; i < 40; i++) {
    syncEnds.push(time(() => syncEndsCpu.push(cpuTime(syncEnd))))
    broadSynced.push(time(() => listArtists({ q: BROAD[random(4)]!, kind: kinds[random(3)]!, perPage: 50 })))
  }
  // A sync's end after a sync that moved an artist in the trending order: every stored answer is computed
  // again, in one piece, or in steps as a sync does it, alternately.
  const recomputed: number[] = []
  const recomputedCpu: number[] = []
  const moveFirst = db.prepare(
    'UPDATE artists SET rank_trending = (SELECT max(rank_trending) + 1 FROM artists) WHERE id = (SELECT id FROM artists WHERE rank_trending IS NOT NULL ORDER BY rank_trending LIMIT 1)',
  )
  for (let i = 0; i < 10; i++) {
    db.transaction(() => (moveFirst.run(), bumpCatalogueVersion(db))).immediate()
    if (i % 2 === 0) recomputed.push(time(() => recomputedCpu.push(cpuTime(() => db.transaction(() => optimizeSearchIndex(db)).immediate()))))
    else syncEndInSteps('the trending order changed')
  }
  // A sync's end after a sync that changed the text of a tenth of the artists (in batches of 500, as a
  // sync's do): the index merged (FTS5's 'optimize', about half a second per 100,000 changed artists)
  // and every answer computed again, in one piece, or in steps, alternately.
  const merged: number[] = []
  const mergedCpu: number[] = []
  const bios = db.prepare('SELECT id, pf_bio FROM artists WHERE id % 10 = 3').all() as { id: number; pf_bio: string | null }[]
  const setBioOf = db.prepare('UPDATE artists SET pf_bio = ? WHERE id = ?')
  for (let i = 0; i < 4; i++) {
    for (let from = 0; from < bios.length; from += 500) {
      db.transaction(() => {
        for (const { id, pf_bio } of bios.slice(from, from + 500)) setBioOf.run(i % 2 === 0 ? `${pf_bio ?? ''} rewritten` : pf_bio, id)
        bumpCatalogueVersion(db)
      }).immediate()
    }
    if (i % 2 === 0) merged.push(time(() => mergedCpu.push(cpuTime(() => db.transaction(() => optimizeSearchIndex(db)).immediate()))))
    else syncEndInSteps(`the text of ${bios.length.toLocaleString('en')} artists changed`)
  }
  const stored = db.prepare('SELECT count(DISTINCT word) FROM search_answers').pluck().get() as number

  const GOAL_P99 = 16
  const GOAL_TYPED_P95 = 5
  const line = (name: string, samples: number[], p95Goal?: number): string => {
    samples.sort((a, b) => a - b)
    const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(samples, p))
    const goal = p95Goal === undefined ? `p99 ≤ ${GOAL_P99} ms` : `p95 ≤ ${p95Goal} ms, p99 ≤ ${GOAL_P99} ms`
    const met = p99 <= GOAL_P99 && (p95Goal === undefined || p95 <= p95Goal)
    const figures = `p50 ${p50.toFixed(2)}  p95 ${p95.toFixed(2)}  p99 ${p99.toFixed(2)} ms`
    return `   ${`${name} (${samples.length})`.padEnd(66)} ${figures.padEnd(36)} goal ${goal}: ${met ? 'met' : 'MISSED'}`
  }
  console.log(
    `4. offline queries on ${QUERY_ARTISTS.toLocaleString('en')} artists (cache filled through the list ingest in ${fillSeconds.toFixed(1)} s), ` +
      `through the library; goals: every class p99 ≤ ${GOAL_P99} ms (one 60 Hz frame), names as typed p95 ≤ ${GOAL_TYPED_P95} ms`,
  )
  console.log(line('list pages, any sort/filter/page', lists))
  console.log(line('search: names as typed from one letter up, first pages', typed, GOAL_TYPED_P95))
  console.log(line('search: next pages of a search', scrolled))
  console.log(line(`search: next pages of broad words and s, first after a change`, scrolledBroad))
  console.log(line(`search: the same, first after a change to the index`, scrolledIndexed))
  console.log(line(`search: broad words (${BROAD.join(', ')}), first after a sync`, broadSynced))
  console.log(line(`search: broad words, first after a change outside a sync`, broadChanged))
  for (const samples of [syncEnds, syncEndsCpu, recomputed, recomputedCpu, merged, mergedCpu, scrolledBroadCpu, scrolledIndexedCpu]) samples.sort((a, b) => a - b)
  const median = (samples: number[]): string => `${percentile(samples, 50).toFixed(0)} ms`
  console.log(
    `   a sync's end optimizes the index and keeps the answers of the ${stored} broadest words (nothing they are made of changed): ` +
      `median ${median(syncEnds)}, max ${syncEnds.at(-1)!.toFixed(0)} ms, CPU median ${median(syncEndsCpu)} (${syncEnds.length} runs)`,
  )
  console.log(
    `   the same in one piece after the trending order changed (every answer computed again): median ${median(recomputed)}, ` +
      `max ${recomputed.at(-1)!.toFixed(0)} ms, CPU median ${median(recomputedCpu)} (${recomputed.length} runs); after the text of ` +
      `${bios.length.toLocaleString('en')} artists changed (the index merged too): median ${median(merged)}, max ${merged.at(-1)!.toFixed(0)} ms, ` +
      `CPU median ${median(mergedCpu)} (${merged.length} runs)`,
  )
  // The sync's end as a sync runs it, in steps: the longest step of each kind of sync.
  const longest = (samples: number[]): number => Math.max(...samples)
  const sum = (samples: number[]): number => samples.reduce((a, b) => a + b, 0)
  for (const [kind, { wall, cpu }] of endSteps) {
    console.log(
      `   a sync's end in steps of ${UPKEEP_STEP_MS} ms, after ${kind}: ${wall.length} steps, the longest ${longest(wall).toFixed(0)} ms ` +
        `(CPU ${longest(cpu).toFixed(0)} ms), CPU p50 ${percentile([...cpu].sort((a, b) => a - b), 50).toFixed(0)} ms, all steps' CPU ${sum(cpu).toFixed(0)} ms`,
    )
  }
  const allSteps = [...endSteps.values()]
  const longestCpu = longest(allSteps.flatMap((steps) => steps.cpu))
  const longestKind = [...endSteps].find(([, steps]) => steps.cpu.includes(longestCpu))![0]
  // Judged on CPU time: each of these is one synchronous piece of work, whose CPU time is its time on an idle machine.
  const cpuP99 = percentile(scrolledBroadCpu, 99)
  const rows: BenchRow[] = [
    {
      figure: `sync's end, nothing the answers are made of changed: CPU median ${median(syncEndsCpu)}, max ${syncEndsCpu.at(-1)!.toFixed(0)} ms`,
      goal: '≤ 250 ms',
      reference: `wall median ${median(syncEnds)}, max ${syncEnds.at(-1)!.toFixed(0)} ms`,
      met: syncEndsCpu.at(-1)! <= 250,
    },
    {
      figure: `sync's end, longest single step: CPU ${longestCpu.toFixed(0)} ms (after ${longestKind})`,
      goal: '≤ 250 ms',
      reference: `wall ${longest(allSteps.flatMap((steps) => steps.wall)).toFixed(0)} ms; ${sum(allSteps.map((steps) => steps.cpu.length))} steps of ${UPKEEP_STEP_MS} ms in ${syncEndsInSteps} sync ends`,
      met: longestCpu <= 250,
    },
    {
      figure: `sync's end in one piece, trending order changed: CPU median ${median(recomputedCpu)}, max ${recomputedCpu.at(-1)!.toFixed(0)} ms`,
      goal: '–',
      reference: `wall median ${median(recomputed)}, max ${recomputed.at(-1)!.toFixed(0)} ms`,
    },
    {
      figure: `sync's end in one piece, the text of ${bios.length.toLocaleString('en')} artists changed: CPU median ${median(mergedCpu)}, max ${mergedCpu.at(-1)!.toFixed(0)} ms`,
      goal: '–',
      reference: `wall median ${median(merged)}, max ${merged.at(-1)!.toFixed(0)} ms`,
    },
    {
      figure: `next pages of broad words, first after a change: CPU p99 ${cpuP99.toFixed(2)} ms`,
      goal: 'p99 ≤ 12 ms',
      reference: `CPU p50 ${percentile(scrolledBroadCpu, 50).toFixed(2)}; wall p50 ${percentile(scrolledBroad, 50).toFixed(2)}, p99 ${percentile(scrolledBroad, 99).toFixed(2)} ms`,
      met: cpuP99 <= 12,
    },
    {
      figure: `the same, first after a change to the index: CPU p99 ${percentile(scrolledIndexedCpu, 99).toFixed(2)} ms`,
      goal: 'p99 ≤ 12 ms',
      reference: `CPU p50 ${percentile(scrolledIndexedCpu, 50).toFixed(2)}; wall p50 ${percentile(scrolledIndexed, 50).toFixed(2)}, p99 ${percentile(scrolledIndexed, 99).toFixed(2)} ms`,
      met: percentile(scrolledIndexedCpu, 99) <= 12,
    },
  ]
  printTable('Search at a sync\'s end and after a change (part 4)', rows)
  await library.dispose()
  db.close()
}

/**
 * npm run bench:first-search — what searching during a first sync costs:
 * first syncs of a catalogue on loopback (BENCH_ARTISTS, default 30,000; the demo service in its
 * own process), each into a fresh cache, and for each:
 *  - the sync's wall time and this process's CPU time (the service's excluded);
 *  - the lists' end: from the last list page stored to the details stage (applyLists, with the
 *    search index's last step);
 *  - how long after the first list page came a search for its first artist found it, and how
 *    many artists the search index held when the lists ended, looked at every 20 ms.
 * Then, on the last cache: the whole index built in one statement, against the same rows
 * indexed in slices of BENCH_SLICE rows (default 2,500: about a second's list pages at this
 * speed), each its own transaction, as the sync does while its lists come in; and one artist in
 * ten indexed again (about as many as a first sync of the demo changes after their slice:
 * podcasters found on a later page), by the triggers row by row as after a first sync, against
 * noted by the triggers and indexed again in bulk by the next slice, as during one.
 * BENCH_ROUNDS (default 3) rounds; the medians are printed.
 */
import '../../src-main/core/startup/node-check'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openDatabase } from '../../src-main/core/db/connection'
import { finishSearchIndex, indexArtistsSoFar, rebuildSearchIndex } from '../../src-main/core/db/search'
import { openLibrary } from '../../src-main/core/library/library'
import { startService } from './service'

const ARTISTS = Number(process.env.BENCH_ARTISTS ?? 30_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const CONCURRENCY = 4
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-bench-search-'))
const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!
const each = (values: number[], digits = 2): string => values.map((value) => value.toFixed(digits)).join(', ')

interface Round {
  wall: number
  cpu: number
  listsEndMs: number
  foundAfterMs: number | undefined
  cacheFile: string
}

async function firstSync(baseUrl: string, round: number): Promise<Round> {
  const dataDir = path.join(work, `round-${round}`)
  const library = openLibrary({ dataDir, baseUrl })
  let firstPageAt: number | undefined
  let firstName: string | undefined
  let foundAt: number | undefined
  let lastListPageAt = 0
  let detailsAt: number | undefined
  const probe = setInterval(() => {
    if (firstName === undefined) {
      const first = library.catalogue.list({ offset: 0, limit: 1 }).artists[0]
      if (first) {
        firstName = first.username
        firstPageAt = performance.now()
      }
    } else if (foundAt === undefined && library.catalogue.list({ q: firstName, offset: 0, limit: 50 }).artists.some((artist) => artist.username === firstName)) {
      foundAt = performance.now()
    }
  }, 20)
  const progress = library.sync.onDidProgress((value) => {
    if (value.phase === 'lists') lastListPageAt = performance.now()
    else if (value.phase === 'details' && detailsAt === undefined) detailsAt = performance.now()
  })
  const cpu = process.cpuUsage()
  const started = performance.now()
  await library.sync.start({ concurrency: CONCURRENCY })
  const wall = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  clearInterval(probe)
  progress.dispose()
  await library.dispose()
  return {
    wall,
    cpu: (used.user + used.system) / 1e6,
    listsEndMs: (detailsAt ?? NaN) - lastListPageAt,
    foundAfterMs: foundAt === undefined || firstPageAt === undefined ? undefined : foundAt - firstPageAt,
    cacheFile: library.cacheFile,
  }
}

/** The whole index in one statement, against the same rows in slices of `slice` rows, each its own transaction. */
function indexCosts(
  cacheFile: string,
  slice: number,
): { whole: number; sliced: number; slices: number; rowByRow: number; changed: number; noted: number; bySlice: number } {
  const db = openDatabase(cacheFile)
  try {
    let started = performance.now()
    db.transaction(() => rebuildSearchIndex(db)).immediate()
    const whole = performance.now() - started
    const ids = db.prepare('SELECT id FROM artists ORDER BY id').pluck().all() as number[]
    const insert = db.prepare(
      `INSERT INTO artists_fts (rowid, username, pf_name, pf_bio, location_name, search_flags)
       SELECT id, search_text(username), search_text(pf_name), search_text(pf_bio), search_text(location_name), search_flags
       FROM artists WHERE id > ? AND id <= ?`,
    )
    db.prepare(`INSERT INTO artists_fts (artists_fts) VALUES ('delete-all')`).run()
    started = performance.now()
    let slices = 0
    for (let at = 0; at < ids.length; at += slice) {
      const from = at === 0 ? 0 : ids[at - 1]!
      const to = ids[Math.min(ids.length, at + slice) - 1]!
      db.transaction(() => insert.run(from, to)).immediate()
      slices++
    }
    const sliced = performance.now() - started
    // The triggers' upkeep of artists indexed already, row by row: a first sync of the demo changes
    // about one in ten after its slice took it (a podcaster found on a later page).
    const some = ids.filter((_, index) => index % 10 === 0)
    const flip = db.prepare('UPDATE artists SET is_podcaster = 1 - is_podcaster WHERE id = ?')
    started = performance.now()
    db.transaction(() => {
      for (const id of some) flip.run(id)
    }).immediate()
    const rowByRow = performance.now() - started
    db.transaction(() => {
      for (const id of some) flip.run(id)
    }).immediate()
    // The same rows while a first sync fills the cache: noted by the triggers, indexed again by the next slice.
    db.transaction(() => {
      db.prepare(`INSERT INTO meta (key, value) VALUES ('fts_rebuild_pending', '1')`).run()
      db.prepare(`INSERT INTO meta (key, value) VALUES ('fts_indexed_upto', ?)`).run(String(ids[ids.length - 1]!))
    }).immediate()
    started = performance.now()
    db.transaction(() => {
      for (const id of some) flip.run(id)
    }).immediate()
    const noted = performance.now() - started
    started = performance.now()
    db.transaction(() => indexArtistsSoFar(db)).immediate()
    const bySlice = performance.now() - started
    db.transaction(() => finishSearchIndex(db)).immediate()
    return { whole, sliced, slices, rowByRow, changed: some.length, noted, bySlice }
  } finally {
    db.close()
  }
}

async function main(): Promise<void> {
  const service = await startService(ARTISTS)
  const rounds: Round[] = []
  try {
    for (let round = 0; round < ROUNDS; round++) rounds.push(await firstSync(service.baseUrl, round))
  } finally {
    await service.stop()
  }
  const walls = rounds.map((round) => round.wall)
  const cpus = rounds.map((round) => round.cpu)
  const ends = rounds.map((round) => round.listsEndMs)
  const found = rounds.map((round) => round.foundAfterMs ?? NaN)
  console.log(`first sync of ${ARTISTS.toLocaleString('en')} artists on loopback, concurrency ${CONCURRENCY}, median of ${ROUNDS}`)
  console.log(`  wall            ${median(walls).toFixed(2)} s  (rounds ${each(walls)})`)
  console.log(`  CPU (client)    ${median(cpus).toFixed(2)} s  (rounds ${each(cpus)})`)
  console.log(`  lists' end      ${median(ends).toFixed(0)} ms  (last list page to the details stage; rounds ${each(ends, 0)})`)
  console.log(`  first artist found by search ${Number.isNaN(median(found)) ? 'only after the lists' : `${median(found).toFixed(0)} ms after its row could be listed`} (rounds ${each(found, 0)})`)
  const slice = Number(process.env.BENCH_SLICE ?? 2500)
  const costs = indexCosts(rounds[rounds.length - 1]!.cacheFile, slice)
  console.log(`  index of every artist in one statement ${costs.whole.toFixed(0)} ms; in ${costs.slices} slices of ${slice} rows ${costs.sliced.toFixed(0)} ms`)
  console.log(`  one artist in ten indexed again (${costs.changed.toLocaleString('en')} rows): by the triggers, row by row, ${costs.rowByRow.toFixed(0)} ms;`)
  console.log(`    noted by the triggers while a first sync fills the cache ${costs.noted.toFixed(0)} ms, then indexed again by one slice ${costs.bySlice.toFixed(0)} ms`)
  fs.rmSync(work, { recursive: true, force: true })
}

await main()

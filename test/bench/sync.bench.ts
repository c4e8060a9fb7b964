/**
 * npm run bench:sync — the sync engine and the cache, each beside a reference:
 *  1. a full sync of a 2,000-artist catalogue 20 ms away (the demo's --latency-ms),
 *     against its floor, requests × latency ÷ concurrency (goal ≤ 1.15 × the floor),
 *     with the requests it made by kind (goal: list pages + one detail and one
 *     thumbnail per artist + the levels) and when its list could first be browsed;
 *  2. a full sync of a 10,000-artist catalogue on loopback, against got alone
 *     fetching the same URLs at the same concurrency (goal ≤ 1.5 ×), with curl as context;
 *  3. the ingest rate of track rows into the cache (goal ≥ 250,000 rows/s), beside SQLite alone
 *     inserting the same rows;
 *  4. offline list and search queries on a 100,000-artist cache (see queries.ts).
 * The demo service runs in its own process, as a remote service would. The machine this runs on
 * is shared and its speed wanders: besides wall time, each part gives this process's CPU time
 * (process.cpuUsage(): the client's own work, the service's excluded), which the noise moves less.
 * Parts 1–3 end with one table: each figure, its goal, its reference, their ratio, met or not.
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../../src-main/core/startup/node-check'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import http from 'node:http'
import got from 'got'
import pLimit from 'p-limit'
import * as v from 'valibot'
import type { ArtistDetail } from '../../src-main/core/api/index'
import { artistDetailSchema, listArtistSchema } from '../../src-main/core/api/schemas'
import { openDatabase } from '../../src-main/core/db/connection'
import { recordDetails } from '../../src-main/core/db/detail-store'
import { LIST_PASSES, recordListPage, startOrResumeRun } from '../../src-main/core/db/sync-store'
import { Catalogue } from '../../src-main/demo/catalogue'
import { listArtistJson } from '../../src-main/demo/responses'
import { openLibrary, type Library } from '../../src-main/core/library/library'
import { WriteBatch } from '../../src-main/core/sync/batch'
import { benchQueries } from './queries'
import { startService } from './service'
import { printTable, type BenchRow } from './table'

const CONCURRENCY = 4
const SYNC_ARTISTS = Number(process.env.BENCH_SYNC_ARTISTS ?? 10_000)
const REMOTE_ARTISTS = Number(process.env.BENCH_REMOTE_ARTISTS ?? 2_000)
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const QUERY_ARTISTS = Number(process.env.BENCH_QUERY_ARTISTS ?? 100_000)
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-bench-'))

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`
/** Parts 1–3's figures, printed as one table at the end. */
const summary: BenchRow[] = []
/** CPU seconds (user + system) this process spent since `since` (a process.cpuUsage()). */
const cpuSeconds = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1e6
}
const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!

/** 1. A first sync of a service 20 ms away: its time is set by the requests it makes and how full it keeps the pipe. */
async function benchRemoteSync(): Promise<void> {
  const service = await startService(REMOTE_ARTISTS, LATENCY_MS)
  const library = openLibrary({ dataDir: path.join(work, 'remote'), baseUrl: service.baseUrl })
  // When the artists list first answers from the cache: looked at every 10 ms while the sync runs.
  const started = performance.now()
  let browsableMs: number | undefined
  const probe = setInterval(() => {
    if (browsableMs === undefined && library.catalogue.list({ offset: 0, limit: 50 }).artists.length > 0) browsableMs = performance.now() - started
  }, 10)
  const report = await library.sync.start({ concurrency: CONCURRENCY })
  const wallMs = performance.now() - started
  clearInterval(probe)
  await library.dispose()
  const answered = await service.stop()
  const counts = Object.fromEntries([...answered.matchAll(/(\d+) (\w+)/g)].map((match) => [match[2]!, Number(match[1])]))
  const requests = Number(/^(\d+) requests/.exec(answered)?.[1] ?? NaN)
  const floorMs = (requests * LATENCY_MS) / CONCURRENCY
  const needed = report.listPages + 2 * REMOTE_ARTISTS + 1
  const ratio = wallMs / floorMs
  console.log(`1. first sync of ${REMOTE_ARTISTS.toLocaleString('en')} artists, ${LATENCY_MS} ms away (the demo's --latency-ms), concurrency ${CONCURRENCY}`)
  console.log(`   tuneshelf sync   ${seconds(wallMs)}`)
  console.log(`   floor            ${seconds(floorMs)}  (${requests.toLocaleString('en')} requests × ${LATENCY_MS} ms ÷ ${CONCURRENCY})`)
  console.log(`   ratio ${ratio.toFixed(3)} (goal ≤ 1.15: ${ratio <= 1.15 ? 'met' : 'missed'})`)
  console.log(`   requests by kind: ${answered}`)
  console.log(
    `   requests needed: ${needed.toLocaleString('en')} (${report.listPages} list pages + ${REMOTE_ARTISTS} details + ${REMOTE_ARTISTS} thumbnails + 1 levels); ` +
      `made ${requests.toLocaleString('en')} (goal ≤ needed: ${requests <= needed ? 'met' : 'missed'}); no full-size avatar: ${counts['avatar'] === REMOTE_ARTISTS ? 'yes' : 'no'}`,
  )
  console.log(`   artists list browsable ${browsableMs === undefined ? 'only at the end' : `${(browsableMs / 1000).toFixed(2)} s`} after the sync started (goal: within a second or two)`)
  summary.push(
    { figure: `1. first sync, ${REMOTE_ARTISTS.toLocaleString('en')} artists ${LATENCY_MS} ms away: ${seconds(wallMs)}`, goal: '≤ 1.15 × floor', reference: `floor ${seconds(floorMs)} (requests × latency ÷ ${CONCURRENCY})`, ratio, met: ratio <= 1.15 },
    { figure: `   requests made: ${requests.toLocaleString('en')}`, goal: '≤ needed', reference: `needed ${needed.toLocaleString('en')}`, ratio: requests / needed, met: requests <= needed },
  )
}

/** 2. Full sync on loopback against got alone (and curl) on the same URLs: the client's own cost. */
async function benchFullSync(): Promise<void> {
  const service = await startService(SYNC_ARTISTS)
  const sync = async (round: number): Promise<{ seconds: number; library: Library; listPages: number; details: number; thumbnails: number }> => {
    const library = openLibrary({ dataDir: path.join(work, `sync-${round}`), baseUrl: service.baseUrl })
    const cpu = process.cpuUsage()
    const report = await library.sync.start({ concurrency: CONCURRENCY })
    syncCpus.push(cpuSeconds(cpu))
    return { seconds: report.durationMs / 1000, library, listPages: report.listPages, details: report.detailsFetched, thumbnails: report.avatarsFetched }
  }
  const syncCpus: number[] = []
  const first = await sync(0)
  syncCpus.length = 0

  // The same requests, in a curl config file: every list page, every detail, the levels, every thumbnail.
  const urls: string[] = []
  const pagesOf = (query: string): number =>
    first.library.catalogue.list({ includeBlank: true, kind: query === 'is_podcaster=1' ? 'podcasts' : 'all', perPage: 50 }).pages
  for (const pass of LIST_PASSES) {
    const query = pass === 'podcasters' ? 'is_podcaster=1' : `sort=${pass}`
    for (let page = 1; page <= pagesOf(query); page++) urls.push(`${service.baseUrl}/api/v1/artists?page=${page}&per_page=50&include_blank=1&${query}`)
  }
  const artists = everyArtist(first.library)
  for (const artist of artists) urls.push(`${service.baseUrl}/api/v1/artists/${encodeURIComponent(artist.username)}`)
  urls.push(`${service.baseUrl}/api/v1/access_levels`)
  for (const artist of artists) urls.push(artist.avatarThumb.startsWith('//') ? `http:${artist.avatarThumb}` : artist.avatarThumb)
  const config = path.join(work, 'curl.config')
  fs.writeFileSync(config, urls.map((url) => `url = "${url}"\noutput = "/dev/null"\n`).join(''))
  const tracks = artists.reduce((sum, artist) => sum + artist.numTracks, 0)
  await first.library.dispose()
  // The HTTP client alone: the same URLs through got (as the client uses it), bodies discarded.
  // Each round has an agent of its own, as each sync has: connections a round left idle are
  // never reused by the next one just as the service closes them (a reset, not a figure).
  const gotCpus: number[] = []
  const gotAlone = async (): Promise<number> => {
    const agent = new http.Agent({ keepAlive: true })
    const client = got.extend({ retry: { limit: 0 }, timeout: { connect: 10_000, socket: 30_000 }, throwHttpErrors: false, agent: { http: agent } })
    const limit = pLimit(CONCURRENCY)
    const cpu = process.cpuUsage()
    const started = performance.now()
    await Promise.all(urls.map((url) => limit(() => new Promise<void>((resolve, reject) => client.stream(url).on('data', () => {}).on('end', resolve).on('error', reject)))))
    const wall = (performance.now() - started) / 1000
    gotCpus.push(cpuSeconds(cpu))
    agent.destroy()
    return wall
  }
  const curl = (): number => {
    const started = performance.now()
    execFileSync('curl', ['--parallel', '--parallel-max', String(CONCURRENCY), '--parallel-immediate', '-sS', '--no-progress-meter', '-K', config])
    return (performance.now() - started) / 1000
  }
  // This machine's speed wanders from one second to the next: rounds alternate the three, each
  // sync into a fresh cache (a first sync, as the first round was), and the medians are compared.
  const syncs: number[] = []
  const gots: number[] = []
  const curls: number[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    gots.push(await gotAlone())
    const run = await sync(round)
    syncs.push(run.seconds)
    await run.library.dispose()
    curls.push(curl())
  }
  const [syncSeconds, gotSeconds, curlSeconds] = [median(syncs), median(gots), median(curls)]
  const each = (values: number[]): string => values.map((value) => value.toFixed(2)).join(', ')
  const ratio = syncSeconds / gotSeconds
  console.log(`2. full sync of ${SYNC_ARTISTS.toLocaleString('en')} artists on loopback (${tracks.toLocaleString('en')} tracks, ${urls.length.toLocaleString('en')} requests, concurrency ${CONCURRENCY}), median of ${ROUNDS} alternating rounds`)
  console.log(`   tuneshelf sync   ${syncSeconds.toFixed(2)} s  (${first.listPages} list pages, ${first.details} details, ${first.thumbnails} thumbnails; rounds ${each(syncs)})`)
  console.log(`   got alone        ${gotSeconds.toFixed(2)} s  (same URLs, same concurrency, bodies discarded: the HTTP client's share; rounds ${each(gots)})`)
  console.log(`   curl --parallel  ${curlSeconds.toFixed(2)} s  (same URLs into /dev/null, as context; rounds ${each(curls)})`)
  console.log(`   ratio to got alone ${ratio.toFixed(2)} (goal ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'missed'}); to curl ${(syncSeconds / curlSeconds).toFixed(2)}; got alone to curl ${(gotSeconds / curlSeconds).toFixed(2)}`)
  const [syncCpu, gotCpu] = [median(syncCpus), median(gotCpus)]
  console.log(`   CPU of this process: tuneshelf sync ${syncCpu.toFixed(2)} s, got alone ${gotCpu.toFixed(2)} s, ratio ${(syncCpu / gotCpu).toFixed(2)} (rounds ${each(syncCpus)} / ${each(gotCpus)})`)
  summary.push(
    {
      figure: `2. loopback first sync, ${SYNC_ARTISTS.toLocaleString('en')} artists: ${syncSeconds.toFixed(2)} s`,
      goal: '≤ 1.5 × got alone',
      reference: `got alone ${gotSeconds.toFixed(2)} s (curl ${curlSeconds.toFixed(2)} s, sync ÷ curl ${(syncSeconds / curlSeconds).toFixed(2)})`,
      ratio,
      met: ratio <= 1.5,
    },
    { figure: `   the same, CPU of the client: ${syncCpu.toFixed(2)} s`, goal: '–', reference: `got alone ${gotCpu.toFixed(2)} s`, ratio: syncCpu / gotCpu },
  )
  await service.stop()
}

/** Every artist of the cache, listed or gone, in pages of the largest size a query takes. */
function everyArtist(library: Library): { username: string; avatar: string; avatarThumb: string; numTracks: number }[] {
  const all = []
  for (let offset = 0; ; offset += 1000) {
    const page = library.catalogue.list({ includeBlank: true, offset, limit: 1000 }).artists
    all.push(...page)
    if (page.length < 1000) return all
  }
}

/** 2. Track rows per second into the cache: every detail of a catalogue, each in its own transaction as the sync does. */
async function benchIngest(): Promise<void> {
  const catalogue = new Catalogue({ artists: SYNC_ARTISTS, seed: 1, maxFileMb: 4096 })
  const origin = 'http://127.0.0.1:1'
  const { artistDetailJson } = await import('../../src-main/demo/responses')
  // In the order a sync writes them: an artist's id is its place in the list's first pass (trending),
  // and details are fetched and written in id order, so upload ids arrive in no order of their own
  // (the catalogue's own order would hand them over sorted: the best case of an upload-id key).
  const listed = catalogue.list({ page: 1, perPage: catalogue.artists.length, sort: 'trending', reverse: false, includeBlank: true }).artists
  // Through the client's own validation, so the rows are exactly what a sync stores.
  const details = listed.map((artist) => v.parse(artistDetailSchema, JSON.parse(artistDetailJson(origin, catalogue, artist))))
  const rows = details.reduce((sum, detail) => sum + detail.items.length, 0)
  // Several rounds, each into a fresh cache: one round is under a second, and this machine's
  // speed wanders by half from one second to the next; the median is the figure.
  const seconds: number[] = []
  const cpus: number[] = []
  // The reference: SQLite alone, the same rows through one prepared INSERT in the same batches,
  // into the same table of a fresh cache: the floor of this schema, whatever the app does around it.
  const bare: number[] = []
  for (let round = 0; round < 5; round++) {
    const db = openDatabase(path.join(work, `ingest-${round}.sqlite`))
    const { run } = startOrResumeRun(db, Date.now())
    const entries = listed.map((artist) => v.parse(listArtistSchema, JSON.parse(listArtistJson(origin, catalogue, artist))))
    for (let i = 0; i < entries.length; i += 50) recordListPage(db, run.id, 'trending', i / 50 + 1, 0, 50, entries.slice(i, i + 50))
    const ids = new Map(
      (db.prepare('SELECT username, id, list_signature AS listSignature FROM artists').all() as { username: string; id: number; listSignature: string }[]).map(
        (row) => [row.username, row],
      ),
    )
    // Stored as the sync stores them: through its write batches, for its run.
    const batch = new WriteBatch<ArtistDetail>(
      (items) => recordDetails(db, items.map((detail) => ({ wanted: ids.get(detail.username)!, detail, fetchedAt: Date.now() })), run.id),
      (error) => {
        throw error
      },
    )
    const cpu = process.cpuUsage()
    const started = performance.now()
    for (const detail of details) batch.add(detail)
    batch.flush()
    seconds.push((performance.now() - started) / 1000)
    cpus.push(cpuSeconds(cpu))
    db.close()
    bare.push(bareInsert(path.join(work, `ingest-bare-${round}.sqlite`), details, run.id))
  }
  const rate = (s: number): number => Math.round(rows / s)
  const [wall, cpu, floor] = [rate(median(seconds)), rate(median(cpus)), rate(median(bare))]
  const each = (values: number[]): string => values.map((s) => rate(s).toLocaleString('en')).join(', ')
  console.log(`3. ingest: ${rows.toLocaleString('en')} track rows of ${details.length.toLocaleString('en')} artists = ${wall.toLocaleString('en')} rows/s (goal ≥ 250,000), in the sync's write batches`)
  console.log(`   per CPU second of this process ${cpu.toLocaleString('en')} rows/s; SQLite alone (one INSERT of the same rows, per CPU second) ${floor.toLocaleString('en')} rows/s`)
  console.log(`   median of ${seconds.length} rounds, each into a new cache; every round: ${each(seconds)} rows/s; per CPU second ${each(cpus)}; SQLite alone ${each(bare)}`)
  summary.push(
    { figure: `3. ingest, track rows/s: ${wall.toLocaleString('en')}`, goal: '≥ 250,000', reference: `SQLite alone ${floor.toLocaleString('en')} per CPU s`, ratio: wall / floor, met: wall >= 250_000 },
    { figure: `   the same, per CPU second: ${cpu.toLocaleString('en')}`, goal: '≥ 250,000', reference: `SQLite alone ${floor.toLocaleString('en')} per CPU s`, ratio: cpu / floor, met: cpu >= 250_000 },
  )
}

/** CPU seconds to insert every track row of `details` into a fresh cache with one prepared statement, 256 artists a transaction. */
function bareInsert(file: string, details: ArtistDetail[], runId: number): number {
  const db = openDatabase(file)
  // The tracks' artists must exist (a foreign key): bare rows, in one go, not timed.
  db.transaction(() => {
    const artist = db.prepare(
      `INSERT INTO artists (id, username, username_key, num_tracks, pf_name, pf_bio, avatar, avatar_thumb, listed_items, list_signature, listed_run)
       VALUES (?, ?, ?, 0, '', '', '', '', '[]', '', 0)`,
    )
    details.forEach((detail, index) => artist.run(index + 1, detail.username, detail.username.toLowerCase()))
  })()
  const insert = db.prepare(
    `INSERT INTO tracks (upload_id, artist_id, position, item_id, title, subtype, created_at, bytes, downloads, hotlinks, ext,
       hotlink_path, item_artist, first_seen_run, changed_run) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const cpu = process.cpuUsage()
  for (let start = 0; start < details.length; start += 256) {
    db.transaction(() => {
      for (let index = start; index < Math.min(details.length, start + 256); index++) {
        details[index]!.items.forEach((item, position) => {
          const upload = item.upload
          insert.run(upload.id, index + 1, position, item.id, item.title, item.subtype, upload.created_at, upload.bytes, upload.downloads,
            upload.hotlinks, upload.ext, upload.hotlink_path, item.artist?.username ?? null, runId, runId)
        })
      }
    }).immediate()
  }
  const used = cpuSeconds(cpu)
  db.close()
  return used
}

async function main(): Promise<void> {
  // BENCH_ONLY=sync,ingest runs only those parts (remote, sync, ingest, queries).
  const parts = process.env.BENCH_ONLY?.split(',')
  const only = (part: string): boolean => parts === undefined || parts.includes(part)
  try {
    if (only('remote')) await benchRemoteSync()
    if (only('sync')) await benchFullSync()
    if (only('ingest')) await benchIngest()
    if (summary.length > 0) printTable('Sync and ingest (parts 1–3): each figure beside its goal and reference', summary)
    if (only('queries')) await benchQueries(work, QUERY_ARTISTS)
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})

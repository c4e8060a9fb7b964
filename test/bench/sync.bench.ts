/**
 * npm run bench:sync — the sync engine and the cache, each beside a reference:
 *  1. a full sync of a 2,000-artist catalogue 20 ms away (the demo's --latency-ms),
 *     against its floor, requests × latency ÷ concurrency (goal ≤ 1.15 × the floor),
 *     with the requests it made by kind (goal: list pages + one detail and one
 *     thumbnail per artist + the levels) and when its list could first be browsed;
 *  2. a full sync of a 10,000-artist catalogue on loopback, against got alone
 *     fetching the same URLs at the same concurrency (goal ≤ 1.5 ×), with curl as context;
 *  3. the ingest rate of track rows into the cache (goal ≥ 200,000 rows/s);
 *  4. offline list and search queries on a 100,000-artist cache (see queries.ts).
 * The demo service runs in its own process, as a remote service would.
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../../src-main/core/node-check'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import got from 'got'
import pLimit from 'p-limit'
import * as v from 'valibot'
import type { ArtistDetail } from '../../src-main/core/api/index'
import { artistDetailSchema, listArtistSchema } from '../../src-main/core/api/schemas'
import { openDatabase } from '../../src-main/core/db/connection'
import { LIST_PASSES, recordDetails, recordListPage, startOrResumeRun } from '../../src-main/core/db/sync-store'
import { Catalogue } from '../../src-main/core/demo/catalogue'
import { listArtistJson } from '../../src-main/core/demo/responses'
import { openLibrary, type Library } from '../../src-main/core/library'
import { WriteBatch } from '../../src-main/core/sync/batch'
import { benchQueries } from './queries'
import { startService } from './service'

const CONCURRENCY = 4
const SYNC_ARTISTS = Number(process.env.BENCH_SYNC_ARTISTS ?? 10_000)
const REMOTE_ARTISTS = Number(process.env.BENCH_REMOTE_ARTISTS ?? 2_000)
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const QUERY_ARTISTS = Number(process.env.BENCH_QUERY_ARTISTS ?? 100_000)
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-bench-'))

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`

/** 1. A first sync of a service 20 ms away: its time is set by the requests it makes and how full it keeps the pipe. */
async function benchRemoteSync(): Promise<void> {
  const service = await startService(REMOTE_ARTISTS, LATENCY_MS)
  const library = openLibrary({ dataDir: path.join(work, 'remote'), baseUrl: service.baseUrl })
  // When the artists list first answers from the cache: looked at every 10 ms while the sync runs.
  const started = performance.now()
  let browsableMs: number | undefined
  const probe = setInterval(() => {
    if (browsableMs === undefined && library.catalogue.listArtists({ offset: 0, limit: 50 }).artists.length > 0) browsableMs = performance.now() - started
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
}

/** 2. Full sync on loopback against got alone (and curl) on the same URLs: the client's own cost. */
async function benchFullSync(): Promise<void> {
  const service = await startService(SYNC_ARTISTS)
  const sync = async (round: number): Promise<{ seconds: number; library: Library; listPages: number; details: number; thumbnails: number }> => {
    const library = openLibrary({ dataDir: path.join(work, `sync-${round}`), baseUrl: service.baseUrl })
    const report = await library.sync.start({ concurrency: CONCURRENCY })
    return { seconds: report.durationMs / 1000, library, listPages: report.listPages, details: report.detailsFetched, thumbnails: report.avatarsFetched }
  }
  const first = await sync(0)

  // The same requests, in a curl config file: every list page, every detail, the levels, every thumbnail.
  const urls: string[] = []
  const pagesOf = (query: string): number =>
    first.library.catalogue.listArtists({ includeBlank: true, kind: query === 'is_podcaster=1' ? 'podcasts' : 'all', perPage: 50 }).pages
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
  const http = got.extend({ retry: { limit: 0 }, timeout: { connect: 10_000, socket: 30_000 }, throwHttpErrors: false })
  const gotAlone = async (): Promise<number> => {
    const limit = pLimit(CONCURRENCY)
    const started = performance.now()
    await Promise.all(urls.map((url) => limit(() => new Promise<void>((resolve, reject) => http.stream(url).on('data', () => {}).on('end', resolve).on('error', reject)))))
    return (performance.now() - started) / 1000
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
  const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!
  const [syncSeconds, gotSeconds, curlSeconds] = [median(syncs), median(gots), median(curls)]
  const each = (values: number[]): string => values.map((value) => value.toFixed(2)).join(', ')
  const ratio = syncSeconds / gotSeconds
  console.log(`2. full sync of ${SYNC_ARTISTS.toLocaleString('en')} artists on loopback (${tracks.toLocaleString('en')} tracks, ${urls.length.toLocaleString('en')} requests, concurrency ${CONCURRENCY}), median of ${ROUNDS} alternating rounds`)
  console.log(`   tuneshelf sync   ${syncSeconds.toFixed(2)} s  (${first.listPages} list pages, ${first.details} details, ${first.thumbnails} thumbnails; rounds ${each(syncs)})`)
  console.log(`   got alone        ${gotSeconds.toFixed(2)} s  (same URLs, same concurrency, bodies discarded: the HTTP client's share; rounds ${each(gots)})`)
  console.log(`   curl --parallel  ${curlSeconds.toFixed(2)} s  (same URLs into /dev/null, as context; rounds ${each(curls)})`)
  console.log(`   ratio to got alone ${ratio.toFixed(2)} (goal ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'missed'}); to curl ${(syncSeconds / curlSeconds).toFixed(2)}; got alone to curl ${(gotSeconds / curlSeconds).toFixed(2)}`)
  await service.stop()
}

/** Every artist of the cache, listed or gone, in pages of the largest size a query takes. */
function everyArtist(library: Library): { username: string; avatar: string; avatarThumb: string; numTracks: number }[] {
  const all = []
  for (let offset = 0; ; offset += 1000) {
    const page = library.catalogue.listArtists({ includeBlank: true, offset, limit: 1000 }).artists
    all.push(...page)
    if (page.length < 1000) return all
  }
}

/** 2. Track rows per second into the cache: every detail of a catalogue, each in its own transaction as the sync does. */
async function benchIngest(): Promise<void> {
  const catalogue = new Catalogue({ artists: SYNC_ARTISTS, seed: 1, maxFileMb: 4096 })
  const origin = 'http://127.0.0.1:1'
  const { artistDetailJson } = await import('../../src-main/core/demo/responses')
  // Through the client's own validation, so the rows are exactly what a sync stores.
  const details = catalogue.artists.map((artist) => v.parse(artistDetailSchema, JSON.parse(artistDetailJson(origin, catalogue, artist))))
  const rows = details.reduce((sum, detail) => sum + detail.items.length, 0)
  // Several rounds, each into a fresh cache: one round is under a second, and this machine's
  // speed wanders by half from one second to the next; the median is the figure.
  const seconds: number[] = []
  for (let round = 0; round < 5; round++) {
    const db = openDatabase(path.join(work, `ingest-${round}.sqlite`))
    const { run } = startOrResumeRun(db, Date.now())
    const entries = catalogue.artists.map((artist) => v.parse(listArtistSchema, JSON.parse(listArtistJson(origin, catalogue, artist))))
    for (let i = 0; i < entries.length; i += 50) recordListPage(db, run.id, 'trending', i / 50 + 1, 0, 50, entries.slice(i, i + 50))
    const ids = new Map(
      (db.prepare('SELECT username, id, list_signature AS listSignature FROM artists').all() as { username: string; id: number; listSignature: string }[]).map(
        (row) => [row.username, row],
      ),
    )
    // Stored as the sync stores them: through its write batches.
    const batch = new WriteBatch<ArtistDetail>(
      (items) => recordDetails(db, items.map((detail) => ({ wanted: ids.get(detail.username)!, detail, fetchedAt: Date.now() }))),
      (error) => {
        throw error
      },
    )
    const started = performance.now()
    for (const detail of details) batch.add(detail)
    batch.flush()
    seconds.push((performance.now() - started) / 1000)
    db.close()
  }
  const median = [...seconds].sort((a, b) => a - b)[Math.floor(seconds.length / 2)]!
  console.log(`3. ingest: ${rows.toLocaleString('en')} track rows of ${details.length.toLocaleString('en')} artists in ${median.toFixed(2)} s = ${Math.round(rows / median).toLocaleString('en')} rows/s (goal ≥ 200,000), in the sync's write batches`)
  console.log(`   median of ${seconds.length} rounds, each into a new cache; every round: ${seconds.map((s) => `${Math.round(rows / s).toLocaleString('en')}`).join(', ')} rows/s`)
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY
  try {
    if (!only || only === 'remote') await benchRemoteSync()
    if (!only || only === 'sync') await benchFullSync()
    if (!only || only === 'ingest') await benchIngest()
    if (!only || only === 'queries') await benchQueries(work, QUERY_ARTISTS)
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})

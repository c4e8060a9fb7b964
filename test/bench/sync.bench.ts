/**
 * npm run bench:sync — the sync engine and the cache, each beside a reference:
 *  1. a full sync of a 10,000-artist demo catalogue against curl fetching the
 *     same URLs with the same concurrency into /dev/null (goal: ratio ≤ 1.3);
 *  2. the ingest rate of track rows into the cache (goal ≥ 200,000 rows/s);
 *  3. offline list and search queries on a 100,000-artist cache (goal p95 ≤ 5 ms).
 * The demo service runs in its own process, as a remote service would.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import got from 'got'
import pLimit from 'p-limit'
import * as v from 'valibot'
import type { ArtistDetail } from '../../src-main/core/api/index'
import { artistDetailSchema, listArtistSchema } from '../../src-main/core/api/schemas'
import { openDatabase } from '../../src-main/core/db/connection'
import { bumpCatalogueVersion } from '../../src-main/core/db/query-cache'
import { LIST_PASSES, applyLists, endRun, recordDetails, recordListPage, startOrResumeRun } from '../../src-main/core/db/sync-store'
import { Catalogue } from '../../src-main/core/demo/catalogue'
import { listArtistJson } from '../../src-main/core/demo/responses'
import { openLibrary, type Library } from '../../src-main/core/library'
import { SORT_ORDERS, type ArtistKind } from '../../src-main/core/shared/catalogue'
import { WriteBatch } from '../../src-main/core/sync/batch'

const CLI = fileURLToPath(new URL('../../src-main/core/demo/cli.ts', import.meta.url))
const CONCURRENCY = 4
const SYNC_ARTISTS = Number(process.env.BENCH_SYNC_ARTISTS ?? 10_000)
const QUERY_ARTISTS = Number(process.env.BENCH_QUERY_ARTISTS ?? 100_000)
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-bench-'))

function startService(artists: number): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--artists', String(artists), '--seed', '1'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve({ baseUrl: /listening on (\S+)/.exec(chunk.toString())![1]!, child }))
    child.once('exit', (code) => reject(new Error(`catalogue exited with ${code}`)))
  })
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** 1. Full sync against curl on the same URLs. */
async function benchFullSync(): Promise<void> {
  const service = await startService(SYNC_ARTISTS)
  const library = openLibrary({ dataDir: path.join(work, 'sync'), baseUrl: service.baseUrl })
  const report = await library.sync.start({ concurrency: CONCURRENCY })
  const syncSeconds = report.durationMs / 1000

  // The same requests, in a curl config file: every list page, every detail, the levels, every avatar.
  const urls: string[] = []
  const pagesOf = (query: string): number =>
    library.catalogue.listArtists({ includeBlank: true, kind: query === 'is_podcaster=1' ? 'podcasts' : 'all', perPage: 50 }).pages
  for (const pass of LIST_PASSES) {
    const query = pass === 'podcasters' ? 'is_podcaster=1' : `sort=${pass}`
    for (let page = 1; page <= pagesOf(query); page++) urls.push(`${service.baseUrl}/api/v1/artists?page=${page}&per_page=50&include_blank=1&${query}`)
  }
  const artists = everyArtist(library)
  for (const artist of artists) urls.push(`${service.baseUrl}/api/v1/artists/${encodeURIComponent(artist.username)}`)
  urls.push(`${service.baseUrl}/api/v1/access_levels`)
  for (const artist of artists) for (const avatar of [artist.avatar, artist.avatarThumb]) urls.push(avatar.startsWith('//') ? `http:${avatar}` : avatar)
  const config = path.join(work, 'curl.config')
  fs.writeFileSync(config, urls.map((url) => `url = "${url}"\noutput = "/dev/null"\n`).join(''))
  const started = performance.now()
  execFileSync('curl', ['--parallel', '--parallel-max', String(CONCURRENCY), '--parallel-immediate', '-sS', '--no-progress-meter', '-K', config])
  const curlSeconds = (performance.now() - started) / 1000
  const tracks = artists.reduce((sum, artist) => sum + artist.numTracks, 0)
  // The HTTP client alone: the same URLs through got (as the client uses it), bodies discarded.
  const http = got.extend({ retry: { limit: 0 }, timeout: { connect: 10_000, socket: 30_000 }, throwHttpErrors: false })
  const limit = pLimit(CONCURRENCY)
  const gotStarted = performance.now()
  await Promise.all(urls.map((url) => limit(() => new Promise<void>((resolve, reject) => http.stream(url).on('data', () => {}).on('end', resolve).on('error', reject)))))
  const gotSeconds = (performance.now() - gotStarted) / 1000

  console.log(`1. full sync of ${SYNC_ARTISTS.toLocaleString('en')} artists (${tracks.toLocaleString('en')} tracks, ${urls.length.toLocaleString('en')} requests, concurrency ${CONCURRENCY})`)
  console.log(`   tuneshelf sync   ${syncSeconds.toFixed(2)} s  (${report.listPages} list pages, ${report.detailsFetched} details, ${report.avatarsFetched} avatars)`)
  console.log(`   curl --parallel  ${curlSeconds.toFixed(2)} s  (same URLs into /dev/null)`)
  console.log(`   got alone        ${gotSeconds.toFixed(2)} s  (same URLs, same concurrency, bodies discarded: the HTTP client's share)`)
  console.log(`   ratio ${(syncSeconds / curlSeconds).toFixed(2)} (goal ≤ 1.3); got alone against curl ${(gotSeconds / curlSeconds).toFixed(2)}`)
  await library.dispose()
  service.child.kill('SIGTERM')
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
  console.log(`2. ingest: ${rows.toLocaleString('en')} track rows of ${details.length.toLocaleString('en')} artists in ${median.toFixed(2)} s = ${Math.round(rows / median).toLocaleString('en')} rows/s (goal ≥ 200,000), in the sync's write batches`)
  console.log(`   median of ${seconds.length} rounds, each into a new cache; every round: ${seconds.map((s) => `${Math.round(rows / s).toLocaleString('en')}`).join(', ')} rows/s`)
}

/** 3. Offline queries on a large cache, filled through the sync's own list ingest, asked through the library. */
async function benchQueries(): Promise<void> {
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
  endRun(db, run.id, 'completed', Date.now())
  db.pragma('optimize')
  const fillSeconds = (performance.now() - fillStarted) / 1000
  const library = openLibrary({ dataDir, baseUrl: origin })
  const listArtists = library.catalogue.listArtists

  let seed = 7
  const random = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    return seed % n
  }
  const time = (query: () => void): number => {
    const started = performance.now()
    query()
    return performance.now() - started
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
  // Search as a user types it: a word of a real artist's name, one letter more each time, first page each time.
  const typed: number[] = []
  while (typed.length < 3000) {
    const artist = catalogue.artists[random(catalogue.artists.length)]!
    const words = `${artist.pfName} ${artist.username}`.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 2)
    if (words.length === 0) continue
    const word = words[random(words.length)]!
    for (let length = 2; length <= word.length && typed.length < 3000; length++) {
      typed.push(time(() => listArtists({ q: word.slice(0, length), kind: kinds[random(3)]!, perPage: 50 })))
    }
  }
  // The next pages of the same searches: what scrolling through results costs.
  const scrolled: number[] = []
  for (let i = 0; i < 1000; i++) {
    const q = ['harbor', 'lucy', 'night', 'wolves', 'tides'][random(5)]!
    scrolled.push(time(() => listArtists({ q, page: 2 + random(5), perPage: 50 })))
  }
  // Broad words that match a third of the catalogue or more: the worst case, every match ranked by bm25.
  const broad: number[] = []
  for (let i = 0; i < 200; i++) {
    // As after a sync: the catalogue changed, so each of these is a first search.
    bumpCatalogueVersion(db)
    broad.push(time(() => listArtists({ q: ['the', 'dj', 'x', 'a'][random(4)]!, perPage: 50 })))
  }
  for (const samples of [lists, typed, scrolled, broad]) samples.sort((a, b) => a - b)
  const line = (name: string, samples: number[]): string =>
    `   ${name.padEnd(48)} p50 ${percentile(samples, 50).toFixed(2)} ms  p95 ${percentile(samples, 95).toFixed(2)} ms  p99 ${percentile(samples, 99).toFixed(2)} ms`
  console.log(`3. offline queries on ${QUERY_ARTISTS.toLocaleString('en')} artists (cache filled through the list ingest in ${fillSeconds.toFixed(1)} s), goal p95 ≤ 5 ms`)
  console.log(line(`list pages, any sort/filter/page (${lists.length})`, lists))
  console.log(line(`search as typed, prefixes of names (${typed.length})`, typed))
  console.log(line(`search, next pages of a search (${scrolled.length})`, scrolled))
  console.log(line(`search, broad words: the, dj, x, a (${broad.length})`, broad))
  await library.dispose()
  db.close()
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY
  try {
    if (!only || only === 'sync') await benchFullSync()
    if (!only || only === 'ingest') await benchIngest()
    if (!only || only === 'queries') await benchQueries()
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})

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
import { LIST_PASSES, recordDetails, recordListPage, startOrResumeRun } from '../../src-main/core/db/sync-store'
import { Catalogue } from '../../src-main/core/demo/catalogue'
import { listArtistJson } from '../../src-main/core/demo/responses'
import { openLibrary, type Library } from '../../src-main/core/library'
import { WriteBatch } from '../../src-main/core/sync/batch'

import { benchQueries } from './queries'

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

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY
  try {
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

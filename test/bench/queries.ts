/**
 * Offline list and search queries on a large cache (part 3 of npm run bench:sync):
 * the cache filled through the sync's own list ingest, every query asked through the library.
 */
import path from 'node:path'
import * as v from 'valibot'
import { listArtistSchema } from '../../src-main/core/api/schemas'
import { openDatabase } from '../../src-main/core/db/connection'
import { bumpCatalogueVersion } from '../../src-main/core/db/query-cache'
import { LIST_PASSES, applyLists, endRun, recordListPage, startOrResumeRun } from '../../src-main/core/db/sync-store'
import { Catalogue } from '../../src-main/core/demo/catalogue'
import { listArtistJson } from '../../src-main/core/demo/responses'
import { openLibrary } from '../../src-main/core/library'
import { SORT_ORDERS, type ArtistKind } from '../../src-main/core/shared/catalogue'

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

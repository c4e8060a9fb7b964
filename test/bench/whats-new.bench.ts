/**
 * npx tsx test/bench/whats-new.bench.ts — What's new on a large cache: 100,000
 * artists (BENCH_WHATS_NEW_ARTISTS) with about twelve tracks each, a first sync
 * and ten more, each changing a few hundred artists and a couple of thousand
 * tracks, 5 followed artists and 20,000 downloads; then one sync that changed
 * 100,000 tracks at once. Prints each statement's query plan and the time of
 * the whole read (goal: p95 ≤ 50 ms for the usual syncs), in both modes.
 * The cache is filled with SQL straight into the tables a sync writes.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openDatabase } from '../../src-main/core/db/connection'
import { whatsNew } from '../../src-main/core/db/whats-new'
import { openLibrary } from '../../src-main/core/library/library'

const ARTISTS = Number(process.env['BENCH_WHATS_NEW_ARTISTS'] ?? 100_000)
const RUNS = 11

let seed = 17
function random(n: number): number {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
  return seed % n
}

function trackCount(): number {
  const roll = random(1000)
  if (roll < 850) return 1 + random(12)
  if (roll < 995) return 13 + random(48)
  return 100 + random(300)
}

function timestamp(ms: number): string {
  const offset = [-300, 0, 60, 345, 600][random(5)]!
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 23)
  const abs = Math.abs(offset)
  return `${local}${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

function fill(db: ReturnType<typeof openDatabase>): number {
  const now = Date.now()
  let tracks = 0
  db.transaction(() => {
    const run = db.prepare(`INSERT INTO sync_runs (id, started_at, finished_at, state, phase, initial) VALUES (?, ?, ?, 'completed', 'done', ?)`)
    for (let id = 1; id <= RUNS; id++) run.run(id, now - (RUNS - id) * 3_600_000, now - (RUNS - id) * 3_600_000 + 60_000, id === 1 ? 1 : 0)
    const artist = db.prepare(
      `INSERT INTO artists (id, username, username_key, num_tracks, pf_name, pf_bio, avatar, avatar_thumb, listed_items, list_signature,
         listed_run, first_seen_run, changed_run, rank_trending)
       VALUES (?, ?, ?, ?, ?, '', '', '', '[]', 'x', ?, ?, ?, ?)`,
    )
    const track = db.prepare(
      `INSERT INTO tracks (upload_id, artist_id, position, title, subtype, created_at, bytes, ext, hotlink_path, first_seen_run, changed_run)
       VALUES (?, ?, ?, ?, 'track', ?, ?, 'mp3', ?, ?, ?)`,
    )
    for (let id = 1; id <= ARTISTS; id++) {
      // A few hundred artists per sync are new or changed; the rest are as the first sync left them.
      const changed = random(1000) < 3 ? 2 + random(RUNS - 1) : 1
      const seen = changed > 1 && random(2) === 0 ? changed : 1
      const count = trackCount()
      artist.run(id, `artist${id}`, `artist${id}`, count, `Artist ${id}`, RUNS, seen, changed, id)
      for (let position = 0; position < count; position++) {
        const uploadId = String(1_000_000 + id * 1000 + position)
        const trackChanged = random(1000) < 2 ? 2 + random(RUNS - 1) : seen
        tracks += 1
        track.run(uploadId, id, position, `Track ${position}`, timestamp(Date.UTC(2008, 0, 1) + random(18 * 365) * 86_400_000 + random(86_400_000)),
          1_000_000 + random(9_000_000), `/u/${uploadId}`, seen, trackChanged)
      }
    }
    // The service's recently_updated order: an artist's newest upload first (the demo's order, and the one the read leans on).
    db.exec(`UPDATE artists SET rank_recently_updated = ranked.position FROM (
      SELECT artist_id, row_number() OVER (ORDER BY max(julianday(created_at)) DESC) - 1 AS position FROM tracks GROUP BY artist_id
    ) AS ranked WHERE ranked.artist_id = artists.id`)
    const follow = db.prepare(`INSERT INTO follows (username_key, username, followed_at, since_run) VALUES (?, ?, ?, 1)`)
    for (let i = 0; i < 5; i++) {
      const id = 1 + random(ARTISTS)
      follow.run(`artist${id}`, `artist${id}`, now)
    }
    const download = db.prepare(
      `INSERT INTO downloads (upload_id, artist_username, title, url, target_path, state, bytes_total, created_at, queue_order)
       VALUES (?, ?, 't', 'u', ?, ?, 1, ?, 0)`,
    )
    const ids = db.prepare('SELECT upload_id FROM tracks ORDER BY random() LIMIT 20000').pluck().all() as string[]
    for (const uploadId of ids) download.run(uploadId, 'someone', `/tmp/${uploadId}`, ['completed', 'queued', 'failed'][random(3)]!, now)
  })()
  db.pragma('optimize')
  return tracks
}

function time(read: () => void, rounds = 30): { p50: number; p95: number; first: number } {
  const samples: number[] = []
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    read()
    samples.push(performance.now() - started)
  }
  const first = samples[0]!
  samples.sort((a, b) => a - b)
  return { p50: samples[Math.floor(rounds / 2)]!, p95: samples[Math.floor(rounds * 0.95)]!, first }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-whats-new-bench-'))
try {
  const origin = 'http://127.0.0.1:1'
  const library = openLibrary({ dataDir: work, baseUrl: origin })
  const file = library.cacheFile
  await library.dispose()
  const db = openDatabase(file)
  const filling = performance.now()
  const tracks = fill(db)
  console.log(`${ARTISTS.toLocaleString('en')} artists, ${tracks.toLocaleString('en')} tracks filled in ${((performance.now() - filling) / 1000).toFixed(1)} s`)

  // Every statement the read prepares, for its plan.
  const prepared: string[] = []
  const prepare = db.prepare.bind(db)
  db.prepare = ((sql: string) => (prepared.push(sql), prepare(sql))) as typeof db.prepare
  const news = whatsNew(db)
  console.log(`changes: ${news.runs.length} runs, ${news.totalArtists} artists and ${news.totalTracks} tracks changed; ${news.artists.filter((a) => a.followed).length} followed artists, ${news.tracks.filter((t) => t.followed).length} followed tracks listed`)
  for (const sql of prepared) {
    console.log(`\n${sql.replace(/\s+/g, ' ').slice(0, 160)}…`)
    const plan = prepare(`EXPLAIN QUERY PLAN ${sql}`).all(sql.includes('@runs') ? { runs: JSON.stringify([11, 10]), limit: 1 } : sql.includes('@limit') ? { limit: 1 } : sql.includes('?') ? [10] : []) as { detail: string }[]
    for (const step of plan) console.log(`   ${step.detail}`)
  }
  const report = (name: string, figures: { p50: number; p95: number; first: number }): void =>
    console.log(`${name.padEnd(60)} first ${figures.first.toFixed(1)} ms, p50 ${figures.p50.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms`)
  console.log('')
  report('changes of the last 10 syncs (limit 200)', time(() => whatsNew(db)))

  // The first sync alone: the newest uploads.
  db.exec('SAVEPOINT first_only')
  db.exec(`UPDATE sync_runs SET state = 'failed' WHERE initial = 0`)
  prepared.length = 0
  const newest = whatsNew(db)
  console.log(`newest: ${newest.mode}, ${newest.tracks.length} tracks, the newest ${newest.tracks[0]?.track.createdAt}`)
  for (const sql of prepared) {
    console.log(`\n${sql.replace(/\s+/g, ' ').slice(0, 160)}…`)
    const plan = prepare(`EXPLAIN QUERY PLAN ${sql}`).all(sql.includes('@candidates') ? { limit: 1, candidates: 1 } : sql.includes('@limit') ? { limit: 1 } : []) as { detail: string }[]
    for (const step of plan) console.log(`   ${step.detail}`)
  }
  report('newest uploads after the first sync (limit 200)', time(() => whatsNew(db), 10))
  // Against every track sorted by the instant it was made: the same uploads, the followed artists' apart.
  const everyTrack = prepare(`SELECT upload_id FROM tracks WHERE artist_id NOT IN (SELECT artists.id FROM follows JOIN artists USING (username_key))
    ORDER BY julianday(created_at) DESC, upload_id LIMIT ?`).pluck().all(newest.tracks.filter((entry) => !entry.followed).length) as string[]
  const same = JSON.stringify(everyTrack) === JSON.stringify(newest.tracks.filter((entry) => !entry.followed).map((entry) => entry.track.uploadId))
  console.log(`   the same as sorting all ${tracks.toLocaleString('en')} tracks: ${same ? 'yes' : 'NO'}`)
  db.exec('ROLLBACK TO first_only; RELEASE first_only')

  // One sync that changed 100,000 tracks (a service that re-encoded a large part of its catalogue).
  db.exec(`UPDATE tracks SET changed_run = ${RUNS} WHERE upload_id IN (SELECT upload_id FROM tracks WHERE changed_run = 1 LIMIT 100000)`)
  report('changes, one sync having changed 100,000 tracks', time(() => whatsNew(db), 10))
  db.close()
} finally {
  fs.rmSync(work, { recursive: true, force: true })
}

/**
 * What the sync engine writes into the cache. Every function takes the
 * database first; each batch (a list page, a batch of details, the end of the
 * lists) is one transaction, so a crash never leaves half of one behind.
 * Writes take the write lock when their transaction begins (IMMEDIATE), so a
 * transaction that reads first can never fail half-way on another writer.
 */
import { hash } from 'node:crypto'
import type { Database } from 'better-sqlite3'
import type { ListedArtistRecord } from './artist-records'
import { writeMeta } from './meta'
import { bumpCatalogueVersion } from './query-cache'
import { finishSearchIndex, startSearchIndex } from './search'
import { statement } from './statements'
import type { SyncPhase } from '../shared/types'
export type { SyncPhase } from '../shared/types'

/** The list passes of a sync: the four sort orders, then the podcasters (classification). */
export const LIST_PASSES = ['trending', 'top', 'recently_created', 'recently_updated', 'podcasters'] as const
/** The order the service (and the artists screen) lists in by default. */
const DEFAULT_SORT: ListPass = 'trending'
export type ListPass = (typeof LIST_PASSES)[number]
export type RunState = 'running' | 'cancelled' | 'failed' | 'completed'
/** A full refresh (every list, resumable) or a quick check (the recently updated list until it meets the cache). */
export type RunKind = 'full' | 'quick'

export interface SyncRun {
  id: number
  kind: RunKind
  /** The run that fills an empty cache: its list pages are shown as they arrive. */
  initial: boolean
  startedAt: number
  finishedAt: number | null
  state: RunState
  phase: SyncPhase
  error: string | null
  detailsFetched: number
}

const RUN_COLUMNS = 'id, kind, initial, started_at AS startedAt, finished_at AS finishedAt, state, phase, error, details_fetched AS detailsFetched'

/** The latest run, if any. */
export function lastRun(db: Database): SyncRun | undefined {
  const row = statement<[], Omit<SyncRun, 'initial'> & { initial: number }>(db, `SELECT ${RUN_COLUMNS} FROM sync_runs ORDER BY id DESC LIMIT 1`).get()
  return row && { ...row, initial: row.initial === 1 }
}

/**
 * The run to work on: the last full refresh if it never completed (resumed, whatever kind was
 * asked for: the cache needs it finished first), else a new run of the kind asked for. A quick
 * check needs a cache a full refresh has filled: on an empty one it is a full refresh. A quick
 * check left running by a process that stopped is closed as cancelled: it is never resumed.
 */
export function startOrResumeRun(db: Database, now: number, kind: RunKind = 'full'): { run: SyncRun; resumed: boolean } {
  return db.transaction(() => {
    statement(db, `UPDATE sync_runs SET state = 'cancelled', finished_at = ? WHERE kind = 'quick' AND state = 'running'`).run(now)
    const row = statement<[], Omit<SyncRun, 'initial'> & { initial: number }>(
      db,
      `SELECT ${RUN_COLUMNS} FROM sync_runs WHERE kind = 'full' ORDER BY id DESC LIMIT 1`,
    ).get()
    const lastFull = row && { ...row, initial: row.initial === 1 }
    if (lastFull && lastFull.state !== 'completed') {
      statement(db, `UPDATE sync_runs SET state = 'running', error = NULL WHERE id = ?`).run(lastFull.id)
      return { run: { ...lastFull, state: 'running' as const, error: null }, resumed: true }
    }
    // An empty cache gets its search index a slice at a time as its list pages come, not row by
    // row (see startSearchIndex); what this first run brings is the starting point of "what's new", not news.
    const initial = statement<[], { n: number }>(db, 'SELECT count(*) AS n FROM artists').get()!.n === 0
    const runKind: RunKind = initial || !lastFull ? 'full' : kind
    if (initial) startSearchIndex(db)
    const id = statement(db, `INSERT INTO sync_runs (started_at, state, phase, initial, kind) VALUES (?, 'running', 'lists', ?, ?)`)
      .run(now, initial ? 1 : 0, runKind).lastInsertRowid as number
    const run: SyncRun = { id, kind: runKind, initial, startedAt: now, finishedAt: null, state: 'running', phase: 'lists', error: null, detailsFetched: 0 }
    return { run, resumed: false }
  }).immediate()
}

export function setRunPhase(db: Database, runId: number, phase: SyncPhase): void {
  statement(db, 'UPDATE sync_runs SET phase = ? WHERE id = ?').run(phase, runId)
}

export function endRun(db: Database, runId: number, state: Exclude<RunState, 'running'>, now: number, error?: string): void {
  db.transaction(() => {
    statement(db, 'UPDATE sync_runs SET state = ?, finished_at = ?, error = ? WHERE id = ?').run(state, now, error ?? null, runId)
    if (state === 'completed') {
      // A completed run needs nothing staged any more.
      statement(db, 'DELETE FROM sync_pages WHERE run_id = ?').run(runId)
      statement(db, 'DELETE FROM sync_ranks WHERE run_id = ?').run(runId)
      const kind = statement<[number], RunKind>(db, 'SELECT kind FROM sync_runs WHERE id = ?').pluck().get(runId)
      if (kind === 'full') writeMeta(db, 'last_full_sync_at', String(now))
      writeMeta(db, 'last_check_at', String(now))
    }
  }).immediate()
}

/**
 * Deletes the first `rows` of a run's staged positions; true once none is left. Nothing reads them
 * once its lists are applied, and a sync's end deletes them a slice at a time before endRun: on
 * 100,000 artists they are half a million rows, a quarter of a second's work in one piece.
 */
export function dropStagedRanks(db: Database, runId: number, rows = 50_000): boolean {
  const [pass, artistId] = statement<[number, number], [string, number]>(
    db,
    'SELECT pass, artist_id FROM sync_ranks WHERE run_id = ? ORDER BY pass, artist_id LIMIT 1 OFFSET ?',
  ).raw().get(runId, rows) ?? []
  if (pass === undefined) {
    statement(db, 'DELETE FROM sync_ranks WHERE run_id = ?').run(runId)
    return true
  }
  statement(db, 'DELETE FROM sync_ranks WHERE run_id = ? AND (pass, artist_id) < (?, ?)').run(runId, pass, artistId)
  return false
}

/** Page counts and pages already stored, per pass, for a run (what a resume skips). */
export function listProgress(db: Database, runId: number): Map<ListPass, { pages: number; done: Set<number> }> {
  const rows = statement<[number], { pass: ListPass; page: number; pages: number }>(
    db,
    'SELECT pass, page, pages FROM sync_pages WHERE run_id = ?',
  ).all(runId)
  const progress = new Map<ListPass, { pages: number; done: Set<number> }>()
  for (const row of rows) {
    const entry = progress.get(row.pass) ?? { pages: 0, done: new Set<number>() }
    entry.pages = Math.max(entry.pages, row.pages)
    entry.done.add(row.page)
    progress.set(row.pass, entry)
  }
  return progress
}

/** Drops what a run stored of one pass (its pages and positions), so the pass is listed again from its first page. */
export function forgetListPass(db: Database, runId: number, pass: ListPass): void {
  db.transaction(() => {
    statement(db, 'DELETE FROM sync_pages WHERE run_id = ? AND pass = ?').run(runId, pass)
    statement(db, 'DELETE FROM sync_ranks WHERE run_id = ? AND pass = ?').run(runId, pass)
  }).immediate()
}

/** A digest of a list entry: when it changes, the artist's detail is fetched again. */
export function listSignature(artist: ListedArtistRecord): string {
  // The one-shot hash: a third of the cost of a Hash object per entry, and a sync hashes every entry of five passes.
  return hash('sha1', JSON.stringify(artist), 'base64url')
}

/**
 * Per connection, the artists the list pages of the run under way stored, by username key: the
 * row and the signature each was stored with. Each artist is on the pages of five passes; from
 * the second on, an entry as it was needs neither a look at its wide row nor a write to it.
 * Only this run's list pages write these (the sync holds the cache's lock), so it cannot go stale.
 */
const listedInRun = new WeakMap<Database, { runId: number; artists: Map<string, { id: number; signature: string }> }>()

/** What a stored list page calls for: the details to fetch (entries that changed) and the thumbnails its artists show. */
export interface ListPageOutcome {
  detailsWanted: DetailWanted[]
  thumbnails: string[]
}

/**
 * Stores one list page: the artists' profiles, their positions in this pass, and the page as done.
 * On a run's first fill of an empty cache (`initial`), the positions in the default order (and
 * who is a podcaster) also go straight to the artists, so the list can be browsed while the sync
 * goes on; otherwise the cache keeps showing the last sync's order until applyLists swaps in the
 * new one whole.
 */
export function recordListPage(
  db: Database,
  runId: number,
  pass: ListPass,
  page: number,
  pages: number,
  perPage: number,
  artists: ListedArtistRecord[],
  initial = false,
): ListPageOutcome {
  const upsert = upsertListed(db)
  // Most entries of a run are already stored and unchanged (each artist is in five passes):
  // for those only the rank is new, and the row is not written at all.
  const find = statement<[string], { id: number; list_signature: string; listed_run: number; detail_signature: string | null }>(
    db,
    'SELECT id, list_signature, listed_run, detail_signature FROM artists WHERE username_key = ?',
  )
  const markListed = statement(db, 'UPDATE artists SET listed_run = ? WHERE id = ?')
  // A plain INSERT first, as for tracks (an upsert looks for its conflict before every row): an
  // artist is on one page of a pass unless the list moved while the run read it.
  const insertRank = statement(db, 'INSERT INTO sync_ranks (run_id, pass, artist_id, position) VALUES (?, ?, ?, ?)')
  const upsertRank = statement(
    db,
    `INSERT INTO sync_ranks (run_id, pass, artist_id, position) VALUES (?, ?, ?, ?)
     ON CONFLICT (run_id, pass, artist_id) DO UPDATE SET position = min(position, excluded.position)`,
  )
  const rank = {
    run: (run: number, listPass: ListPass, artistId: number, position: number): void => {
      try {
        insertRank.run(run, listPass, artistId, position)
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw error
        upsertRank.run(run, listPass, artistId, position)
      }
    },
  }
  // Only the order the list opens in, and the podcasters filter: each position written now is a
  // row rewritten once more, and applyLists writes the other orders in one go at the end.
  const showNow = !initial
    ? undefined
    : pass === 'podcasters'
      ? statement(db, 'UPDATE artists SET is_podcaster = 1 WHERE id = @id AND is_podcaster = 0')
      : pass === DEFAULT_SORT
        ? statement(db, `UPDATE artists SET rank_${pass} = @position WHERE id = @id AND (rank_${pass} IS NULL OR rank_${pass} > @position)`)
        : undefined
  const pageDone = statement(db, 'INSERT OR REPLACE INTO sync_pages (run_id, pass, page, pages) VALUES (?, ?, ?, ?)')
  const outcome: ListPageOutcome = { detailsWanted: [], thumbnails: [] }
  let memo = listedInRun.get(db)
  if (memo?.runId !== runId) listedInRun.set(db, (memo = { runId, artists: new Map() }))
  const seenInRun = memo.artists
  const nested = db.inTransaction
  // Remembered once the page is stored: a page whose transaction fails leaves nothing behind.
  const stored: [string, { id: number; signature: string }][] = []
  db.transaction(() => {
    artists.forEach((artist, index) => {
      const usernameKey = artist.username.toLowerCase()
      const signature = listSignature(artist)
      const position = (page - 1) * perPage + index
      const seen = seenInRun.get(usernameKey)
      if (seen?.signature === signature) {
        // Stored by an earlier page of this run as it is now: listed in this run, and its detail
        // asked for then if it was wanted (the pipeline asks once per signature).
        rank.run(runId, pass, seen.id, position)
        showNow?.run({ id: seen.id, position })
        if (artist.avatar_thumb !== '') outcome.thumbnails.push(artist.avatar_thumb)
        return
      }
      let row = find.get(usernameKey)
      if (row?.list_signature !== signature) {
        upsert(artist, signature, runId)
        row ??= find.get(usernameKey)!
      }
      if (row.listed_run !== runId) markListed.run(runId, row.id)
      rank.run(runId, pass, row.id, position)
      showNow?.run({ id: row.id, position })
      if (row.detail_signature !== signature) outcome.detailsWanted.push({ id: row.id, username: artist.username, listSignature: signature })
      if (artist.avatar_thumb !== '') outcome.thumbnails.push(artist.avatar_thumb)
      stored.push([usernameKey, { id: row.id, signature }])
    })
    pageDone.run(runId, pass, page, pages)
    bumpCatalogueVersion(db)
  }).immediate()
  // Inside a caller's transaction the page is not stored until that one commits: nothing is remembered.
  if (!nested) for (const [usernameKey, entry] of stored) seenInRun.set(usernameKey, entry)
  return outcome
}

/**
 * Stores a list entry as the service gave it (a new artist, or one whose entry changed), marked
 * as changed in the run; its detail is fetched again since its signature no longer matches.
 */
function upsertListed(db: Database): (artist: ListedArtistRecord, signature: string, runId: number) => void {
  const upsert = statement(
    db,
    `INSERT INTO artists (username, username_key, num_tracks, pf_name, pf_facebook, pf_twitter, pf_website, pf_bio,
       avatar, avatar_thumb, location_id, location_name, user_username, listed_items, list_signature, listed_run,
       first_seen_run, changed_run)
     VALUES (@username, @username_key, @num_tracks, @pf_name, @pf_facebook, @pf_twitter, @pf_website, @pf_bio,
       @avatar, @avatar_thumb, @location_id, @location_name, @user_username, @listed_items, @list_signature, @run, @run, @run)
     ON CONFLICT (username_key) DO UPDATE SET changed_run = excluded.changed_run,
       username = excluded.username, num_tracks = excluded.num_tracks, pf_name = excluded.pf_name,
       pf_facebook = excluded.pf_facebook, pf_twitter = excluded.pf_twitter, pf_website = excluded.pf_website,
       pf_bio = excluded.pf_bio, avatar = excluded.avatar, avatar_thumb = excluded.avatar_thumb,
       location_id = excluded.location_id, location_name = excluded.location_name,
       user_username = excluded.user_username, listed_items = excluded.listed_items,
       list_signature = excluded.list_signature`,
  )
  return (artist, signature, runId) => {
    upsert.run({
      username: artist.username,
      username_key: artist.username.toLowerCase(),
      num_tracks: artist.num_tracks,
      pf_name: artist.pf_name,
      pf_facebook: artist.pf_facebook,
      pf_twitter: artist.pf_twitter,
      pf_website: artist.pf_website,
      pf_bio: artist.pf_bio,
      avatar: artist.avatar,
      avatar_thumb: artist.avatar_thumb,
      location_id: artist.location?.id ?? null,
      location_name: artist.location?.name ?? null,
      user_username: artist.user?.username ?? null,
      listed_items: JSON.stringify(artist.items),
      list_signature: signature,
      run: runId,
    })
  }
}

/** Places in the recently updated order a quick check may give (more than any catalogue's artists). */
const QUICK_RANK_SPAN = 10_000_000

/**
 * A quick check's list page: the entries that differ from what the cache holds (new artists, or
 * a changed list entry: new uploads, another track count, an edited profile) are stored and their
 * details wanted; the others are left as they are. An artist the cache had as gone is listed again.
 * Positions in the sort orders are a full refresh's work, but for the recently updated order,
 * where the service put these artists first: each is placed before every position a full
 * refresh gives (a later check's before an earlier's), so that order shows them at its top at
 * once (and an artist new to the cache has a place in it). The next full refresh renumbers all.
 */
export function recordChangedEntries(db: Database, runId: number, page: number, perPage: number, artists: ListedArtistRecord[]): ListPageOutcome {
  const find = statement<[string], { id: number; list_signature: string; gone_at: number | null }>(
    db,
    'SELECT id, list_signature, gone_at FROM artists WHERE username_key = ?',
  )
  const upsert = upsertListed(db)
  const listedAgain = statement(db, 'UPDATE artists SET listed_run = ?, gone_at = NULL, rank_recently_updated = ? WHERE id = ?')
  const outcome: ListPageOutcome = { detailsWanted: [], thumbnails: [] }
  db.transaction(() => {
    artists.forEach((artist, index) => {
      const usernameKey = artist.username.toLowerCase()
      const signature = listSignature(artist)
      const row = find.get(usernameKey)
      if (row?.list_signature === signature && row.gone_at === null) return
      upsert(artist, signature, runId)
      const id = row?.id ?? find.get(usernameKey)!.id
      listedAgain.run(runId, (page - 1) * perPage + index - runId * QUICK_RANK_SPAN, id)
      outcome.detailsWanted.push({ id, username: artist.username, listSignature: signature })
      if (artist.avatar_thumb !== '') outcome.thumbnails.push(artist.avatar_thumb)
    })
    if (outcome.detailsWanted.length > 0) bumpCatalogueVersion(db)
  }).immediate()
  return outcome
}

/**
 * Makes a run's lists the cache's lists, in one transaction: positions in each
 * sort order, who is a podcaster, and who is gone (listed in no pass of the run);
 * a first sync's search index gets the artists its slices have not indexed yet.
 * Returns how many artists became gone.
 */
export function applyLists(db: Database, runId: number, now: number): { gone: number } {
  // The run's lists are complete: no list page of it is stored after this.
  listedInRun.delete(db)
  return db.transaction(() => {
    for (const sort of LIST_PASSES.filter((pass) => pass !== 'podcasters')) {
      const position = `(SELECT position FROM sync_ranks WHERE run_id = @run AND pass = '${sort}' AND artist_id = artists.id)`
      statement(db, `UPDATE artists SET rank_${sort} = ${position} WHERE rank_${sort} IS NOT ${position}`).run({ run: runId })
    }
    const podcaster = `EXISTS (SELECT 1 FROM sync_ranks WHERE run_id = @run AND pass = 'podcasters' AND artist_id = artists.id)`
    statement(db, `UPDATE artists SET is_podcaster = ${podcaster} WHERE listed_run = @run AND is_podcaster IS NOT ${podcaster}`).run({ run: runId })
    statement(db, 'UPDATE artists SET gone_at = NULL WHERE listed_run = @run AND gone_at IS NOT NULL').run({ run: runId })
    const gone = statement(db, 'UPDATE artists SET gone_at = @now WHERE listed_run != @run AND gone_at IS NULL').run({ run: runId, now }).changes
    finishSearchIndex(db)
    statement(db, `UPDATE sync_runs SET phase = 'details' WHERE id = ?`).run(runId)
    bumpCatalogueVersion(db)
    return { gone }
  }).immediate()
}

export interface DetailWanted {
  id: number
  username: string
  listSignature: string
}

/** Listed artists whose list entry changed since their detail was last fetched (or never fetched). */
export function artistsNeedingDetail(db: Database): DetailWanted[] {
  return statement<[], DetailWanted>(
    db,
    `SELECT id, username, list_signature AS listSignature FROM artists
     WHERE gone_at IS NULL AND detail_signature IS NOT list_signature ORDER BY id`,
  ).all()
}

/** Notes why an artist's detail could not be fetched; its old tracks stay, and a later sync tries again. */
export function recordDetailError(db: Database, artistId: number, message: string): void {
  statement(db, 'UPDATE artists SET detail_error = ? WHERE id = ?').run(message, artistId)
}

export function addDetailsFetched(db: Database, runId: number, count: number): void {
  statement(db, 'UPDATE sync_runs SET details_fetched = details_fetched + ? WHERE id = ?').run(count, runId)
}

/** What a detail fetch of one artist (by username, without regard to case) works from, if the cache lists it. */
export function detailWantedFor(db: Database, username: string): DetailWanted | undefined {
  return statement<[string], DetailWanted>(
    db,
    'SELECT id, username, list_signature AS listSignature FROM artists WHERE username_key = ?',
  ).get(username.toLowerCase())
}

/** The service no longer knows an artist (its detail answered 404): gone, kept for its downloads. */
export function markGone(db: Database, artistId: number, now: number): void {
  db.transaction(() => {
    statement(db, 'UPDATE artists SET gone_at = coalesce(gone_at, ?) WHERE id = ?').run(now, artistId)
    bumpCatalogueVersion(db)
  }).immediate()
}

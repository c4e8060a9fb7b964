/**
 * What the sync engine writes into the cache. Every function takes the
 * database first; each batch (a list page, a batch of details, the end of the
 * lists) is one transaction, so a crash never leaves half of one behind.
 * Writes take the write lock when their transaction begins (IMMEDIATE), so a
 * transaction that reads first can never fail half-way on another writer.
 */
import { hash } from 'node:crypto'
import type { Database } from 'better-sqlite3'
import type { ArtistDetailRecord, ItemRecord, ListedArtistRecord } from './artist-records'
import { deleteMeta, writeMeta, writeMetaIfAbsent } from './meta'
import { bumpCatalogueVersion } from './query-cache'
import { optimizeSearchIndex, rebuildSearchIndex } from './search'
import { statement } from './statements'
import type { SyncPhase } from '../shared/types'
export type { SyncPhase } from '../shared/types'

/** The list passes of a sync: the four sort orders, then the podcasters (classification). */
export const LIST_PASSES = ['trending', 'top', 'recently_created', 'recently_updated', 'podcasters'] as const
/** The order the service (and the artists screen) lists in by default. */
const DEFAULT_SORT: ListPass = 'trending'
export type ListPass = (typeof LIST_PASSES)[number]
export type RunState = 'running' | 'cancelled' | 'failed' | 'completed'

export interface SyncRun {
  id: number
  /** The run that fills an empty cache: its list pages are shown as they arrive. */
  initial: boolean
  startedAt: number
  finishedAt: number | null
  state: RunState
  phase: SyncPhase
  error: string | null
  detailsFetched: number
}

const RUN_COLUMNS = 'id, initial, started_at AS startedAt, finished_at AS finishedAt, state, phase, error, details_fetched AS detailsFetched'

/** The latest run, if any. */
export function lastRun(db: Database): SyncRun | undefined {
  const row = statement<[], Omit<SyncRun, 'initial'> & { initial: number }>(db, `SELECT ${RUN_COLUMNS} FROM sync_runs ORDER BY id DESC LIMIT 1`).get()
  return row && { ...row, initial: row.initial === 1 }
}

/** The run to work on: the last one if it never completed (resume), else a new one. */
export function startOrResumeRun(db: Database, now: number): { run: SyncRun; resumed: boolean } {
  return db.transaction(() => {
    const last = lastRun(db)
    if (last && last.state !== 'completed') {
      statement(db, `UPDATE sync_runs SET state = 'running', error = NULL WHERE id = ?`).run(last.id)
      return { run: { ...last, state: 'running' as const, error: null }, resumed: true }
    }
    // An empty cache gets its search index in one go when the lists are in (see applyLists);
    // what this first run brings is the starting point of "what's new", not news.
    const initial = statement<[], { n: number }>(db, 'SELECT count(*) AS n FROM artists').get()!.n === 0
    if (initial) writeMetaIfAbsent(db, 'fts_rebuild_pending', '1')
    const id = statement(db, `INSERT INTO sync_runs (started_at, state, phase, initial) VALUES (?, 'running', 'lists', ?)`).run(now, initial ? 1 : 0)
      .lastInsertRowid as number
    const run: SyncRun = { id, initial, startedAt: now, finishedAt: null, state: 'running', phase: 'lists', error: null, detailsFetched: 0 }
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
      writeMeta(db, 'last_full_sync_at', String(now))
      optimizeSearchIndex(db)
    }
  }).immediate()
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
  // Most entries of a run are already stored and unchanged (each artist is in five passes):
  // for those only the rank is new, and the row is not written at all.
  const find = statement<[string], { id: number; list_signature: string; listed_run: number; detail_signature: string | null }>(
    db,
    'SELECT id, list_signature, listed_run, detail_signature FROM artists WHERE username_key = ?',
  )
  const markListed = statement(db, 'UPDATE artists SET listed_run = ? WHERE id = ?')
  const rank = statement(
    db,
    `INSERT INTO sync_ranks (run_id, pass, artist_id, position) VALUES (?, ?, ?, ?)
     ON CONFLICT (run_id, pass, artist_id) DO UPDATE SET position = min(position, excluded.position)`,
  )
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
  db.transaction(() => {
    artists.forEach((artist, index) => {
      const usernameKey = artist.username.toLowerCase()
      const signature = listSignature(artist)
      let stored = find.get(usernameKey)
      if (stored?.list_signature !== signature) {
        upsert.run({
          username: artist.username,
          username_key: usernameKey,
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
        stored ??= find.get(usernameKey)!
      }
      if (stored.listed_run !== runId) markListed.run(runId, stored.id)
      const position = (page - 1) * perPage + index
      rank.run(runId, pass, stored.id, position)
      showNow?.run({ id: stored.id, position })
      if (stored.detail_signature !== signature) outcome.detailsWanted.push({ id: stored.id, username: artist.username, listSignature: signature })
      if (artist.avatar_thumb !== '') outcome.thumbnails.push(artist.avatar_thumb)
    })
    pageDone.run(runId, pass, page, pages)
    bumpCatalogueVersion(db)
  }).immediate()
  return outcome
}

/**
 * Makes a run's lists the cache's lists, in one transaction: positions in each
 * sort order, who is a podcaster, and who is gone (listed in no pass of the run).
 * Returns how many artists became gone.
 */
export function applyLists(db: Database, runId: number, now: number): { gone: number } {
  return db.transaction(() => {
    for (const sort of LIST_PASSES.filter((pass) => pass !== 'podcasters')) {
      const position = `(SELECT position FROM sync_ranks WHERE run_id = @run AND pass = '${sort}' AND artist_id = artists.id)`
      statement(db, `UPDATE artists SET rank_${sort} = ${position} WHERE rank_${sort} IS NOT ${position}`).run({ run: runId })
    }
    const podcaster = `EXISTS (SELECT 1 FROM sync_ranks WHERE run_id = @run AND pass = 'podcasters' AND artist_id = artists.id)`
    statement(db, `UPDATE artists SET is_podcaster = ${podcaster} WHERE listed_run = @run AND is_podcaster IS NOT ${podcaster}`).run({ run: runId })
    statement(db, 'UPDATE artists SET gone_at = NULL WHERE listed_run = @run AND gone_at IS NOT NULL').run({ run: runId })
    const gone = statement(db, 'UPDATE artists SET gone_at = @now WHERE listed_run != @run AND gone_at IS NULL').run({ run: runId, now }).changes
    if (deleteMeta(db, 'fts_rebuild_pending')) rebuildSearchIndex(db)
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

export interface FetchedDetail {
  wanted: DetailWanted
  detail: ArtistDetailRecord
  fetchedAt: number
}

/**
 * Stores artists' details in one transaction: each profile as its detail gives
 * it, and all its tracks, replacing the old ones.
 */
export function recordDetails(db: Database, fetched: FetchedDetail[], runId: number | null = null): void {
  // The profile is written only where it changed, so an unchanged artist keeps its search index entry.
  const updateProfile = statement(
    db,
    `UPDATE artists SET num_tracks = @num_tracks, pf_name = @pf_name, pf_facebook = @pf_facebook,
       pf_twitter = @pf_twitter, pf_website = @pf_website, pf_bio = @pf_bio, avatar = @avatar, avatar_thumb = @avatar_thumb,
       changed_run = coalesce(@run, changed_run)
     WHERE id = @id AND (num_tracks IS NOT @num_tracks OR pf_name IS NOT @pf_name OR pf_facebook IS NOT @pf_facebook
       OR pf_twitter IS NOT @pf_twitter OR pf_website IS NOT @pf_website OR pf_bio IS NOT @pf_bio
       OR avatar IS NOT @avatar OR avatar_thumb IS NOT @avatar_thumb)`,
  )
  const markFetched = statement(
    db,
    'UPDATE artists SET detail_signature = ?, detail_fetched_at = ?, detail_error = NULL WHERE id = ?',
  )
  // What the artist's tracks were, so a track keeps when it first appeared, and shows when it changed.
  const tracksBefore = statement<[number], TrackBefore>(
    db,
    `SELECT upload_id AS uploadId, title, subtype, created_at AS createdAt, bytes, ext, hotlink_path AS hotlinkPath,
       first_seen_run AS firstSeenRun, changed_run AS changedRun
     FROM tracks WHERE artist_id = ?`,
  )
  const deleteTracks = statement(db, 'DELETE FROM tracks WHERE artist_id = ?')
  const insertTrack = statement(
    db,
    `INSERT OR REPLACE INTO tracks (upload_id, artist_id, position, item_id, title, subtype, created_at, bytes,
       downloads, hotlinks, ext, hotlink_path, item_artist, first_seen_run, changed_run)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  db.transaction(() => {
    for (const { wanted, detail, fetchedAt } of fetched) {
      const before = new Map(tracksBefore.all(wanted.id).map((track) => [track.uploadId, track]))
      updateProfile.run({
        run: runId,
        id: wanted.id,
        num_tracks: detail.num_tracks,
        pf_name: detail.pf_name,
        pf_facebook: detail.pf_facebook,
        pf_twitter: detail.pf_twitter,
        pf_website: detail.pf_website,
        pf_bio: detail.pf_bio,
        avatar: detail.avatar,
        avatar_thumb: detail.avatar_thumb,
      })
      markFetched.run(wanted.listSignature, fetchedAt, wanted.id)
      deleteTracks.run(wanted.id)
      detail.items.forEach((item, position) => {
        const upload = item.upload
        const known = before.get(upload.id)
        const changedRun = !known ? runId : trackChanged(known, item) ? (runId ?? known.changedRun) : known.changedRun
        insertTrack.run(
          upload.id, wanted.id, position, item.id, item.title, item.subtype, upload.created_at, upload.bytes,
          upload.downloads, upload.hotlinks, upload.ext, upload.hotlink_path, item.artist?.username ?? null,
          known ? known.firstSeenRun : runId, changedRun,
        )
      })
    }
    bumpCatalogueVersion(db)
  }).immediate()
}

interface TrackBefore {
  uploadId: string
  title: string
  subtype: string
  createdAt: string | null
  bytes: number | null
  ext: string | null
  hotlinkPath: string | null
  firstSeenRun: number | null
  changedRun: number | null
}

/** A track changed when what a listener sees of it did: not its download and hotlink counters, which always move. */
function trackChanged(before: TrackBefore, item: ItemRecord): boolean {
  const upload = item.upload
  return (
    before.title !== item.title || before.subtype !== item.subtype || before.createdAt !== upload.created_at || before.bytes !== upload.bytes ||
    before.ext !== upload.ext || before.hotlinkPath !== upload.hotlink_path
  )
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

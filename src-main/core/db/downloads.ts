/** The download queue in the cache: one row per file, every function takes the database first. */
import fs from 'node:fs'
import type { Database } from 'better-sqlite3'
import type { DownloadState, PauseReason } from '../shared/catalogue'
import { DOWNLOAD_GROUPS, stateOfGroup, type DownloadGroup } from '../shared/download-groups'
import { withoutUserInfo } from '../shared/urls'
import { recordEnqueued } from './new-tracks'
import { statement } from './statements'
import { readMeta, writeMeta } from './meta'
import { orderBounds } from './queue-order'
import type { Download, DownloadPage, DownloadPageQuery, DownloadSummary, DownloadView, GroupTotals } from '../shared/types'
export type { Download } from '../shared/types'

/** A row to queue; `folder` is the download folder's real path it is queued into (see downloadFolder). */
export type NewDownload = Pick<Download, 'uploadId' | 'artistUsername' | 'title' | 'url' | 'targetPath' | 'bytesTotal'> & { folder: string }

// A download's address is kept without user-info: the base URL's password is added to each
// request (downloads/manager.ts), never written to the cache. Rows an older version wrote with
// it leave the store without it all the same, until forgetStoredCredentials rewrites them.

// The artist's name is the catalogue's as it is now (it may change after the download was queued), through
// the upload's track: two lookups by primary key per row. '' when the cache no longer holds the track.
// A queued row with an error is one the queue put back because the service could not be reached
// (downloads/manager.ts): it waits for the network, and says so as waitingFor.
const COLUMNS = `id, upload_id AS uploadId, artist_username AS artistUsername,
  coalesce((SELECT artists.pf_name FROM tracks JOIN artists ON artists.id = tracks.artist_id WHERE tracks.upload_id = downloads.upload_id), '')
    AS artistName,
  title, url, target_path AS targetPath,
  state, pause_reason AS pauseReason, bytes_done AS bytesDone, bytes_total AS bytesTotal, validator, sha256, error,
  created_at AS createdAt, started_at AS startedAt, finished_at AS finishedAt, queue_order AS queueOrder,
  CASE WHEN state = 'queued' AND error IS NOT NULL THEN 'network' END AS waitingFor`

export function insertDownload(db: Database, row: NewDownload, now: number): Download {
  // Never the id of a download removed before: the window, the player's queue and a CLI's listing
  // know downloads by id, and a new row under an old id would take its place there (plays its file).
  const highest = statement<[], { id: number | null }>(db, 'SELECT max(id) AS id FROM downloads').get()?.id ?? 0
  const id = Math.max(highest, Number(readMeta(db, 'last_download_id') ?? 0)) + 1
  statement(
    db,
    // A new download goes to the bottom of the queue (db/queue-order.ts).
    `INSERT INTO downloads (id, upload_id, artist_username, title, url, target_path, folder, state, bytes_total, created_at, queue_order)
     VALUES (@id, @uploadId, @artistUsername, @title, @url, @targetPath, @folder, 'queued', @bytesTotal, @now, @order)`,
  ).run({ ...row, id, url: withoutUserInfo(row.url), now, order: orderBounds(db).high + 1 })
  writeMeta(db, 'last_download_id', String(id))
  // Remembered for good, whatever becomes of the row: auto-download never queues it again (new-tracks.ts).
  recordEnqueued(db, row.uploadId, now)
  return getDownload(db, id)!
}

/** Queues an existing row again for the same file, from zero: a deleted file downloaded again, a cancelled one retried. */
export function requeueDownload(db: Database, id: number, row: NewDownload, now: number): Download {
  statement(
    db,
    `UPDATE downloads SET artist_username = @artistUsername, title = @title, url = @url, target_path = @targetPath, folder = @folder,
       bytes_total = @bytesTotal, state = 'queued', pause_reason = NULL, bytes_done = 0, validator = NULL, sha256 = NULL,
       error = NULL, created_at = @now, started_at = NULL, finished_at = NULL
     WHERE id = @id`,
  ).run({ ...row, url: withoutUserInfo(row.url), id, now })
  return getDownload(db, id)!
}

export function getDownload(db: Database, id: number): Download | undefined {
  const row = statement<[number], Download>(db, `SELECT ${COLUMNS} FROM downloads WHERE id = ?`).get(id)
  return row && shown(row)
}

/**
 * The folder a download was queued into (a real path when it was queued; migration 0015): its file
 * must be `<folder>/<artist>/<file>`, and is written nowhere else. Kept apart from the target path,
 * so a target rewritten in the cache does not bring its own folder. undefined when there is no such download.
 */
export function downloadFolder(db: Database, id: number): string | undefined {
  return statement<[number], string>(db, 'SELECT folder FROM downloads WHERE id = ?').pluck().get(id)
}

/** Downloads in queue order (db/queue-order.ts), of one state or all. */
export function listDownloads(db: Database, state?: DownloadState): Download[] {
  const rows =
    state === undefined
      ? statement<[], Download>(db, `SELECT ${COLUMNS} FROM downloads ORDER BY queue_order, id`).all()
      : statement<[string], Download>(db, `SELECT ${COLUMNS} FROM downloads WHERE state = ? ORDER BY queue_order, id`).all(state)
  return rows.map(shown)
}

/**
 * Downloads as a screen shows them, in queue order: `interrupted` for the ids
 * given, and `fileMissing` for a completed one whose file is gone (deleted or
 * moved by hand), so the screen offers "Download again" rather than an Open
 * that fails. One stat of each completed file per read: cheap next to the query.
 */
export function listDownloadViews(db: Database, state: DownloadState | undefined, interrupted: ReadonlySet<number>): DownloadView[] {
  return listDownloads(db, state).map((download) => viewOf(download, interrupted))
}

/** A download as a screen shows it (see listDownloadViews). */
function viewOf(download: Download, interrupted: ReadonlySet<number>): DownloadView {
  return {
    ...download,
    interrupted: interrupted.has(download.id),
    fileMissing: download.state === 'completed' && !fs.existsSync(download.targetPath),
  }
}

// The groups of the screen, each in its order (shared/download-groups.ts, compareInGroup): queue order, and
// completed newest first. A group of one state reads an index from its offset: (state, queue_order, id),
// and for completed (state, finished_at, id) backwards (migration 0012). "downloading" and "interrupted" split the
// downloading rows by the ids the queue says nothing transfers (a few: at most a run's worth).
const QUEUE_ORDER = 'ORDER BY queue_order, id'
const NEWEST_FIRST = 'ORDER BY finished_at DESC, id DESC'
const GROUP_ROWS = {
  state: `SELECT ${COLUMNS} FROM downloads WHERE state = ? ${QUEUE_ORDER} LIMIT ? OFFSET ?`,
  completed: `SELECT ${COLUMNS} FROM downloads WHERE state = 'completed' ${NEWEST_FIRST} LIMIT ? OFFSET ?`,
  downloading: `SELECT ${COLUMNS} FROM downloads WHERE state = 'downloading' AND id NOT IN (SELECT value FROM json_each(?))
    ${QUEUE_ORDER} LIMIT ? OFFSET ?`,
  interrupted: `SELECT ${COLUMNS} FROM downloads WHERE state = 'downloading' AND id IN (SELECT value FROM json_each(?))
    ${QUEUE_ORDER} LIMIT ? OFFSET ?`,
} as const

/**
 * A page of one group, in its order (completed newest first, the others in queue order), with the
 * group's size now. Its cost is the page's rows and a walk of the index up to its offset (the rows skipped are not read), never the queue's.
 */
export function downloadPage(db: Database, query: DownloadPageQuery, interrupted: readonly number[]): DownloadPage {
  const { group, offset, limit } = query
  const rows =
    group === 'downloading' || group === 'interrupted'
      ? statement<[string, number, number], Download>(db, GROUP_ROWS[group]).all(JSON.stringify(interrupted), limit, offset)
      : group === 'completed'
        ? statement<[number, number], Download>(db, GROUP_ROWS.completed).all(limit, offset)
        : statement<[string, number, number], Download>(db, GROUP_ROWS.state).all(group, limit, offset)
  const stopped = new Set(interrupted)
  return { group, offset, total: groupTotals(db, interrupted)[group].files, downloads: rows.map((row) => viewOf(shown(row), stopped)) }
}

const ZERO: GroupTotals = { files: 0, bytes: 0, bytesDone: 0 }

/**
 * Each group's files, bytes and bytes on disk, from the totals the cache keeps as the queue
 * changes (migration 0010): six rows, and the interrupted downloads' own.
 */
function groupTotals(db: Database, interrupted: readonly number[]): Record<DownloadGroup, GroupTotals> {
  const groups = Object.fromEntries(DOWNLOAD_GROUPS.map((group) => [group, ZERO])) as Record<DownloadGroup, GroupTotals>
  const byState = statement<[], GroupTotals & { state: DownloadState }>(db, 'SELECT state, files, bytes, bytes_done AS bytesDone FROM download_totals').all()
  for (const { state, files, bytes, bytesDone } of byState) groups[state] = { files, bytes, bytesDone }
  if (interrupted.length > 0) {
    const stopped = statement<[string], GroupTotals>(
      db,
      `SELECT count(*) AS files, coalesce(sum(bytes_total), 0) AS bytes, coalesce(sum(bytes_done), 0) AS bytesDone
       FROM downloads WHERE state = 'downloading' AND id IN (SELECT value FROM json_each(?))`,
    ).get(JSON.stringify(interrupted))!
    const running = groups.downloading
    groups.interrupted = stopped
    groups.downloading = { files: running.files - stopped.files, bytes: running.bytes - stopped.bytes, bytesDone: running.bytesDone - stopped.bytesDone }
  }
  return groups
}

/** The queue in figures: each group's, and the batch's (migration 0010 keeps them); a few rows, whatever the queue's length. */
export function downloadSummary(db: Database, interrupted: readonly number[]): DownloadSummary {
  const groups = groupTotals(db, interrupted)
  const done = statement<[], { files: number; bytes: number }>(db, 'SELECT files, bytes FROM download_batch').get() ?? { files: 0, bytes: 0 }
  const pending = (['queued', 'downloading', 'paused'] as const).map((state) => stateTotals(groups, state))
  const sum = (key: keyof GroupTotals): number => pending.reduce((total, figures) => total + figures[key], 0)
  return {
    groups,
    batch: {
      files: sum('files') + done.files,
      filesDone: done.files,
      bytes: sum('bytes') + done.bytes,
      bytesDone: sum('bytesDone') + done.bytes,
      pending: sum('files'),
    },
  }
}

/** The totals of every download of a state, whichever group shows it. */
function stateTotals(groups: Record<DownloadGroup, GroupTotals>, state: DownloadState): GroupTotals {
  const parts = DOWNLOAD_GROUPS.filter((group) => stateOfGroup(group) === state).map((group) => groups[group])
  return parts.reduce((total, part) => ({ files: total.files + part.files, bytes: total.bytes + part.bytes, bytesDone: total.bytesDone + part.bytesDone }), ZERO)
}

/**
 * The download of each of these uploads that has one (the newest row, whatever its folder), as a
 * screen shows it: what an artist's page or What's new shows beside its tracks. By the upload index.
 */
export function downloadsOfUploads(db: Database, uploadIds: readonly string[], interrupted: readonly number[]): DownloadView[] {
  if (uploadIds.length === 0) return []
  const rows = statement<[string], Download>(
    db,
    `SELECT ${COLUMNS} FROM downloads
     WHERE id IN (SELECT max(id) FROM downloads WHERE upload_id IN (SELECT value FROM json_each(?)) GROUP BY upload_id)
     ORDER BY id`,
  ).all(JSON.stringify(uploadIds))
  const stopped = new Set(interrupted)
  return rows.map((row) => viewOf(shown(row), stopped))
}

/** Downloads by id, those there are, read together (a selection of thousands is a few queries, not thousands). */
export function getDownloads(db: Database, ids: readonly number[]): Map<number, Download> {
  const found = new Map<number, Download>()
  const read = statement<[string], Download>(db, `SELECT ${COLUMNS} FROM downloads WHERE id IN (SELECT value FROM json_each(?))`)
  for (let start = 0; start < ids.length; start += ID_CHUNK) {
    for (const row of read.all(JSON.stringify(ids.slice(start, start + ID_CHUNK)))) found.set(row.id, shown(row))
  }
  return found
}

/** Ids read together per query. */
const ID_CHUNK = 5000

/** The ids of the downloads of some groups now, each group in its order (a group by group walk of its index). */
export function idsOfGroups(db: Database, groups: readonly DownloadGroup[], interrupted: readonly number[]): number[] {
  const stopped = new Set(interrupted)
  const ids: number[] = []
  for (const group of DOWNLOAD_GROUPS.filter((each) => groups.includes(each))) {
    const ofState =
      group === 'completed'
        ? statement<[], number>(db, `SELECT id FROM downloads WHERE state = 'completed' ${NEWEST_FIRST}`).pluck().all()
        : statement<[string], number>(db, `SELECT id FROM downloads WHERE state = ? ${QUEUE_ORDER}`).pluck().all(stateOfGroup(group))
    for (const id of ofState) {
      if (group === 'downloading' ? !stopped.has(id) : group === 'interrupted' ? stopped.has(id) : true) ids.push(id)
    }
  }
  return ids
}

/** The first `limit` queued downloads, in queue order: what the scheduler starts next. */
export function nextQueued(db: Database, limit: number): Download[] {
  return statement<[number], Download>(db, `SELECT ${COLUMNS} FROM downloads WHERE state = 'queued' ORDER BY queue_order, id LIMIT ?`).all(limit).map(shown)
}

/** Every download row of an upload, newest first. */
export function downloadsOfUpload(db: Database, uploadId: string): Download[] {
  return statement<[string], Download>(db, `SELECT ${COLUMNS} FROM downloads WHERE upload_id = ? ORDER BY id DESC`).all(uploadId).map(shown)
}

/** Lets the downloads that wait for the network be plain queued ones again (the network is back); returns their ids. */
export function stopWaitingForNetwork(db: Database): number[] {
  return statement<[], number>(db, `UPDATE downloads SET error = NULL WHERE state = 'queued' AND error IS NOT NULL RETURNING id`).pluck().all()
}

/** Paused downloads waiting for disk space. */
export function pausedForSpace(db: Database): Download[] {
  return statement<[], Download>(db, `SELECT ${COLUMNS} FROM downloads WHERE state = 'paused' AND pause_reason = 'disk_full' ORDER BY id`).all().map(shown)
}

export interface StateFields {
  error?: string | null
  pauseReason?: PauseReason | null
  now: number
}

export function setState(db: Database, id: number, state: DownloadState, fields: StateFields): void {
  statement(
    db,
    `UPDATE downloads SET state = @state, error = @error, pause_reason = @pauseReason,
       started_at = CASE WHEN @state = 'downloading' THEN coalesce(started_at, @now) ELSE started_at END,
       finished_at = CASE WHEN @state IN ('completed', 'failed', 'cancelled') THEN @now ELSE NULL END
     WHERE id = @id`,
  ).run({ id, state, error: fields.error ?? null, pauseReason: state === 'paused' ? (fields.pauseReason ?? 'user') : null, now: fields.now })
}

/** Records progress, and counts the new bytes in this month's total. */
export function recordProgress(db: Database, id: number, bytesDone: number, newBytes: number, now: number): void {
  db.transaction(() => {
    statement(db, 'UPDATE downloads SET bytes_done = ? WHERE id = ?').run(bytesDone, id)
    countMonthBytes(db, newBytes, now)
  }).immediate()
}

/** Adds bytes to the total of the month (UTC) of now. */
function countMonthBytes(db: Database, bytes: number, now: number): void {
  if (bytes <= 0) return
  statement(
    db,
    `INSERT INTO download_months (month, bytes) VALUES (?, ?) ON CONFLICT (month) DO UPDATE SET bytes = bytes + excluded.bytes`,
  ).run(new Date(now).toISOString().slice(0, 7), bytes)
}

export function setValidator(db: Database, id: number, validator: string | null): void {
  statement(db, 'UPDATE downloads SET validator = ? WHERE id = ?').run(validator, id)
}

/** Marks a download complete with its hash and size, counting in this month's total the new bytes not yet recorded. */
export function completeDownload(db: Database, id: number, sha256: string, bytes: number, now: number, newBytes = 0): void {
  db.transaction(() => {
    statement(
      db,
      `UPDATE downloads SET state = 'completed', pause_reason = NULL, sha256 = ?, bytes_done = ?, error = NULL, finished_at = ? WHERE id = ?`,
    ).run(sha256, bytes, now, id)
    countMonthBytes(db, newBytes, now)
  }).immediate()
}

export function deleteDownloads(db: Database, ids: readonly number[]): void {
  const remove = statement(db, 'DELETE FROM downloads WHERE id = ?')
  db.transaction(() => {
    for (const id of ids) remove.run(id)
  }).immediate()
}

/** Bytes downloaded per calendar month (UTC), oldest first: `[{ month: '2026-11', bytes }]`. */
export function monthlyBytes(db: Database): { month: string; bytes: number }[] {
  return statement<[], { month: string; bytes: number }>(db, 'SELECT month, bytes FROM download_months ORDER BY month').all()
}

/** Every target path the queue knows, whatever the state. */
export function allTargets(db: Database): Set<string> {
  return new Set(statement<[], string>(db, 'SELECT target_path FROM downloads').pluck().all())
}

/** A row as it leaves the store: its address without user-info, whatever an older version stored. */
function shown(row: Download): Download {
  const url = withoutUserInfo(row.url)
  return url === row.url ? row : { ...row, url }
}

/**
 * Rewrites the addresses an older version stored with the base URL's password in
 * them; returns how many. The space they held is zeroed (secure_delete) and the
 * write-ahead log emptied, so the password is not left behind in the file either.
 */
export function forgetStoredCredentials(db: Database): number {
  const rows = statement<[], { id: number; url: string }>(db, `SELECT id, url FROM downloads WHERE url LIKE '%@%'`)
    .all()
    .filter((row) => withoutUserInfo(row.url) !== row.url)
  if (rows.length === 0) return 0
  const secureDelete = db.pragma('secure_delete', { simple: true }) as number
  db.pragma('secure_delete = ON')
  try {
    const update = statement(db, 'UPDATE downloads SET url = ? WHERE id = ?')
    db.transaction(() => {
      for (const row of rows) update.run(withoutUserInfo(row.url), row.id)
    }).immediate()
  } finally {
    db.pragma(`secure_delete = ${secureDelete === 2 ? 'FAST' : secureDelete}`)
  }
  db.pragma('wal_checkpoint(TRUNCATE)')
  return rows.length
}

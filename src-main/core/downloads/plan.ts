/**
 * Planning an enqueue: for each upload, what to do in the chosen folder. One
 * row per file: an upload already queued or complete there is left as it is,
 * one whose file is gone (or that failed, or was cancelled) is queued again in
 * its own row, and only an upload new to the folder gets a new row.
 */
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import type { Database } from 'better-sqlite3'
import { resolveServiceUrl } from '../shared/urls'
import { artistsNamedLike, getTrack } from '../db/artists'
import { allTargets, downloadFolder, downloadsOfUpload, insertDownload, requeueDownload, setState, type Download, type NewDownload } from '../db/downloads'
import { BadResponseError, NotFoundError } from '../shared/errors'
import { isInside } from '../files/contained-path'
import { artistFolderName, defaultRelativePath, deletablePart, freePath, partPathOf, resolveInside } from './file-names'
import type { DownloadRows } from './rows'
import { checkChange } from './states'

export type Plan =
  /** Queued, running, paused, or complete with its file intact: nothing to do. */
  | { kind: 'existing'; download: Download }
  /** Failed: queued again, keeping its partial file. */
  | { kind: 'retry'; download: Download }
  /** Complete with its file gone, or cancelled: the same row, from zero. */
  | { kind: 'requeue'; download: Download; row: NewDownload }
  | { kind: 'new'; row: NewDownload }

/**
 * What enqueueing uploadId into folder (a real path) means. `taken` holds the
 * target paths of every other row, and grows by the one chosen here. field: the
 * argument that named the upload, which a NotFoundError names (`uploadIds.2`).
 * `folders`: the artists' folders found so far (by username), looked up once per artist.
 * A row queued again keeps its target: the folders of downloads already made stay.
 */
export function planUpload(
  db: Database,
  uploadId: string,
  folder: string,
  baseUrl: string,
  taken: Set<string>,
  relocate: (url: string) => string = (url) => url,
  field = 'uploadId',
  folders = new Map<string, string>(),
): Plan {
  const track = getTrack(db, uploadId)
  if (!track) throw new NotFoundError(`no upload ${uploadId} in the cache; sync first`, { field })
  if (track.bytes === null || track.hotlinkPath === null) {
    throw new BadResponseError(`the catalogue gives no size or address for upload ${uploadId}`)
  }
  const rows = downloadsOfUpload(db, uploadId).filter((download) => isInside(folder, download.targetPath))
  for (const download of rows) {
    if (download.state === 'queued' || download.state === 'downloading' || download.state === 'paused') return { kind: 'existing', download }
    if (download.state === 'completed' && sizeOrNull(download.targetPath) === download.bytesTotal) return { kind: 'existing', download }
  }
  const reuse = rows[0]
  if (reuse?.state === 'failed') return { kind: 'retry', download: reuse }

  const url = relocate(resolveServiceUrl(track.hotlinkPath, baseUrl))
  const unused = (candidate: string): boolean => !fs.existsSync(candidate) && !fs.existsSync(partPathOf(candidate))
  const isFree = (candidate: string): boolean => !taken.has(candidate) && unused(candidate)
  // The row's own name (no other row has it), unless a file took it meanwhile; else the first free name.
  // A row that keeps its name keeps the folder it was queued into with it (its target is planned in that one).
  const kept = reuse && unused(reuse.targetPath) ? { target: reuse.targetPath, folder: downloadFolder(db, reuse.id) ?? folder } : undefined
  const target =
    kept?.target ?? freePath(resolveInside(folder, defaultRelativePath(artistFolderOf(db, track, folders), track.title, uploadId, track.ext)), isFree)
  taken.add(target)
  const row: NewDownload = {
    uploadId, artistUsername: track.artistUsername ?? '', title: track.title, url, targetPath: target, folder: kept?.folder ?? folder, bytesTotal: track.bytes,
  }
  return reuse ? { kind: 'requeue', download: reuse, row } : { kind: 'new', row }
}

/** The folder of a track's artist, told apart from other artists of the same name (file-names.ts). */
function artistFolderOf(db: Database, track: { artistName: string; artistUsername: string | null }, folders: Map<string, string>): string {
  const username = track.artistUsername ?? ''
  let found = folders.get(username)
  if (found === undefined) {
    found = artistFolderName(track.artistName, username, artistsNamedLike(db, track.artistName.trim() === '' ? username : track.artistName))
    folders.set(username, found)
  }
  return found
}

/** The plans of queuing uploads into a folder, with the folder's real path and the bytes they still need. */
export interface PlannedUploads {
  root: string
  plans: Plan[]
  bytes: number
}

/** What queuing uploads (each once) into folder means, in the folder's real path. */
export async function planUploads(
  db: Database,
  uploadIds: readonly string[],
  folder: string,
  baseUrl: string,
  relocate?: (url: string) => string,
): Promise<PlannedUploads> {
  const root = await fsp.realpath(folder)
  const taken = allTargets(db)
  // Each upload's first place in the list, for the field an error names (an indexOf per upload was quadratic).
  const firstIndex = new Map<string, number>()
  uploadIds.forEach((uploadId, index) => {
    if (!firstIndex.has(uploadId)) firstIndex.set(uploadId, index)
  })
  const folders = new Map<string, string>()
  const plans = [...firstIndex].map(([uploadId, index]) => planUpload(db, uploadId, root, baseUrl, taken, relocate, `uploadIds.${index}`, folders))
  return { root, plans, bytes: plans.reduce((sum, plan) => sum + bytesNeeded(plan), 0) }
}

/** Carries a plan out (in the caller's transaction): the download as it is then. */
export function applyPlan(db: Database, plan: Plan, rows: DownloadRows, now: () => number): Download {
  switch (plan.kind) {
    case 'existing':
      return plan.download
    case 'retry':
      checkChange(plan.download.id, plan.download.state, 'queued')
      setState(db, plan.download.id, 'queued', { now: now() })
      return rows.require(plan.download.id)
    case 'requeue':
      checkChange(plan.download.id, plan.download.state, 'queued')
      return requeueDownload(db, plan.download.id, plan.row, now())
    case 'new':
      return insertDownload(db, plan.row, now())
  }
}

/**
 * Queues a download again from zero, in its own row and file name (in the caller's transaction):
 * a completed one whose file is gone.
 */
export function requeueFromZero(db: Database, download: Download, rows: DownloadRows, now: () => number): void {
  checkChange(download.id, rows.require(download.id).state, 'queued')
  // A partial file left by an older run is not this file's beginning: it goes first.
  const folder = downloadFolder(db, download.id) ?? ''
  const part = deletablePart(folder, download.targetPath)
  if (part !== undefined) fs.rmSync(part, { force: true })
  const { uploadId, artistUsername, title, url, targetPath, bytesTotal } = download
  requeueDownload(db, download.id, { uploadId, artistUsername, title, url, targetPath, folder, bytesTotal }, now())
}

/** The bytes a plan still has to download. */
export function bytesNeeded(plan: Plan): number {
  if (plan.kind === 'existing') return 0
  if (plan.kind === 'retry') return Math.max(0, plan.download.bytesTotal - (sizeOrNull(partPathOf(plan.download.targetPath)) ?? 0))
  return plan.row.bytesTotal
}

export function sizeOrNull(file: string): number | null {
  try {
    return fs.statSync(file).size
  } catch {
    return null
  }
}

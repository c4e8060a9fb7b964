/**
 * Planning an enqueue: for each upload, what to do in the chosen folder. One
 * row per file: an upload already queued or complete there is left as it is,
 * one whose file is gone (or that failed, or was cancelled) is queued again in
 * its own row, and only an upload new to the folder gets a new row.
 */
import fs from 'node:fs'
import type { Database } from 'better-sqlite3'
import { resolveServiceUrl } from '../shared/urls'
import { getTrack } from '../db/artists'
import { downloadsOfUpload, type Download, type NewDownload } from '../db/downloads'
import { BadResponseError, NotFoundError } from '../shared/errors'
import { isInside } from '../contained-path'
import { defaultRelativePath, freePath, partPathOf, resolveInside } from './file-names'

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
 * target paths of every other row, and grows by the one chosen here.
 */
export function planUpload(
  db: Database,
  uploadId: string,
  folder: string,
  baseUrl: string,
  taken: Set<string>,
  relocate: (url: string) => string = (url) => url,
): Plan {
  const track = getTrack(db, uploadId)
  if (!track) throw new NotFoundError(`no upload ${uploadId} in the cache; sync first`)
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
  const target =
    reuse && unused(reuse.targetPath)
      ? reuse.targetPath
      : freePath(resolveInside(folder, defaultRelativePath(track.artistName, track.title, uploadId, track.ext)), isFree)
  taken.add(target)
  const row: NewDownload = { uploadId, artistUsername: track.artistUsername ?? '', title: track.title, url, targetPath: target, bytesTotal: track.bytes }
  return reuse ? { kind: 'requeue', download: reuse, row } : { kind: 'new', row }
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

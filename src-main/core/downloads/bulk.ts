/**
 * The actions on a list of downloads apply to each one that allows them and
 * skip the others, saying why: a queue moves on while the user chooses, and
 * "cancel these 400" must not be refused because one of them completed
 * meanwhile. An action on one id alone fails with its reason instead. The
 * table of what each action needs is shared/download-actions.ts.
 */
import type { Database } from 'better-sqlite3'
import * as store from '../db/downloads'
import { allowsAction, DOWNLOAD_ACTIONS, refusalOf, type QueueAction } from '../shared/download-actions'
import { InvalidArgumentError, NotFoundError } from '../shared/errors'
import type { Download, DownloadActionResult, DownloadSelection, SkippedDownload } from '../shared/types'

/** One download named alone: an action on it fails with its reason rather than skipping it. */
export function isSingle(ids: readonly number[]): boolean {
  return new Set(ids).size === 1
}

/**
 * The ids a selection names, and whether it names one alone. A selection of groups is
 * resolved here, in the queue's own thread, as the queue is when the action comes: every
 * download of those groups (in queue order), but those excepted, and the ids besides. It
 * is never "one alone": a group that holds one download is skipped over like any list.
 */
export function resolveSelection(db: Database, selection: DownloadSelection, interrupted: readonly number[]): { ids: number[]; strict: boolean } {
  if (Array.isArray(selection)) return { ids: selection, strict: isSingle(selection) }
  const except = new Set(selection.except ?? [])
  const ids = store.idsOfGroups(db, selection.groups, interrupted).filter((id) => !except.has(id))
  const named = new Set(ids)
  // The ids besides are the user's own picks: named whatever the groups' exceptions say.
  for (const id of selection.ids ?? []) if (!named.has(id)) ids.push(id)
  return { ids, strict: false }
}

const gone = (id: number): SkippedDownload => ({ id, state: null, reason: `no download ${id}: it was removed` })

/**
 * The downloads of ids that allow action now, and those it skips, each with why (its
 * state, or `also`'s reason). `strict` (one id alone): the reason is thrown instead.
 */
export function sortForAction(
  db: Database,
  action: QueueAction,
  ids: readonly number[],
  strict: boolean,
  also: (download: Download) => string | null = () => null,
): { downloads: Download[]; skipped: SkippedDownload[] } {
  const downloads: Download[] = []
  const skipped: SkippedDownload[] = []
  const unique = [...new Set(ids)]
  const found = store.getDownloads(db, unique)
  for (const id of unique) {
    const download = found.get(id)
    if (!download) {
      if (strict) throw new NotFoundError(`no download ${id}`)
      skipped.push(gone(id))
      continue
    }
    const reason = allowsAction(action, download.state) ? also(download) : refusalOf(action, id, download.state)
    if (reason === null) downloads.push(download)
    else if (strict) throw new InvalidArgumentError(reason, { field: 'ids' })
    else skipped.push({ id, state: download.state, reason })
  }
  return { downloads, skipped }
}

/**
 * What an action that waits for transfers to stop did: each download is where the action
 * leaves it, or moved on first (a transfer that completed as it was being paused) and is skipped.
 */
export function outcomeOf(db: Database, action: 'pause' | 'cancel', downloads: readonly Download[], skipped: SkippedDownload[]): DownloadActionResult {
  const changed: number[] = []
  const found = store.getDownloads(
    db,
    downloads.map((download) => download.id),
  )
  for (const download of downloads) {
    const now = found.get(download.id)
    if (now?.state === DOWNLOAD_ACTIONS[action].to) changed.push(download.id)
    else if (now) skipped.push({ id: download.id, state: now.state, reason: refusalOf(action, download.id, now.state) })
    else skipped.push(gone(download.id))
  }
  return { changed, skipped }
}

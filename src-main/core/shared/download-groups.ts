/**
 * The groups the queue is shown in (the downloads screen's sections, and what a
 * selection of "all" names): a download's state, with "interrupted" apart from
 * "downloading" (a download that says so though nothing transfers it: the
 * queue knows which, not the cache). One home for the core, which counts and
 * pages them and resolves a selection of groups, and the window. Free of Node.
 */
import type { DownloadState } from './catalogue'

/** The groups, in the order the screen shows them. */
export const DOWNLOAD_GROUPS = Object.freeze(['downloading', 'queued', 'paused', 'interrupted', 'failed', 'completed', 'cancelled'] as const)
export type DownloadGroup = (typeof DOWNLOAD_GROUPS)[number]

/** The state of every download of a group. */
export function stateOfGroup(group: DownloadGroup): DownloadState {
  return group === 'interrupted' ? 'downloading' : group
}

/** The group a download is shown in. */
export function groupOfDownload(download: { state: DownloadState; interrupted: boolean }): DownloadGroup {
  return download.state === 'downloading' && download.interrupted ? 'interrupted' : download.state
}

/** What a row's place within its group is made of. */
export type Ordered = { id: number; state: DownloadState; queueOrder: number; finishedAt: number | null }

/**
 * The order of the rows of a group. Completed downloads: newest first, by when each finished
 * (ties, the later id first; one with no time, left by an old version, last), as download managers
 * (Motrix, gPodder) list finished files: what just came is on top. Every other group: queue order,
 * the order the queue starts them in (queue_order, then id). A total order over every row (those
 * not completed before the completed ones), so rows of several groups sort together. The core reads
 * pages in this order (db/downloads.ts, `GROUP_ORDER`); the window places rows by it (stores/download-pages.ts).
 */
export function compareInGroup(a: Ordered, b: Ordered): number {
  const aDone = a.state === 'completed'
  const bDone = b.state === 'completed'
  if (aDone !== bDone) return aDone ? 1 : -1
  if (!aDone) return a.queueOrder - b.queueOrder || a.id - b.id
  if (a.finishedAt !== b.finishedAt) {
    if (a.finishedAt === null) return 1
    if (b.finishedAt === null) return -1
    return b.finishedAt - a.finishedAt
  }
  return b.id - a.id
}

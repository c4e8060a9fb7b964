/**
 * New tracks of followed artists, as the library offers them: what a sync brought them (the
 * notification's summary) and auto-download, which queues the new tracks of the artists followed
 * with auto-download on through the one enqueue path of the downloads (the folder checks and the
 * disk-space check apply, and a refusal is the caller's to report).
 *
 * Auto-download is bounded: of each artist, one sync queues at most the settings' number of
 * tracks and bytes, newest first. The rest is held back (db/new-tracks.ts), told with the run's
 * new tracks and in What's new, and queued only when the user asks (downloadHeldBack): a flood
 * of thousands of uploads must not become thousands of files without a word.
 */
import type { Database } from 'better-sqlite3'
import {
  autoDownloadTracks, heldBackSummary, heldBackUploads, holdBack, markAutoEnqueued, newTracksOfRun, type AutoDownloadTrack,
} from '../db/new-tracks'
import { guard, guardAsync } from '../shared/errors'
import type { Download, HeldBack, NewTracksSummary } from '../shared/types'
export type { AutoDownloadTrack } from '../db/new-tracks'

export interface NewTracksApi {
  /** The new tracks of followed artists that a sync run brought, by artist (none for a run that filled an empty cache), and what is held back. */
  ofRun(runId: number): NewTracksSummary
  /** What auto-download would look at now (before its limits). */
  pending(): AutoDownloadTrack[]
  /**
   * Queues the new tracks of artists followed with auto-download on that were never queued, into
   * folder (else the download folder of the settings), within the limits per artist; holds back
   * the rest. Nothing queued: folder null. heldBack: all that is held back now, if any.
   */
  autoDownload(folder?: string): Promise<{ downloads: Download[]; folder: string | null; heldBack?: HeldBack }>
  /** What auto-download held back, waiting for the user; undefined when nothing is. */
  heldBack(): HeldBack | undefined
  /** The one action for what was held back: queues all of it (folder null when there was none). */
  downloadHeldBack(folder?: string): Promise<{ downloads: Download[]; folder: string | null }>
}

/** What auto-download needs of the downloads: their enqueue. */
interface Enqueue {
  enqueue(request: { uploadIds: string[]; folder?: string | undefined }): Promise<{ downloads: Download[]; folder: string }>
}

/** How much of one artist one sync may queue (the settings). */
export interface AutoDownloadLimits {
  autoDownloadMaxTracks: number
  autoDownloadMaxBytes: number
}

/**
 * Splits the tracks (oldest first, as autoDownloadTracks gives them) into what is queued and what
 * is held back: of each artist, the newest first while they fit both limits; one that does not
 * fit is passed over, and an older, smaller one may still fit. Each part keeps the order they came.
 */
export function withinLimits(tracks: readonly AutoDownloadTrack[], limits: AutoDownloadLimits): { queue: AutoDownloadTrack[]; hold: AutoDownloadTrack[] } {
  const taken = new Map<string, { count: number; bytes: number }>()
  const queued = new Set<AutoDownloadTrack>()
  for (const track of [...tracks].reverse()) {
    const artist = taken.get(track.username) ?? { count: 0, bytes: 0 }
    if (artist.count < limits.autoDownloadMaxTracks && artist.bytes + track.bytes <= limits.autoDownloadMaxBytes) {
      taken.set(track.username, { count: artist.count + 1, bytes: artist.bytes + track.bytes })
      queued.add(track)
    }
  }
  return { queue: tracks.filter((track) => queued.has(track)), hold: tracks.filter((track) => !queued.has(track)) }
}

export function newTracksApi(db: Database, downloads: Enqueue, limits: () => AutoDownloadLimits, now: () => number): NewTracksApi {
  return {
    ofRun: (runId) =>
      guard(() => {
        const heldBack = heldBackSummary(db)
        return { ...newTracksOfRun(db, runId), ...(heldBack && { heldBack }) }
      }),
    pending: () => guard(() => autoDownloadTracks(db)),
    autoDownload: (folder) =>
      guardAsync(async () => {
        const { queue, hold } = withinLimits(autoDownloadTracks(db), limits())
        let queued: { downloads: Download[]; folder: string | null } = { downloads: [], folder: null }
        if (queue.length > 0) {
          queued = await downloads.enqueue({ uploadIds: queue.map((track) => track.uploadId), folder })
          markAutoEnqueued(db, queued.downloads.map((download) => download.uploadId))
        }
        // Held only once the rest was queued: a refused queue leaves everything for the next try.
        if (hold.length > 0) holdBack(db, hold.map((track) => track.uploadId), now())
        const heldBack = heldBackSummary(db)
        return { ...queued, ...(heldBack && { heldBack }) }
      }),
    heldBack: () => guard(() => heldBackSummary(db)),
    downloadHeldBack: (folder) =>
      guardAsync(async () => {
        const uploadIds = heldBackUploads(db)
        if (uploadIds.length === 0) return { downloads: [], folder: null }
        // The queue's own path: its checks apply, and each upload is recorded as queued, held no more.
        return downloads.enqueue({ uploadIds, folder })
      }),
  }
}

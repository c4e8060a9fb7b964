/**
 * New tracks of followed artists, as the library offers them: what a sync brought them (the
 * notification's summary) and auto-download, which queues the new tracks of the artists followed
 * with auto-download on through the one enqueue path of the downloads (the folder checks and the
 * disk-space check apply, and a refusal is the caller's to report).
 */
import type { Database } from 'better-sqlite3'
import { autoDownloadTracks, markAutoEnqueued, newTracksOfRun, type AutoDownloadTrack } from '../db/new-tracks'
import { guard, guardAsync } from '../shared/errors'
import type { Download, NewTracksSummary } from '../shared/types'
export type { AutoDownloadTrack } from '../db/new-tracks'

export interface NewTracksApi {
  /** The new tracks of followed artists that a sync run brought, by artist (none for a run that filled an empty cache). */
  ofRun(runId: number): NewTracksSummary
  /** What auto-download would queue now. */
  pending(): AutoDownloadTrack[]
  /**
   * Queues the new tracks of artists followed with auto-download on that were never queued, into
   * folder (else the download folder of the settings). Nothing to queue: no downloads, folder null.
   */
  autoDownload(folder?: string): Promise<{ downloads: Download[]; folder: string | null }>
}

/** What auto-download needs of the downloads: their enqueue. */
interface Enqueue {
  enqueue(request: { uploadIds: string[]; folder?: string | undefined }): Promise<{ downloads: Download[]; folder: string }>
}

export function newTracksApi(db: Database, downloads: Enqueue): NewTracksApi {
  return {
    ofRun: (runId) => guard(() => newTracksOfRun(db, runId)),
    pending: () => guard(() => autoDownloadTracks(db)),
    autoDownload: (folder) =>
      guardAsync(async () => {
        const tracks = autoDownloadTracks(db)
        if (tracks.length === 0) return { downloads: [], folder: null }
        const queued = await downloads.enqueue({ uploadIds: tracks.map((track) => track.uploadId), folder })
        markAutoEnqueued(db, queued.downloads.map((download) => download.uploadId))
        return queued
      }),
  }
}

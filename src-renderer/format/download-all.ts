/**
 * What the artist screen says beside "Download all": what queuing every track
 * would take against the room on disk, and which access level holds the
 * artist's uploads. Each sentence says what fits what, never a bare "fits".
 */
import { formatBytes } from '@shared/format'
import type { TierFit } from '@shared/tiers'
import type { DownloadEstimate } from '@shared/types'

export interface DownloadVerdict {
  /** False when the files need more room than is free: "Download all" is then refused. */
  fits: boolean
  /** Nothing is left to fetch: every track is downloaded or on its way. */
  done: boolean
  /** Still being worked out: the text says so, and gives no verdict. */
  working?: boolean
  text: string
}

/** What "Download all" would take on an artist's page, as the artist store has it (stores/artist.ts, DownloadAllState). */
export type ArtistDownloadState =
  | { kind: 'working' }
  | { kind: 'queued'; files: number; bytes: number }
  | { kind: 'estimate'; estimate: DownloadEstimate | null }

const files = (count: number): string => (count === 1 ? '1 file' : `${count.toLocaleString('en')} files`)

/** The free-space check in words; without an estimate, the size of every track together. */
export function downloadVerdict(estimate: DownloadEstimate | null, totalBytes: number): DownloadVerdict {
  if (!estimate) return { fits: true, done: false, text: `${formatBytes(totalBytes)} in all` }
  if (estimate.files === 0) return { fits: true, done: true, text: 'Everything is downloaded or queued' }
  const needs = `${files(estimate.files)}, ${formatBytes(estimate.bytes)}`
  return estimate.fits
    ? { fits: true, done: false, text: `${needs}: fits in the ${formatBytes(estimate.freeBytes)} free on disk` }
    : { fits: false, done: false, text: `${needs}: only ${formatBytes(estimate.freeBytes)} free on disk` }
}

/**
 * The artist page's verdict: none while it is worked out (the tracks just came in, downloads changed);
 * right after "Download all", what it queued; else the free-space check.
 */
export function artistDownloadVerdict(state: ArtistDownloadState, totalBytes: number): DownloadVerdict {
  switch (state.kind) {
    case 'working':
      return { fits: true, done: false, working: true, text: 'Working out what is left to download…' }
    case 'queued':
      return state.files === 0
        ? downloadVerdict({ files: 0, bytes: 0, freeBytes: 0, fits: true }, totalBytes)
        : { fits: true, done: true, text: `${files(state.files)} queued, ${formatBytes(state.bytes)}` }
    case 'estimate':
      return downloadVerdict(state.estimate, totalBytes)
  }
}

/**
 * The same check for What's new's "Download all new" (every track listed that is neither
 * downloaded nor on its way): with none missing there is nothing to do, whatever the estimate says.
 */
export function downloadNewVerdict(count: number, estimate: DownloadEstimate | null, totalBytes: number): DownloadVerdict {
  return count === 0 ? { fits: true, done: true, text: 'Everything new is downloaded or queued' } : downloadVerdict(estimate, totalBytes)
}

/**
 * The cheapest tier whose limits hold the artist's uploads (its largest file under the level's
 * file size limit, all of them within its storage), for the link to Tiers; null while no level is known.
 */
export function tierVerdict(fits: readonly TierFit[] | null, cheapest: TierFit | undefined): string | null {
  if (!fits || fits.length === 0) return null
  return cheapest ? `Fits the ${cheapest.level.name} tier's limits` : "Too large for every tier's limits"
}

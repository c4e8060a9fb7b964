/**
 * The catalogue's vocabulary, one home for each name: sort orders, the kinds of
 * artist, access levels and download states. Shared with the renderer, so it
 * imports neither Node nor Electron.
 */

/** The service's sort orders, in the order the interface lists them (trending is its default). */
export const SORT_ORDERS = Object.freeze(['trending', 'top', 'recently_created', 'recently_updated'] as const)
export type SortOrder = (typeof SORT_ORDERS)[number]

/** The list filter on podcasters: everyone, podcasters only (is_podcaster=1) or musicians only (is_podcaster=0). */
export const ARTIST_KINDS = Object.freeze(['all', 'podcasts', 'musicians'] as const)
export type ArtistKind = (typeof ARTIST_KINDS)[number]

/** What a list of artists may be narrowed to: the artists followed, or those with at least one downloaded track. */
export const ARTIST_ONLY = Object.freeze(['following', 'downloaded'] as const)
export type ArtistOnly = (typeof ARTIST_ONLY)[number]

/** An account tier: maxsize in MB, price in USD per month, bandwidth in GB per month, storage in GB. */
export interface AccessLevel {
  id: number
  name: string
  maxsize: number
  price: number
  bandwidth: number
  storage: number
}

/** The life of a download; see downloads/states.ts for the changes allowed between them. */
export const DOWNLOAD_STATES = Object.freeze(['queued', 'downloading', 'paused', 'completed', 'failed', 'cancelled'] as const)
export type DownloadState = (typeof DOWNLOAD_STATES)[number]

/** Why a download is paused: the user asked, or the disk filled (the queue then waits for space). */
export const PAUSE_REASONS = Object.freeze(['user', 'disk_full'] as const)
export type PauseReason = (typeof PAUSE_REASONS)[number]

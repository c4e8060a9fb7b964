/**
 * Which access levels an artist's uploads fit: the largest upload against each
 * level's maximum file size, the total against its storage. Shared with the
 * renderer, so it imports neither Node nor Electron.
 */
import type { AccessLevel } from './catalogue'

const MB = 1000 * 1000
const GB = 1000 * MB

/** One level's verdict for one artist. */
export interface TierFit {
  level: AccessLevel
  /** The largest upload in bytes, and whether it is within the level's maxsize. */
  largestBytes: number
  maxFileBytes: number
  fitsFileSize: boolean
  /** All uploads together, and whether they are within the level's storage. */
  totalBytes: number
  storageBytes: number
  fitsStorage: boolean
  fits: boolean
}

/**
 * The fit of every level, in their order. The service gives maxsize in MB and
 * storage in GB; they are read as decimal units (1 MB = 10^6 bytes), the way
 * storage is sold. Uploads of unknown size count as 0.
 */
export function tierFits(levels: readonly AccessLevel[], uploadBytes: readonly (number | null)[]): TierFit[] {
  const sizes = uploadBytes.map((bytes) => bytes ?? 0)
  const largestBytes = sizes.reduce((largest, bytes) => Math.max(largest, bytes), 0)
  const totalBytes = sizes.reduce((sum, bytes) => sum + bytes, 0)
  return levels.map((level) => {
    const maxFileBytes = level.maxsize * MB
    const storageBytes = level.storage * GB
    const fitsFileSize = largestBytes <= maxFileBytes
    const fitsStorage = totalBytes <= storageBytes
    return { level, largestBytes, maxFileBytes, fitsFileSize, totalBytes, storageBytes, fitsStorage, fits: fitsFileSize && fitsStorage }
  })
}

/** The cheapest level that fits, if any does. */
export function cheapestFit(fits: readonly TierFit[]): TierFit | undefined {
  return [...fits].filter((fit) => fit.fits).sort((a, b) => a.level.price - b.level.price || a.level.id - b.level.id)[0]
}

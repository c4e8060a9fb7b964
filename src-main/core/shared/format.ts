/**
 * Formatting that the renderer can share with the main process: no Node, no
 * Electron, no DOM in this folder.
 */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const

/** Bytes in binary units with one decimal from KB up, e.g. 1536 → "1.5 KB". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '—'
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`
}

/** The calendar date of an ISO 8601 timestamp as written (its own offset), e.g. "2014-03-07". */
export function formatDate(timestamp: string | null | undefined): string {
  if (!timestamp) return '—'
  const match = /^(\d{4}-\d\d-\d\d)/.exec(timestamp)
  return match ? match[1]! : timestamp
}

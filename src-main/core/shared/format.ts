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

/** A speed in bytes per second, e.g. "1.2 MB/s"; an unknown one is "—". */
export function formatSpeed(bytesPerSecond: number | null | undefined): string {
  if (bytesPerSecond === null || bytesPerSecond === undefined || !Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return '—'
  return `${formatBytes(Math.round(bytesPerSecond))}/s`
}

/** A duration in seconds, short: "45 s", "3 min", "1 h 20 min"; an unknown one is "—". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—'
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`
}

/** How long ago a time was (ms since the epoch), e.g. "just now", "5 minutes ago", "3 days ago". */
export function formatAge(then: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000))
  if (seconds < 45) return 'just now'
  const units: [number, string][] = [
    [60, 'minute'],
    [60 * 60, 'hour'],
    [24 * 60 * 60, 'day'],
    [30 * 24 * 60 * 60, 'month'],
    [365 * 24 * 60 * 60, 'year'],
  ]
  let [size, name] = units[0]!
  for (const unit of units) if (seconds >= unit[0]) [size, name] = unit
  const count = Math.max(1, Math.round(seconds / size))
  return `${count} ${name}${count === 1 ? '' : 's'} ago`
}

/** A size given in decimal megabytes, as the access levels are: "100 MB", "4 GB", "1 TB". */
export function formatMegabytes(megabytes: number): string {
  if (megabytes >= 1_000_000 && megabytes % 1_000_000 === 0) return `${megabytes / 1_000_000} TB`
  if (megabytes >= 1000 && megabytes % 1000 === 0) return `${megabytes / 1000} GB`
  return `${megabytes.toLocaleString('en')} MB`
}

/** A size given in decimal gigabytes: "30 GB", "1 TB". */
export function formatGigabytes(gigabytes: number): string {
  return gigabytes >= 1000 && gigabytes % 1000 === 0 ? `${gigabytes / 1000} TB` : `${gigabytes.toLocaleString('en')} GB`
}

/** The local calendar date of an ISO 8601 timestamp, as the user's locale writes dates; "—" when unknown. */
export function formatLocalDate(timestamp: string | null | undefined, locale?: string): string {
  if (!timestamp) return '—'
  const date = new Date(timestamp)
  if (Number.isNaN(date.getTime())) return formatDate(timestamp)
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' }).format(date)
}

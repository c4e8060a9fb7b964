/**
 * Formatting that the renderer can share with the main process: no Node, no
 * Electron, no DOM in this folder.
 */

/**
 * Sizes are in decimal units everywhere (1 kB = 1,000 bytes, 1 MB = 1,000 kB, 1 GB = 1,000 MB):
 * the service sells its access levels in them, so a file's size, a month's downloads and a
 * level's limit read in one system, on every screen and in the CLI.
 */
const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const
export type ByteUnit = (typeof UNITS)[number]

/** One formatter for every figure: toLocaleString makes one per call, and a screen of rows writes hundreds of sizes. */
const FIGURES = new Intl.NumberFormat('en')

export interface ByteFormat {
  /**
   * Figures in this unit from one of it up (smaller ones in their own), so a figure reads against
   * a limit given in it: "4,295 MB of 4,096 MB", not "4.29 GB of 4,096 MB".
   */
  unit?: ByteUnit
  /** A limit, written exactly: in the largest unit it is a whole number of ("4,096 MB", "4 GB", "1 TB"). */
  exact?: boolean
}

/**
 * Bytes in decimal units, to three significant figures without trailing zeros: 999 → "999 B",
 * 1500 → "1.5 kB", 108_000_000 → "108 MB", 4_294_967_296 → "4.29 GB", 2e9 → "2 GB"; "—" for
 * what is not a size.
 */
export function formatBytes(bytes: number | null | undefined, format: ByteFormat = {}): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '—'
  if (format.exact && Number.isInteger(bytes)) {
    let unit = 0
    while (unit < UNITS.length - 1 && bytes >= 1000 ** (unit + 1) && bytes % 1000 ** (unit + 1) === 0) unit++
    return `${FIGURES.format(bytes / 1000 ** unit)} ${UNITS[unit]}`
  }
  const fixed = format.unit === undefined ? -1 : UNITS.indexOf(format.unit)
  let unit = 0
  if (fixed > 0 && bytes >= 1000 ** fixed) unit = fixed
  // The next unit once the figure rounds to 1,000 or more: 999,999 bytes are "1 MB", not "1,000 kB".
  else while (unit < UNITS.length - 1 && rounded(bytes / 1000 ** unit) >= 1000) unit++
  return `${FIGURES.format(unit === 0 ? Math.round(bytes) : rounded(bytes / 1000 ** unit))} ${UNITS[unit]}`
}

/** Three significant figures under 100 (12.3, 1.23), whole numbers from 100 up. */
function rounded(value: number): number {
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
  return Number(value.toFixed(digits))
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

/** The local calendar date of an ISO 8601 timestamp, as the user's locale writes dates; "—" when unknown. */
export function formatLocalDate(timestamp: string | null | undefined, locale?: string): string {
  if (!timestamp) return '—'
  const date = new Date(timestamp)
  if (Number.isNaN(date.getTime())) return formatDate(timestamp)
  return localDateFormat(locale).format(date)
}

/** A formatter per locale, made once: making one costs more than formatting a thousand dates with it. */
const localDateFormats = new Map<string | undefined, Intl.DateTimeFormat>()
function localDateFormat(locale: string | undefined): Intl.DateTimeFormat {
  let format = localDateFormats.get(locale)
  if (!format) localDateFormats.set(locale, (format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' })))
  return format
}

/**
 * Figures of the tiers screen in the service's own units: decimal megabytes and
 * gigabytes (1 MB = 1,000,000 bytes), as its access levels are sold, so an
 * upload's size reads against a level's limit without a second unit in between.
 */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const

/** Bytes in decimal units with three significant figures: 8388608 → "8.39 MB", 2e9 → "2 GB". */
export function formatDecimalBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—'
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000
    unit++
  }
  if (unit === 0) return `${value} B`
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
  // Trailing zeros go: "2 GB", not "2.00 GB".
  return `${Number(value.toFixed(digits)).toLocaleString('en')} ${UNITS[unit]}`
}

/**
 * Bytes against a limit the level gives in megabytes: in megabytes too from 1 MB up, so the two
 * read side by side ("4,295 MB of 4,096 MB", not "4.29 GB of 4,096 MB"); smaller ones as they come.
 */
export function formatAsMegabytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1_000_000) return formatDecimalBytes(bytes)
  const megabytes = bytes / 1_000_000
  const digits = megabytes >= 100 ? 0 : megabytes >= 10 ? 1 : 2
  return `${Number(megabytes.toFixed(digits)).toLocaleString('en')} MB`
}

/** A level's price per month in US dollars: "$0", "$8", "$8.50". */
export function formatPrice(price: number): string {
  const whole = Number.isInteger(price)
  return new Intl.NumberFormat('en', { style: 'currency', currency: 'USD', minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 }).format(price)
}

/** How much of a limit a figure takes, for people: "under 0.1%", "0.4%", "37%", and past the limit its real share, "250%". */
export function formatShare(value: number, max: number): string {
  if (max <= 0) return value > 0 ? 'over the limit' : '0%'
  const percent = (value / max) * 100
  if (percent === 0) return '0%'
  if (percent < 0.1) return 'under 0.1%'
  return `${percent < 10 ? Number(percent.toFixed(1)) : Math.round(percent)}%`
}

/** "2026-11" as its month's name: "November 2026". */
export function formatMonth(month: string): string {
  const match = /^(\d{4})-(\d\d)$/.exec(month)
  if (!match) return month
  return new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1))
}

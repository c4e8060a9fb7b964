/**
 * Figures of the tiers screen other than sizes (those are formatBytes' from
 * `@shared/format`, in the service's decimal units): a level's price, a share
 * of a limit, and the month the downloads are counted in.
 */

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

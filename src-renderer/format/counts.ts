/**
 * Counts as the screens write them: "1 download", "1,204 downloads" in the
 * user's locale, "— downloads" when the catalogue does not say.
 */

/** One formatter for every count (toLocaleString makes one per call, and a long list has thousands). */
const NUMBERS = new Intl.NumberFormat()

/** A count as the screens write it: "1,204". */
export function formatNumber(value: number): string {
  return NUMBERS.format(value)
}

/** "1 track", "12 tracks", "— tracks" for an unknown count. */
export function formatCount(value: number | null, one: string, many: string): string {
  return value === null ? `— ${many}` : `${NUMBERS.format(value)} ${value === 1 ? one : many}`
}

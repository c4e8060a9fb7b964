/**
 * The download speed limit as the Settings screen offers it: a few usual limits,
 * or one of the user's own in kB/s. Units are decimal, as every size the app shows
 * (@shared/format: 1 MB/s is 1,000,000 bytes a second).
 */
import { formatSpeed } from '@shared/format'
import { SETTING_LIMITS } from '@shared/setting-limits'

export const SPEED_LIMIT_PRESETS: readonly { label: string; bytesPerSecond: number | null }[] = [
  { label: 'No limit', bytesPerSecond: null },
  { label: '256 kB/s', bytesPerSecond: 256_000 },
  { label: '1 MB/s', bytesPerSecond: 1_000_000 },
  { label: '5 MB/s', bytesPerSecond: 5_000_000 },
  { label: '10 MB/s', bytesPerSecond: 10_000_000 },
]

/** The smallest and largest limit of one's own, in kB/s: the core's bounds (bytes a second) in thousands. */
export const CUSTOM_KB_RANGE = Object.freeze({
  min: SETTING_LIMITS.downloadSpeedLimit.min / 1000,
  max: SETTING_LIMITS.downloadSpeedLimit.max / 1000,
})

/** The preset a limit is, or 'custom'. */
export function presetOf(bytesPerSecond: number | null): number | null | 'custom' {
  return SPEED_LIMIT_PRESETS.some((preset) => preset.bytesPerSecond === bytesPerSecond) ? bytesPerSecond : 'custom'
}

/** "No limit", or the limit as a speed ("1 MB/s"). */
export function describeSpeedLimit(bytesPerSecond: number | null): string {
  return bytesPerSecond === null ? 'No limit' : formatSpeed(bytesPerSecond)
}

/**
 * The bounds of the numeric settings, one home for each: the schemas the core
 * checks with (arguments.ts), the façade and the CLI, and the Settings screen's
 * fields all read them, so a field never offers what the core refuses. Shared
 * with the renderer, so it imports nothing.
 */
export const SETTING_LIMITS = Object.freeze({
  /** Requests in flight to the service at once during a sync. */
  syncConcurrency: Object.freeze({ min: 1, max: 16 }),
  /** Downloads at once. */
  downloadConcurrency: Object.freeze({ min: 1, max: 8 }),
  /** The download speed limit, in bytes per second (1 kB/s to 10 GB/s). */
  downloadSpeedLimit: Object.freeze({ min: 1_000, max: 10_000_000_000 }),
  /** New tracks auto-download queues of one artist in one sync. */
  autoDownloadMaxTracks: Object.freeze({ min: 1, max: 10_000 }),
  /** Bytes auto-download queues of one artist in one sync (1 MB to 1 TB). */
  autoDownloadMaxBytes: Object.freeze({ min: 1_000_000, max: 1_000_000_000_000 }),
} as const)

export type LimitedSetting = keyof typeof SETTING_LIMITS

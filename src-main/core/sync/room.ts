/**
 * The room a sync leaves on its disk: the reserve the downloads keep too
 * (files/disk-space.ts). A sync looks at the free space as it goes and stops
 * with the disk-full message before the reserve is used, not when the disk
 * refuses a write at 0 bytes free; the run resumes once there is room.
 */
import { FREE_SPACE_RESERVE_BYTES, freeSpaceOf, type FreeSpace } from '../files/disk-space'
import { DiskFullError } from '../shared/errors'
import { formatBytes } from '../shared/format'

/**
 * How often the free space is looked at while a sync runs. A look is one statfs (microseconds); in
 * a quarter of a second a sync writes at most a few megabytes (its batches are small: pipeline.ts),
 * a sliver of the reserve, so it stops well before the disk is full.
 */
export const ROOM_CHECK_MS = 250

export interface RoomOptions {
  /** The cache's folder. */
  folder: string
  /** Free space kept (default FREE_SPACE_RESERVE_BYTES). */
  reserveBytes?: number | undefined
  /** The probe of the free space (default statfs; tests may replace it). */
  freeSpace?: FreeSpace | undefined
}

export class RoomWatch {
  readonly reserveBytes: number
  private readonly freeSpace: FreeSpace
  private timer: NodeJS.Timeout | undefined
  private stopped = false

  constructor(private readonly options: RoomOptions) {
    this.reserveBytes = options.reserveBytes ?? FREE_SPACE_RESERVE_BYTES
    this.freeSpace = options.freeSpace ?? freeSpaceOf
  }

  /** Rejects with a DiskFullError when the free space is below the reserve. */
  async check(): Promise<void> {
    let free
    try {
      free = await this.freeSpace(this.options.folder)
    } catch {
      // A file system that cannot say: its writes will tell when it is full.
      return
    }
    if (free >= this.reserveBytes) return
    throw new DiskFullError(
      `syncing the catalogue: the disk is full: ${formatBytes(free)} free on the disk of ${this.options.folder}, ` +
        `below the ${formatBytes(this.reserveBytes)} kept free for the rest of the system`,
    )
  }

  /** Looks every ROOM_CHECK_MS until stopped; onFull hears of the first shortfall. */
  watch(onFull: (error: unknown) => void): void {
    const next = (): void => {
      if (this.stopped) return
      this.timer = setTimeout(() => {
        this.check().then(next, (error: unknown) => {
          if (!this.stopped) onFull(error)
        })
      }, ROOM_CHECK_MS)
      this.timer.unref()
    }
    next()
  }

  stop(): void {
    this.stopped = true
    clearTimeout(this.timer)
  }
}

/** Free space on the volume of a folder, the room the core leaves on it, and the check made before downloads start. */
import fsp from 'node:fs/promises'
import { InsufficientSpaceError } from '../shared/errors'
import { formatBytes } from '../shared/format'

/**
 * What the core never fills of a disk, downloads and sync alike: a disk at 0 bytes free fails
 * the user's other programs (and the system's own writes) around it. 256 MiB is room for those
 * to go on, and little beside the size of a disk today.
 */
export const FREE_SPACE_RESERVE_BYTES = 256 * 1024 * 1024

/** Free bytes for an unprivileged user on the volume holding folder. */
export type FreeSpace = (folder: string) => Promise<number>

export const freeSpaceOf: FreeSpace = async (folder) => {
  const stats = await fsp.statfs(folder)
  return stats.bavail * stats.bsize
}

/** Refuses (InsufficientSpaceError, naming both figures) unless neededBytes fit in the free space minus the reserve. */
export async function ensureSpace(folder: string, neededBytes: number, reserveBytes: number, freeSpace: FreeSpace): Promise<void> {
  const available = Math.max(0, (await freeSpace(folder)) - reserveBytes)
  if (neededBytes > available) {
    throw new InsufficientSpaceError(
      `not enough free space in ${folder}: ${formatBytes(neededBytes)} needed, ${formatBytes(available)} free after the reserve of ${formatBytes(reserveBytes)}`,
    )
  }
}

/** A real, tiny file system (tmpfs), so a disk really fills in a test; mounting needs root (as here and in CI). */
import { execFileSync } from 'node:child_process'

export interface SmallDisk {
  folder: string
  /** Gives the file system a new size, e.g. to "free space". */
  resize(sizeKb: number): void
  unmount(): void
}

/** Mounts a tmpfs of sizeKb on folder; undefined where mounting is not allowed. */
export function mountSmallDisk(folder: string, sizeKb: number): SmallDisk | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', folder], { stdio: 'ignore' })
  } catch {
    return undefined
  }
  return {
    folder,
    resize: (size) => execFileSync('mount', ['-o', `remount,size=${size}k`, folder]),
    unmount: () => execFileSync('umount', [folder]),
  }
}

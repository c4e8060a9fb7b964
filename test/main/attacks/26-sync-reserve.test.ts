/**
 * Attack 26: a sync filled its disk to the last byte. Downloads keep 256 MiB
 * free for the rest of the system, but the sync kept nothing: a service that
 * sends much (attack 25's thumbnails) made the scheduled check stop only when
 * the disk had 0 bytes free, with the user's other programs failing around it.
 * Now the sync keeps the downloads' reserve: it looks at the free space as it
 * goes (statfs, as the downloads do) and stops with the disk-full message
 * before the reserve is used, resuming once there is room.
 *
 * A real tmpfs a few megabytes larger than the reserve (it takes memory only
 * for what is written), and the library's own probe of the free space.
 */
import fs from 'node:fs'
import { describe, expect } from 'vitest'
import { FREE_SPACE_RESERVE_BYTES } from '../../../src-main/core/files/disk-space'
import { DiskFullError } from '../../../src-main/core/shared/errors'
import { formatBytes } from '../../../src-main/core/shared/format'
import { catalogueTest, smallDiskFixture } from '../support/fixtures'
import { integrityCheck } from '../core/sync/cache-file'

const MIB = 1024 * 1024
/** The downloads' reserve, which the sync now keeps too: 256 MiB. */
const RESERVE = FREE_SPACE_RESERVE_BYTES
const test = catalogueTest({ artists: 600, seed: 26, maxFileMb: 2 }).extend('smallDisk', smallDiskFixture)

const NO_TMPFS = 'cannot mount a small tmpfs here (needs root): the reserve test is skipped'

/** Free bytes on the disk of folder, for an unprivileged user (what the probe sees). */
function freeBytes(folder: string): number {
  const { bavail, bsize } = fs.statfsSync(folder)
  return bavail * bsize
}

describe('the room a sync leaves on its disk', () => {
  test('the reserve is 256 MiB, one figure for the sync and the downloads', () => {
    expect(RESERVE).toBe(256 * MIB)
  })

  test('a sync stops with the disk-full message before the reserve the downloads keep, never at 0 bytes free', { timeout: 120_000 }, async ({ openLibrary, smallDisk, skip }) => {
    const disk = smallDisk((RESERVE + 3 * MIB) / 1024)
    if (!disk) return skip(NO_TMPFS)
    // The library's real probe of the free space, as in the app (the fixture's says a terabyte is free).
    const library = openLibrary({ dataDir: disk.folder, downloads: {}, syncProgressIntervalMs: 0 })
    let lowest = freeBytes(disk.folder)
    library.sync.onDidProgress(() => (lowest = Math.min(lowest, freeBytes(disk.folder))))

    const failure = await library.sync.start().catch((error: unknown) => error)
    lowest = Math.min(lowest, freeBytes(disk.folder))
    console.info(`attack 26: a sync on a disk with the reserve + 3 MiB free: ${failure instanceof Error ? failure.message : 'completed'}; lowest free ${formatBytes(lowest)}`)
    expect(failure).toBeInstanceOf(DiskFullError)
    expect((failure as Error).message).toMatch(/^syncing the catalogue: the disk is full/)
    expect((failure as Error).message).toContain(`${formatBytes(RESERVE)} kept free`)
    // Stopped at the reserve, within what a sync writes between two looks (a fraction of it): far from 0 bytes.
    expect(lowest).toBeGreaterThan(RESERVE - 8 * MIB)
    expect(library.sync.state).toMatchObject({ status: 'idle', lastError: { code: 'disk_full' } })
    expect(integrityCheck(library.cacheFile)).toBe('ok')

    // Room again: the same sync goes on from where it stopped, to its end.
    disk.resize((RESERVE + 256 * MIB) / 1024)
    const resumed = await library.sync.start()
    expect(resumed).toMatchObject({ resumed: true })
    expect(library.catalogue.status().lastRun).toMatchObject({ state: 'completed' })
  })
})

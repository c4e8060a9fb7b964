/**
 * Attack 13: a download that a full disk paused could not be finished from the
 * command line. `download ID` again left the row paused and exited 1, so a user
 * without the app had no way on but to delete the row and start from zero. Now
 * `download ID` resumes a paused download from the bytes it kept, as the app's
 * resume does, and says so.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { describe, expect } from 'vitest'
import { openLibrary } from '../../../src-main/core/library/library'
import { formatBytes } from '../../../src-main/core/shared/format'
import { cliInProcess as cli } from '../support/cli'
import { syncedDataDir } from '../support/core'
import { QUICK_RETRIES, catalogueTest, smallDiskFixture } from '../support/fixtures'
import { sourceSha256 } from '../core/downloads/source'

const test = catalogueTest({ artists: 30, seed: 13, maxFileMb: 4 }).extend('smallDisk', smallDiskFixture)

function sha256File(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex')
}

describe('cli download of a download a full disk paused', () => {
  test('resumes it from the bytes kept and finishes it, verified', async ({ demo, tempDir, smallDisk, skip }) => {
    const disk = smallDisk(1024)
    if (!disk) return skip('cannot mount a small tmpfs here (needs root): the full-disk test is skipped')
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    const track = demo.catalogue.artists.flatMap((artist) => demo.catalogue.tracksOf(artist)).find((candidate) => candidate.bytes > 1_500_000)!

    // The pause, as the app meets it: the disk of the download folder fills mid-transfer (the probe
    // saw room, as on a volume other writers fill meanwhile).
    const library = openLibrary({
      dataDir,
      client: QUICK_RETRIES,
      downloads: { transferSettings: { backoffMs: 5, maxDelayMs: 20 }, freeSpace: async () => 1024 ** 4 },
    })
    let paused
    try {
      const [queued] = (await library.downloads.enqueue({ uploadIds: [track.uploadId], folder: disk.folder })).downloads
      library.downloads.start()
      await library.downloads.whenIdle()
      paused = library.downloads.get(queued!.id)
    } finally {
      await library.dispose()
    }
    expect(paused).toMatchObject({ state: 'paused', pauseReason: 'disk_full' })
    const kept = fs.statSync(`${paused.targetPath}.part`).size
    expect(kept).toBeGreaterThan(0)

    // Room again (past the queue's own reserve of 256 MiB: a tmpfs takes memory only for what is written).
    disk.resize(300 * 1024)
    const run = await cli(['download', track.uploadId, '--data-dir', dataDir, '--to', disk.folder])
    expect(run.stderr).toContain(`resuming ${track.uploadId} (paused because the disk was full) from the ${formatBytes(kept)} kept`)
    expect(run.stderr).toContain(`1 of 1 files complete and verified in ${disk.folder}`)
    expect(run.code).toBe(0)

    const listed = JSON.parse((await cli(['downloads', '--data-dir', dataDir, '--json'])).stdout) as {
      downloads: { id: number; state: string; pauseReason: string | null; sha256: string | null; targetPath: string }[]
    }
    const row = listed.downloads.find((download) => download.id === paused.id)!
    expect(row).toMatchObject({ state: 'completed', pauseReason: null, targetPath: paused.targetPath })
    expect(row.sha256).toBe(sourceSha256(demo, track.uploadId))
    expect(sha256File(paused.targetPath)).toBe(row.sha256)
    expect(fs.existsSync(`${paused.targetPath}.part`)).toBe(false)
    // One row for the file: resumed, not queued again beside the paused one.
    expect(listed.downloads.filter((download) => download.targetPath.startsWith(disk.folder))).toHaveLength(1)
  }, 60_000)
})

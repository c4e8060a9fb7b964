import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, vi } from 'vitest'
import type { RunningCatalogueService } from '../../../src-main/demo/index'
import { cliInProcess, exited, spawnCli, type CliRun } from '../support/cli'
import { catalogueTest } from '../support/fixtures'
import { sourceSha256 } from '../core/downloads/source'

const test = catalogueTest({ artists: 40, seed: 66, maxFileMb: 6 })
const it = test
let service: RunningCatalogueService
let dataDir: string
let tempDir: () => string

/** The CLI run in this process, its output captured (the download killed mid-way is a process of its own). */
function cli(...args: string[]): Promise<CliRun> {
  return cliInProcess(args)
}

function sha256File(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex')
}

test.beforeAll(async ({ demo, tempDir: makeTempDir }) => {
  service = demo
  tempDir = makeTempDir
  dataDir = tempDir()
  const synced = await cli('sync', '--base-url', service.baseUrl, '--data-dir', dataDir, '--no-avatars')
  expect(synced.code).toBe(0)
}, 60_000)
afterEach(() => service.faults.clear())

interface Listed {
  downloads: { uploadId: string; state: string; targetPath: string; sha256: string | null; bytesDone: number }[]
  monthlyBytes: { month: string; bytes: number }[]
}

describe('cli download', () => {
  it('downloads every track of an artist, verified, and lists them', async () => {
    const artist = service.catalogue.artists.find((a) => a.numTracks >= 3 && a.numTracks <= 8)!
    const to = tempDir()
    const run = await cli('download', '--artist', artist.username, '--data-dir', dataDir, '--to', to, '--concurrency', '2')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(new RegExp(`${artist.numTracks} of ${artist.numTracks} files complete and verified`))
    const listed = JSON.parse((await cli('downloads', '--data-dir', dataDir, '--json')).stdout) as Listed
    const mine = listed.downloads.filter((d) => d.targetPath.startsWith(fs.realpathSync(to)))
    expect(mine).toHaveLength(artist.numTracks)
    for (const download of mine) {
      expect(download.state).toBe('completed')
      expect(sha256File(download.targetPath)).toBe(sourceSha256(service, download.uploadId))
    }
    expect(listed.monthlyBytes[0]!.bytes).toBeGreaterThan(0)
  }, 60_000)

  it('finishes byte for byte after the process is killed mid-download and started again', async () => {
    // From an artist the test above did not download (it took one with 3 to 8 tracks).
    const track = service.catalogue.artists
      .filter((a) => a.numTracks < 3 || a.numTracks > 8)
      .flatMap((a) => service.catalogue.tracksOf(a))
      .find((t) => t.bytes > 3_000_000)!
    service.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 1_000_000 } })
    const to = tempDir()
    const child = spawnCli(['download', track.uploadId, '--data-dir', dataDir, '--to', to])
    const part = await vi.waitUntil(
      () => {
        if (child.exitCode !== null) throw new Error('the download ended before it could be killed')
        const found = fs.existsSync(to) && fs.readdirSync(to, { recursive: true, withFileTypes: true }).find((entry) => entry.name.endsWith('.part'))
        const file = found ? path.join(found.parentPath, found.name) : undefined
        return file !== undefined && fs.statSync(file).size > 500_000 ? file : undefined
      },
      { timeout: 30_000, interval: 20 },
    )
    child.kill('SIGKILL')
    await exited(child)
    const kept = fs.statSync(part).size
    // The killed process left its download "downloading": the listing says it was interrupted.
    const listing = await cli('downloads', '--data-dir', dataDir)
    expect(listing.stdout).toMatch(new RegExp(`^\\d+\\s+interrupted\\s+\\d+%.*${track.uploadId}`, 'm'))
    service.faults.clear()
    const resumed = await cli('download', track.uploadId, '--data-dir', dataDir, '--to', to)
    expect(resumed.code).toBe(0)
    expect(resumed.stderr).toMatch(new RegExp(`1 of 1 files complete and verified in ${to}`))
    const target = part.slice(0, -'.part'.length)
    expect(fs.existsSync(part)).toBe(false)
    expect(sha256File(target)).toBe(sourceSha256(service, track.uploadId))
    expect(kept).toBeGreaterThan(500_000)
    // The listing gives the bytes by month, and says of a completed file deleted from disk that it is missing, not 100%.
    fs.rmSync(target)
    const gone = await cli('downloads', '--data-dir', dataDir)
    expect(gone.stdout).toMatch(new RegExp(`^\\d+\\s+file missing\\s+—.*${track.uploadId}`, 'm'))
    expect(gone.stdout).toMatch(/^month\s+downloaded\n\d{4}-\d\d\s+[\d.]+ [kMG]?B$/m)
    expect(gone.stderr).toMatch(/completed, their files? no longer on disk: download again/)
  }, 60_000)

  it('gives usage and exit code 2 for missing or doubled targets', async () => {
    expect((await cli('download', '--data-dir', dataDir)).code).toBe(2)
    expect((await cli('download', '1000001', '--artist', 'x', '--data-dir', dataDir)).code).toBe(2)
    expect((await cli('download', '1000001', '--data-dir', dataDir, '--concurrency', '9')).code).toBe(2)
  })

  it('exits 1 with a clear message for an unknown upload', async () => {
    const run = await cli('download', '424242424', '--data-dir', dataDir)
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/no upload 424242424 in the cache/)
  })
})

describe('cli download, as a new user tries it', () => {
  it('downloads into the folder it is given, even when the file is already complete in another', async () => {
    const track = service.catalogue.artists.flatMap((a) => service.catalogue.tracksOf(a)).find((t) => t.bytes > 50_000 && t.bytes < 400_000)!
    const first = tempDir()
    const second = tempDir()
    expect((await cli('download', track.uploadId, '--data-dir', dataDir, '--to', first)).code).toBe(0)
    const run = await cli('download', track.uploadId, '--data-dir', dataDir, '--to', second)
    expect(run.code).toBe(0)
    expect(run.stderr).toContain(`1 of 1 files complete and verified in ${second}`)
    const inSecond = fs.readdirSync(second, { recursive: true }).map(String).filter((name) => name.includes(`[${track.uploadId}]`))
    expect(inSecond).toHaveLength(1)
    expect(sha256File(path.join(second, inSecond[0]!))).toBe(sourceSha256(service, track.uploadId))
    // And into the first folder again: nothing to do, the file is there.
    const again = await cli('download', track.uploadId, '--data-dir', dataDir, '--to', first)
    expect(again.stderr).toContain(`1 of 1 files complete and verified in ${first}`)
  }, 60_000)

  it('keeps one row per file when a deleted file is downloaded again', async () => {
    const track = service.catalogue.artists.flatMap((a) => service.catalogue.tracksOf(a)).find((t) => t.bytes > 20_000 && t.bytes < 100_000)!
    const to = tempDir()
    const rowsOf = async (): Promise<Listed['downloads']> =>
      (JSON.parse((await cli('downloads', '--data-dir', dataDir, '--json')).stdout) as Listed).downloads.filter((d) => d.uploadId === track.uploadId && d.targetPath.startsWith(to))
    for (let round = 0; round < 3; round++) {
      expect((await cli('download', track.uploadId, '--data-dir', dataDir, '--to', to)).code).toBe(0)
      const rows = await rowsOf()
      expect(rows).toHaveLength(1)
      fs.rmSync(rows[0]!.targetPath)
    }
  }, 60_000)

  it('says a --to that names a file is a file, not a folder, and refuses folders that cannot be made, at once', async () => {
    const file = path.join(tempDir(), 'a-file')
    fs.writeFileSync(file, 'not a folder')
    const run = await cli('download', '1000001', '--data-dir', dataDir, '--to', file)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/is a file, not a folder/)
    expect(run.stderr).not.toMatch(/EEXIST|mkdir/)
    const proc = await cli('download', '1000001', '--data-dir', dataDir, '--to', '/proc/tuneshelf-x')
    expect(proc.code).toBe(2)
    // /proc refuses new folders without saying why; it is a system folder, refused before any is tried.
    expect(proc.stderr).toMatch(/cannot use \/proc\/tuneshelf-x as the download folder: it is inside \/proc, a system folder/)
  }, 60_000)

  it('lists the queue without creating anything', async () => {
    const fresh = tempDir()
    expect((await cli('sync', '--base-url', service.baseUrl, '--data-dir', fresh, '--no-avatars')).code).toBe(0)
    const run = await cli('downloads', '--data-dir', fresh)
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(/no downloads yet/)
    expect(fs.existsSync(path.join(fresh, 'downloads'))).toBe(false)
  }, 60_000)
})

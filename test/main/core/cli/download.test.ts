import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/core/demo/index'
import { useTempDir } from '../db/temp-dir'
import { sourceSha256 } from '../downloads/source'

const CLI = fileURLToPath(new URL('../../../../src-main/core/cli/main.ts', import.meta.url))
const tempDir = useTempDir()
let service: RunningCatalogueService
let dataDir: string

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
  })
}

function sha256File(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex')
}

beforeAll(async () => {
  service = await startCatalogueService({ artists: 40, seed: 66, maxFileMb: 6 })
  dataDir = tempDir()
  const synced = await cli('sync', '--base-url', service.baseUrl, '--data-dir', dataDir, '--no-avatars')
  expect(synced.code).toBe(0)
}, 60_000)
afterEach(() => service.faults.clear())
afterAll(() => service.close())

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
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'download', track.uploadId, '--data-dir', dataDir, '--to', to], { stdio: 'ignore' })
    const part = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const found = fs.readdirSync(to, { recursive: true, withFileTypes: true }).find((entry) => entry.name.endsWith('.part'))
        if (found) {
          const file = `${found.parentPath ?? found.path}/${found.name}`
          if (fs.statSync(file).size > 500_000) {
            clearInterval(timer)
            resolve(file)
          }
        }
      }, 20)
      child.once('exit', () => {
        clearInterval(timer)
        reject(new Error('the download ended before it could be killed'))
      })
    })
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    const kept = fs.statSync(part).size
    service.faults.clear()
    const resumed = await cli('download', track.uploadId, '--data-dir', dataDir, '--to', to)
    expect(resumed.code).toBe(0)
    const target = part.slice(0, -'.part'.length)
    expect(fs.existsSync(part)).toBe(false)
    expect(sha256File(target)).toBe(sourceSha256(service, track.uploadId))
    expect(kept).toBeGreaterThan(500_000)
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

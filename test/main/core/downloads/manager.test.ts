import fs from 'node:fs'
import path from 'node:path'
import { createHash } from 'node:crypto'
import type { Database } from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/core/demo/index'
import { DownloadManager, type DownloadManagerOptions, type DownloadProgress } from '../../../../src-main/core/downloads/manager'
import { InsufficientSpaceError } from '../../../../src-main/core/downloads/errors'
import { defaultRelativePath } from '../../../../src-main/core/downloads/file-names'
import { getArtist } from '../../../../src-main/core/db/queries'
import { useTempDir } from '../db/temp-dir'
import { syncInto } from '../sync/helpers'
import { sourceSha256 } from './source'

const tempDir = useTempDir()
let service: RunningCatalogueService
let db: Database

beforeAll(async () => {
  service = await startCatalogueService({ artists: 40, seed: 12, maxFileMb: 3 })
  ;({ db } = await syncInto(tempDir(), service.baseUrl, { skipAvatars: true }))
})
afterEach(() => service.faults.clear())
// Each test starts with an empty queue in the same synced cache.
beforeEach(() => db.exec('DELETE FROM downloads; DELETE FROM download_months'))
afterAll(async () => {
  db.close()
  await service.close()
})

function manager(extra: Partial<DownloadManagerOptions> = {}): DownloadManager {
  return new DownloadManager({
    db,
    baseUrl: service.baseUrl,
    downloadDir: tempDir(),
    transferSettings: { backoffMs: 5, maxDelayMs: 20 },
    freeSpace: async () => 1024 ** 4,
    ...extra,
  })
}

/** Uploads of the cached catalogue, smallest first, with at least min bytes. */
function uploads(count: number, min = 0): string[] {
  return (db.prepare('SELECT upload_id FROM tracks WHERE bytes >= ? ORDER BY bytes, upload_id LIMIT ?').pluck().all(min, count) as string[])
}

function sha256File(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex')
}

function waitFor(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const check = (): void => {
      if (predicate()) resolve()
      else if (Date.now() - started > timeoutMs) reject(new Error('timed out waiting'))
      else setTimeout(check, 5)
    }
    check()
  })
}

describe('the download queue', () => {
  it('downloads, verifies and names files <artist>/<title> [<id>].<ext> inside the folder', async () => {
    const downloads = manager()
    await downloads.start()
    const [uploadId] = uploads(1, 100_000)
    const [queued] = await downloads.enqueueUploads([uploadId!])
    await downloads.whenIdle()
    const done = downloads.get(queued!.id)!
    expect(done.state).toBe('completed')
    expect(done.sha256).toBe(sourceSha256(service, uploadId!))
    expect(sha256File(done.targetPath)).toBe(done.sha256)
    const track = service.catalogue.findUpload(uploadId!)!
    expect(path.basename(done.targetPath)).toMatch(new RegExp(`\\[${uploadId}\\]\\.${track.track.ext}$`))
    expect(fs.existsSync(`${done.targetPath}.part`)).toBe(false)
    expect(downloads.monthlyBytes().reduce((sum, month) => sum + month.bytes, 0)).toBe(track.track.bytes)
    // Already downloaded and verified: not downloaded again, and an id given twice is queued once.
    const [again] = await downloads.enqueueUploads([uploadId!, uploadId!])
    expect(again!.id).toBe(queued!.id)
    expect(downloads.list()).toHaveLength(1)
    // Once the file is gone, the upload downloads again, to the same name.
    fs.rmSync(done.targetPath)
    const [fresh] = await downloads.enqueueUploads([uploadId!])
    expect(fresh!.id).not.toBe(queued!.id)
    expect(fresh!.targetPath).toBe(done.targetPath)
    await downloads.whenIdle()
    expect(sha256File(done.targetPath)).toBe(done.sha256)
  })

  it('never runs more transfers at once than the setting, and applies a change at once', async () => {
    service.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 2_000_000 } })
    const downloads = manager({ concurrency: 3 })
    let most = 0
    downloads.on('change', () => (most = Math.max(most, downloads.runningCount)))
    downloads.on('progress', () => (most = Math.max(most, downloads.runningCount)))
    await downloads.start()
    await downloads.enqueueUploads(uploads(10, 200_000))
    await waitFor(() => downloads.runningCount === 3)
    expect(db.prepare(`SELECT count(*) FROM downloads WHERE state = 'downloading'`).pluck().get()).toBeLessThanOrEqual(3)
    downloads.setConcurrency(1)
    await waitFor(() => downloads.runningCount === 1, 2000)
    most = 1
    downloads.setConcurrency(2)
    await downloads.whenIdle()
    expect(most).toBeLessThanOrEqual(2)
    expect(downloads.list('completed')).toHaveLength(10)
    expect(() => downloads.setConcurrency(9)).toThrow(/1 to 8/)
  })

  it('pauses and resumes against a slow server, keeping and reusing the bytes', async () => {
    service.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 500_000 } })
    const downloads = manager({ progressIntervalMs: 50 })
    await downloads.start()
    const [uploadId] = uploads(1, 1_000_000)
    const [queued] = await downloads.enqueueUploads([uploadId!])
    const progress: DownloadProgress[] = []
    downloads.on('progress', (event) => progress.push(event))
    await waitFor(() => (downloads.get(queued!.id)!.bytesDone ?? 0) > 200_000)
    downloads.pause(queued!.id)
    await waitFor(() => downloads.get(queued!.id)!.state === 'paused')
    const kept = fs.statSync(`${queued!.targetPath}.part`).size
    expect(kept).toBeGreaterThan(200_000)
    service.faults.clear()
    const before = progress.length
    downloads.resume(queued!.id)
    await downloads.whenIdle()
    expect(downloads.get(queued!.id)!.state).toBe('completed')
    expect(downloads.get(queued!.id)!.sha256).toBe(sourceSha256(service, uploadId!))
    const resumed = progress.slice(before)
    if (resumed.length > 0) expect(resumed[0]!.bytes).toBeGreaterThanOrEqual(kept)
    const first = progress[1]!
    expect(first.speed).toBeGreaterThan(0)
    expect(first.etaSeconds).toBeGreaterThan(0)
    expect(first.percent).toBeGreaterThan(0)
  })

  it('cancels (deleting the partial file), retries from zero, and removes without touching the file', async () => {
    service.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 300_000 } })
    const downloads = manager()
    await downloads.start()
    const [uploadId] = uploads(1, 1_000_000)
    const [queued] = await downloads.enqueueUploads([uploadId!])
    await waitFor(() => fs.existsSync(`${queued!.targetPath}.part`) && fs.statSync(`${queued!.targetPath}.part`).size > 0)
    await downloads.cancel(queued!.id)
    expect(downloads.get(queued!.id)!.state).toBe('canceled')
    expect(fs.existsSync(`${queued!.targetPath}.part`)).toBe(false)
    service.faults.clear()
    downloads.retry(queued!.id)
    await downloads.whenIdle()
    expect(downloads.get(queued!.id)!.state).toBe('completed')
    await downloads.remove(queued!.id)
    expect(downloads.get(queued!.id)).toBeUndefined()
    expect(fs.existsSync(queued!.targetPath)).toBe(true)
  })

  it('refuses to start what does not fit, naming both figures', async () => {
    const downloads = manager({ freeSpace: async () => 300 * 1024 * 1024, reserveBytes: 299 * 1024 * 1024 })
    await downloads.start()
    const artist = db.prepare('SELECT username FROM artists WHERE num_tracks > 3 LIMIT 1').pluck().get() as string
    const needed = getArtist(db, artist)!.tracks.reduce((sum, track) => sum + (track.bytes ?? 0), 0)
    const refusal = downloads.enqueueArtist(artist)
    await expect(refusal).rejects.toThrow(InsufficientSpaceError)
    await expect(refusal).rejects.toThrow(new RegExp(`${(needed / 1024 / 1024).toFixed(1)} MiB needed, 1\\.0 MiB free`))
    expect(downloads.list()).toEqual([])
  })

  it('downloads every track of an artist, hostile titles included, each inside the folder', async () => {
    // The real free-space check of the volume, this time.
    const downloads = manager({ concurrency: 4, freeSpace: undefined })
    const folder = fs.realpathSync(downloads['options'].downloadDir)
    await downloads.start()
    const artist = db.prepare('SELECT username FROM artists WHERE num_tracks BETWEEN 5 AND 15 ORDER BY num_tracks DESC LIMIT 1').pluck().get() as string
    const queued = await downloads.enqueueArtist(artist.toUpperCase())
    expect(queued).toHaveLength(getArtist(db, artist)!.tracks.length)
    await downloads.whenIdle()
    for (const download of downloads.list()) {
      expect(download.state).toBe('completed')
      expect(path.relative(folder, download.targetPath).startsWith('..')).toBe(false)
      expect(download.sha256).toBe(sourceSha256(service, download.uploadId))
    }
    expect(new Set(downloads.list().map((d) => d.targetPath)).size).toBe(queued.length)
  })

  it('resumes downloads that were running when it stopped, and reports stray partial files', async () => {
    service.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 400_000 } })
    const folder = tempDir()
    const first = manager({ downloadDir: folder })
    await first.start()
    const [uploadId] = uploads(1, 1_500_000)
    const [queued] = await first.enqueueUploads([uploadId!])
    await waitFor(() => (first.get(queued!.id)!.bytesDone ?? 0) > 100_000)
    await first.stop()
    expect(first.get(queued!.id)!.state).toBe('downloading')
    fs.writeFileSync(path.join(folder, 'stray.mp3.part'), 'left by someone else')
    service.faults.clear()
    const second = manager({ downloadDir: folder })
    const { orphanParts } = await second.start()
    expect(orphanParts.map((file) => path.basename(file))).toEqual(['stray.mp3.part'])
    await second.whenIdle()
    expect(second.get(queued!.id)!.state).toBe('completed')
    expect(second.get(queued!.id)!.sha256).toBe(sourceSha256(service, uploadId!))
    expect(fs.existsSync(path.join(folder, 'stray.mp3.part'))).toBe(true)
  })

  it('marks a download failed with a clear message when the server refuses it', async () => {
    service.faults.add({ path: '/hotlink/*', times: 1, fault: { kind: 'respond', status: 302, headers: { Location: 'file:///etc/passwd' } } })
    const downloads = manager()
    await downloads.start()
    const [queued] = await downloads.enqueueUploads(uploads(1))
    await downloads.whenIdle()
    const failed = downloads.get(queued!.id)!
    expect(failed.state).toBe('failed')
    expect(failed.error).toMatch(/file:\/\/\/etc\/passwd/)
    downloads.retry(queued!.id)
    await downloads.whenIdle()
    expect(downloads.get(queued!.id)!.state).toBe('completed')
  })

  it('refuses unknown uploads and artists clearly', async () => {
    const downloads = manager()
    await expect(downloads.enqueueUploads(['999999999'])).rejects.toThrow(/no upload 999999999 in the cache/)
    await expect(downloads.enqueueArtist('nobody-here')).rejects.toThrow(/no artist named/)
  })

  it('never overwrites a different file already at the target: it adds a suffix', async () => {
    const downloads = manager()
    await downloads.start()
    const [uploadId] = uploads(1, 50_000)
    const track = getTrackOf(uploadId!)
    const folder = downloads['options'].downloadDir
    const expected = path.join(fs.realpathSync(folder), defaultRelativePath(track.artistName, track.title, uploadId!, track.ext))
    fs.mkdirSync(path.dirname(expected), { recursive: true })
    fs.writeFileSync(expected, 'a file the user made')
    const [queued] = await downloads.enqueueUploads([uploadId!])
    await downloads.whenIdle()
    expect(fs.readFileSync(expected, 'utf8')).toBe('a file the user made')
    expect(queued!.targetPath).toBe(expected.replace(/(\.[a-z0-9]+)$/, ' (2)$1'))
    expect(sha256File(queued!.targetPath)).toBe(sourceSha256(service, uploadId!))
  })

  it('reports progress about five times a second per download, no more', async () => {
    service.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 2_000_000 } })
    const downloads = manager()
    await downloads.start()
    const times: number[] = []
    downloads.on('progress', () => times.push(performance.now()))
    const [uploadId] = uploads(1, 2_500_000)
    await downloads.enqueueUploads([uploadId!])
    await downloads.whenIdle()
    expect(times.length).toBeGreaterThanOrEqual(3)
    const perSecond = (times.length - 1) / ((times.at(-1)! - times[0]!) / 1000)
    expect(perSecond).toBeLessThanOrEqual(5.5)
  })
})

function getTrackOf(uploadId: string): { artistName: string; title: string; ext: string | null } {
  return db.prepare('SELECT artists.pf_name AS artistName, title, ext FROM tracks JOIN artists ON artists.id = artist_id WHERE upload_id = ?').get(uploadId) as { artistName: string; title: string; ext: string | null }
}

import fs from 'node:fs'
import type { Database } from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/core/demo/index'
import { DownloadManager } from '../../../../src-main/core/downloads/manager'
import { useTempDir } from '../db/temp-dir'
import { mountSmallDisk, type SmallDisk } from '../small-disk'
import { syncInto } from '../sync/helpers'
import { sourceSha256 } from './source'

const tempDir = useTempDir()
let service: RunningCatalogueService
let db: Database
let smallDisk: SmallDisk | undefined

beforeAll(async () => {
  service = await startCatalogueService({ artists: 30, seed: 13, maxFileMb: 4 })
  ;({ db } = await syncInto(tempDir(), service.baseUrl, { skipAvatars: true }))
  smallDisk = mountSmallDisk(tempDir(), 1024)
})
afterAll(async () => {
  smallDisk?.unmount()
  db.close()
  await service.close()
})

describe('a full disk', () => {
  it('pauses the queue with a clear message, loses nothing, and goes on once there is space', async (context) => {
    if (!smallDisk) {
      context.skip('cannot mount a small tmpfs here (needs root): the full-disk test is skipped')
      return
    }
    const downloads = new DownloadManager({
      db,
      baseUrl: service.baseUrl,
      downloadDir: smallDisk.folder,
      // The disk claims plenty of space, as a volume shared with other writers might, then fills.
      freeSpace: async () => 1024 ** 4,
      transferSettings: { backoffMs: 5, maxDelayMs: 20 },
    })
    const paused: string[] = []
    downloads.on('queue-paused', (message) => paused.push(message))
    await downloads.start()
    const uploads = db.prepare('SELECT upload_id FROM tracks WHERE bytes > 1500000 ORDER BY bytes LIMIT 2').pluck().all() as string[]
    const queued = await downloads.enqueueUploads(uploads)
    await downloads.whenIdle()
    expect(paused).toHaveLength(1)
    expect(paused[0]).toMatch(/full.*free some space, then resume the queue/)
    expect(downloads.pausedBecause).toBe(paused[0])
    for (const download of downloads.list()) expect(download.state).not.toBe('failed')
    expect(downloads.list('paused').length).toBeGreaterThan(0)
    const keptBefore = queued.map((download) => (fs.existsSync(`${download.targetPath}.part`) ? fs.statSync(`${download.targetPath}.part`).size : 0))
    expect(keptBefore.some((size) => size > 0)).toBe(true)

    smallDisk.resize(16 * 1024)
    downloads.resumeQueue()
    await downloads.whenIdle()
    for (const download of downloads.list()) {
      expect(download.state).toBe('completed')
      expect(download.sha256).toBe(sourceSha256(service, download.uploadId))
    }
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/core/demo/index'
import { openCache } from '../../../../src-main/core/db/connection'
import { syncStatus } from '../../../../src-main/core/db/queries'
import { useTempDir } from '../db/temp-dir'
import { mountSmallDisk, type SmallDisk } from '../small-disk'
import { dumpCache, syncInto } from './helpers'

const tempDir = useTempDir()
let service: RunningCatalogueService
let smallDisk: SmallDisk | undefined

beforeAll(async () => {
  service = await startCatalogueService({ artists: 300, seed: 77, maxFileMb: 8 })
  smallDisk = mountSmallDisk(tempDir(), 1200)
})
afterAll(async () => {
  smallDisk?.unmount()
  await service.close()
})

describe('a sync on a full disk', () => {
  it('fails with a clear message, keeps a sound cache, and resumes once there is space', async (context) => {
    if (!smallDisk) {
      context.skip('cannot mount a small tmpfs here (needs root): the full-disk sync test is skipped')
      return
    }
    await expect(syncInto(smallDisk.folder, service.baseUrl)).rejects.toThrow(/disk is full/)
    smallDisk.resize(64 * 1024)
    const { db } = openCache(smallDisk.folder, service.baseUrl)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(syncStatus(db).lastRun?.state).not.toBe('completed')
    db.close()
    const resumed = await syncInto(smallDisk.folder, service.baseUrl)
    expect(resumed.report.resumed).toBe(true)
    const reference = await syncInto(tempDir(), service.baseUrl)
    expect(dumpCache(resumed.db)).toEqual(dumpCache(reference.db))
    resumed.db.close()
    reference.db.close()
  })
})

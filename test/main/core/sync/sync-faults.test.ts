import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/core/demo/index'
import { openCache } from '../../../../src-main/core/db/connection'
import { getArtist, listArtists, syncStatus } from '../../../../src-main/core/db/queries'
import type { Fault } from '../../../../src-main/core/demo/faults'
import { useTempDir } from '../db/temp-dir'
import { dumpCache, syncInto } from './helpers'

const CLI = fileURLToPath(new URL('../../../../src-main/core/cli/main.ts', import.meta.url))
const tempDir = useTempDir()
let service: RunningCatalogueService
let reference: unknown

beforeAll(async () => {
  service = await startCatalogueService({ artists: 200, seed: 33, maxFileMb: 8 })
  const { db } = await syncInto(tempDir(), service.baseUrl)
  reference = dumpCache(db)
  db.close()
})
afterEach(() => service.faults.clear())
afterAll(() => service.close())

describe('a sync under faults', () => {
  const faults: [string, Fault][] = [
    ['429 with Retry-After', { kind: 'status', status: 429, retryAfter: 0 }],
    ['429 without Retry-After', { kind: 'status', status: 429 }],
    ['500', { kind: 'status', status: 500 }],
    ['503 with Retry-After', { kind: 'status', status: 503, retryAfter: 0 }],
    ['a dropped connection', { kind: 'drop', afterBytes: 200 }],
    ['truncated JSON', { kind: 'truncated' }],
    ['malformed JSON', { kind: 'malformed' }],
  ]
  it.each(faults)('finishes with the same cache after %s on lists, details, levels and avatars', async (_, fault) => {
    service.faults.add({ path: '/api/v1/artists', times: 3, fault })
    service.faults.add({ path: '/api/v1/artists/*', times: 3, fault })
    service.faults.add({ path: '/api/v1/access_levels', times: 2, fault })
    service.faults.add({ path: '/avatars/*', times: 2, fault })
    const { db, report } = await syncInto(tempDir(), service.baseUrl)
    expect(service.faults.pending()).toBe(0)
    expect(report.detailFailures).toEqual([])
    expect(dumpCache(db)).toEqual(reference)
    db.close()
  })

  it('notes an artist whose detail keeps failing, finishes, and fetches it on the next sync', async () => {
    const victim = service.catalogue.artists.find((a) => a.numTracks > 0)!
    service.faults.add({ path: `/api/v1/artists/${victim.username}`, times: 1000, fault: { kind: 'status', status: 500 } })
    const dataDir = tempDir()
    const first = await syncInto(dataDir, service.baseUrl)
    expect(first.report.detailFailures.map((f) => f.username)).toEqual([victim.username])
    expect(first.report.detailFailures[0]!.message).toMatch(/500/)
    expect(getArtist(first.db, victim.username)!.tracks).toEqual([])
    expect(syncStatus(first.db).detailErrors).toEqual([{ username: victim.username, error: expect.stringMatching(/500/) }])
    expect(syncStatus(first.db).detailsPending).toBe(1)
    first.db.close()
    service.faults.clear()
    const second = await syncInto(dataDir, service.baseUrl)
    expect(second.report.detailsFetched).toBe(1)
    expect(syncStatus(second.db).detailErrors).toEqual([])
    expect(dumpCache(second.db)).toEqual(reference)
    second.db.close()
  })

  it('fails cleanly when a list page never answers, and resumes from there', async () => {
    service.faults.add({ path: '/api/v1/artists', times: 1000, fault: { kind: 'status', status: 503 } })
    const dataDir = tempDir()
    await expect(syncInto(dataDir, service.baseUrl)).rejects.toThrow(/503/)
    const { db } = openCache(dataDir, service.baseUrl)
    expect(syncStatus(db).lastRun).toMatchObject({ state: 'failed', phase: 'lists' })
    expect(syncStatus(db).lastFullSyncAt).toBeNull()
    db.close()
    service.faults.clear()
    const resumed = await syncInto(dataDir, service.baseUrl)
    expect(resumed.report.resumed).toBe(true)
    expect(dumpCache(resumed.db)).toEqual(reference)
    resumed.db.close()
  })
})

describe('cancel and resume', () => {
  it('stops at once when cancelled, keeps what it has, and resumes to the same cache', async () => {
    const dataDir = tempDir()
    const controller = new AbortController()
    const cancelled = syncInto(dataDir, service.baseUrl, {
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: (progress) => {
        if (progress.phase === 'details' && progress.done === 60) controller.abort(new Error('user cancelled'))
      },
    })
    await expect(cancelled).rejects.toThrow('user cancelled')
    const { db } = openCache(dataDir, service.baseUrl)
    const status = syncStatus(db)
    expect(status.lastRun).toMatchObject({ state: 'cancelled', phase: 'details' })
    expect(status.detailsPending).toBeGreaterThan(100)
    expect(status.detailsPending).toBeLessThan(200 - 59)
    db.close()
    const resumed = await syncInto(dataDir, service.baseUrl)
    expect(resumed.report.resumed).toBe(true)
    expect(resumed.report.listPages).toBe(0)
    expect(resumed.report.detailsFetched).toBe(status.detailsPending)
    expect(dumpCache(resumed.db)).toEqual(reference)
    resumed.db.close()
  })

  it('resumes the lists of a cancelled run from the pages it had', async () => {
    const dataDir = tempDir()
    const controller = new AbortController()
    let pages = 0
    await expect(
      syncInto(dataDir, service.baseUrl, {
        signal: controller.signal,
        progressIntervalMs: 0,
        listConcurrency: 1,
        onProgress: (progress) => {
          if (progress.phase === 'lists' && ++pages === 8) controller.abort(new Error('stop'))
        },
      }),
    ).rejects.toThrow('stop')
    const resumed = await syncInto(dataDir, service.baseUrl)
    const totalPages = 5 * Math.ceil(200 / 50) - 3 // the podcaster pass has one page
    expect(resumed.report.listPages).toBeLessThan(totalPages)
    expect(dumpCache(resumed.db)).toEqual(reference)
    resumed.db.close()
  })

  it('resumes after the syncing process is killed, with an intact cache', async () => {
    const dataDir = tempDir()
    // Slow details so the kill lands mid-run.
    service.faults.add({ path: '/api/v1/artists/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 20_000 } })
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'sync', '--base-url', service.baseUrl, '--data-dir', dataDir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString()
        const match = /details\s+(\d+)\//.exec(stderr.split('\n').filter(Boolean).at(-1) ?? '')
        if (match && Number(match[1]) >= 20) resolve()
      })
      child.once('exit', (code) => reject(new Error(`sync exited early with ${code}: ${stderr}`)))
    })
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    service.faults.clear()
    const { db } = openCache(dataDir, service.baseUrl)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(syncStatus(db).lastRun).toMatchObject({ state: 'running', phase: 'details' })
    db.close()
    const resumed = await syncInto(dataDir, service.baseUrl)
    expect(resumed.report.resumed).toBe(true)
    expect(dumpCache(resumed.db)).toEqual(reference)
    expect(resumed.db.pragma('integrity_check', { simple: true })).toBe('ok')
    resumed.db.close()
  })
})

describe('artists that leave the service', () => {
  it('are marked gone, not deleted, and come back if listed again', async () => {
    const own = await startCatalogueService({ artists: 80, seed: 34, maxFileMb: 8 })
    try {
      const dataDir = tempDir()
      const first = await syncInto(dataDir, own.baseUrl, { skipAvatars: true })
      first.db.close()
      const leaving = own.catalogue.artists.find((a) => a.numTracks > 0)!
      own.catalogue.removeArtist(leaving.username)
      const second = await syncInto(dataDir, own.baseUrl, { skipAvatars: true })
      expect(second.report.gone).toBe(1)
      const cached = getArtist(second.db, leaving.username)!
      expect(cached.goneAt).not.toBeNull()
      expect(cached.tracks).toHaveLength(leaving.numTracks)
      const listed = listArtists(second.db, { includeBlank: true, perPage: 1000 })
      expect(listed.total).toBe(79)
      expect(listed.artists.map((a) => a.username)).not.toContain(leaving.username)
      expect(listArtists(second.db, { q: leaving.username }).artists.map((a) => a.username)).not.toContain(leaving.username)
      second.db.close()
      own.catalogue.restoreArtist(leaving.username)
      const third = await syncInto(dataDir, own.baseUrl, { skipAvatars: true })
      expect(getArtist(third.db, leaving.username)!.goneAt).toBeNull()
      third.db.close()
    } finally {
      await own.close()
    }
  })
})

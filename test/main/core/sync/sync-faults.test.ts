import { describe, expect } from 'vitest'
import { startCatalogueService, type Fault } from '../../../../src-main/demo/index'
import { CancelledError, TuneshelfError } from '../../../../src-main/core/shared/errors'
import { openLibrary as openLibraryOf } from '../../../../src-main/core/library/library'
import { dumpCache } from '../../support/cache'
import { exited, spawnCli } from '../../support/cli'
import { QUICK_RETRIES, catalogueTest } from '../../support/fixtures'
import { integrityCheck, withCache } from './cache-file'

const ARTISTS = 200
const test = catalogueTest({ artists: ARTISTS, seed: 33, maxFileMb: 8 })
/** The cache of a sync without faults: every sync under faults must end with the same. */
let reference: unknown

test.beforeAll(async ({ demo, tempDir }) => {
  const library = openLibraryOf({ dataDir: tempDir(), baseUrl: demo.baseUrl, client: QUICK_RETRIES })
  try {
    await library.sync.start()
    reference = withCache(library.cacheFile, dumpCache)
  } finally {
    await library.dispose()
  }
})
test.afterEach(({ demo }) => demo.faults.clear())

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
  test.for(faults)('finishes with the same cache after %s on lists, details, levels and avatars', async ([, fault], { demo, openLibrary }) => {
    demo.faults.add({ path: '/api/v1/artists', times: 3, fault })
    demo.faults.add({ path: '/api/v1/artists/*', times: 3, fault })
    demo.faults.add({ path: '/api/v1/access_levels', times: 2, fault })
    demo.faults.add({ path: '/avatars/*', times: 2, fault })
    const library = openLibrary()
    const report = await library.sync.start()
    expect(demo.faults.pending()).toBe(0)
    expect(report.detailFailures).toEqual([])
    expect(withCache(library.cacheFile, dumpCache)).toEqual(reference)
  })

  test('notes an artist whose detail keeps failing, finishes, and fetches it on the next sync', async ({ demo, openLibrary }) => {
    const victim = demo.catalogue.artists.find((a) => a.numTracks > 0)!
    demo.faults.add({ path: `/api/v1/artists/${victim.username}`, times: 1000, fault: { kind: 'status', status: 500 } })
    const library = openLibrary()
    const first = await library.sync.start()
    expect(first.detailFailures.map((f) => f.username)).toEqual([victim.username])
    expect(first.detailFailures[0]!.message).toMatch(/500/)
    expect(library.catalogue.artist(victim.username).tracks).toEqual([])
    expect(library.catalogue.status().detailErrors).toEqual([{ username: victim.username, error: expect.stringMatching(/500/) }])
    expect(library.catalogue.status().detailsPending).toBe(1)
    demo.faults.clear()
    const second = await library.sync.start()
    expect(second.detailsFetched).toBe(1)
    expect(library.catalogue.status().detailErrors).toEqual([])
    expect(withCache(library.cacheFile, dumpCache)).toEqual(reference)
  })

  test('fails cleanly when a list page never answers, and resumes from there', async ({ demo, openLibrary, tempDir }) => {
    demo.faults.add({ path: '/api/v1/artists', times: 1000, fault: { kind: 'status', status: 503 } })
    const dataDir = tempDir()
    const failing = openLibrary({ dataDir })
    const failure = await failing.sync.start().catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(TuneshelfError)
    expect(failure).toMatchObject({ code: 'server', message: expect.stringMatching(/503/) })
    expect(failing.sync.state).toMatchObject({ status: 'idle', lastError: { code: 'server' } })
    // A second library on the same folder sees the failed run, and resumes it.
    const library = openLibrary({ dataDir })
    expect(library.catalogue.status().lastRun).toMatchObject({ state: 'failed', phase: 'lists' })
    expect(library.catalogue.status().lastFullSyncAt).toBeNull()
    demo.faults.clear()
    const resumed = await library.sync.start()
    expect(resumed.resumed).toBe(true)
    expect(withCache(library.cacheFile, dumpCache)).toEqual(reference)
  })
})

describe('cancel and resume', () => {
  test('stops at once when cancelled, keeps what it has, and resumes to the same cache', async ({ openLibrary, tempDir }) => {
    const dataDir = tempDir()
    const cancelling = openLibrary({ dataDir, syncProgressIntervalMs: 0 })
    cancelling.sync.onDidProgress((progress) => {
      if (progress.phase === 'details' && progress.done === 60) cancelling.sync.cancel()
    })
    const failure = await cancelling.sync.start().catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(CancelledError)
    expect(failure).toMatchObject({ code: 'cancelled' })
    const library = openLibrary({ dataDir })
    const status = library.catalogue.status()
    expect(status.lastRun).toMatchObject({ state: 'cancelled', phase: 'details' })
    expect(status.detailsPending).toBeGreaterThan(100)
    expect(status.detailsPending).toBeLessThan(ARTISTS - 59)
    const resumed = await library.sync.start()
    expect(resumed.resumed).toBe(true)
    expect(resumed.listPages).toBe(0)
    expect(resumed.detailsFetched).toBe(status.detailsPending)
    expect(withCache(library.cacheFile, dumpCache)).toEqual(reference)
  })

  test('resumes the lists of a cancelled run from the pages it had', async ({ openLibrary }) => {
    const library = openLibrary({ syncProgressIntervalMs: 0 })
    let pages = 0
    const subscription = library.sync.onDidProgress((progress) => {
      if (progress.phase === 'lists' && ++pages === 8) library.sync.cancel()
    })
    await expect(library.sync.start({ concurrency: 1 })).rejects.toMatchObject({ code: 'cancelled' })
    subscription.dispose()
    const resumed = await library.sync.start()
    expect(resumed.resumed).toBe(true)
    const totalPages = 5 * Math.ceil(ARTISTS / 50) - 3 // the podcaster pass has one page
    expect(resumed.listPages).toBeGreaterThan(0)
    expect(resumed.listPages).toBeLessThan(totalPages)
    expect(withCache(library.cacheFile, dumpCache)).toEqual(reference)
  })

  test('resumes after the syncing process is killed, with an intact cache', async ({ demo, openLibrary, tempDir }) => {
    const dataDir = tempDir()
    // Slow details so the kill lands mid-run.
    demo.faults.add({ path: '/api/v1/artists/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 20_000 } })
    const child = spawnCli(['sync', '--base-url', demo.baseUrl, '--data-dir', dataDir])
    let stderr = ''
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString()
        const match = /details\s+(\d+)\//.exec(stderr.split('\n').filter(Boolean).at(-1) ?? '')
        if (match && Number(match[1]) >= 20) resolve()
      })
      child.once('exit', (code) => reject(new Error(`sync exited early with ${code}: ${stderr}`)))
    })
    child.kill('SIGKILL')
    await exited(child)
    demo.faults.clear()
    const library = openLibrary({ dataDir })
    expect(integrityCheck(library.cacheFile)).toBe('ok')
    expect(library.catalogue.status().lastRun).toMatchObject({ state: 'running', phase: 'details' })
    // The killed process's lock is stale (its pid is gone): this sync takes it over at once.
    const resumed = await library.sync.start()
    expect(resumed.resumed).toBe(true)
    expect(resumed.joined).toBe(false)
    expect(withCache(library.cacheFile, dumpCache)).toEqual(reference)
    expect(integrityCheck(library.cacheFile)).toBe('ok')
  })
})

describe('artists that leave the service', () => {
  test('are marked gone, not deleted, and come back if listed again', async ({ openLibrary, tempDir }) => {
    const own = await startCatalogueService({ artists: 80, seed: 34, maxFileMb: 8 })
    try {
      const library = openLibrary({ dataDir: tempDir(), baseUrl: own.baseUrl })
      await library.sync.start({ skipAvatars: true })
      const leaving = own.catalogue.artists.find((a) => a.numTracks > 0)!
      own.catalogue.removeArtist(leaving.username)
      const second = await library.sync.start({ skipAvatars: true })
      expect(second.gone).toBe(1)
      const cached = library.catalogue.artist(leaving.username)
      expect(cached.goneAt).not.toBeNull()
      expect(cached.tracks).toHaveLength(leaving.numTracks)
      const listed = library.catalogue.list({ includeBlank: true, perPage: 1000 })
      expect(listed.total).toBe(79)
      expect(listed.artists.map((a) => a.username)).not.toContain(leaving.username)
      expect(library.catalogue.list({ q: leaving.username }).artists.map((a) => a.username)).not.toContain(leaving.username)
      own.catalogue.restoreArtist(leaving.username)
      await library.sync.start({ skipAvatars: true })
      expect(library.catalogue.artist(leaving.username).goneAt).toBeNull()
    } finally {
      await own.close()
    }
  })
})

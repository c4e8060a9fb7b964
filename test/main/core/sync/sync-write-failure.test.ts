/**
 * A write that fails in the sync's timer-driven batch flush (here: another
 * connection holds the write lock, so the flush gives up with SQLITE_BUSY
 * after the 5 s busy timeout). The timer has no caller to throw to: the run
 * must fail cleanly with a core error, never an uncaught exception (which
 * would end Electron's main process), and a later sync must resume.
 */
import { expect } from 'vitest'
import type { CatalogueClient } from '../../../../src-main/core/api/index'
import { openCache, openDatabase } from '../../../../src-main/core/db/connection'
import { BusyError } from '../../../../src-main/core/shared/errors'
import { syncCatalogue, type SyncProgress } from '../../../../src-main/core/sync/sync'
import { catalogueTest, testClient } from '../../support/fixtures'
import { integrityCheck } from './cache-file'

const ARTISTS = 40
const test = catalogueTest({ artists: ARTISTS, seed: 52, maxFileMb: 4 })
test.afterEach(({ demo }) => demo.faults.clear())

test('a busy database in the details flush fails the run with a busy error, and the next sync resumes', { timeout: 60_000 }, async ({ demo, openLibrary, tempDir }) => {
  const dataDir = tempDir()
  const cache = openCache(dataDir, demo.baseUrl)
  const holder = openDatabase(cache.file)
  const release = (): void => {
    if (holder.inTransaction) holder.exec('ROLLBACK')
  }
  // The run's requests carry its signal: when the failure aborts them, the other writer lets go at once,
  // so the run's own last writes (its end, its lock) do not wait out the busy timeout as well.
  const real = testClient(demo.baseUrl)
  const client: CatalogueClient = {
    ...real,
    getArtist: (username, options) => {
      options?.signal?.addEventListener('abort', release, { once: true })
      return real.getArtist(username, options)
    },
  }
  // Slow details: fewer than 256 (a full batch) and arriving over seconds, so the first write
  // of the phase is the 100 ms timer's, long before the phase's own last flush.
  demo.faults.add({ path: '/api/v1/artists/*', times: 10_000, fault: { kind: 'slow', bytesPerSecond: 10_000 } })
  const progress: SyncProgress[] = []
  // Vitest fails the run on an uncaught exception too; seen here, it fails this test by name.
  const uncaught: unknown[] = []
  const onUncaught = (error: unknown): void => void uncaught.push(error)
  process.on('uncaughtException', onUncaught)
  demo.requests.reset()
  try {
    const failure = await syncCatalogue({
      db: cache.db,
      client,
      skipAvatars: true,
      progressIntervalMs: 0,
      onProgress: (value) => {
        progress.push(value)
        if (value.phase === 'details' && progress.filter((p) => p.phase === 'details').length === 1) holder.exec('BEGIN IMMEDIATE')
      },
    }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(BusyError)
    expect(failure).toMatchObject({
      code: 'busy',
      retryable: true,
      message: expect.stringMatching(/^syncing the catalogue: the catalogue cache is in use by another process/),
    })
    expect((failure as Error).message).not.toMatch(/^\s+at /m)
    // It was the timer's flush: the phase was far from done when the run stopped.
    const details = progress.filter((p) => p.phase === 'details')
    expect(details.at(-1)!.done).toBeLessThan(ARTISTS / 2)
    expect(demo.requests.artist).toBeLessThan(ARTISTS / 2)
    expect(cache.db.prepare('SELECT state, phase FROM sync_runs ORDER BY id DESC LIMIT 1').get()).toEqual({ state: 'failed', phase: 'details' })
    expect(cache.db.prepare(`SELECT count(*) FROM locks`).pluck().get()).toBe(0)
    expect(uncaught).toEqual([])
  } finally {
    process.off('uncaughtException', onUncaught)
    release()
    holder.close()
    cache.close()
  }
  expect(integrityCheck(cache.file)).toBe('ok')

  demo.faults.clear()
  const library = openLibrary({ dataDir })
  const resumed = await library.sync.start({ skipAvatars: true })
  expect(resumed).toMatchObject({ resumed: true, listPages: 0, detailFailures: [] })
  expect(library.catalogue.status()).toMatchObject({ detailsPending: 0, lastRun: { state: 'completed' } })
  for (const artist of demo.catalogue.artists) {
    const cached = library.catalogue.artist(artist.username)
    expect(cached.detailFetchedAt, artist.username).not.toBeNull()
    expect(cached.tracks, artist.username).toHaveLength(artist.numTracks)
  }
  expect(integrityCheck(library.cacheFile)).toBe('ok')
})

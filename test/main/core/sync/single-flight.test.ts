/**
 * One sync per cache: callers in this process join the run under way, and a
 * process that finds another syncing the cache waits for it instead of
 * fetching everything a second time.
 */
import { describe, expect } from 'vitest'
import { artistPath } from '../../../../src-main/core/shared/urls'
import type { RunningCatalogueService } from '../../../../src-main/demo/index'
import { exited, spawnCli } from '../../support/cli'
import { catalogueTest } from '../../support/fixtures'

const ARTISTS = 60
const test = catalogueTest({ artists: ARTISTS, seed: 41, maxFileMb: 4 })
test.afterEach(({ demo }) => demo.faults.clear())
/** What the CLI says when another process is syncing the same cache. */
const WAITING = /another Tuneshelf process \(pid \d+\) is syncing this catalogue; waiting/

/** How often each artist's detail was asked of the service since the last reset. */
function detailRequests(demo: RunningCatalogueService): Map<string, number> {
  return new Map(demo.catalogue.artists.map((artist) => [artist.username, demo.requests.byPath.get(artistPath(artist.username)) ?? 0]))
}

/** Every artist's detail was requested exactly once. */
function expectEachDetailOnce(demo: RunningCatalogueService): void {
  const counts = detailRequests(demo)
  expect(counts.size).toBe(ARTISTS)
  expect([...counts].filter(([, count]) => count !== 1), 'artists whose detail was not requested exactly once').toEqual([])
  expect(demo.requests.artist).toBe(ARTISTS)
}

describe('single flight in one process', () => {
  test('a second start while a sync runs joins it: one run, each detail fetched once', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    demo.requests.reset()
    const [first, second] = await Promise.all([library.sync.start(), library.sync.start()])
    expect(first.joined).toBe(false)
    expect(second.joined).toBe(true)
    expect(second.runId).toBe(first.runId)
    expect(first.detailsFetched).toBe(ARTISTS)
    expectEachDetailOnce(demo)
    // One run's list pages, not two: each list page of each pass asked for once.
    const listRequests = demo.requests.list
    expect(listRequests).toBe(first.listPages)
    expect(library.catalogue.status()).toMatchObject({ detailsPending: 0, lastRun: { id: first.runId, state: 'completed' } })
  })

  test('two libraries on one data folder share the run', async ({ demo, openLibrary, tempDir }) => {
    const dataDir = tempDir()
    const one = openLibrary({ dataDir })
    const other = openLibrary({ dataDir })
    expect(other.cacheFile).toBe(one.cacheFile)
    demo.requests.reset()
    const [first, second] = await Promise.all([one.sync.start(), other.sync.start()])
    expect([first.joined, second.joined]).toEqual([false, true])
    expect(second.runId).toBe(first.runId)
    expectEachDetailOnce(demo)
    expect(other.catalogue.status()).toMatchObject({ detailsPending: 0, lastRun: { id: first.runId, state: 'completed' } })
  })

  test('a start after the run ended starts a new run', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    const first = await library.sync.start()
    demo.requests.reset()
    const second = await library.sync.start()
    expect(second.joined).toBe(false)
    expect(second.runId).toBe(first.runId + 1)
    expect(second.detailsFetched).toBe(0)
    expect(demo.requests.list).toBeGreaterThan(0)
  })
})

describe('single flight across processes', () => {
  test('two CLI syncs started at once on one data folder fetch each detail once between them', async ({ demo, tempDir }) => {
    // Details crawl until one of the two says it waits for the other: the runs overlap however the processes are scheduled.
    demo.faults.add({ path: '/api/v1/artists/*', times: 10_000, fault: { kind: 'slow', bytesPerSecond: 3_000 } })
    const dataDir = tempDir()
    demo.requests.reset()
    const args = ['sync', '--base-url', demo.baseUrl, '--data-dir', dataDir, '--no-avatars']
    const runs = [spawnCli(args), spawnCli(args)].map((child) => {
      const run = { stdout: '', stderr: '', exit: exited(child) }
      child.stdout!.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()))
      child.stderr!.on('data', (chunk: Buffer) => {
        run.stderr += chunk.toString()
        if (WAITING.test(run.stderr)) demo.faults.clear()
      })
      return run
    })
    const exits = await Promise.all(runs.map((run) => run.exit))
    const output = runs.map((run) => run.stderr).join('\n---\n')
    expect(exits, output).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ])
    expectEachDetailOnce(demo)
    const waited = runs.filter((run) => WAITING.test(run.stderr))
    expect(waited, output).toHaveLength(1)
    expect(waited[0]!.stderr).toMatch(/synced .* by another process meanwhile/)
    const ran = runs.find((run) => run !== waited[0])!
    expect(ran.stderr).toMatch(new RegExp(`${ARTISTS} artist details`))
  })
})

/**
 * Attack 1: a catalogue service that claims an absurd page count. Once the sync
 * asked for every page of every pass at once, so `{"pages":1e9}` filled the
 * heap in seconds; the count was stored with the run, and every resume did the
 * same again, long after the service was fixed. Now an impossible count fails
 * the run with a bad response, list pages are asked for a few at a time, and a
 * stored impossible count does not survive a resume.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, onTestFinished } from 'vitest'
import { dumpCache } from '../support/cache'
import { catalogueTest } from '../support/fixtures'
import { integrityCheck, withCache } from '../core/sync/cache-file'

const ARTISTS = 120
const test = catalogueTest({ artists: ARTISTS, seed: 101, maxFileMb: 2 })

/** List pages of a full sync of the demo: each sort order's pages, and the podcasters'. */
function listPagesOf(demo: { catalogue: { artists: { isPodcaster: boolean }[] } }): number {
  const podcasters = demo.catalogue.artists.filter((artist) => artist.isPodcaster).length
  return 4 * Math.ceil(ARTISTS / 50) + Math.max(1, Math.ceil(podcasters / 50))
}

interface HostileService {
  baseUrl: string
  /** List requests answered so far. */
  listRequests: number
  /** Most requests in flight at once, of any kind. */
  maxInFlight: number
}

/**
 * A service whose every list page claims `pages` pages (and lists nobody); it answers a bounded
 * number of requests and refuses the rest, so a runaway sync cannot run the test forever.
 */
async function hostileService(pages: number, options: { delayMs?: number; onList?: (count: number) => void; oneArtistEach?: boolean } = {}): Promise<HostileService> {
  const state: HostileService = { baseUrl: '', listRequests: 0, maxInFlight: 0 }
  let inFlight = 0
  let answered = 0
  const server = http.createServer((request, response) => {
    if (++answered > 5_000) {
      response.writeHead(400).end()
      return
    }
    inFlight++
    state.maxInFlight = Math.max(state.maxInFlight, inFlight)
    const url = new URL(request.url ?? '/', 'http://localhost')
    const send = (body: string): void => {
      setTimeout(() => {
        inFlight--
        response.writeHead(200, { 'content-type': 'application/json' }).end(body)
      }, options.delayMs ?? 0)
    }
    if (url.pathname === '/api/v1/artists') {
      state.listRequests++
      options.onList?.(state.listRequests)
      // Written as the attack sends it: 1e9 is a valid JSON number, and a safe integer. An empty
      // page ends its list (attack 18), so a service that must be read on lists one artist a page.
      const artists = options.oneArtistEach ? [listedArtist(`${url.searchParams.get('sort') ?? 'podcaster'}-${url.searchParams.get('page')}`)] : []
      send(`{"pages":${pages === 1e9 ? '1e9' : pages},"artists":${JSON.stringify(artists)}}`)
    } else if (url.pathname === '/api/v1/access_levels') {
      send('{}')
    } else {
      inFlight--
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return state
}

/** An artist as a list page gives it (service-interface.md 2.1, wrapped in `{ artist }`), with no tracks. */
function listedArtist(username: string): object {
  return {
    artist: {
        username, num_tracks: 0, pf_name: username, pf_facebook: null, pf_twitter: null, pf_website: null, pf_bio: '',
      avatar: '', avatar_thumb: '', location: { id: 1, name: 'Nowhere' }, user: { username }, items: [],
    },
  }
}

/** The largest heap seen while work runs, sampled often (the growth of a runaway queue shows between collections too). */
async function peakHeapDuring<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = process.memoryUsage().heapUsed
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2)
  try {
    const result = await work()
    peak = Math.max(peak, process.memoryUsage().heapUsed)
    return { result, growth: peak - before }
  } finally {
    clearInterval(sampler)
  }
}

const MB = 1024 * 1024

describe('a service that claims an absurd page count', () => {
  test('fails the sync at once with a bad response, in a small heap, after a handful of requests', async ({ openLibrary }) => {
    const hostile = await hostileService(1e9)
    const library = openLibrary({ baseUrl: hostile.baseUrl })
    const startedAt = performance.now()
    const { result: failure, growth } = await peakHeapDuring(() => library.sync.start({ skipAvatars: true }).catch((error: unknown) => error))
    expect(failure).toMatchObject({ code: 'bad_response', message: expect.stringMatching(/1000000000 pages/) })
    expect(performance.now() - startedAt).toBeLessThan(3_000)
    expect(hostile.listRequests).toBeLessThanOrEqual(10)
    expect(growth).toBeLessThan(64 * MB)
    // Nothing of the impossible count was kept for a resume.
    expect(withCache(library.cacheFile, (db) => db.prepare('SELECT count(*) FROM sync_pages WHERE pages > 1000000').pluck().get())).toBe(0)
  })

  test('with a large but possible count, asks for a few list pages at a time, never all of them', async ({ openLibrary }) => {
    const concurrency = 4
    // The sync is stopped after 150 list pages (the library exists only once the service does).
    let cancel = (): void => undefined
    // 100 000 pages of 50 is five million artists: the most a catalogue is believed to hold.
    const hostile = await hostileService(100_000, {
      delayMs: 1,
      oneArtistEach: true,
      onList: (count) => {
        if (count === 150) cancel()
      },
    })
    const library = openLibrary({ baseUrl: hostile.baseUrl })
    cancel = () => library.sync.cancel()
    const { result: failure, growth } = await peakHeapDuring(() => library.sync.start({ concurrency, skipAvatars: true }).catch((error: unknown) => error))
    expect(failure, String(failure)).toMatchObject({ code: 'cancelled' })
    expect(hostile.maxInFlight).toBeLessThanOrEqual(concurrency)
    // Five passes of 100 000 pages queued at once took hundreds of megabytes.
    expect(growth).toBeLessThan(48 * MB)
    expect(hostile.listRequests).toBeLessThan(150 + 2 * concurrency)
  })

  test('a cache that stored an impossible count from such a service resumes against the fixed service and finishes', async ({ demo, openLibrary, tempDir }) => {
    const dataDir = tempDir()
    // An interrupted first run, with some list pages stored...
    const first = openLibrary({ dataDir, syncProgressIntervalMs: 0 })
    let pages = 0
    first.sync.onDidProgress((progress) => {
      if (progress.phase === 'lists' && ++pages === 4) first.sync.cancel()
    })
    await expect(first.sync.start({ concurrency: 1, skipAvatars: true })).rejects.toMatchObject({ code: 'cancelled' })
    await first.dispose()
    // ...whose stored page count is the one an older Tuneshelf kept from the hostile answer.
    const changed = withCache(first.cacheFile, (db) => db.prepare('UPDATE sync_pages SET pages = 1e9 WHERE page = 1').run().changes)
    expect(changed).toBeGreaterThan(0)

    demo.requests.reset()
    const library = openLibrary({ dataDir })
    const { result: report, growth } = await peakHeapDuring(() => library.sync.start({ skipAvatars: true }))
    expect(report).toMatchObject({ resumed: true, detailFailures: [] })
    expect(growth).toBeLessThan(64 * MB)
    // Only real pages were asked for: at most every page of the catalogue once more.
    expect(demo.requests.list).toBeLessThanOrEqual(listPagesOf(demo))
    expect(library.catalogue.status()).toMatchObject({ detailsPending: 0, lastRun: { state: 'completed' } })

    const reference = openLibrary()
    await reference.sync.start({ skipAvatars: true })
    expect(withCache(library.cacheFile, dumpCache)).toEqual(withCache(reference.cacheFile, dumpCache))
    expect(integrityCheck(library.cacheFile)).toBe('ok')
  })
})

/**
 * The requests a sync makes, as the service sees them: only those it needs
 * (every list page, one detail and one thumbnail per artist, the levels), never
 * more in flight than the concurrency setting across every kind together, the
 * kinds overlapping, and a first sync's list browsable long before its end.
 */
import { describe, expect } from 'vitest'
import { artistListJson } from '../../../../src-main/cli/service-json'
import type { ArtistPage } from '../../../../src-main/core/shared/types'
import { catalogueTest } from '../../support/fixtures'

const ARTISTS = 180
// A little latency, as a real service has: requests overlap, and the order of events is the network's.
const test = catalogueTest({ artists: ARTISTS, seed: 31, maxFileMb: 2, latencyMs: 4 })

/** List pages of a full sync: each sort order's pages (blank artists included), and the podcasters'. */
function listPagesOf(demo: { catalogue: { artists: { isPodcaster: boolean }[] } }): number {
  const podcasters = demo.catalogue.artists.filter((artist) => artist.isPodcaster).length
  return 4 * Math.ceil(ARTISTS / 50) + Math.max(1, Math.ceil(podcasters / 50))
}

describe('the requests of a sync', () => {
  test('a first sync makes only the requests it needs: list pages, one detail and one thumbnail per artist, the levels', async ({ demo, openLibrary }) => {
    demo.requests.reset()
    const library = openLibrary()
    await library.sync.start({ concurrency: 4 })
    expect({ list: demo.requests.list, artist: demo.requests.artist, avatar: demo.requests.avatar, levels: demo.requests.levels }).toEqual({
      list: listPagesOf(demo),
      artist: ARTISTS,
      avatar: ARTISTS,
      levels: 1,
    })
    expect(demo.requests.total).toBe(listPagesOf(demo) + 2 * ARTISTS + 1)

    // Nothing changed: the lists and the levels, and nothing else.
    demo.requests.reset()
    await library.sync.start({ concurrency: 4 })
    expect(demo.requests.total).toBe(listPagesOf(demo) + 1)
  })

  test.for([1, 3, 6])('never has more than %i requests in flight, whatever their kind, and keeps that many going', async (concurrency, { demo, openLibrary }) => {
    demo.requests.reset()
    await openLibrary().sync.start({ concurrency })
    expect(demo.requests.maxInFlight).toBe(concurrency)
    expect(demo.requests.inFlight).toBe(0)
  })

  test('fetches details and thumbnails while list pages are still coming', async ({ demo, openLibrary }) => {
    demo.requests.reset()
    // The first list page (the trending order's) comes slowly: the other passes' pages are in long
    // before it, and their artists' details and thumbnails do not wait for it.
    demo.faults.add({ path: '/api/v1/artists', times: 1, fault: { kind: 'slow', bytesPerSecond: 60_000 } })
    await openLibrary().sync.start({ concurrency: 4 })
    const { firstStarted, lastEnded } = demo.requests
    expect(firstStarted.get('artist')!).toBeLessThan(lastEnded.get('list')!)
    expect(firstStarted.get('avatar')!).toBeLessThan(lastEnded.get('artist')!)
    // The levels go out with the first list pages, not after the details.
    expect(firstStarted.get('levels')!).toBeLessThan(firstStarted.get('artist')!)
  })

  test('a first sync can be browsed as soon as its first page is in, in the service\'s order', async ({ demo, openLibrary }) => {
    // Every progress report, so the test sees the first page as soon as it is stored.
    const library = openLibrary({ syncProgressIntervalMs: 0 })
    let early: { page: ArtistPage; phase: string } | undefined
    library.catalogue.onDidChange(() => {
      early ??= { page: library.catalogue.list({ perPage: 10 }), phase: library.sync.state.progress?.phase ?? 'none' }
    })
    await library.sync.start({ concurrency: 4 })
    expect(early).toBeDefined()
    expect(early!.phase).toBe('lists')
    expect(early!.page.artists.length).toBeGreaterThan(0)
    // What was shown early is the start of the service's own first page.
    const service = (await (await fetch(`${demo.baseUrl}/api/v1/artists?per_page=10`)).json()) as { artists: { artist: { username: string } }[] }
    const shown = (artistListJson(early!.page) as { artists: { artist: { username: string } }[] }).artists.map(({ artist }) => artist.username)
    expect(shown).toEqual(service.artists.map(({ artist }) => artist.username).slice(0, shown.length))
  })
})

import { describe, expect } from 'vitest'
import { accessLevelsJson, artistJson, artistListJson } from '../../../../src-main/cli/service-json'
import type { RunningCatalogueService } from '../../../../src-main/demo/index'
import { SORT_ORDERS } from '../../../../src-main/core/shared/catalogue'
import type { SyncProgress } from '../../../../src-main/core/sync/sync'
import { catalogueTest } from '../../support/fixtures'
import { withoutDirections } from '../api/helpers'

const ARTISTS = 260
const test = catalogueTest({ artists: ARTISTS, seed: 21, maxFileMb: 8 })

async function serviceJson(demo: RunningCatalogueService, path: string): Promise<unknown> {
  const response = await fetch(`${demo.baseUrl}${path}`)
  expect(response.status, path).toBe(200)
  // As the app keeps the service's texts: without direction controls (attack 21).
  return withoutDirections(await response.json())
}

interface ListedArtist {
  username: string
  location: unknown
  user: unknown
}

/** Every entry of the service's artist list (all pages, blank artists included), by username. */
async function everyListEntry(demo: RunningCatalogueService): Promise<Map<string, ListedArtist>> {
  const entries = new Map<string, ListedArtist>()
  for (let page = 1; ; page++) {
    const listed = (await serviceJson(demo, `/api/v1/artists?include_blank=1&per_page=50&page=${page}`)) as {
      pages: number
      artists: { artist: ListedArtist }[]
    }
    for (const { artist } of listed.artists) entries.set(artist.username, artist)
    if (page >= listed.pages) return entries
  }
}

describe('a full sync', () => {
  test('leaves a cache that answers every list query exactly as the service does', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    const report = await library.sync.start()
    expect(report.detailsFetched).toBe(ARTISTS)
    expect(report.detailFailures).toEqual([])
    expect(report.joined).toBe(false)
    for (const sort of SORT_ORDERS) {
      for (const reverse of [false, true]) {
        for (const kind of ['all', 'podcasts', 'musicians'] as const) {
          for (const includeBlank of [false, true]) {
            const filter = kind === 'all' ? '' : `&is_podcaster=${kind === 'podcasts' ? 1 : 0}`
            for (let page = 1; ; page++) {
              const path = `/api/v1/artists?sort=${sort}&sort_r=${reverse ? 1 : 0}&include_blank=${includeBlank ? 1 : 0}${filter}&per_page=30&page=${page}`
              const offline = artistListJson(library.catalogue.list({ sort, reverse, kind, includeBlank, page, perPage: 30 }))
              expect(offline, path).toEqual(await serviceJson(demo, path))
              if ((offline as { artists: unknown[] }).artists.length === 0) break
            }
          }
        }
      }
    }
  })

  test('holds every artist with every track field, its location and user from the list, and the access levels', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    await library.sync.start({ skipAvatars: true })
    // The detail has no location or user: the cache keeps the list's, for every artist (all pages of the list).
    const listed = await everyListEntry(demo)
    expect(listed.size).toBe(ARTISTS)
    for (const artist of demo.catalogue.artists) {
      const detail = (await serviceJson(demo, `/api/v1/artists/${encodeURIComponent(artist.username)}`)) as Record<string, unknown>
      delete detail['']
      const cached = artistJson(library.catalogue.artist(artist.username.toUpperCase())) as Record<string, unknown>
      const { location, user, ...rest } = cached
      expect(rest, artist.username).toEqual(detail)
      expect(user, artist.username).toEqual({ username: artist.username })
      const fromList = listed.get(artist.username)
      expect(fromList, `${artist.username} in the service's list`).toBeDefined()
      expect(location, artist.username).toEqual(fromList!.location)
      expect(user, artist.username).toEqual(fromList!.user)
    }
    expect(accessLevelsJson(library.catalogue.levels())).toEqual(await serviceJson(demo, '/api/v1/access_levels'))
  })

  test('classifies podcasters and stores each thumbnail for offline display; the full size waits for the artist to be opened', async ({ demo, openLibrary }) => {
    const library = openLibrary()
    const report = await library.sync.start()
    const podcasters = library.catalogue.list({ kind: 'podcasts', includeBlank: true, perPage: 1000 }).artists.map((a) => a.username)
    expect(new Set(podcasters)).toEqual(new Set(demo.catalogue.artists.filter((a) => a.isPodcaster).map((a) => a.username)))
    expect(report.avatarsFetched).toBe(ARTISTS)
    expect(report.avatarFailures).toEqual([])
    const artist = library.catalogue.artist(demo.catalogue.artists[0]!.username)
    const online = async (address: string): Promise<Buffer> =>
      Buffer.from(await (await fetch(address.startsWith('//') ? `http:${address}` : address)).arrayBuffer())
    const thumbnail = library.catalogue.avatar(artist.avatarThumb)!
    expect(thumbnail.contentType).toBe('image/svg+xml')
    expect(thumbnail.body.equals(await online(artist.avatarThumb))).toBe(true)
    expect(library.catalogue.avatar(artist.avatar)).toBeUndefined()
    expect(artist.avatarCached).toBe(false)

    // Opened online, the artist gets its full-size avatar, once: opening it again fetches no image.
    const { artist: refreshed } = await library.catalogue.refreshArtist(artist.username)
    expect(refreshed.avatarCached).toBe(true)
    expect(library.catalogue.avatar(artist.avatar)!.body.equals(await online(artist.avatar))).toBe(true)
    demo.requests.reset()
    await library.catalogue.refreshArtist(artist.username)
    expect(demo.requests.avatar).toBe(0)
  })

  test('reports progress by phase, a few times a second at most', async ({ openLibrary }) => {
    const events: (SyncProgress & { at: number })[] = []
    const library = openLibrary({ syncProgressIntervalMs: 200 })
    library.sync.onDidProgress((progress) => events.push({ ...progress, at: performance.now() }))
    await library.sync.start()
    expect([...new Set(events.map((e) => e.phase))]).toEqual(['lists', 'details', 'levels', 'avatars', 'done'])
    const details = events.filter((e) => e.phase === 'details')
    expect(details.at(-1)).toMatchObject({ done: ARTISTS, total: ARTISTS })
    // The upkeep at the end is shown as the finish, begun then over, not as the avatars standing still.
    expect(events.filter((e) => e.phase === 'done').map(({ done, total }) => [done, total])).toEqual([[0, 1], [1, 1]])
    for (const phase of ['lists', 'details', 'avatars']) {
      const ofPhase = events.filter((e) => e.phase === phase)
      for (let i = 2; i < ofPhase.length - 1; i++) expect(ofPhase[i]!.at - ofPhase[i - 1]!.at).toBeGreaterThanOrEqual(195)
      for (let i = 1; i < ofPhase.length; i++) expect(ofPhase[i]!.done).toBeGreaterThanOrEqual(ofPhase[i - 1]!.done)
    }
    expect(library.catalogue.status().lastFullSyncAt).not.toBeNull()
  })
})

describe('an incremental sync', () => {
  test('fetches no details when nothing changed, and only the changed artist when one did', async ({ demo, openLibrary, tempDir }) => {
    const dataDir = tempDir()
    await openLibrary({ dataDir }).sync.start()
    // A fresh library on the same folder: what the first sync stored is what counts.
    const library = openLibrary({ dataDir })
    const second = await library.sync.start()
    expect(second.detailsFetched).toBe(0)
    expect(second.avatarsFetched).toBe(0)
    expect(second.resumed).toBe(false)

    const changed = demo.catalogue.artists.find((a) => a.numTracks > 0 && !a.removed)!
    // editArtist changes the record in place: keep the old bio to put it back.
    const oldBio = changed.pfBio
    demo.catalogue.editArtist(changed.username, { pfBio: 'A new bio\nwith a second line' })
    try {
      const third = await library.sync.start()
      expect(third.detailsFetched).toBe(1)
      expect(library.catalogue.artist(changed.username).bio).toBe('A new bio\nwith a second line')
    } finally {
      demo.catalogue.editArtist(changed.username, { pfBio: oldBio })
    }
  })
})

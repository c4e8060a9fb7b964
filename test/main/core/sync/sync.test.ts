import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/core/demo/index'
import { accessLevels, getArtist, getAvatar, listArtists, syncStatus, type SortOrder } from '../../../../src-main/core/db/queries'
import { accessLevelsJson, artistJson, artistListJson } from '../../../../src-main/core/cli/service-json'
import type { SyncProgress } from '../../../../src-main/core/sync/sync'
import { useTempDir } from '../db/temp-dir'
import { syncInto } from './helpers'

const tempDir = useTempDir()
const SORTS: SortOrder[] = ['trending', 'top', 'recently_created', 'recently_updated']
let service: RunningCatalogueService

beforeAll(async () => {
  service = await startCatalogueService({ artists: 260, seed: 21, maxFileMb: 8 })
})
afterAll(() => service.close())

async function serviceJson(path: string): Promise<unknown> {
  const response = await fetch(`${service.baseUrl}${path}`)
  expect(response.status, path).toBe(200)
  return response.json()
}

describe('a full sync', () => {
  it('leaves a cache that answers every list query exactly as the service does', async () => {
    const { db, report } = await syncInto(tempDir(), service.baseUrl)
    expect(report.detailsFetched).toBe(260)
    expect(report.detailFailures).toEqual([])
    for (const sort of SORTS) {
      for (const reverse of [false, true]) {
        for (const kind of ['all', 'podcasts', 'musicians'] as const) {
          for (const includeBlank of [false, true]) {
            const filter = kind === 'all' ? '' : `&is_podcaster=${kind === 'podcasts' ? 1 : 0}`
            for (let page = 1; ; page++) {
              const path = `/api/v1/artists?sort=${sort}&sort_r=${reverse ? 1 : 0}&include_blank=${includeBlank ? 1 : 0}${filter}&per_page=30&page=${page}`
              const offline = artistListJson(listArtists(db, { sort, reverse, kind, includeBlank, page, perPage: 30 }))
              expect(offline, path).toEqual(await serviceJson(path))
              if ((offline as { artists: unknown[] }).artists.length === 0) break
            }
          }
        }
      }
    }
    db.close()
  })

  it('holds every artist with every track field, and the access levels', async () => {
    const { db } = await syncInto(tempDir(), service.baseUrl, { skipAvatars: true })
    const listed = (await serviceJson('/api/v1/artists?include_blank=1&per_page=50&page=1')) as { artists: { artist: { location: unknown; user: unknown } }[] }
    const locations = new Map(listed.artists.map(({ artist }) => [JSON.stringify(artist.user), artist]))
    for (const artist of service.catalogue.artists) {
      const detail = (await serviceJson(`/api/v1/artists/${encodeURIComponent(artist.username)}`)) as Record<string, unknown>
      delete detail['']
      const cached = artistJson(getArtist(db, artist.username.toUpperCase())!) as Record<string, unknown>
      const { location, user, ...rest } = cached
      expect(rest, artist.username).toEqual(detail)
      expect(user).toEqual({ username: artist.username })
      const fromList = locations.get(JSON.stringify(user))
      if (fromList) expect(location).toEqual(fromList.location)
    }
    expect(accessLevelsJson(accessLevels(db))).toEqual(await serviceJson('/api/v1/access_levels'))
    db.close()
  })

  it('classifies podcasters and stores avatars for offline display', async () => {
    const dataDir = tempDir()
    const { db, report } = await syncInto(dataDir, service.baseUrl)
    const podcasters = listArtists(db, { kind: 'podcasts', includeBlank: true, perPage: 1000 }).artists.map((a) => a.username)
    expect(new Set(podcasters)).toEqual(new Set(service.catalogue.artists.filter((a) => a.isPodcaster).map((a) => a.username)))
    expect(report.avatarsFetched).toBe(2 * 260)
    expect(report.avatarFailures).toEqual([])
    const artist = getArtist(db, service.catalogue.artists[0]!.username)!
    for (const address of [artist.avatar, artist.avatarThumb]) {
      const cached = getAvatar(db, address)!
      expect(cached.contentType).toBe('image/svg+xml')
      const online = Buffer.from(await (await fetch(address.startsWith('//') ? `http:${address}` : address)).arrayBuffer())
      expect(cached.body.equals(online)).toBe(true)
    }
    db.close()
  })

  it('reports progress by phase, a few times a second at most', async () => {
    const events: (SyncProgress & { at: number })[] = []
    const { db } = await syncInto(tempDir(), service.baseUrl, {
      progressIntervalMs: 200,
      onProgress: (progress) => events.push({ ...progress, at: performance.now() }),
    })
    expect([...new Set(events.map((e) => e.phase))]).toEqual(['lists', 'details', 'levels', 'avatars', 'done'])
    const details = events.filter((e) => e.phase === 'details')
    expect(details.at(-1)).toMatchObject({ done: 260, total: 260 })
    for (const phase of ['lists', 'details', 'avatars']) {
      const ofPhase = events.filter((e) => e.phase === phase)
      for (let i = 2; i < ofPhase.length - 1; i++) expect(ofPhase[i]!.at - ofPhase[i - 1]!.at).toBeGreaterThanOrEqual(195)
      for (let i = 1; i < ofPhase.length; i++) expect(ofPhase[i]!.done).toBeGreaterThanOrEqual(ofPhase[i - 1]!.done)
    }
    expect(syncStatus(db).lastFullSyncAt).not.toBeNull()
    db.close()
  })
})

describe('an incremental sync', () => {
  it('fetches no details when nothing changed, and only the changed artist when one did', async () => {
    const dataDir = tempDir()
    const first = await syncInto(dataDir, service.baseUrl)
    first.db.close()
    const second = await syncInto(dataDir, service.baseUrl)
    expect(second.report.detailsFetched).toBe(0)
    expect(second.report.avatarsFetched).toBe(0)
    expect(second.report.resumed).toBe(false)
    second.db.close()

    const changed = service.catalogue.artists.find((a) => a.numTracks > 0 && !a.removed)!
    service.catalogue.editArtist(changed.username, { pfBio: 'A new bio\nwith a second line' })
    try {
      const third = await syncInto(dataDir, service.baseUrl)
      expect(third.report.detailsFetched).toBe(1)
      expect(getArtist(third.db, changed.username)!.bio).toBe('A new bio\nwith a second line')
      third.db.close()
    } finally {
      service.catalogue.editArtist(changed.username, { pfBio: changed.pfBio })
    }
  })
})

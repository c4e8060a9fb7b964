/** Every endpoint against the demo service: results equal its JSON after the documented normalisation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createCatalogueClient,
  NotFoundError,
  RejectedError,
  SORT_ORDERS,
  type CatalogueClient,
} from '../../../../src-main/core/api/index'
import { startCatalogueService, type RunningCatalogueService } from '../../../../src-main/core/demo/index'
import { expectedDetail, expectedList, rejectionOf, startPrefixProxy, wireJson, type WireDetail, type WireList } from './helpers'

let service: RunningCatalogueService
let client: CatalogueClient

beforeAll(async () => {
  service = await startCatalogueService({ artists: 300, seed: 7, maxFileMb: 16 })
  client = createCatalogueClient({ baseUrl: service.baseUrl, backoffMs: 5 })
})
afterAll(() => service.close())

describe('listArtists', () => {
  it('returns the first page with the service defaults when no option is given', async () => {
    const wire = await wireJson<WireList>(`${service.baseUrl}/api/v1/artists`)
    const list = await client.listArtists()
    expect(list).toStrictEqual(expectedList(wire))
    expect(list.artists).toHaveLength(25)
  })

  it.each(SORT_ORDERS.flatMap((sort) => [{ sort, reverse: false }, { sort, reverse: true }]))(
    'matches the service for sort $sort, reverse $reverse',
    async ({ sort, reverse }) => {
      const wire = await wireJson<WireList>(
        `${service.baseUrl}/api/v1/artists?page=2&per_page=50&sort=${sort}&sort_r=${reverse ? 1 : 0}&include_blank=1`,
      )
      const list = await client.listArtists({ page: 2, perPage: 50, sort, reverse, includeBlank: true })
      expect(list).toStrictEqual(expectedList(wire))
    },
  )

  it('matches the service for the podcaster and musician filters', async () => {
    for (const isPodcaster of [0, 1] as const) {
      const wire = await wireJson<WireList>(`${service.baseUrl}/api/v1/artists?per_page=50&is_podcaster=${isPodcaster}`)
      expect(await client.listArtists({ perPage: 50, isPodcaster })).toStrictEqual(expectedList(wire))
    }
  })

  it('sends search text with spaces and non-Latin letters intact', async () => {
    const artist = service.catalogue.artists.find((candidate) => /\s/.test(candidate.pfName) && candidate.numTracks > 0)!
    const wire = await wireJson<WireList>(`${service.baseUrl}/api/v1/artists?q=${encodeURIComponent(artist.pfName)}`)
    const list = await client.listArtists({ q: artist.pfName })
    expect(list).toStrictEqual(expectedList(wire))
    expect(list.artists.map((entry) => entry.username)).toContain(artist.username)
    const accented = await client.listArtists({ q: 'Björk 東京' })
    expect(accented.pages).toBeGreaterThanOrEqual(0)
  })

  it('returns an empty page past the last one', async () => {
    const { pages } = await client.listArtists({ perPage: 50 })
    expect(await client.listArtists({ perPage: 50, page: pages + 1 })).toEqual({ pages, artists: [] })
  })

  it('visits every artist once when paging through all of them', async () => {
    const first = await client.listArtists({ perPage: 50, includeBlank: true })
    const usernames = first.artists.map((artist) => artist.username)
    for (let page = 2; page <= first.pages; page++) {
      const next = await client.listArtists({ perPage: 50, includeBlank: true, page })
      usernames.push(...next.artists.map((artist) => artist.username))
    }
    expect(new Set(usernames).size).toBe(300)
  })

  it('rejects an out-of-range per_page with RejectedError carrying the service message, without retrying', async () => {
    let retries = 0
    const counting = createCatalogueClient({ baseUrl: service.baseUrl, backoffMs: 5, onRetry: () => retries++ })
    const error = await rejectionOf(counting.listArtists({ perPage: 5 }))
    expect(error).toBeInstanceOf(RejectedError)
    const rejected = error as RejectedError
    expect(rejected.status).toBe(400)
    expect(rejected.url).toBe(`${service.baseUrl}/api/v1/artists?per_page=5`)
    expect(rejected.message).toContain('per_page must be an integer from 10 to 50')
    expect(rejected.message).toContain(rejected.url)
    expect(JSON.parse(rejected.body)).toEqual({ error: 'per_page must be an integer from 10 to 50', parameter: 'per_page' })
    expect(retries).toBe(0)
  })
})

describe('getArtist', () => {
  it('returns every artist of the catalogue as the service sends it, normalised', async () => {
    const usernames = service.catalogue.artists.map((artist) => artist.username)
    // A few at a time, like the sync will; all 300 prove the schema takes every shape the demo produces.
    for (let start = 0; start < usernames.length; start += 20) {
      await Promise.all(
        usernames.slice(start, start + 20).map(async (username) => {
          const wire = await wireJson<WireDetail>(`${service.baseUrl}/api/v1/artists/${encodeURIComponent(username)}`)
          expect(await client.getArtist(username)).toStrictEqual(expectedDetail(wire))
        }),
      )
    }
  })

  it('covers the unkind data: other subtypes, null handles, artists without tracks, podcasters', async () => {
    const artists = service.catalogue.artists
    const otherSubtype = artists.find((artist) =>
      service.catalogue.tracksOf(artist).some((track) => track.subtype !== 'track'),
    )!
    const detail = await client.getArtist(otherSubtype.username)
    expect(detail.items.some((item) => item.subtype !== 'track')).toBe(true)

    const noHandle = artists.find((artist) => artist.pfFacebook === null)!
    expect((await client.getArtist(noHandle.username)).pf_facebook).toBeNull()

    const blank = artists.find((artist) => artist.numTracks === 0)!
    const blankDetail = await client.getArtist(blank.username)
    expect(blankDetail.items).toEqual([])
    expect(blankDetail.num_tracks).toBe(0)

    const podcaster = artists.find((artist) => artist.isPodcaster && artist.numTracks > 0)!
    expect((await client.getArtist(podcaster.username)).items.length).toBe(podcaster.numTracks)
  })

  it('drops the empty-named member and fills location and user with null', async () => {
    const username = service.catalogue.artists[3]!.username
    const wire = await wireJson<WireDetail>(`${service.baseUrl}/api/v1/artists/${username}`)
    expect(Object.keys(wire)).toContain('')
    const detail = await client.getArtist(username)
    expect(Object.keys(detail)).not.toContain('')
    expect(detail.location).toBeNull()
    expect(detail.user).toBeNull()
  })

  it('finds an artist whatever the case of the username', async () => {
    const username = service.catalogue.artists.find((artist) => /[A-Z]/.test(artist.username))!.username
    expect((await client.getArtist(username.toLowerCase())).username).toBe(username)
  })

  it('rejects an unknown username with NotFoundError naming the URL, without retrying', async () => {
    let retries = 0
    const counting = createCatalogueClient({ baseUrl: service.baseUrl, backoffMs: 5, onRetry: () => retries++ })
    const error = await rejectionOf(counting.getArtist('no such artist/..'))
    expect(error).toBeInstanceOf(NotFoundError)
    const notFound = error as NotFoundError
    expect(notFound.url).toBe(`${service.baseUrl}/api/v1/artists/no%20such%20artist%2F..`)
    expect(notFound.message).toContain(notFound.url)
    expect(notFound.message).toContain('no artist named "no such artist/.."')
    expect(retries).toBe(0)
  })

  it.each(['..', '.', 'mixtape.json'])('asks for the username %s itself, not for another path', async (name) => {
    const error = await rejectionOf(client.getArtist(name))
    expect(error).toBeInstanceOf(NotFoundError)
    expect((error as NotFoundError).message).toContain(`no artist named ${JSON.stringify(name)}`)
  })

  it('refuses an empty username rather than asking for the list endpoint', async () => {
    await expect(client.getArtist('')).rejects.toBeInstanceOf(TypeError)
  })
})

describe('accessLevels', () => {
  it('returns the four levels sorted by id, as the service lists them', async () => {
    const wire = await wireJson<Record<string, unknown>>(`${service.baseUrl}/api/v1/access_levels`)
    const levels = await client.accessLevels()
    expect(levels).toStrictEqual(Object.values(wire))
    expect(levels.map((level) => level.name)).toEqual(['Free', 'Silver', 'Gold', 'Platinum'])
    expect(levels[0]).toStrictEqual({ id: 1, name: 'Free', maxsize: 100, price: 0, bandwidth: 30, storage: 2 })
  })

  it('sorts by id whatever the order of the members', async () => {
    const body = JSON.stringify({
      '3': { id: 3, name: 'Gold', maxsize: 4096, price: 15, bandwidth: 250, storage: 100 },
      '1': { id: 1, name: 'Free', maxsize: 100, price: 0, bandwidth: 30, storage: 2 },
      '2': { id: 2, name: 'Silver', maxsize: 4096, price: 8, bandwidth: 100, storage: 60 },
    })
    service.faults.add({ path: '/api/v1/access_levels', fault: { kind: 'respond', status: 200, body } })
    expect((await client.accessLevels()).map((level) => level.id)).toEqual([1, 2, 3])
  })
})

describe('base URL', () => {
  it('is normalised without a trailing slash and works with one', async () => {
    const slashed = createCatalogueClient({ baseUrl: `${service.baseUrl}/` })
    expect(slashed.baseUrl).toBe(service.baseUrl)
    expect(await slashed.accessLevels()).toHaveLength(4)
  })

  it('keeps a path prefix, with or without a trailing slash', async () => {
    const proxy = await startPrefixProxy(service.baseUrl, '/catalogue')
    try {
      for (const baseUrl of [`${proxy.url}/catalogue/`, `${proxy.url}/catalogue`]) {
        const prefixed = createCatalogueClient({ baseUrl })
        expect(prefixed.baseUrl).toBe(`${proxy.url}/catalogue`)
        expect(await prefixed.listArtists({ perPage: 10 })).toStrictEqual(await client.listArtists({ perPage: 10 }))
        const username = service.catalogue.artists[0]!.username
        expect(await prefixed.getArtist(username)).toStrictEqual(await client.getArtist(username))
        expect(await prefixed.accessLevels()).toHaveLength(4)
      }
      expect(proxy.requests.map((request) => request.url)).toContain('/catalogue/api/v1/artists?per_page=10')
    } finally {
      await proxy.close()
    }
  })

  it('refuses a base URL that is not http or https, or not an address', () => {
    expect(() => createCatalogueClient({ baseUrl: 'file:///etc' })).toThrow(TypeError)
    expect(() => createCatalogueClient({ baseUrl: 'ftp://example.com/' })).toThrow(/http or https/)
    expect(() => createCatalogueClient({ baseUrl: 'example.com' })).toThrow(/not a valid address/)
    expect(() => createCatalogueClient({ baseUrl: 'http://example.com/?x=1' })).toThrow(/query/)
  })
})

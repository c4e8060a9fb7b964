/** Every endpoint against the demo service: results equal its JSON after the documented normalisation. */
import { describe, expect } from 'vitest'
import { createCatalogueClient } from '../../../../src-main/core/api/index'
import { InvalidArgumentError, NotFoundError, RejectedError } from '../../../../src-main/core/shared/errors'
import { SORT_ORDERS } from '../../../../src-main/core/shared/catalogue'
import { catalogueTest } from '../../support/fixtures'
import { expectedDetail, expectedList, rejectionOf, startPrefixProxy, wireJson, type WireDetail, type WireList } from './helpers'

const test = catalogueTest({ artists: 300, seed: 7, maxFileMb: 16 }).extend('client', { scope: 'file' }, ({ demo }) =>
  createCatalogueClient({ baseUrl: demo.baseUrl, backoffMs: 5 }),
)
test.afterEach(({ demo }) => demo.faults.clear())

describe('listArtists', () => {
  test('returns the first page with the service defaults when no option is given', async ({ demo, client }) => {
    const wire = await wireJson<WireList>(`${demo.baseUrl}/api/v1/artists`)
    const list = await client.listArtists()
    expect(list).toStrictEqual(expectedList(wire))
    expect(list.artists).toHaveLength(25)
  })

  test.for(SORT_ORDERS.flatMap((sort) => [{ sort, reverse: false }, { sort, reverse: true }]))(
    'matches the service for sort $sort, reverse $reverse',
    async ({ sort, reverse }, { demo, client }) => {
      const wire = await wireJson<WireList>(
        `${demo.baseUrl}/api/v1/artists?page=2&per_page=50&sort=${sort}&sort_r=${reverse ? 1 : 0}&include_blank=1`,
      )
      const list = await client.listArtists({ page: 2, perPage: 50, sort, reverse, includeBlank: true })
      expect(list).toStrictEqual(expectedList(wire))
    },
  )

  test('matches the service for the podcaster and musician filters', async ({ demo, client }) => {
    for (const isPodcaster of [0, 1] as const) {
      const wire = await wireJson<WireList>(`${demo.baseUrl}/api/v1/artists?per_page=50&is_podcaster=${isPodcaster}`)
      expect(await client.listArtists({ perPage: 50, isPodcaster })).toStrictEqual(expectedList(wire))
    }
  })

  test('sends search text with spaces and non-Latin letters intact', async ({ demo, client }) => {
    const artist = demo.catalogue.artists.find((candidate) => /\s/.test(candidate.pfName) && candidate.numTracks > 0)!
    const wire = await wireJson<WireList>(`${demo.baseUrl}/api/v1/artists?q=${encodeURIComponent(artist.pfName)}`)
    const list = await client.listArtists({ q: artist.pfName })
    expect(list).toStrictEqual(expectedList(wire))
    expect(list.artists.map((entry) => entry.username)).toContain(artist.username)
    const accented = await client.listArtists({ q: 'Björk 東京' })
    expect(accented.pages).toBeGreaterThanOrEqual(0)
  })

  test('returns an empty page past the last one', async ({ client }) => {
    const { pages } = await client.listArtists({ perPage: 50 })
    expect(await client.listArtists({ perPage: 50, page: pages + 1 })).toEqual({ pages, artists: [] })
  })

  test('visits every artist once when paging through all of them', async ({ client }) => {
    const first = await client.listArtists({ perPage: 50, includeBlank: true })
    const usernames = first.artists.map((artist) => artist.username)
    for (let page = 2; page <= first.pages; page++) {
      const next = await client.listArtists({ perPage: 50, includeBlank: true, page })
      usernames.push(...next.artists.map((artist) => artist.username))
    }
    expect(new Set(usernames).size).toBe(300)
  })

  test('rejects an out-of-range per_page with RejectedError carrying the service message, without retrying', async ({ demo }) => {
    let retries = 0
    const counting = createCatalogueClient({ baseUrl: demo.baseUrl, backoffMs: 5, onRetry: () => retries++ })
    const error = await rejectionOf(counting.listArtists({ perPage: 5 }))
    expect(error).toBeInstanceOf(RejectedError)
    expect(error).toMatchObject({ code: 'rejected', status: 400, retryable: false })
    const rejected = error as RejectedError
    expect(rejected.status).toBe(400)
    expect(rejected.url).toBe(`${demo.baseUrl}/api/v1/artists?per_page=5`)
    expect(rejected.message).toContain('per_page must be an integer from 10 to 50')
    expect(rejected.message).toContain(rejected.url)
    expect(JSON.parse(rejected.body!)).toEqual({ error: 'per_page must be an integer from 10 to 50', parameter: 'per_page' })
    expect(retries).toBe(0)
  })
})

describe('getArtist', () => {
  test('returns every artist of the catalogue as the service sends it, normalised', async ({ demo, client }) => {
    const usernames = demo.catalogue.artists.map((artist) => artist.username)
    // A few at a time, like the sync will; all 300 prove the schema takes every shape the demo produces.
    for (let start = 0; start < usernames.length; start += 20) {
      await Promise.all(
        usernames.slice(start, start + 20).map(async (username) => {
          const wire = await wireJson<WireDetail>(`${demo.baseUrl}/api/v1/artists/${encodeURIComponent(username)}`)
          expect(await client.getArtist(username)).toStrictEqual(expectedDetail(wire))
        }),
      )
    }
  })

  test('covers the unkind data: other subtypes, null handles, artists without tracks, podcasters', async ({ demo, client }) => {
    const artists = demo.catalogue.artists
    const otherSubtype = artists.find((artist) =>
      demo.catalogue.tracksOf(artist).some((track) => track.subtype !== 'track'),
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

  test('drops the empty-named member and fills location and user with null', async ({ demo, client }) => {
    const username = demo.catalogue.artists[3]!.username
    const wire = await wireJson<WireDetail>(`${demo.baseUrl}/api/v1/artists/${username}`)
    expect(Object.keys(wire)).toContain('')
    const detail = await client.getArtist(username)
    expect(Object.keys(detail)).not.toContain('')
    expect(detail.location).toBeNull()
    expect(detail.user).toBeNull()
  })

  test('finds an artist whatever the case of the username', async ({ demo, client }) => {
    const username = demo.catalogue.artists.find((artist) => /[A-Z]/.test(artist.username))!.username
    expect((await client.getArtist(username.toLowerCase())).username).toBe(username)
  })

  test('rejects an unknown username with NotFoundError naming the URL, without retrying', async ({ demo }) => {
    let retries = 0
    const counting = createCatalogueClient({ baseUrl: demo.baseUrl, backoffMs: 5, onRetry: () => retries++ })
    const error = await rejectionOf(counting.getArtist('no such artist/..'))
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error).toMatchObject({ code: 'not_found', retryable: false })
    const notFound = error as NotFoundError
    expect(notFound.url).toBe(`${demo.baseUrl}/api/v1/artists/no%20such%20artist%2F..`)
    expect(notFound.message).toContain(notFound.url)
    expect(notFound.message).toContain('no artist named "no such artist/.."')
    expect(retries).toBe(0)
  })

  test.for(['..', '.', 'mixtape.json'])('asks for the username %s itself, not for another path', async (name, { client }) => {
    const error = await rejectionOf(client.getArtist(name))
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error).toMatchObject({ code: 'not_found' })
    expect((error as NotFoundError).message).toContain(`no artist named ${JSON.stringify(name)}`)
  })

  test('refuses an empty username rather than asking for the list endpoint', async ({ demo, client }) => {
    demo.requests.reset()
    const error = await rejectionOf(client.getArtist(''))
    expect(error).toBeInstanceOf(InvalidArgumentError)
    expect(error).toMatchObject({ code: 'invalid_argument', field: 'username', retryable: false })
    expect(demo.requests.total).toBe(0)
  })
})

describe('accessLevels', () => {
  test('returns the four levels sorted by id, as the service lists them', async ({ demo, client }) => {
    const wire = await wireJson<Record<string, unknown>>(`${demo.baseUrl}/api/v1/access_levels`)
    const levels = await client.accessLevels()
    expect(levels).toStrictEqual(Object.values(wire))
    expect(levels.map((level) => level.name)).toEqual(['Free', 'Silver', 'Gold', 'Platinum'])
    expect(levels[0]).toStrictEqual({ id: 1, name: 'Free', maxsize: 100, price: 0, bandwidth: 30, storage: 2 })
  })

  test('sorts by id whatever the order of the members', async ({ demo, client }) => {
    const body = JSON.stringify({
      '3': { id: 3, name: 'Gold', maxsize: 4096, price: 15, bandwidth: 250, storage: 100 },
      '1': { id: 1, name: 'Free', maxsize: 100, price: 0, bandwidth: 30, storage: 2 },
      '2': { id: 2, name: 'Silver', maxsize: 4096, price: 8, bandwidth: 100, storage: 60 },
    })
    demo.faults.add({ path: '/api/v1/access_levels', fault: { kind: 'respond', status: 200, body } })
    expect((await client.accessLevels()).map((level) => level.id)).toEqual([1, 2, 3])
  })
})

describe('base URL', () => {
  test('is normalised without a trailing slash and works with one', async ({ demo }) => {
    const slashed = createCatalogueClient({ baseUrl: `${demo.baseUrl}/` })
    expect(slashed.baseUrl).toBe(demo.baseUrl)
    expect(await slashed.accessLevels()).toHaveLength(4)
  })

  test('keeps a path prefix, with or without a trailing slash', async ({ demo, client }) => {
    const proxy = await startPrefixProxy(demo.baseUrl, '/catalogue')
    try {
      for (const baseUrl of [`${proxy.url}/catalogue/`, `${proxy.url}/catalogue`]) {
        const prefixed = createCatalogueClient({ baseUrl })
        expect(prefixed.baseUrl).toBe(`${proxy.url}/catalogue`)
        expect(await prefixed.listArtists({ perPage: 10 })).toStrictEqual(await client.listArtists({ perPage: 10 }))
        const username = demo.catalogue.artists[0]!.username
        expect(await prefixed.getArtist(username)).toStrictEqual(await client.getArtist(username))
        expect(await prefixed.accessLevels()).toHaveLength(4)
      }
      expect(proxy.requests.map((request) => request.url)).toContain('/catalogue/api/v1/artists?per_page=10')
    } finally {
      await proxy.close()
    }
  })

  test.for([
    ['file:///etc', /must be http or https, not file:/],
    ['ftp://example.com/', /must be http or https, not ftp:/],
    ['example.com', /not a valid address/],
    ['http://example.com/?x=1', /query or a fragment/],
    ['http://example.com/?', /query or a fragment/],
  ] as const)('refuses the base URL %s with an InvalidArgumentError', ([baseUrl, message]) => {
    let error: unknown
    try {
      createCatalogueClient({ baseUrl })
    } catch (thrown) {
      error = thrown
    }
    expect(error).toBeInstanceOf(InvalidArgumentError)
    expect(error).toMatchObject({ code: 'invalid_argument', field: 'baseUrl' })
    expect((error as Error).message).toMatch(message)
  })
})

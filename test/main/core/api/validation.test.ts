/** Response validation at the boundary: tolerated gaps, ignored extras, and wrong types reported by field and URL. */
import { describe, expect } from 'vitest'
import { createCatalogueClient, type CatalogueClient, type SkippedEntry } from '../../../../src-main/core/api/index'
import type { RunningCatalogueService } from '../../../../src-main/demo/index'
import { BadResponseError } from '../../../../src-main/core/shared/errors'
import { catalogueTest } from '../../support/fixtures'
import { rejectionOf, wireJson, type WireDetail, type WireList } from './helpers'

interface Counted {
  client: CatalogueClient
  /** Retries announced since the test started. */
  retries: () => number
}

const test = catalogueTest({ artists: 60, seed: 5, maxFileMb: 16 })
  .extend('listWire', { scope: 'file' }, ({ demo }) => wireJson<WireList>(`${demo.baseUrl}/api/v1/artists`))
  .extend('detailWire', { scope: 'file' }, ({ demo }) => {
    const username = demo.catalogue.artists.find((artist) => artist.numTracks >= 3)!.username
    return wireJson<WireDetail>(`${demo.baseUrl}/api/v1/artists/${username}`)
  })
  .extend('counted', ({ demo }): Counted => {
    let retries = 0
    const client = createCatalogueClient({ baseUrl: demo.baseUrl, backoffMs: 5, onRetry: () => retries++ })
    return { client, retries: () => retries }
  })
test.afterEach(({ demo }) => demo.faults.clear())

/** The next request to path gets this JSON, twice, so that a retry would be seen. */
function serveOnce(demo: RunningCatalogueService, path: string, body: unknown): void {
  demo.faults.add({ path, times: 2, fault: { kind: 'respond', status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } })
}

/** A deep copy to edit without touching the fixtures. */
function copy<T>(value: T): T {
  return structuredClone(value)
}

describe('a wrong type', () => {
  // One artist described badly is left out of its page and told, with its field (test/main/attacks/29-bad-entries.test.ts).
  test.for<readonly [string, (body: WireList) => unknown, number, string]>([
    ['a numeric string as num_tracks', (body: WireList) => (body.artists[3]!.artist.num_tracks = '2'), 3, 'artist.num_tracks'],
    ['a negative num_tracks', (body: WireList) => (body.artists[0]!.artist.num_tracks = -1), 0, 'artist.num_tracks'],
    ['a fractional num_tracks', (body: WireList) => (body.artists[1]!.artist.num_tracks = 1.5), 1, 'artist.num_tracks'],
    ['a missing username', (body: WireList) => delete body.artists[2]!.artist.username, 2, 'artist.username'],
    ['an empty username', (body: WireList) => (body.artists[2]!.artist.username = ''), 2, 'artist.username'],
    ['a numeric pf_bio', (body: WireList) => (body.artists[4]!.artist.pf_bio = 42), 4, 'artist.pf_bio'],
    ['a location without an id', (body: WireList) => (body.artists[0]!.artist.location = { name: 'Oslo' }), 0, 'artist.location.id'],
    ['an item without its upload', (body: WireList) => delete body.artists[0]!.artist.items[0]!.item.upload, 0, 'artist.items[0].item.upload'],
    ['an upload id that is null', (body: WireList) => ((body.artists[0]!.artist.items[0]!.item.upload as { id: unknown }).id = null), 0, 'artist.items[0].item.upload.id'],
  ])('%s leaves that artist out of the page, told with the field, not retried', async ([, spoil, index, field], { demo, listWire, counted: { client, retries } }) => {
    const body = copy(listWire)
    spoil(body)
    serveOnce(demo, '/api/v1/artists', body)
    const skipped: SkippedEntry[] = []
    const page = await client.listArtists({ perPage: 25 }, { onSkipped: (entry) => skipped.push(entry) })
    expect(page.artists).toHaveLength(listWire.artists.length - 1)
    expect(page.artists.map((artist) => artist.username)).not.toContain(listWire.artists[index]!.artist.username || '(none)')
    expect(skipped).toHaveLength(1)
    expect(skipped[0]!.message).toContain(field)
    expect(retries()).toBe(0)
    expect(demo.faults.pending()).toBe(1)
  })

  test.for<readonly [string, (body: WireList) => unknown, string]>([
    ['pages as a string', (body: WireList) => ((body as { pages: unknown }).pages = '44'), 'pages'],
    ['artists missing', (body: WireList) => delete (body as Partial<WireList>).artists, 'artists'],
    ['most artists wrong', (body: WireList) => body.artists.forEach((wrapper) => (wrapper.artist.num_tracks = -1)), 'artists[0].artist.num_tracks'],
  ])('%s is a BadResponseError naming the field and the URL, not retried', async ([, spoil, field], { demo, listWire, counted: { client, retries } }) => {
    const body = copy(listWire)
    spoil(body)
    serveOnce(demo, '/api/v1/artists', body)
    const error = await rejectionOf(client.listArtists({ perPage: 25 }))
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({ name: 'BadResponseError', code: 'bad_response', retryable: false })
    const bad = error as BadResponseError
    const url = `${demo.baseUrl}/api/v1/artists?per_page=25`
    expect(bad.field).toBe(field)
    expect(bad.url).toBe(url)
    expect(bad.message).toContain(field)
    expect(bad.message).toContain(url)
    expect(retries()).toBe(0)
    expect(demo.faults.pending()).toBe(1)
  })

  test('in a detail names the item and upload field', async ({ demo, detailWire, counted: { client } }) => {
    const body = copy(detailWire)
    ;(body.items[2]!.item.upload as Record<string, unknown>).bytes = '1024'
    serveOnce(demo, '/api/v1/artists/*', body)
    const error = (await rejectionOf(client.getArtist(body.username))) as BadResponseError
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({ code: 'bad_response', field: 'items[2].item.upload.bytes' })
    expect(error.message).toContain(`${demo.baseUrl}/api/v1/artists/${body.username}`)
  })

  test('one bad access level of two is left out, told with its key and field', async ({ demo, counted: { client } }) => {
    serveOnce(demo, '/api/v1/access_levels', {
      '1': { id: 1, name: 'Free', maxsize: 100, price: 0, bandwidth: 30, storage: 2 },
      '2': { id: 2, name: 'Silver', maxsize: '4096', price: 8, bandwidth: 100, storage: 60 },
    })
    const skipped: SkippedEntry[] = []
    const levels = await client.accessLevels({ onSkipped: (entry) => skipped.push(entry) })
    expect(levels.map((level) => level.name)).toEqual(['Free'])
    expect(skipped).toEqual([{ what: 'access level 2', message: expect.stringContaining('maxsize') }])
  })

  test('an access level keyed by another id', async ({ demo, counted: { client } }) => {
    serveOnce(demo, '/api/v1/access_levels', { '1': { id: 7, name: 'Free', maxsize: 100, price: 0, bandwidth: 30, storage: 2 } })
    const error = (await rejectionOf(client.accessLevels())) as BadResponseError
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error.field).toBe('["1"].id')
    expect(error.message).toMatch(/equal its key "1"/)
  })

  test.for([
    ['an access level missing a member', { '1': { id: 1, name: 'Free', maxsize: 100, price: 0, bandwidth: 30 } }, '["1"].storage'],
    ['an array instead of the object', [{ id: 1 }], undefined],
    ['null', null, undefined],
  ] as const)('%s', async ([, body, field], { demo, counted: { client } }) => {
    serveOnce(demo, '/api/v1/access_levels', body)
    const error = (await rejectionOf(client.accessLevels())) as BadResponseError
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({ code: 'bad_response' })
    expect(error.field).toBe(field)
    expect(error.message).toContain(`${demo.baseUrl}/api/v1/access_levels`)
  })

  test('a list that is not an object at all', async ({ demo, counted: { client } }) => {
    serveOnce(demo, '/api/v1/artists', 'artists')
    const error = (await rejectionOf(client.listArtists())) as BadResponseError
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error.field).toBeUndefined()
    expect(error.message).toMatch(/unexpected body/)
  })
})

describe('tolerance', () => {
  test('ignores unknown members at every level', async ({ demo, listWire, counted: { client } }) => {
    const body = copy(listWire) as WireList & Record<string, unknown>
    body.next_page = 2
    body.artists[0]!.artist.followers = 12
    body.artists[0]!.artist.location = { id: 3, name: 'Oslo', country: 'NO' }
    body.artists[0]!.artist.items.push({ item: { subtype: 'track', upload: { id: '99', bytes: 5 }, extra: true } })
    ;(body.artists[0] as Record<string, unknown>).rank = 1
    serveOnce(demo, '/api/v1/artists', body)
    const list = await client.listArtists()
    expect(list).not.toHaveProperty('next_page')
    const artist = list.artists[0]!
    expect(artist).not.toHaveProperty('followers')
    expect(artist.location).toStrictEqual({ id: 3, name: 'Oslo' })
    expect(artist.items.at(-1)).toStrictEqual({ subtype: 'track', upload: { id: '99' } })
  })

  test('fills missing optional members of a list artist', async ({ demo, counted: { client } }) => {
    serveOnce(demo, '/api/v1/artists', { pages: 1, artists: [{ artist: { username: 'bare', num_tracks: 0 } }] })
    expect(await client.listArtists()).toStrictEqual({
      pages: 1,
      artists: [
        {
          username: 'bare',
          num_tracks: 0,
          pf_name: '',
          pf_facebook: null,
          pf_twitter: null,
          pf_website: null,
          pf_bio: '',
          avatar: '',
          avatar_thumb: '',
          location: null,
          user: null,
          items: [],
        },
      ],
    })
  })

  test('fills null optional members of a detail, keeps empty strings, and reads a numeric upload id as a string', async ({ demo, counted: { client } }) => {
    serveOnce(demo, '/api/v1/artists/*', {
      username: 'sparse',
      num_tracks: 1,
      pf_name: null,
      pf_facebook: '',
      pf_twitter: null,
      pf_website: null,
      pf_bio: null,
      avatar: null,
      avatar_thumb: null,
      location: null,
      user: null,
      items: [
        { item: { id: null, title: null, subtype: null, upload: { id: 4711 }, artist: null } },
        { item: { upload: { id: '12', created_at: null, bytes: null, downloads: null, hotlinks: null, ext: null, hotlink_path: null } } },
      ],
      '': null,
    })
    expect(await client.getArtist('sparse')).toStrictEqual({
      username: 'sparse',
      num_tracks: 1,
      pf_name: '',
      pf_facebook: '',
      pf_twitter: null,
      pf_website: null,
      pf_bio: '',
      avatar: '',
      avatar_thumb: '',
      location: null,
      user: null,
      items: [
        {
          id: null,
          title: '',
          subtype: 'track',
          upload: { id: '4711', created_at: null, bytes: null, downloads: null, hotlinks: null, ext: null, hotlink_path: null },
          artist: null,
        },
        {
          id: null,
          title: '',
          subtype: 'track',
          upload: { id: '12', created_at: null, bytes: null, downloads: null, hotlinks: null, ext: null, hotlink_path: null },
          artist: null,
        },
      ],
    })
  })

  test('takes items: null as no items', async ({ demo, counted: { client } }) => {
    serveOnce(demo, '/api/v1/artists/*', { username: 'quiet', num_tracks: 0, items: null })
    expect((await client.getArtist('quiet')).items).toEqual([])
  })

  test('keeps subtypes other than track as they come', async ({ demo, detailWire, counted: { client } }) => {
    const body = copy(detailWire)
    body.items[0]!.item.subtype = 'remix'
    serveOnce(demo, '/api/v1/artists/*', body)
    expect((await client.getArtist(body.username)).items[0]!.subtype).toBe('remix')
  })

  test('accepts a JSON body with a byte order mark', async ({ demo, counted: { client } }) => {
    demo.faults.add({
      path: '/api/v1/access_levels',
      fault: { kind: 'respond', status: 200, body: `\uFEFF${JSON.stringify({ '1': { id: 1, name: 'Free', maxsize: 100, price: 0, bandwidth: 30, storage: 2 } })}` },
    })
    expect(await client.accessLevels()).toHaveLength(1)
  })
})

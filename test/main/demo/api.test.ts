import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../src-main/demo/index'
import { getJson, rawRequest, type DetailBody, type ListBody } from './http-helpers'

let service: RunningCatalogueService
let base: string

beforeAll(async () => {
  service = await startCatalogueService({ artists: 300, seed: 11, maxFileMb: 16 })
  base = service.baseUrl
})
afterAll(() => service.close())

/** Every page of a list query, joined. */
async function allPages(query: string, perPage = 50): Promise<{ pages: number; usernames: string[] }> {
  const first = await getJson<ListBody>(`${base}/api/v1/artists?${query}&per_page=${perPage}&page=1`)
  const usernames = first.body.artists.map((a) => a.artist.username)
  for (let page = 2; page <= first.body.pages; page++) {
    const next = await getJson<ListBody>(`${base}/api/v1/artists?${query}&per_page=${perPage}&page=${page}`)
    expect(next.body.pages).toBe(first.body.pages)
    usernames.push(...next.body.artists.map((a) => a.artist.username))
  }
  return { pages: first.body.pages, usernames }
}

describe('list artists', () => {
  it('answers with and without the .json suffix, with 25 per page by default', async () => {
    const plain = await getJson<ListBody>(`${base}/api/v1/artists`)
    const suffixed = await getJson<ListBody>(`${base}/api/v1/artists.json`)
    expect(plain.status).toBe(200)
    expect(suffixed.text).toBe(plain.text)
    expect(plain.body.artists).toHaveLength(25)
    const withTracks = service.catalogue.artists.filter((a) => a.numTracks > 0).length
    expect(plain.body.pages).toBe(Math.ceil(withTracks / 25))
  })

  it('carries the list shape: location, user, and items with only subtype and upload.id', async () => {
    const { body } = await getJson<ListBody>(`${base}/api/v1/artists?per_page=50&include_blank=1`)
    for (const { artist } of body.artists) {
      expect(Object.keys(artist)).toEqual([
        'username', 'num_tracks', 'pf_name', 'pf_facebook', 'pf_twitter', 'pf_website', 'pf_bio',
        'avatar', 'avatar_thumb', 'location', 'user', 'items',
      ])
      expect(artist.user).toEqual({ username: artist.username })
      expect(Object.keys(artist.location)).toEqual(['id', 'name'])
      expect(artist.items.length).toBeLessThanOrEqual(artist.num_tracks)
      for (const { item } of artist.items) {
        expect(Object.keys(item)).toEqual(['subtype', 'upload'])
        expect(Object.keys(item.upload)).toEqual(['id'])
      }
    }
  })

  it('pages consistently: every artist once, an empty page past the last', async () => {
    const { pages, usernames } = await allPages('include_blank=1', 50)
    expect(pages).toBe(Math.ceil(300 / 50))
    expect(new Set(usernames).size).toBe(300)
    const past = await getJson<ListBody>(`${base}/api/v1/artists?include_blank=1&per_page=50&page=${pages + 1}`)
    expect(past.status).toBe(200)
    expect(past.body).toEqual({ pages, artists: [] })
  })

  it('leaves out artists without tracks unless include_blank=1', async () => {
    const without = await allPages('include_blank=0')
    const explicitDefault = await allPages('')
    expect(explicitDefault.usernames).toEqual(without.usernames)
    const blank = service.catalogue.artists.filter((a) => a.numTracks === 0).map((a) => a.username)
    expect(blank.length).toBeGreaterThan(0)
    for (const name of blank) expect(without.usernames).not.toContain(name)
    expect((await allPages('include_blank=1')).usernames).toEqual(expect.arrayContaining(blank))
  })

  it('filters podcasters and musicians, which together make all', async () => {
    const podcasts = await allPages('is_podcaster=1&include_blank=1')
    const musicians = await allPages('is_podcaster=0&include_blank=1')
    const everyone = await allPages('is_podcaster=&include_blank=1')
    const expected = service.catalogue.artists.filter((a) => a.isPodcaster).map((a) => a.username)
    expect(new Set(podcasts.usernames)).toEqual(new Set(expected))
    expect(podcasts.usernames.length + musicians.usernames.length).toBe(everyone.usernames.length)
  })

  it('sorts four ways, trending by default, and sort_r reverses the whole order', async () => {
    const trending = await allPages('include_blank=1&sort=trending')
    expect((await allPages('include_blank=1')).usernames).toEqual(trending.usernames)
    const orders = new Set<string>()
    for (const sort of ['trending', 'top', 'recently_created', 'recently_updated']) {
      const forward = await allPages(`include_blank=1&sort=${sort}`)
      const backward = await allPages(`include_blank=1&sort=${sort}&sort_r=1`)
      expect(backward.usernames).toEqual([...forward.usernames].reverse())
      expect((await allPages(`include_blank=1&sort=${sort}&sort_r=0`)).usernames).toEqual(forward.usernames)
      orders.add(forward.usernames.join())
    }
    expect(orders.size).toBe(4)
    const created = (await allPages('include_blank=1&sort=recently_created')).usernames
    const createdAt = created.map((name) => service.catalogue.findArtist(name)!.createdAt)
    expect(createdAt).toEqual([...createdAt].sort((a, b) => b - a))
  })

  it('searches by relevancy: name matches above bio matches, sort and sort_r ignored', async () => {
    const catalogue = service.catalogue
    const [named, other] = catalogue.artists.filter((a) => a.numTracks > 0)
    catalogue.editArtist(named!.username, { pfName: 'Zyxwv Quartet' })
    catalogue.editArtist(other!.username, { pfBio: 'Line one\nWe once toured with zyxwv quartet.' })
    const result = await getJson<ListBody>(`${base}/api/v1/artists?q=ZYXWV`)
    expect(result.body.artists.map((a) => a.artist.username)).toEqual([named!.username, other!.username])
    const sorted = await getJson<ListBody>(`${base}/api/v1/artists?q=zyxwv&sort=recently_created&sort_r=1`)
    expect(sorted.text).toBe(result.text)
    expect(result.body.pages).toBe(1)
  })

  it('folds diacritics and case in search', async () => {
    const catalogue = service.catalogue
    const artist = catalogue.artists.find((a) => a.numTracks > 0 && !a.pfName.includes('Ö'))!
    catalogue.editArtist(artist.username, { pfName: 'Qöxly Ünderground' })
    const result = await getJson<ListBody>(`${base}/api/v1/artists?q=${encodeURIComponent('qoxly underground')}`)
    expect(result.body.artists.map((a) => a.artist.username)).toEqual([artist.username])
    const none = await getJson<ListBody>(`${base}/api/v1/artists?q=nothing-matches-this-zzqq`)
    expect(none.body).toEqual({ pages: 0, artists: [] })
  })

  const invalid: [string, string][] = [
    ['page=0', 'page'], ['page=abc', 'page'], ['page=1.5', 'page'], ['page=', 'page'], ['page=1&page=2', 'page'],
    ['per_page=9', 'per_page'], ['per_page=51', 'per_page'], ['per_page=ten', 'per_page'], ['per_page=', 'per_page'],
    ['is_podcaster=2', 'is_podcaster'], ['is_podcaster=yes', 'is_podcaster'],
    ['sort=popular', 'sort'], ['sort=', 'sort'], ['sort=TOP', 'sort'],
    ['sort_r=2', 'sort_r'], ['sort_r=true', 'sort_r'],
    ['include_blank=-1', 'include_blank'], ['include_blank=', 'include_blank'],
  ]
  it.each(invalid)('rejects %s with 400 naming %s', async (query, parameter) => {
    const response = await getJson<{ error: string; parameter: string }>(`${base}/api/v1/artists?${query}`)
    expect(response.status).toBe(400)
    expect(response.body.parameter).toBe(parameter)
    expect(response.body.error).toContain(parameter)
  })

  it('accepts the edges of every range', async () => {
    for (const query of ['per_page=10', 'per_page=50', 'page=1', 'page=99999', 'is_podcaster=0', 'sort_r=1', 'include_blank=1', 'unknown=1']) {
      expect((await fetch(`${base}/api/v1/artists?${query}`)).status).toBe(200)
    }
  })
})

describe('one artist', () => {
  it('returns the full result, case-insensitively, with and without .json', async () => {
    const artist = service.catalogue.artists.find((a) => a.numTracks > 1)!
    const exact = await getJson<DetailBody>(`${base}/api/v1/artists/${artist.username}`)
    const shouted = await getJson<DetailBody>(`${base}/api/v1/artists/${artist.username.toUpperCase()}.json`)
    expect(exact.status).toBe(200)
    expect(shouted.text).toBe(exact.text)
    const body = exact.body as DetailBody & Record<string, unknown>
    expect(body.username).toBe(artist.username)
    expect(body['']).toBeNull()
    expect('' in body).toBe(true)
    expect(body).not.toHaveProperty('location')
    expect(body).not.toHaveProperty('user')
    expect(body.items).toHaveLength(artist.numTracks)
    expect(body.num_tracks).toBe(artist.numTracks)
    for (const { item } of body.items) {
      expect(Object.keys(item)).toEqual(['id', 'title', 'subtype', 'upload', 'artist'])
      expect(Object.keys(item.upload)).toEqual(['id', 'created_at', 'bytes', 'downloads', 'hotlinks', 'ext', 'hotlink_path'])
      expect(item.artist).toEqual({ username: artist.username })
      expect(item.upload.hotlink_path).toBe(`${base}/hotlink/${item.upload.id}.${item.upload.ext}`)
    }
  })

  it('agrees with the list entry: same profile, listed items a prefix of the full ones', async () => {
    const { artists } = (await getJson<ListBody>(`${base}/api/v1/artists?per_page=50`)).body
    for (const { artist: listed } of artists.slice(0, 20)) {
      const detail = (await getJson<DetailBody>(`${base}/api/v1/artists/${encodeURIComponent(listed.username)}`)).body
      const { location: _location, user: _user, items: listedItems, ...profile } = listed
      const { items, '': _empty, ...detailProfile } = detail as DetailBody & { '': null }
      expect(detailProfile).toEqual(profile)
      expect(items.slice(0, listedItems.length).map((i) => ({ item: { subtype: i.item.subtype, upload: { id: i.item.upload.id } } }))).toEqual(listedItems)
    }
  })

  it('answers 404 with a JSON body for an unknown username, 400 for a badly encoded one', async () => {
    const missing = await getJson<{ error: string }>(`${base}/api/v1/artists/no-such-artist-here`)
    expect(missing.status).toBe(404)
    expect(missing.body.error).toMatch(/no artist/)
    const bad = await rawRequest(`${base}/api/v1/artists/%E0%A4%A`)
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body.toString())).toHaveProperty('parameter', 'username')
  })
})

describe('access levels', () => {
  it('lists the four levels keyed by id strings, with and without .json', async () => {
    const { status, body, text } = await getJson(`${base}/api/v1/access_levels`)
    expect(status).toBe(200)
    expect((await getJson(`${base}/api/v1/access_levels.json`)).text).toBe(text)
    expect(body).toEqual({
      '1': { id: 1, name: 'Free', maxsize: 100, price: 0, bandwidth: 30, storage: 2 },
      '2': { id: 2, name: 'Silver', maxsize: 4096, price: 8, bandwidth: 100, storage: 60 },
      '3': { id: 3, name: 'Gold', maxsize: 4096, price: 15, bandwidth: 250, storage: 100 },
      '4': { id: 4, name: 'Platinum', maxsize: 4096, price: 59, bandwidth: 1000, storage: 250 },
    })
  })
})

describe('everything else', () => {
  it('answers unknown paths with 404 JSON and other methods with 405', async () => {
    const unknown = await rawRequest(`${base}/api/v2/artists`)
    expect(unknown.status).toBe(404)
    expect(unknown.headers['content-type']).toBe('application/json; charset=utf-8')
    const post = await rawRequest(`${base}/api/v1/artists`, {}, 'POST')
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe('GET, HEAD')
  })

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await rawRequest(`${base}/api/v1/access_levels`)
    const head = await rawRequest(`${base}/api/v1/access_levels`, {}, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe(String(get.body.length))
    expect(head.body.length).toBe(0)
  })

  it('serves every advertised avatar, protocol-relative and absolute', async () => {
    const { artists } = (await getJson<ListBody>(`${base}/api/v1/artists?per_page=50&include_blank=1`)).body
    const forms = new Set<string>()
    for (const { artist } of artists) {
      for (const address of [artist.avatar, artist.avatar_thumb]) {
        forms.add(address.startsWith('//') ? 'relative' : 'absolute')
        const response = await fetch(address.startsWith('//') ? `http:${address}` : address)
        expect(response.status).toBe(200)
        expect(response.headers.get('content-type')).toBe('image/svg+xml')
        expect(await response.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
      }
    }
    expect(forms).toEqual(new Set(['relative', 'absolute']))
  })

  it('forgets an artist that was removed', async () => {
    const artist = service.catalogue.artists.at(-1)!
    service.catalogue.removeArtist(artist.username)
    expect((await fetch(`${base}/api/v1/artists/${artist.username}`)).status).toBe(404)
    const { usernames } = await allPages('include_blank=1')
    expect(usernames).not.toContain(artist.username)
    expect(usernames).toHaveLength(299)
  })
})

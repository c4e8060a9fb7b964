/** The client's pure parts: query strings, field paths, Retry-After, back-off, and the exact result types. */
import { describe, expect, expectTypeOf, it } from 'vitest'
import type {
  ArtistDetail,
  ArtistList,
  CatalogueClient,
  Item,
  ListArtist,
  ListItem,
  Upload,
} from '../../../../src-main/core/api/index'
import { listArtistsQueryString } from '../../../../src-main/core/api/query'
import { backoffDelay, parseRetryAfter } from '../../../../src-main/core/api/retry'
import { fieldPath } from '../../../../src-main/core/api/validate'
import { SORT_ORDERS, type AccessLevel, type SortOrder } from '../../../../src-main/core/shared/catalogue'

describe('listArtistsQueryString', () => {
  it('is empty when no option is given', () => {
    expect(listArtistsQueryString()).toBe('')
    expect(listArtistsQueryString({})).toBe('')
    expect(listArtistsQueryString({ q: undefined, reverse: undefined })).toBe('')
  })

  it.each([
    [{ page: 2 }, '?page=2'],
    [{ perPage: 50 }, '?per_page=50'],
    [{ q: 'hungry lucy & co/ä' }, '?q=hungry%20lucy%20%26%20co%2F%C3%A4'],
    [{ q: '' }, '?q='],
    [{ isPodcaster: 1 }, '?is_podcaster=1'],
    [{ isPodcaster: 0 }, '?is_podcaster=0'],
    [{ sort: 'recently_updated' }, '?sort=recently_updated'],
    [{ reverse: true }, '?sort_r=1'],
    [{ reverse: false }, '?sort_r=0'],
    [{ includeBlank: true }, '?include_blank=1'],
    [{ includeBlank: false }, '?include_blank=0'],
  ] as const)('sends %j as %s', (query, expected) => {
    expect(listArtistsQueryString(query)).toBe(expected)
  })

  it('puts every option in one string, in a fixed order', () => {
    expect(
      listArtistsQueryString({ includeBlank: true, reverse: true, sort: 'top', isPodcaster: 0, q: 'x', perPage: 10, page: 4 }),
    ).toBe('?page=4&per_page=10&q=x&is_podcaster=0&sort=top&sort_r=1&include_blank=1')
  })
})

describe('SORT_ORDERS', () => {
  it('lists the four orders of the service, and cannot be changed at run time', () => {
    expect(SORT_ORDERS).toEqual(['trending', 'top', 'recently_created', 'recently_updated'])
    expect(Object.isFrozen(SORT_ORDERS)).toBe(true)
    expectTypeOf<SortOrder>().toEqualTypeOf<'trending' | 'top' | 'recently_created' | 'recently_updated'>()
    expectTypeOf(SORT_ORDERS).toExtend<readonly SortOrder[]>()
  })
})

describe('fieldPath', () => {
  const item = (key: string | number) => ({ key }) as never

  it('writes names with dots, indexes and other keys in brackets', () => {
    expect(fieldPath([item('artists'), item(3), item('artist'), item('num_tracks')])).toBe('artists[3].artist.num_tracks')
    expect(fieldPath([item('2'), item('maxsize')])).toBe('["2"].maxsize')
    expect(fieldPath([item('a-b')])).toBe('["a-b"]')
    expect(fieldPath([])).toBeUndefined()
    expect(fieldPath(undefined)).toBeUndefined()
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z')

  it.each([
    [undefined, undefined],
    ['0', 0],
    ['1', 1000],
    [' 120 ', 120_000],
    ['1.5', 1500],
    ['Wed, 01 Jan 2025 00:00:30 GMT', 30_000],
    ['Tue, 31 Dec 2024 23:00:00 GMT', 0],
    ['Wednesday, 01-Jan-25 00:01:00 GMT', 60_000],
    ['Wed Jan  1 00:00:02 2025', 2000],
    ['soon', undefined],
    ['-5', undefined],
  ])('reads %j as %j ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected)
  })
})

describe('backoffDelay', () => {
  it('doubles from backoffMs, caps at maxDelayMs, and jitters between half and all of it', () => {
    const policy = { backoffMs: 500, maxDelayMs: 30_000 }
    expect([1, 2, 3, 4].map((retry) => backoffDelay(retry, { ...policy, random: () => 1 }))).toEqual([500, 1000, 2000, 4000])
    expect([1, 2, 3, 4].map((retry) => backoffDelay(retry, { ...policy, random: () => 0 }))).toEqual([250, 500, 1000, 2000])
    expect(backoffDelay(20, { ...policy, random: () => 1 })).toBe(30_000)
    expect(backoffDelay(200, { ...policy, random: () => 1 })).toBe(30_000)
  })
})

// The result types are inferred from the valibot schemas; these pin them to the documented interfaces.
interface ExpectedListArtist { username: string; num_tracks: number; pf_name: string; pf_facebook: string | null; pf_twitter: string | null; pf_website: string | null; pf_bio: string; avatar: string; avatar_thumb: string; location: { id: number; name: string } | null; user: { username: string } | null; items: ListItem[] }
interface ExpectedArtistDetail { username: string; num_tracks: number; pf_name: string; pf_facebook: string | null; pf_twitter: string | null; pf_website: string | null; pf_bio: string; avatar: string; avatar_thumb: string; location: { id: number; name: string } | null; user: { username: string } | null; items: Item[] }

describe('result types', () => {
  it('are exactly the documented shapes', () => {
    expectTypeOf<ListItem>().toEqualTypeOf<{ subtype: string; upload: { id: string } }>()
    expectTypeOf<ListArtist>().toEqualTypeOf<ExpectedListArtist>()
    expectTypeOf<ArtistList>().toEqualTypeOf<{ pages: number; artists: ListArtist[] }>()
    expectTypeOf<Upload>().toEqualTypeOf<{
      id: string
      created_at: string | null
      bytes: number | null
      downloads: number | null
      hotlinks: number | null
      ext: string | null
      hotlink_path: string | null
    }>()
    expectTypeOf<Item>().toEqualTypeOf<{ id: string | null; title: string; subtype: string; upload: Upload; artist: { username: string } | null }>()
    expectTypeOf<ArtistDetail>().toEqualTypeOf<ExpectedArtistDetail>()
    expectTypeOf<AccessLevel>().toEqualTypeOf<{ id: number; name: string; maxsize: number; price: number; bandwidth: number; storage: number }>()
    // The client returns the shared AccessLevel, the one home of the concept.
    expectTypeOf<Awaited<ReturnType<CatalogueClient['accessLevels']>>>().toEqualTypeOf<AccessLevel[]>()
  })
})

import { describe, expect } from 'vitest'
import { getArtist, getTrack, listArtists } from '../../../../src-main/core/db/artists'
import { artistListQuerySchema } from '../../../../src-main/core/shared/arguments'
import { openCache, type OpenedCache } from '../../../../src-main/core/db/connection'
import { InvalidArgumentError, NotFoundError } from '../../../../src-main/core/shared/errors'
import { openLibrary, type Library } from '../../../../src-main/core/library/library'
import { parseArguments } from '../../../../src-main/core/shared/validation'
import { QUICK_RETRIES, catalogueTest } from '../../support/fixtures'

const ARTISTS = 150

/** One sync of the demo for the whole file: the library, and a second connection to its cache for the db functions. */
const test = catalogueTest({ artists: ARTISTS, seed: 44, maxFileMb: 1 })
  .extend('library', { scope: 'file' }, async ({ demo, tempDir }, { onCleanup }): Promise<Library> => {
    const library = openLibrary({ dataDir: tempDir(), baseUrl: demo.baseUrl, client: QUICK_RETRIES })
    onCleanup(() => library.dispose())
    await library.sync.start({ skipAvatars: true })
    return library
  })
  .extend('cache', { scope: 'file' }, ({ demo, library }, { onCleanup }): OpenedCache => {
    const cache = openCache(library.dataDir, demo.baseUrl, { mustExist: true })
    onCleanup(() => cache.close())
    return cache
  })

/** The thrown value of work, for checking its class and members. */
function thrownBy(work: () => unknown): unknown {
  try {
    work()
  } catch (error) {
    return error
  }
  throw new Error('expected an error')
}

describe('offline lists', () => {
  test('page by offset and limit as well as by page', ({ library }) => {
    const byPage = library.catalogue.list({ page: 3, perPage: 20, sort: 'top' })
    const byOffset = library.catalogue.list({ offset: 40, limit: 20, sort: 'top' })
    expect(byPage.artists).toHaveLength(20)
    expect(byOffset.artists).toEqual(byPage.artists)
    expect(byOffset.total).toBe(byPage.total)
    expect(byPage.pages).toBe(Math.ceil(byPage.total / 20))
    expect(byOffset.pages).toBe(1)
  })

  test('reproduce the service order of every sort and filter', async ({ demo, library }) => {
    for (const sort of ['trending', 'top', 'recently_created', 'recently_updated'] as const) {
      for (const [kind, filter] of [['all', ''], ['podcasts', '&is_podcaster=1'], ['musicians', '&is_podcaster=0']] as const) {
        const url = `${demo.baseUrl}/api/v1/artists?sort=${sort}${filter}&include_blank=1&per_page=10&page=2&sort_r=1`
        const online = ((await (await fetch(url)).json()) as { artists: { artist: { username: string } }[] }).artists.map((a) => a.artist.username)
        const offline = library.catalogue.list({ sort, kind, includeBlank: true, reverse: true, perPage: 10, page: 2 })
        expect(online.length, `${sort} ${kind}`).toBeGreaterThan(0)
        expect(offline.artists.map((a) => a.username), `${sort} ${kind}`).toEqual(online)
      }
    }
  })

  test('go through the schema: the db function takes its output, the façade checks the input', ({ cache, library }) => {
    const query = { kind: 'musicians', sort: 'recently_updated', reverse: true, perPage: 7, page: 2 } as const
    expect(listArtists(cache.db, parseArguments(artistListQuerySchema, query))).toEqual(library.catalogue.list(query))
    expect(parseArguments(artistListQuerySchema, {})).toEqual({ kind: 'all', sort: 'trending', reverse: false, includeBlank: false })
    // Without the blank artists by default, with them when asked.
    const withBlank = library.catalogue.list({ includeBlank: true }).total
    expect(withBlank).toBe(ARTISTS)
    expect(library.catalogue.list().total).toBeLessThan(withBlank)
  })

  test('refuse nonsense arguments with an InvalidArgumentError naming the field', ({ library }) => {
    const list = (query: unknown) => () => library.catalogue.list(query as never)
    for (const [query, field, message] of [
      [{ perPage: 0 }, 'perPage', /^perPage must be an integer from 1 to 1000$/],
      [{ perPage: 1001 }, 'perPage', /^perPage must be an integer from 1 to 1000$/],
      [{ page: 1.5 }, 'page', /^page must be an integer of at least 1$/],
      [{ page: '2' }, 'page', /^page must be an integer of at least 1$/],
      [{ offset: -1 }, 'offset', /^offset must be an integer of at least 0$/],
      [{ sort: 'loudest' }, 'sort', /^sort must be one of trending, top, recently_created, recently_updated$/],
      [{ kind: 'robots' }, 'kind', /^kind must be one of /],
      [{ reverse: 'yes' }, 'reverse', /^reverse must be true or false$/],
      [{ q: 7 }, 'q', /^q must be text$/],
      [{ q: 'x'.repeat(1001) }, 'q', /^q must be at most 1000 characters$/],
    ] as const) {
      const error = thrownBy(list(query))
      expect(error, JSON.stringify(query)).toBeInstanceOf(InvalidArgumentError)
      expect(error, JSON.stringify(query)).toMatchObject({ code: 'invalid_argument', field })
      expect((error as Error).message, JSON.stringify(query)).toMatch(message)
    }
    expect(thrownBy(list({ page: 1, offset: 0 }))).toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/not both/) })
    expect(thrownBy(list({ perpage: 10 }))).toMatchObject({ code: 'invalid_argument', field: 'perpage' })
  })

  test('find an artist without regard to case, with tracks in the service order', ({ demo, cache, library }) => {
    const artist = demo.catalogue.artists.find((a) => a.numTracks > 3)!
    const cached = library.catalogue.artist(artist.username.toUpperCase())
    expect(cached.username).toBe(artist.username)
    expect(cached.tracks.map((t) => t.uploadId)).toEqual(demo.catalogue.tracksOf(artist).map((t) => t.uploadId))
    expect(cached.detailFetchedAt).toBeGreaterThan(0)
    expect(getArtist(cache.db, artist.username.toLowerCase())).toEqual(cached)
    expect(getArtist(cache.db, 'nobody-by-that-name')).toBeUndefined()
    const missing = thrownBy(() => library.catalogue.artist('nobody-by-that-name'))
    expect(missing).toBeInstanceOf(NotFoundError)
    expect(missing).toMatchObject({ code: 'not_found', message: expect.stringContaining('"nobody-by-that-name"') })
    expect(thrownBy(() => library.catalogue.artist(''))).toMatchObject({ code: 'invalid_argument' })
  })

  test('find a track by upload id, with the artist it belongs to', ({ demo, cache }) => {
    const artist = demo.catalogue.artists.find((a) => a.numTracks > 1)!
    const track = demo.catalogue.tracksOf(artist)[1]!
    expect(getTrack(cache.db, track.uploadId)).toMatchObject({
      uploadId: track.uploadId,
      title: track.title,
      bytes: track.bytes,
      ext: track.ext,
      artistUsername: artist.username,
      artistName: artist.pfName,
      artistKey: artist.username.toLowerCase(),
    })
    expect(getTrack(cache.db, '999999999')).toBeUndefined()
  })

  test('report the sync status', ({ demo, library }) => {
    const status = library.catalogue.status()
    expect(status.baseUrl).toBe(demo.baseUrl)
    expect(status.lastRun).toMatchObject({ state: 'completed', phase: 'avatars', error: null })
    expect(status.lastFullSyncAt).toBeGreaterThan(0)
    expect(status.artists).toBe(ARTISTS)
    expect(status.gone).toBe(0)
    expect(status.detailsPending).toBe(0)
    expect(status.detailErrors).toEqual([])
    expect(status.readOnly).toBe(false)
    expect(status.cacheBytes).toBeGreaterThan(0)
  })
})

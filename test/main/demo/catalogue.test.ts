import { describe, expect, it } from 'vitest'
import { Catalogue, MIB, formatTimestamp, slugify, type TrackRecord } from '../../../src-main/demo/catalogue'
import { foldText } from '../../../src-main/core/shared/text'
import { UploadFile } from '../../../src-main/demo/files'
import { artistDetailJson, listArtistJson } from '../../../src-main/demo/responses'
import { sha256 } from './http-helpers'

const ORIGIN = 'http://127.0.0.1:1'

function dump(catalogue: Catalogue, count = catalogue.artists.length): string {
  return catalogue.artists
    .slice(0, count)
    .map((artist) => listArtistJson(ORIGIN, catalogue, artist) + artistDetailJson(ORIGIN, catalogue, artist))
    .join('\n')
}

describe('the generated catalogue', () => {
  const catalogue = new Catalogue({ artists: 1100, seed: 1, maxFileMb: 64 })
  const artists = catalogue.artists
  const tracks: TrackRecord[] = artists.flatMap((artist) => catalogue.tracksOf(artist))

  it('is the same for the same seed and size, and differs for another seed', () => {
    const again = new Catalogue({ artists: 1100, seed: 1, maxFileMb: 64 })
    expect(dump(again)).toBe(dump(catalogue))
    expect(dump(new Catalogue({ artists: 1100, seed: 2, maxFileMb: 64 }), 50)).not.toBe(dump(catalogue, 50))
  })

  it('matches the bytes pinned here, so a change in any runtime or machine shows', () => {
    // If this fails after a deliberate change to the generator, update the digest.
    const small = new Catalogue({ artists: 200, seed: 7, maxFileMb: 4096 })
    expect(sha256(dump(small))).toBe('d468732cfbe62c7bf1a633b294a1eadae6d85f6f687800d2a6eee6fe5e70e17f')
    const files = small.artists
      .flatMap((artist) => small.tracksOf(artist))
      .filter((_, i) => i % 97 === 0)
      .map((track) => new UploadFile(7, track).read(0, Math.min(track.bytes, 200_000)))
    expect(sha256(Buffer.concat(files))).toBe('b252cda60f82ff8941fbc30312064b8cf4f56c033b89944593a1a36100325a2b')
  })

  it('has about 10% podcasters and 10% artists without tracks', () => {
    const podcasters = artists.filter((a) => a.isPodcaster).length / artists.length
    const blank = artists.filter((a) => a.numTracks === 0).length / artists.length
    expect(podcasters).toBeGreaterThan(0.07)
    expect(podcasters).toBeLessThan(0.13)
    expect(blank).toBeGreaterThan(0.07)
    expect(blank).toBeLessThan(0.13)
  })

  it('skews track counts: most artists a handful, a few in the hundreds', () => {
    const counts = artists.map((a) => a.numTracks).filter((n) => n > 0).sort((a, b) => a - b)
    expect(counts[Math.floor(counts.length / 2)]).toBeLessThanOrEqual(12)
    expect(counts.at(-1)).toBeGreaterThanOrEqual(100)
    expect(counts.filter((n) => n >= 100).length).toBeLessThan(counts.length * 0.02)
    for (const artist of artists) expect(catalogue.tracksOf(artist)).toHaveLength(artist.numTracks)
  })

  it('spreads sizes from tens of KB to exactly the maximum, which a podcaster owns', () => {
    const sizes = tracks.map((t) => t.bytes)
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(16 * 1024)
    expect(Math.min(...sizes)).toBeLessThan(100 * 1024)
    expect(Math.max(...sizes)).toBe(64 * MIB)
    const biggest = artists.filter((a) => catalogue.tracksOf(a).some((t) => t.bytes === 64 * MIB))
    expect(biggest.some((a) => a.isPodcaster)).toBe(true)
  })

  it('uses every format and unique upload ids', () => {
    expect(new Set(tracks.map((t) => t.ext))).toEqual(new Set(['mp3', 'wav', 'ogg', 'm4a', 'flac']))
    expect(new Set(tracks.map((t) => t.uploadId)).size).toBe(tracks.length)
    expect(new Set(tracks.map((t) => t.itemId)).size).toBe(tracks.length)
  })

  it('stamps created_at in ISO 8601 with milliseconds and several UTC offsets', () => {
    for (const track of tracks) expect(track.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/)
    const offsets = new Set(tracks.map((t) => t.createdAt.slice(-6)))
    expect(offsets.size).toBeGreaterThanOrEqual(5)
    for (const track of tracks.slice(0, 500)) expect(Date.parse(track.createdAt)).toBe(track.createdAtMs)
  })

  it('has unique usernames without regard to case', () => {
    expect(new Set(artists.map((a) => a.username.toLowerCase())).size).toBe(artists.length)
  })

  it('is unkind: nulls, empty strings, schemeless sites, line breaks, scripts, emoji and markup', () => {
    expect(artists.some((a) => a.pfFacebook === null)).toBe(true)
    expect(artists.some((a) => a.pfTwitter === '')).toBe(true)
    expect(artists.some((a) => a.pfTwitter !== null && a.pfTwitter.length > 0)).toBe(true)
    expect(artists.some((a) => a.pfWebsite !== null && /^www\./.test(a.pfWebsite))).toBe(true)
    expect(artists.some((a) => a.pfBio.includes('\n'))).toBe(true)
    expect(artists.some((a) => /[\u3040-\u30ff\u0400-\u04ff\u0600-\u06ff]/.test(a.pfBio))).toBe(true)
    expect(artists.some((a) => /\p{Extended_Pictographic}/u.test(a.pfBio))).toBe(true)
    expect(artists.some((a) => a.pfBio.includes('<img src=x onerror=alert(1)>'))).toBe(true)
    expect(artists.some((a) => /[^\p{ASCII}]/u.test(a.pfName))).toBe(true)
  })

  it('has titles that make bad file names, very long titles and duplicates within an artist', () => {
    const titles = new Set(tracks.map((t) => t.title))
    for (const hostile of ['AC/DC Cover', '..', 'CON', 'aux.txt', 'Ends with dots...', '../../../etc/passwd']) {
      expect(titles).toContain(hostile)
    }
    expect(tracks.some((t) => Buffer.byteLength(t.title) > 255)).toBe(true)
    const withDuplicates = artists.filter((a) => {
      const own = catalogue.tracksOf(a).map((t) => t.title)
      return new Set(own).size < own.length
    })
    expect(withDuplicates.length).toBeGreaterThan(0)
  })

  it('keeps some subtypes other than track', () => {
    expect(tracks.some((t) => t.subtype !== 'track')).toBe(true)
    expect(tracks.filter((t) => t.subtype === 'track').length).toBeGreaterThan(tracks.length * 0.9)
  })

  it('lists fewer items than num_tracks for some artists, never more', () => {
    for (const artist of artists) expect(artist.listedItems).toBeLessThanOrEqual(artist.numTracks)
    expect(artists.some((a) => a.listedItems < a.numTracks)).toBe(true)
  })

  it('finds uploads by id and refuses ids it never issued', () => {
    const track = tracks[123]!
    expect(catalogue.findUpload(track.uploadId)?.track).toEqual(track)
    expect(catalogue.findUpload('999')).toBeUndefined()
    expect(catalogue.findUpload('1000999')).toBeUndefined()
    expect(catalogue.findUpload('abc')).toBeUndefined()
  })
})

describe('catalogue edits', () => {
  it('changes an artist, removes one and revises an upload', () => {
    const catalogue = new Catalogue({ artists: 100, seed: 3, maxFileMb: 8 })
    const [first, second] = catalogue.artists
    const before = catalogue.version
    catalogue.editArtist(first!.username.toUpperCase(), { pfBio: 'New bio' })
    expect(catalogue.findArtist(first!.username)?.pfBio).toBe('New bio')
    catalogue.removeArtist(second!.username)
    expect(catalogue.findArtist(second!.username)).toBeUndefined()
    const listed = catalogue.list({ page: 1, perPage: 50, sort: 'top', reverse: false, includeBlank: true })
    expect(listed.pages).toBe(2)
    const all = [1, 2].flatMap(
      (page) => catalogue.list({ page, perPage: 50, sort: 'top', reverse: false, includeBlank: true }).artists,
    )
    expect(all).toHaveLength(99)
    expect(all.map((a) => a.username)).not.toContain(second!.username)
    catalogue.restoreArtist(second!.username)
    expect(catalogue.findArtist(second!.username)).toBe(second)
    expect(() => catalogue.restoreArtist(second!.username)).toThrow(/no removed artist/)
    catalogue.removeArtist(second!.username)
    const owner = catalogue.artists.find((a) => a.numTracks > 0 && !a.removed)!
    const uploadId = catalogue.tracksOf(owner)[0]!.uploadId
    expect(catalogue.reviseUpload(uploadId)).toBe(1)
    expect(catalogue.findUpload(uploadId)?.track.revision).toBe(1)
    expect(catalogue.version).toBe(before + 5)
    expect(() => catalogue.editArtist('nobody-at-all', {})).toThrow(/no artist/)
  })

  it('rejects nonsense sizes', () => {
    expect(() => new Catalogue({ artists: 0, seed: 1, maxFileMb: 8 })).toThrow(/artists/)
    expect(() => new Catalogue({ artists: 10, seed: 1.5, maxFileMb: 8 })).toThrow(/seed/)
    expect(() => new Catalogue({ artists: 10, seed: 1, maxFileMb: 0 })).toThrow(/maxFileMb/)
  })
})

describe('text helpers', () => {
  it('folds case and diacritics', () => {
    expect(foldText('Björk CAFÉ Ñandú')).toBe('bjork cafe nandu')
  })

  it('makes slugs and never an empty one', () => {
    expect(slugify('Night Drive (Part 2)')).toBe('night-drive-part-2')
    expect(slugify('🎵🎶')).toBe('untitled')
    expect(slugify('Café Über')).toBe('cafe-uber')
  })

  it('formats timestamps with the local time of the offset', () => {
    const utc = Date.UTC(2014, 2, 7, 11, 32, 5, 7)
    expect(formatTimestamp(utc, -300)).toBe('2014-03-07T06:32:05.007-05:00')
    expect(formatTimestamp(utc, 345)).toBe('2014-03-07T17:17:05.007+05:45')
    expect(Date.parse(formatTimestamp(utc, 765))).toBe(utc)
  })
})

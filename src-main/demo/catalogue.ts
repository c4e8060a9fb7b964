/**
 * The demo catalogue: a deterministic set of artists, tracks and uploads built
 * from a seed and a size. Artist summaries are built up front (the lists, sorts
 * and search need them); each artist's tracks are derived on demand from the
 * artist's own seed, so memory grows with the number of artists only. How
 * artists and tracks are made is generate.ts; the list orders and the search,
 * artist-index.ts; what tests change while the service runs, the methods at
 * the end of the class.
 */
import type { SortOrder } from '../core/shared/catalogue'
import { foldText } from '../core/shared/text'
import { ArtistIndex } from './artist-index'
import {
  LIST_ITEMS_CAP, MAX_TRACKS, MIB, MIN_FILE_BYTES, UPLOAD_ID_BASE, fileShape, formatTimestamp, generateArtist, slugify, trackTitle,
  type ArtistRecord, type NameRegistry, type TrackRecord,
} from './generate'
import { Random, deriveSeed } from './random'
import { SUBTYPES_OTHER_THAN_TRACK } from './words'
// What importers read from here, made in generate.ts.
export { FILE_EXTENSIONS, MAX_TRACKS, MIB, formatTimestamp, slugify } from './generate'
export type { ArtistRecord, FileExtension, TrackRecord } from './generate'

export interface CatalogueOptions {
  artists: number
  seed: number
  maxFileMb: number
}

export interface ListQuery {
  page: number
  perPage: number
  q?: string
  isPodcaster?: 0 | 1
  sort: SortOrder
  reverse: boolean
  includeBlank: boolean
}

export interface ListResult {
  pages: number
  artists: ArtistRecord[]
}

export type ArtistPatch = Partial<Pick<ArtistRecord, 'pfName' | 'pfBio' | 'pfWebsite' | 'pfFacebook' | 'pfTwitter'>>

export class Catalogue {
  readonly options: CatalogueOptions
  readonly artists: ArtistRecord[] = []
  /** Bumped by every edit; servers key their caches on it. */
  version = 0
  private readonly byUsername = new Map<string, number>()
  private readonly bigUploadArtist: number
  /** The list orders and the search, over the artists. */
  private readonly index = new ArtistIndex(this.artists)
  private readonly uploadRevisions = new Map<string, number>()
  private readonly uploadSizes = new Map<string, number>()
  /** Uploads added while the service runs (new-uploads.ts), oldest first, and what the generator made before them. */
  private readonly added = new Map<number, { tracks: TrackRecord[]; generated: { numTracks: number; updatedAt: number } }>()

  constructor(options: CatalogueOptions) {
    if (!Number.isInteger(options.artists) || options.artists < 1) throw new Error('artists must be a positive integer')
    if (!Number.isInteger(options.seed)) throw new Error('seed must be an integer')
    if (!Number.isInteger(options.maxFileMb) || options.maxFileMb < 1) throw new Error('maxFileMb must be a positive integer')
    this.options = options
    const names: NameRegistry = { used: new Set(), nextSuffix: new Map() }
    for (let index = 0; index < options.artists; index++) {
      const artist = generateArtist(options.seed, index, names)
      this.artists.push(artist)
      this.byUsername.set(artist.username.toLowerCase(), index)
    }
    // The largest upload (exactly maxFileMb MiB) belongs to the first podcaster with tracks.
    let big = this.artists.findIndex((a) => a.isPodcaster && a.numTracks > 0)
    if (big < 0) {
      big = this.artists.findIndex((a) => a.numTracks > 0)
      if (big < 0) big = 0
      const owner = this.artists[big]!
      owner.isPodcaster = true
      if (owner.numTracks === 0) {
        owner.numTracks = 1
        owner.listedItems = 1
      }
    }
    this.bigUploadArtist = big
    this.index.rebuild()
  }

  get maxFileBytes(): number {
    return this.options.maxFileMb * MIB
  }

  findArtist(username: string): ArtistRecord | undefined {
    const index = this.byUsername.get(username.toLowerCase())
    if (index === undefined) return undefined
    const artist = this.artists[index]!
    return artist.removed ? undefined : artist
  }

  /** The artist's tracks, newest first (the order of both results' items). */
  tracksOf(artist: ArtistRecord): TrackRecord[] {
    const random = new Random(deriveSeed(this.options.seed, 'tracks', artist.index))
    const tracks: TrackRecord[] = []
    // Added uploads leave the generated ones exactly as they were.
    const added = this.added.get(artist.index)
    const { numTracks, updatedAt } = added?.generated ?? artist
    const span = Math.max(1, updatedAt - artist.createdAt)
    for (let t = 0; t < numTracks; t++) {
      // Track t is the t-th oldest; the newest is stamped with the artist's update time.
      const createdAtMs =
        t === numTracks - 1
          ? updatedAt
          : artist.createdAt + Math.floor((span * (t + random.int(0, 999) / 1000)) / numTracks)
      const uploadId = String(UPLOAD_ID_BASE + artist.index * MAX_TRACKS + t)
      const title = trackTitle(random, artist, t, tracks)
      let { bytes, ext } = fileShape(random, artist, this.maxFileBytes)
      if (artist.index === this.bigUploadArtist && t === 0) {
        bytes = this.maxFileBytes
        ext = 'mp3'
      }
      bytes = this.uploadSizes.get(uploadId) ?? bytes
      const downloads = random.int(0, Math.max(1, Math.floor(artist.top / Math.max(1, numTracks))))
      const subtype = random.chance(0.03) ? random.pick(SUBTYPES_OTHER_THAN_TRACK) : 'track'
      tracks.push({
        itemId: `${slugify(title)}-${uploadId}`,
        title,
        subtype,
        uploadId,
        createdAt: formatTimestamp(createdAtMs, artist.utcOffset),
        createdAtMs,
        bytes,
        downloads,
        hotlinks: random.int(0, downloads * 3),
        ext,
        revision: this.uploadRevisions.get(uploadId) ?? 0,
      })
    }
    if (added) tracks.push(...added.tracks.map((track) => ({ ...track, revision: this.uploadRevisions.get(track.uploadId) ?? 0 })))
    return tracks.reverse()
  }

  /** The id the artist's next upload gets, or undefined when its range of ids is full. */
  nextUploadId(artist: ArtistRecord): string | undefined {
    return artist.numTracks < MAX_TRACKS ? String(UPLOAD_ID_BASE + artist.index * MAX_TRACKS + artist.numTracks) : undefined
  }

  /**
   * Publishes a new upload (new-uploads.ts makes it, with nextUploadId's id): the artist's
   * num_tracks, list items, update time and place in recently_updated change as the service's would.
   */
  addUpload(username: string, track: TrackRecord): ArtistRecord {
    const artist = this.requireArtist(username)
    if (track.uploadId !== this.nextUploadId(artist)) throw new Error(`the next upload of ${username} is not ${track.uploadId}`)
    let added = this.added.get(artist.index)
    if (!added) {
      added = { tracks: [], generated: { numTracks: artist.numTracks, updatedAt: artist.updatedAt } }
      this.added.set(artist.index, added)
    }
    added.tracks.push(track)
    artist.numTracks++
    artist.updatedAt = Math.max(artist.updatedAt, track.createdAtMs)
    artist.listedItems = Math.min(LIST_ITEMS_CAP, artist.listedItems + 1)
    this.index.rebuild()
    this.version++
    return artist
  }

  /** The items a list result carries: the newest listedItems tracks, id and subtype only. */
  listedItems(artist: ArtistRecord): { uploadId: string; subtype: string }[] {
    return this.tracksOf(artist)
      .slice(0, artist.listedItems)
      .map((track) => ({ uploadId: track.uploadId, subtype: track.subtype }))
  }

  findUpload(uploadId: string): { artist: ArtistRecord; track: TrackRecord } | undefined {
    if (!/^[1-9][0-9]{6,15}$/.test(uploadId)) return undefined
    const n = Number(uploadId) - UPLOAD_ID_BASE
    const artist = this.artists[Math.floor(n / MAX_TRACKS)]
    if (!artist || artist.removed) return undefined
    const track = this.tracksOf(artist).find((candidate) => candidate.uploadId === uploadId)
    return track ? { artist, track } : undefined
  }

  list(query: ListQuery): ListResult {
    const folded = query.q === undefined ? '' : foldText(query.q).trim()
    let order: Uint32Array
    let reverse = query.reverse
    if (folded !== '') {
      order = this.index.search(folded, query.isPodcaster, query.includeBlank)
      reverse = false // relevancy order ignores sort and sort_r
    } else {
      order = this.index.order(query.sort, query.isPodcaster, query.includeBlank)
    }
    const pages = Math.ceil(order.length / query.perPage)
    const start = (query.page - 1) * query.perPage
    const artists: ArtistRecord[] = []
    for (let i = start; i < Math.min(order.length, start + query.perPage); i++) {
      const position = reverse ? order.length - 1 - i : i
      artists.push(this.artists[order[position]!]!)
    }
    return { pages, artists }
  }

  /** Changes an artist's profile (tests use it to see a sync pick up a change). */
  editArtist(username: string, patch: ArtistPatch): ArtistRecord {
    const artist = this.requireArtist(username)
    Object.assign(artist, patch)
    this.index.textChanged()
    this.version++
    return artist
  }

  /** Takes an artist off the service: lists skip it and its detail answers 404. */
  removeArtist(username: string): void {
    this.requireArtist(username).removed = true
    this.index.rebuild()
    this.version++
  }

  /** Puts a removed artist back on the service. */
  restoreArtist(username: string): void {
    const index = this.byUsername.get(username.toLowerCase())
    if (index === undefined || !this.artists[index]!.removed) throw new Error(`no removed artist ${username}`)
    this.artists[index]!.removed = false
    this.index.rebuild()
    this.version++
  }

  /** Publishes a new version of an upload's file: other bytes, another ETag, same size. */
  reviseUpload(uploadId: string): number {
    if (!this.findUpload(uploadId)) throw new Error(`no upload ${uploadId}`)
    const revision = (this.uploadRevisions.get(uploadId) ?? 0) + 1
    this.uploadRevisions.set(uploadId, revision)
    this.version++
    return revision
  }

  /** Gives an upload another size (a test's exact figure, e.g. 108,000,000 bytes); its file is served at that size. */
  resizeUpload(uploadId: string, bytes: number): void {
    const found = this.findUpload(uploadId)
    if (!found) throw new Error(`no upload ${uploadId}`)
    if (!Number.isInteger(bytes) || bytes < MIN_FILE_BYTES || (found.track.ext === 'wav' && bytes % 2 !== 0)) throw new Error(`an upload cannot be ${bytes} bytes`)
    this.uploadSizes.set(uploadId, bytes)
    this.version++
  }

  private requireArtist(username: string): ArtistRecord {
    const artist = this.findArtist(username)
    if (!artist) throw new Error(`no artist ${username}`)
    return artist
  }
}

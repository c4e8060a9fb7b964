/**
 * The demo catalogue: a deterministic set of artists, tracks and uploads built
 * from a seed and a size. Artist summaries are built up front (the lists, sorts
 * and search need them); each artist's tracks are derived on demand from the
 * artist's own seed, so memory grows with the number of artists only.
 */
import { SORT_ORDERS, type SortOrder } from '../shared/catalogue'
import { foldText, searchWords as words } from '../shared/text'
import { Random, deriveSeed } from './random'
import {
  BIO_SENTENCES, CITIES, FIRST_WORDS, HOSTILE_TITLES, PODCAST_WORDS, SECOND_WORDS,
  SUBTYPES_OTHER_THAN_TRACK, TITLE_WORDS, UNKIND_NAMES,
} from './words'

export const MIB = 1024 * 1024
/** Upload ids are 1_000_000 + artist index * MAX_TRACKS + track index, so an id finds its artist. */
export const MAX_TRACKS = 1000
const UPLOAD_ID_BASE = 1_000_000
const MIN_FILE_BYTES = 16 * 1024
/** Items shown per artist in list results at most; the single-artist result has them all. */
const LIST_ITEMS_CAP = 10
const EPOCH_START = Date.UTC(2008, 0, 1)
const EPOCH_END = Date.UTC(2026, 5, 1)
/** UTC offsets (minutes) used by uploads' created_at, several of them unusual. */
const UTC_OFFSETS = [-300, -240, -210, 0, 0, 60, 120, 330, 345, 540, 600, 765, -600] as const

export const FILE_EXTENSIONS = ['mp3', 'wav', 'ogg', 'm4a', 'flac'] as const
export type FileExtension = (typeof FILE_EXTENSIONS)[number]

export interface CatalogueOptions {
  artists: number
  seed: number
  maxFileMb: number
}

/** What the generator knows of one artist before its tracks are derived. */
export interface ArtistRecord {
  index: number
  username: string
  pfName: string
  pfFacebook: string | null
  pfTwitter: string | null
  pfWebsite: string | null
  pfBio: string
  location: { id: number; name: string }
  isPodcaster: boolean
  numTracks: number
  /** Items that list results carry (never more than numTracks). */
  listedItems: number
  avatarProtocolRelative: boolean
  createdAt: number
  updatedAt: number
  /** Sort keys. */
  top: number
  trending: number
  /** UTC offset (minutes) of this artist's upload timestamps. */
  utcOffset: number
  removed: boolean
}

export interface TrackRecord {
  itemId: string
  title: string
  subtype: string
  uploadId: string
  createdAt: string
  createdAtMs: number
  bytes: number
  downloads: number
  hotlinks: number
  ext: FileExtension
  /** Bumped by reviseUpload: changes the file's bytes and ETag. */
  revision: number
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
  /** Order of artist indexes per sort and filter, built once and after removals. */
  private orders = new Map<string, Uint32Array>()
  private trendingRank = new Uint32Array(0)
  private searchWords: { names: string[]; rest: string[] }[] | undefined
  private readonly searchCache = new Map<string, Uint32Array>()
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
      const artist = this.generateArtist(index, names)
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
    this.buildOrders()
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
      const title = this.trackTitle(random, artist, t, tracks)
      let { bytes, ext } = this.fileShape(random, artist)
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
    this.buildOrders()
    this.searchCache.clear()
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
      order = this.search(folded, query.isPodcaster, query.includeBlank)
      reverse = false // relevancy order ignores sort and sort_r
    } else {
      order = this.orders.get(orderKey(query.sort, query.isPodcaster, query.includeBlank))!
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
    this.searchWords = undefined
    this.searchCache.clear()
    this.version++
    return artist
  }

  /** Takes an artist off the service: lists skip it and its detail answers 404. */
  removeArtist(username: string): void {
    this.requireArtist(username).removed = true
    this.buildOrders()
    this.searchCache.clear()
    this.version++
  }

  /** Puts a removed artist back on the service. */
  restoreArtist(username: string): void {
    const index = this.byUsername.get(username.toLowerCase())
    if (index === undefined || !this.artists[index]!.removed) throw new Error(`no removed artist ${username}`)
    this.artists[index]!.removed = false
    this.buildOrders()
    this.searchCache.clear()
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

  private generateArtist(index: number, names: NameRegistry): ArtistRecord {
    const random = new Random(deriveSeed(this.options.seed, 'artist', index))
    const first = random.pick(FIRST_WORDS)
    const second = random.pick(SECOND_WORDS)
    const username = uniqueName(usernameFor(random, first, second), names)
    const isPodcaster = random.chance(0.1)
    const isBlank = random.chance(0.1)
    const numTracks = isBlank ? 0 : trackCount(random)
    const listedCap = Math.min(numTracks, LIST_ITEMS_CAP)
    const listedItems = numTracks > 0 && random.chance(0.2) ? random.int(0, listedCap - 1) : listedCap
    const createdAt = random.int(EPOCH_START, EPOCH_END - 86_400_000)
    const updatedAt = numTracks === 0 ? createdAt : random.int(createdAt + 60_000, EPOCH_END)
    const top = random.logInt(1, 5_000_000)
    // Trending favours artists updated lately: popularity scaled by recency.
    const recency = (updatedAt - EPOCH_START) / (EPOCH_END - EPOCH_START)
    const trending = Math.floor(top * (0.2 + recency * recency * 4)) + random.int(0, 999)
    const [locationId, locationName] = random.pick(CITIES)
    const handle = username.toLowerCase().replace(/[^a-z0-9]/g, '')
    return {
      index,
      username,
      pfName: random.chance(0.1) ? random.pick(UNKIND_NAMES) : `${first} ${second}`,
      pfFacebook: socialHandle(random, handle),
      pfTwitter: socialHandle(random, handle),
      pfWebsite: website(random, handle),
      pfBio: bio(random, isPodcaster),
      location: { id: locationId, name: locationName },
      isPodcaster,
      numTracks,
      listedItems,
      avatarProtocolRelative: random.chance(0.5),
      createdAt,
      updatedAt,
      top,
      trending,
      utcOffset: random.pick(UTC_OFFSETS),
      removed: false,
    }
  }

  private trackTitle(random: Random, artist: ArtistRecord, t: number, earlier: TrackRecord[]): string {
    const roll = random.int(0, 999)
    if (roll < 50 && earlier.length > 0) return random.pick(earlier).title // duplicate title
    if (roll < 110) return random.pick(HOSTILE_TITLES)
    if (roll < 125) {
      // Very long: well past 255 bytes once written as UTF-8.
      const words: string[] = []
      while (words.join(' ').length < 300) words.push(random.pick(TITLE_WORDS))
      return words.join(' ')
    }
    if (artist.isPodcaster) return `${random.pick(PODCAST_WORDS)} ${t + 1}: ${random.pick(TITLE_WORDS)} and ${random.pick(TITLE_WORDS)}`
    const title = `${random.pick(TITLE_WORDS)} ${random.pick(TITLE_WORDS)}`
    return random.chance(0.1) ? `${title} (Part ${random.int(2, 4)})` : title
  }

  private fileShape(random: Random, artist: ArtistRecord): { bytes: number; ext: FileExtension } {
    const roll = random.int(0, 99)
    let bytes: number
    let ext: FileExtension
    if (artist.isPodcaster) {
      bytes = roll < 10 ? random.logInt(MIB, 10 * MIB) : roll < 90 ? random.logInt(10 * MIB, 150 * MIB) : random.logInt(150 * MIB, 1024 * MIB)
      ext = random.chance(0.7) ? 'mp3' : 'm4a'
    } else {
      bytes = roll < 15 ? random.logInt(MIN_FILE_BYTES, MIB) : roll < 95 ? random.logInt(MIB, 12 * MIB) : random.logInt(12 * MIB, 200 * MIB)
      const formatRoll = random.int(0, 99)
      ext = formatRoll < 50 ? 'mp3' : formatRoll < 62 ? 'wav' : formatRoll < 75 ? 'ogg' : formatRoll < 88 ? 'm4a' : 'flac'
    }
    bytes = Math.max(MIN_FILE_BYTES, Math.min(this.maxFileBytes, bytes))
    // A RIFF file is made of even-sized chunks, so a valid WAV always has an even size.
    if (ext === 'wav') bytes -= bytes % 2
    return { bytes, ext }
  }

  private buildOrders(): void {
    const live = this.artists.filter((artist) => !artist.removed)
    this.orders = new Map()
    for (const sort of SORT_ORDERS) {
      const key = sortKey(sort)
      const sorted = [...live].sort((a, b) => key(b) - key(a) || a.index - b.index)
      for (const isPodcaster of [undefined, 0, 1] as const) {
        for (const includeBlank of [false, true]) {
          const indexes = sorted
            .filter((a) => (includeBlank || a.numTracks > 0) && (isPodcaster === undefined || a.isPodcaster === (isPodcaster === 1)))
            .map((a) => a.index)
          this.orders.set(orderKey(sort, isPodcaster, includeBlank), Uint32Array.from(indexes))
        }
      }
    }
    const trending = this.orders.get(orderKey('trending', undefined, true))!
    this.trendingRank = new Uint32Array(this.artists.length).fill(0xffffffff)
    trending.forEach((index, rank) => (this.trendingRank[index] = rank))
  }

  /**
   * Relevancy: every word of the query must begin a word of the artist's text;
   * a word found in the username or display name scores far above one found
   * only in the bio or location. Ties keep the trending order.
   */
  private search(folded: string, isPodcaster: 0 | 1 | undefined, includeBlank: boolean): Uint32Array {
    const cacheKey = `${folded}\u0000${isPodcaster}\u0000${includeBlank}`
    const cached = this.searchCache.get(cacheKey)
    if (cached) return cached
    this.searchWords ??= this.artists.map((a) => ({
      names: words(`${a.username} ${a.pfName}`),
      rest: words(`${a.pfBio} ${a.location.name}`),
    }))
    const queryWords = words(folded)
    const hits: { index: number; score: number }[] = []
    for (const artist of this.artists) {
      if (queryWords.length === 0) break
      if (artist.removed || (!includeBlank && artist.numTracks === 0)) continue
      if (isPodcaster !== undefined && artist.isPodcaster !== (isPodcaster === 1)) continue
      const text = this.searchWords[artist.index]!
      let score = 0
      for (const word of queryWords) {
        if (text.names.some((candidate) => candidate.startsWith(word))) score += 100
        else if (text.rest.some((candidate) => candidate.startsWith(word))) score += 1
        else {
          score = 0
          break
        }
      }
      if (score > 0) hits.push({ index: artist.index, score })
    }
    hits.sort((a, b) => b.score - a.score || this.trendingRank[a.index]! - this.trendingRank[b.index]!)
    const result = Uint32Array.from(hits, (hit) => hit.index)
    if (this.searchCache.size > 256) this.searchCache.clear()
    this.searchCache.set(cacheKey, result)
    return result
  }
}

function orderKey(sort: SortOrder, isPodcaster: 0 | 1 | undefined, includeBlank: boolean): string {
  return `${sort}/${isPodcaster ?? '-'}/${includeBlank ? 1 : 0}`
}

function sortKey(sort: SortOrder): (artist: ArtistRecord) => number {
  switch (sort) {
    case 'trending':
      return (a) => a.trending
    case 'top':
      return (a) => a.top
    case 'recently_created':
      return (a) => a.createdAt
    case 'recently_updated':
      return (a) => a.updatedAt
  }
}

/** Most artists have a handful of tracks, some dozens, a few hundreds. */
function trackCount(random: Random): number {
  const roll = random.int(0, 999)
  if (roll < 850) return random.int(1, 12)
  if (roll < 995) return random.int(13, 60)
  return random.int(100, 600)
}

function usernameFor(random: Random, first: string, second: string): string {
  switch (random.int(0, 5)) {
    case 0:
      return `${first}_${second}`
    case 1:
      return `${first.toLowerCase()}${second.toLowerCase()}`
    case 2:
      return `${first.toLowerCase()}-${second.toLowerCase()}`
    case 3:
      return `the.${second.toLowerCase()}`
    case 4:
      return `DJ_${first}`
    default:
      return `${second}${random.int(1, 99)}`
  }
}

/** Names taken so far (lower case), and for each candidate the next suffix to try. */
interface NameRegistry {
  used: Set<string>
  nextSuffix: Map<string, number>
}

/** The candidate, or the candidate with the lowest free number appended; unique without regard to case. */
function uniqueName(candidate: string, names: NameRegistry): string {
  const key = candidate.toLowerCase()
  let name = candidate
  // Remembering where the search stopped keeps this linear for large catalogues.
  let n = names.nextSuffix.get(key) ?? 2
  if (names.used.has(key)) {
    while (names.used.has(`${key}${n}`)) n++
    name = `${candidate}${n}`
    names.nextSuffix.set(key, n + 1)
  }
  names.used.add(name.toLowerCase())
  return name
}

function socialHandle(random: Random, handle: string): string | null {
  const roll = random.int(0, 9)
  return roll < 4 ? null : roll < 6 ? '' : handle
}

function website(random: Random, handle: string): string | null {
  const roll = random.int(0, 9)
  if (roll < 3) return null
  if (roll < 4) return ''
  if (roll < 8) return `www.${handle}.example.com`
  if (roll < 9) return `${handle}.bandcamp.example/music`
  return `https://${handle}.example.org/`
}

function bio(random: Random, isPodcaster: boolean): string {
  if (random.chance(0.05)) return ''
  const lines: string[] = []
  if (isPodcaster) lines.push('A podcast. New episodes every week.')
  const count = random.int(1, 4)
  for (let i = 0; i < count; i++) lines.push(random.pick(BIO_SENTENCES))
  return lines.join(random.pick(['\n', '\r\n', '\n\n']))
}

/** Lower-case ASCII words joined by dashes; "untitled" when nothing is left. */
export function slugify(title: string): string {
  const slug = foldText(title)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  return slug === '' ? 'untitled' : slug
}

/** ISO 8601 with milliseconds and a numeric offset, e.g. 2014-03-07T06:32:05.000-05:00. */
export function formatTimestamp(utcMs: number, offsetMinutes: number): string {
  const local = new Date(utcMs + offsetMinutes * 60_000).toISOString().slice(0, 23)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  const hh = String(Math.floor(abs / 60)).padStart(2, '0')
  const mm = String(abs % 60).padStart(2, '0')
  return `${local}${sign}${hh}:${mm}`
}

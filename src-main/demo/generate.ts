/**
 * Making the demo catalogue: every artist from the seed and its index alone,
 * and the shapes of its tracks (titles, sizes, formats, times), so the same
 * seed always gives the same catalogue. The Catalogue (catalogue.ts) holds and
 * serves what this makes.
 */
import { foldText } from '../core/shared/text'
import { Random, deriveSeed } from './random'
import { BIO_SENTENCES, CITIES, FIRST_WORDS, HOSTILE_TITLES, PODCAST_WORDS, SECOND_WORDS, TITLE_WORDS, UNKIND_NAMES } from './words'

export const MIB = 1024 * 1024
/** Upload ids are 1_000_000 + artist index * MAX_TRACKS + track index, so an id finds its artist. */
export const MAX_TRACKS = 1000
export const UPLOAD_ID_BASE = 1_000_000
export const MIN_FILE_BYTES = 16 * 1024
/** Items shown per artist in list results at most; the single-artist result has them all. */
export const LIST_ITEMS_CAP = 10
const EPOCH_START = Date.UTC(2008, 0, 1)
const EPOCH_END = Date.UTC(2026, 5, 1)
/** UTC offsets (minutes) used by uploads' created_at, several of them unusual. */
const UTC_OFFSETS = [-300, -240, -210, 0, 0, 60, 120, 330, 345, 540, 600, 765, -600] as const

export const FILE_EXTENSIONS = ['mp3', 'wav', 'ogg', 'm4a', 'flac'] as const
export type FileExtension = (typeof FILE_EXTENSIONS)[number]

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

/** One artist, from the catalogue's seed and its index alone (its name made unique among names). */
export function generateArtist(seed: number, index: number, names: NameRegistry): ArtistRecord {
  const random = new Random(deriveSeed(seed, 'artist', index))
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

/** The title of an artist's track t: a few are duplicates, hostile or very long. */
export function trackTitle(random: Random, artist: ArtistRecord, t: number, earlier: TrackRecord[]): string {
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

/** The size and format of a track's file: podcasts are long, a few files are large, none above maxFileBytes. */
export function fileShape(random: Random, artist: ArtistRecord, maxFileBytes: number): { bytes: number; ext: FileExtension } {
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
  bytes = Math.max(MIN_FILE_BYTES, Math.min(maxFileBytes, bytes))
  // A RIFF file is made of even-sized chunks, so a valid WAV always has an even size.
  if (ext === 'wav') bytes -= bytes % 2
  return { bytes, ext }
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
export interface NameRegistry {
  used: Set<string>
  nextSuffix: Map<string, number>
}

/** The candidate, or the candidate with the lowest free number appended; unique without regard to case. */
export function uniqueName(candidate: string, names: NameRegistry): string {
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

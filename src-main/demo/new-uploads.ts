/**
 * New uploads while the demo service runs, so a client's next sync has something new to find
 * (the app's "new tracks" of followed artists, auto-download, the notification). Each batch is
 * numbered; which artists it picks (unless named), and each upload's title, format and size, come
 * from the catalogue's seed and that number only, so the same seed and the same sequence of
 * batches publish the same uploads. Only their time is the clock's: a new upload is the newest of
 * the whole catalogue, so it tops recently_updated as it would on the real service.
 */
import { MIB, MAX_TRACKS, formatTimestamp, slugify, type ArtistRecord, type Catalogue, type FileExtension, type TrackRecord } from './catalogue'
import { Random, deriveSeed } from './random'
import { PODCAST_WORDS, TITLE_WORDS } from './words'

/** What one batch adds; every field is optional. */
export interface NewUploadsOptions {
  /** These artists (usernames, any case) instead of ones the batch picks. */
  artists?: string[]
  /** How many artists the batch picks when none are named (default 3). */
  artistCount?: number
  /** New uploads for each artist (default 1). */
  perArtist?: number
  /** The clock of the uploads' time (default Date.now). */
  now?: number
}

/** One artist's share of a batch. */
export interface AddedUploads {
  username: string
  uploadIds: string[]
}

const SMALLEST_FILE = 64 * 1024
/** New uploads are songs and episodes of a few MiB, quick to download in a test. */
const LARGEST_FILE = 4 * MIB

export class NewUploads {
  /** Batches published so far; the next batch's number. */
  batches = 0

  constructor(private readonly catalogue: Catalogue) {}

  /** Publishes one batch; throws (and publishes nothing) for an unknown, removed or full artist. */
  add(options: NewUploadsOptions = {}): AddedUploads[] {
    const perArtist = options.perArtist ?? 1
    if (!Number.isInteger(perArtist) || perArtist < 1 || perArtist > 50) throw new Error('perArtist must be an integer from 1 to 50')
    const random = new Random(deriveSeed(this.catalogue.options.seed, 'new-uploads', this.batches))
    const artists = options.artists ? this.named(options.artists, perArtist) : this.picked(random, options.artistCount ?? 3, perArtist)
    this.batches++
    // Later than anything the catalogue has: the newest upload of the whole service.
    let createdAtMs = Math.max(options.now ?? Date.now(), this.newestUpdate() + 1000)
    return artists.map((artist) => {
      const uploadIds: string[] = []
      for (let i = 0; i < perArtist; i++) {
        const track = newTrack(random, artist, this.catalogue.nextUploadId(artist)!, createdAtMs, this.catalogue.maxFileBytes)
        this.catalogue.addUpload(artist.username, track)
        uploadIds.push(track.uploadId)
        createdAtMs += 1000
      }
      return { username: artist.username, uploadIds }
    })
  }

  private named(usernames: string[], perArtist: number): ArtistRecord[] {
    if (usernames.length === 0) throw new Error('name at least one artist')
    const artists = usernames.map((username) => {
      const artist = this.catalogue.findArtist(username)
      if (!artist) throw new Error(`no artist ${username}`)
      if (!hasRoom(artist, perArtist)) throw new Error(`${artist.username} has no room for ${perArtist} more uploads`)
      return artist
    })
    return [...new Set(artists)]
  }

  private picked(random: Random, count: number, perArtist: number): ArtistRecord[] {
    if (!Number.isInteger(count) || count < 1) throw new Error('artistCount must be a positive integer')
    const candidates = this.catalogue.artists.filter((artist) => !artist.removed && hasRoom(artist, perArtist))
    const picked: ArtistRecord[] = []
    while (picked.length < count && candidates.length > 0) {
      picked.push(candidates.splice(random.int(0, candidates.length - 1), 1)[0]!)
    }
    return picked
  }

  private newestUpdate(): number {
    let newest = 0
    for (const artist of this.catalogue.artists) newest = Math.max(newest, artist.updatedAt)
    return newest
  }
}

function hasRoom(artist: ArtistRecord, count: number): boolean {
  return artist.numTracks + count <= MAX_TRACKS
}

function newTrack(random: Random, artist: ArtistRecord, uploadId: string, createdAtMs: number, maxFileBytes: number): TrackRecord {
  const title = artist.isPodcaster
    ? `${random.pick(PODCAST_WORDS)} ${artist.numTracks + 1}: ${random.pick(TITLE_WORDS)} and ${random.pick(TITLE_WORDS)}`
    : `${random.pick(TITLE_WORDS)} ${random.pick(TITLE_WORDS)}`
  const ext: FileExtension = artist.isPodcaster ? 'mp3' : random.pick(['mp3', 'mp3', 'wav', 'ogg', 'm4a', 'flac'] as const)
  let bytes = Math.min(maxFileBytes, random.logInt(SMALLEST_FILE, LARGEST_FILE))
  // A RIFF file is made of even-sized chunks, so a valid WAV always has an even size.
  if (ext === 'wav') bytes -= bytes % 2
  return {
    itemId: `${slugify(title)}-${uploadId}`,
    title,
    subtype: 'track',
    uploadId,
    createdAt: formatTimestamp(createdAtMs, artist.utcOffset),
    createdAtMs,
    bytes,
    downloads: 0,
    hotlinks: 0,
    ext,
    revision: 0,
  }
}

/** One line per artist for a person watching the service: `new uploads: Hungry_Lucy 1042017, 1042018`. */
export function describeAdded(added: AddedUploads[]): string {
  if (added.length === 0) return 'new uploads: none (no artist has room for more)\n'
  return added.map(({ username, uploadIds }) => `new uploads: ${username} ${uploadIds.join(', ')}\n`).join('')
}

/**
 * The bytes of every upload, generated on the fly so nothing is stored: any
 * range of any file can be produced directly, and the same upload always gives
 * the same bytes. A file is about a second of real audio of its type
 * (audio/index.ts), then filler up to its exact size: 64 KiB blocks of the
 * file's random bytes, each block led by a stamp of its index, so a resume
 * from a wrong offset can never produce a file that looks right.
 *
 * No byte of the filler is 0xFF: MPEG audio and FLAC frames start with a sync
 * of 0xFF and more set bits, so a player that hunts past the audio for the
 * next frame finds none in the filler and ends the stream cleanly.
 */
import { parseRange } from '../core/shared/byte-range'
import { PLAYABLE_TYPES } from '../core/shared/media-types'
import { Random, deriveSeed, mix32 } from './random'
import { audioFor } from './audio/index'
import type { TrackRecord } from './catalogue'

const BLOCK_SIZE = 64 * 1024
const STAMP_SIZE = 8

/** One upload's file as the server sees it. */
export class UploadFile {
  readonly size: number
  readonly etag: string
  readonly lastModified: string
  readonly contentType: string
  private readonly header: Buffer
  private readonly trailer: Buffer
  private readonly block: Buffer
  private readonly fileSeed: number

  constructor(catalogueSeed: number, track: TrackRecord) {
    this.size = track.bytes
    this.fileSeed = deriveSeed(catalogueSeed, `file:${track.revision}`, Number(track.uploadId))
    this.etag = `"${track.uploadId}-${track.revision}-${this.fileSeed.toString(16).padStart(8, '0')}"`
    this.lastModified = new Date(track.createdAtMs + track.revision * 86_400_000).toUTCString()
    this.contentType = PLAYABLE_TYPES[track.ext]!
    const audio = audioFor(track.ext, track.bytes, this.fileSeed)
    // Uploads are at least 16 KiB (MIN_FILE_BYTES) and the audio fits in that; were one smaller, it keeps what fits.
    this.header = audio.head.subarray(0, this.size)
    this.trailer = audio.trail.length <= this.size - this.header.length ? audio.trail : Buffer.alloc(0)
    this.block = Buffer.alloc(BLOCK_SIZE)
    const random = new Random(this.fileSeed)
    for (let i = 0; i < BLOCK_SIZE; i += 4) this.block.writeUInt32LE(random.nextUint32(), i)
    // 0xFF becomes 0xFE: the filler must hold no frame sync (see above).
    for (let i = 0; i < BLOCK_SIZE; i++) if (this.block[i] === 0xff) this.block[i] = 0xfe
  }

  /** Fills target with the file's bytes from offset on (target must fit in the file). */
  fill(target: Buffer, offset: number): void {
    if (offset < 0 || offset + target.length > this.size) throw new RangeError('read past the end of the file')
    const trailerStart = this.size - this.trailer.length
    let written = 0
    while (written < target.length) {
      const position = offset + written
      if (position < this.header.length) {
        written += this.header.copy(target, written, position, Math.min(this.header.length, position + target.length - written))
        continue
      }
      if (position >= trailerStart) {
        written += this.trailer.copy(target, written, position - trailerStart, position - trailerStart + target.length - written)
        continue
      }
      const within = position % BLOCK_SIZE
      const count = Math.min(BLOCK_SIZE - within, target.length - written, trailerStart - position)
      this.block.copy(target, written, within, within + count)
      if (within < STAMP_SIZE) {
        const stamp = this.stamp(Math.floor(position / BLOCK_SIZE))
        stamp.copy(target, written, within, Math.min(STAMP_SIZE, within + count))
      }
      written += count
    }
  }

  /** Bytes from offset, length long (a convenience for tests and small reads). */
  read(offset: number, length: number): Buffer {
    const buffer = Buffer.alloc(length)
    this.fill(buffer, offset)
    return buffer
  }

  /**
   * The block's index and a hash of it with the file's seed, seven bits to a
   * byte so that no byte is 0xFF: four bytes count 2^28 blocks (16 TiB).
   */
  private stamp(blockIndex: number): Buffer {
    const stamp = Buffer.alloc(STAMP_SIZE)
    const hash = mix32(blockIndex ^ this.fileSeed)
    for (let i = 0; i < 4; i++) {
      stamp[i] = (blockIndex >>> (7 * i)) & 0x7f
      stamp[4 + i] = (hash >>> (8 * i)) & 0x7f
    }
    return stamp
  }
}

export type RangeRequest =
  | { kind: 'whole' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' }

/**
 * The range of file a request asks for (core/shared/byte-range.ts reads the header). A stale
 * If-Range, like anything this server does not serve as a range, gets the whole file.
 */
export function requestedRange(rangeHeader: string | undefined, ifRange: string | undefined, file: UploadFile): RangeRequest {
  if (ifRange !== undefined && ifRange !== file.etag && ifRange !== file.lastModified) return { kind: 'whole' }
  const range = parseRange(rangeHeader, file.size)
  if (range === undefined) return { kind: 'whole' }
  if (range === 'unsatisfiable') return { kind: 'unsatisfiable' }
  return { kind: 'partial', start: range.start, end: range.end }
}

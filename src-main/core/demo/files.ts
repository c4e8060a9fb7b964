/**
 * The bytes of every upload, generated on the fly so nothing is stored: any
 * range of any file can be produced directly, and the same upload always gives
 * the same bytes. Every 64 KiB block carries its own index, so a resume from a
 * wrong offset can never produce a file that looks right.
 */
import { parseRange } from '../shared/byte-range'
import { PLAYABLE_TYPES } from '../shared/media-types'
import { Random, deriveSeed, mix32 } from './random'
import type { FileExtension, TrackRecord } from './catalogue'

const BLOCK_SIZE = 64 * 1024
const STAMP_SIZE = 8
const WAV_SAMPLE_RATE = 22_050
/** Notes of the tone pattern, in Hz; each file plays five of them. */
const NOTES = [262, 294, 330, 349, 392, 440, 494, 523, 587, 659] as const

/** One upload's file as the server sees it. */
export class UploadFile {
  readonly size: number
  readonly etag: string
  readonly lastModified: string
  readonly contentType: string
  private readonly header: Buffer
  private readonly block: Buffer
  private readonly fileSeed: number

  constructor(catalogueSeed: number, track: TrackRecord) {
    this.size = track.bytes
    this.fileSeed = deriveSeed(catalogueSeed, `file:${track.revision}`, Number(track.uploadId))
    this.etag = `"${track.uploadId}-${track.revision}-${this.fileSeed.toString(16).padStart(8, '0')}"`
    this.lastModified = new Date(track.createdAtMs + track.revision * 86_400_000).toUTCString()
    this.contentType = PLAYABLE_TYPES[track.ext]!
    this.header = fileHeader(track.ext, track.bytes, this.fileSeed)
    this.block = Buffer.alloc(BLOCK_SIZE)
    const random = new Random(this.fileSeed)
    for (let i = 0; i < BLOCK_SIZE; i += 4) this.block.writeUInt32LE(random.nextUint32(), i)
  }

  /** Fills target with the file's bytes from offset on (target must fit in the file). */
  fill(target: Buffer, offset: number): void {
    if (offset < 0 || offset + target.length > this.size) throw new RangeError('read past the end of the file')
    let written = 0
    while (written < target.length) {
      const position = offset + written
      if (position < this.header.length) {
        written += this.header.copy(target, written, position, Math.min(this.header.length, position + target.length - written))
        continue
      }
      const within = position % BLOCK_SIZE
      const count = Math.min(BLOCK_SIZE - within, target.length - written)
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

  private stamp(blockIndex: number): Buffer {
    const stamp = Buffer.alloc(STAMP_SIZE)
    stamp.writeUInt32LE(blockIndex >>> 0, 0)
    stamp.writeUInt32LE(mix32(blockIndex ^ this.fileSeed), 4)
    return stamp
  }
}

/** The leading bytes of a file: a format signature, and for WAV a whole playable header and tone. */
function fileHeader(ext: FileExtension, size: number, seed: number): Buffer {
  switch (ext) {
    case 'wav':
      return wavHeader(size, seed)
    case 'mp3': // An ID3v2.4 tag header with an empty tag.
      return Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0])
    case 'ogg':
      return Buffer.from('OggS\u0000\u0002', 'latin1')
    case 'flac':
      return Buffer.from('fLaC', 'latin1')
    case 'm4a': {
      const ftyp = Buffer.alloc(32)
      ftyp.writeUInt32BE(32, 0)
      ftyp.write('ftypM4A \u0000\u0000\u0000\u0000M4A mp42isom\u0000\u0000\u0000\u0000', 4, 'latin1')
      return ftyp
    }
  }
}

/**
 * RIFF/WAVE, 8-bit mono PCM: about a second of tones in the data chunk, then a
 * JUNK chunk (skipped by players) that pads the file to its exact size.
 */
function wavHeader(size: number, seed: number): Buffer {
  const overhead = 12 + 24 + 8 + 8 // RIFF, fmt, data and JUNK chunk headers
  // Every RIFF chunk takes an even number of bytes, so WAV uploads have even sizes (see fileShape).
  const dataLength = Math.min(WAV_SAMPLE_RATE, size - overhead) & ~1
  const junkLength = size - overhead - dataLength
  const header = Buffer.alloc(overhead - 8 + dataLength + 8)
  let at = 0
  at += header.write('RIFF', at, 'latin1')
  at = header.writeUInt32LE(size - 8, at)
  at += header.write('WAVE', at, 'latin1')
  at += header.write('fmt ', at, 'latin1')
  at = header.writeUInt32LE(16, at)
  at = header.writeUInt16LE(1, at) // PCM
  at = header.writeUInt16LE(1, at) // mono
  at = header.writeUInt32LE(WAV_SAMPLE_RATE, at)
  at = header.writeUInt32LE(WAV_SAMPLE_RATE, at) // bytes per second
  at = header.writeUInt16LE(1, at) // block align
  at = header.writeUInt16LE(8, at) // bits per sample
  at += header.write('data', at, 'latin1')
  at = header.writeUInt32LE(dataLength, at)
  writeTones(header.subarray(at, at + dataLength), seed)
  at += dataLength
  at += header.write('JUNK', at, 'latin1')
  header.writeUInt32LE(junkLength, at)
  return header
}

/** Five notes of a triangle wave, with short fades so they do not click. */
function writeTones(samples: Buffer, seed: number): void {
  const random = new Random(seed)
  const noteLength = Math.max(1, Math.floor(samples.length / 5))
  const fade = Math.min(400, Math.floor(noteLength / 4))
  for (let note = 0; note < 5; note++) {
    const period = Math.round(WAV_SAMPLE_RATE / random.pick(NOTES))
    const start = note * noteLength
    const end = note === 4 ? samples.length : start + noteLength
    for (let i = start; i < end; i++) {
      const phase = (i - start) % period
      const triangle = phase < period / 2 ? (4 * phase) / period - 1 : 3 - (4 * phase) / period
      const envelope = Math.min(1, (i - start) / fade, (end - i) / fade)
      samples[i] = 128 + Math.round(triangle * envelope * 90)
    }
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

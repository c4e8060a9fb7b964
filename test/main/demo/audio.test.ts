import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { UploadFile } from '../../../src-main/demo/files'
import { toneLevels } from '../../../src-main/demo/audio/tone'
import { deriveSeed } from '../../../src-main/demo/random'
import type { FileExtension, TrackRecord } from '../../../src-main/demo/catalogue'

/**
 * The structure of the demo's audio, read here with small parsers of each format: that
 * Chromium plays it is test/e2e/demo-audio.spec.ts.
 */

const SEED = 11
const BLOCK = 65_536

function upload(ext: FileExtension, bytes: number, uploadId = '4242', revision = 0): UploadFile {
  const track = { uploadId, revision, bytes, ext, createdAtMs: Date.UTC(2026, 0, 1) } as TrackRecord
  return new UploadFile(SEED, track)
}

/** Where the filler starts and ends: after the audio at the start, before a trailer at the end. */
function fillerBounds(ext: FileExtension, size: number): { start: number; end: number } {
  const file = upload(ext, size)
  const body = file.read(0, size)
  let start = 0
  if (ext === 'm4a') start = boxes(body).at(-1)!.start + 8
  else if (ext === 'ogg') start = oggPages(body).at(-1)!.end
  else if (ext === 'flac') start = decodeFlac(body).end
  else if (ext === 'mp3') start = mp3Frames(body).end
  else start = 44 + body.readUInt32LE(40) + 8
  const end = ext === 'ogg' ? size - oggPages(body.subarray(0, start)).at(-1)!.length : size
  return { start, end }
}

describe('demo audio: every type', () => {
  const types: FileExtension[] = ['mp3', 'm4a', 'ogg', 'flac', 'wav']

  it('keeps the exact size, and any range is the same bytes as the whole', () => {
    for (const ext of types) {
      for (const size of [16_384, 65_536 + 30, 300_002]) {
        const file = upload(ext, size)
        const whole = file.read(0, size)
        expect(whole.length).toBe(size)
        for (const [offset, length] of [[0, 11], [17, 9_000], [size - 100, 100], [size - 70_000, 69_999], [5_000, size - 5_000]]) {
          if (offset! < 0 || offset! + length! > size) continue
          expect(file.read(offset!, length!)).toEqual(whole.subarray(offset!, offset! + length!))
        }
      }
    }
  })

  it('changes with the revision but keeps the ETag form', () => {
    for (const ext of types) {
      const first = upload(ext, 200_000, '77', 0)
      const second = upload(ext, 200_000, '77', 1)
      expect(first.etag).toMatch(/^"77-0-[0-9a-f]{8}"$/)
      expect(second.etag).not.toBe(first.etag)
      expect(second.read(0, 200_000)).not.toEqual(first.read(0, 200_000))
    }
  })

  it('never has a byte 0xFF in the filler, and stamps each block with its index', () => {
    for (const ext of types) {
      const size = 5 * BLOCK + 1234
      const body = upload(ext, size).read(0, size)
      const { start, end } = fillerBounds(ext, size)
      expect(start).toBeLessThan(BLOCK)
      expect(body.subarray(start, end).includes(0xff)).toBe(false)
      for (let block = 1; block * BLOCK < end; block++) {
        const stamp = body.subarray(block * BLOCK, block * BLOCK + 4)
        expect(stamp[0]! | (stamp[1]! << 7) | (stamp[2]! << 14) | (stamp[3]! << 21)).toBe(block)
      }
    }
  })

  it('stamps block indexes up to 2^28 in seven bits a byte', () => {
    const file = upload('mp3', 1024 ** 3)
    const block = 16_383
    const stamp = file.read(block * BLOCK, 8)
    expect(stamp[0]! | (stamp[1]! << 7) | (stamp[2]! << 14) | (stamp[3]! << 21)).toBe(block)
    expect(Math.max(...stamp)).toBeLessThan(0x80)
  })
})

describe('demo audio: FLAC', () => {
  it('decodes to the tone, five frames of 4096 samples, with STREAMINFO and CRCs right', () => {
    for (const size of [16_384, 3_000_000]) {
      const body = upload('flac', size).read(0, Math.min(size, 40_000))
      const decoded = decodeFlac(body)
      expect(decoded.sampleRate).toBe(22_050)
      expect(decoded.totalSamples).toBe(5 * 4096)
      expect(decoded.samples.length).toBe(decoded.totalSamples)
      expect(createHash('md5').update(Buffer.from(decoded.samples.buffer)).digest('hex')).toBe(decoded.md5)
      expect(decoded.end).toBeLessThan(10_000) // fits the smallest upload
      // The same five notes as the file's seed picks (the tone module's own output).
      const fileSeed = deriveSeed(SEED, 'file:0', 4242) // as files.ts derives it
      const expected = Int16Array.from(toneLevels(fileSeed, 22_050, 5 * 4096), (level) => Math.round(level * 20_000))
      expect(decoded.samples).toEqual(expected)
    }
  })
})

describe('demo audio: MP3', () => {
  it('has an Info frame counting its frames and the whole file, with the LAME tag CRC right', () => {
    for (const size of [16_384, 12_345_678]) {
      const head = upload('mp3', size).read(0, 8_192)
      expect(head.toString('latin1', 0, 3)).toBe('ID3')
      const tag = 10 + ((head[6]! << 21) | (head[7]! << 14) | (head[8]! << 7) | head[9]!)
      const frame = head.subarray(tag)
      expect(frame[0]).toBe(0xff)
      const info = frame.indexOf('Info', 0, 'latin1')
      expect(info).toBe(13) // after the side information of a mono MPEG-2 frame
      expect(frame.readUInt32BE(info + 4) & 3).toBe(3)
      expect(frame.readUInt32BE(info + 8)).toBe(41) // frames: 41 × 576 samples at 22.05 kHz, about a second
      expect(frame.readUInt32BE(info + 12)).toBe(size - tag)
      const window = Buffer.from(frame.subarray(0, 190))
      const crc = window.readUInt16BE(info + 154)
      window.writeUInt16BE(0, info + 154)
      expect(crc16Arc(window)).toBe(crc)
      expect(mp3Frames(head).count).toBe(42) // the Info frame and 41 of audio
    }
  })
})

describe('demo audio: M4A', () => {
  it('is the clip (ftyp, moov, free, mdat), then a free box to the exact end', () => {
    for (const size of [16_384, 9_876_543]) {
      const file = upload('m4a', size)
      const head = file.read(0, 8_192)
      const found = boxes(head, size)
      expect(found.map((box) => box.type)).toEqual(['ftyp', 'moov', 'free', 'mdat', 'free'])
      expect(found.at(-1)!.end).toBe(size)
    }
  })

  it('takes the 64-bit box size past 4 GiB', () => {
    const size = 2 ** 32 + 5_000
    const head = upload('m4a', size).read(0, 8_192)
    const free = boxes(head, size).at(-1)!
    expect(free.type).toBe('free')
    expect(head.readUInt32BE(free.start)).toBe(1)
    expect(Number(head.readBigUInt64BE(free.start + 8))).toBe(size - free.start)
  })
})

describe('demo audio: OGG', () => {
  it('is Vorbis pages with right CRCs, the last one flagged end of stream and repeated at the end of the file', () => {
    for (const size of [16_384, 70_000, 4_000_000]) {
      const file = upload('ogg', size)
      const head = file.read(0, 8_192)
      const pages = oggPages(head)
      expect(head.toString('latin1', pages[0]!.start + 28, pages[0]!.start + 35)).toBe('\u0001vorbis')
      const last = pages.at(-1)!
      expect(last.flags & 4).toBe(4)
      expect(file.read(size - last.length, last.length)).toEqual(head.subarray(last.start, last.end))
      expect(last.granule).toBe(22_050n) // a second at 22.05 kHz
    }
  })
})

/** Top-level MP4 boxes from the start of data, up to the first that runs past it (sizes may be 64-bit). */
function boxes(data: Buffer, fileSize = data.length): { type: string; start: number; end: number }[] {
  const found: { type: string; start: number; end: number }[] = []
  for (let at = 0; at + 8 <= data.length; ) {
    let length = data.readUInt32BE(at)
    if (length === 1) length = Number(data.readBigUInt64BE(at + 8))
    const box = { type: data.toString('latin1', at + 4, at + 8), start: at, end: at + length }
    found.push(box)
    if (box.end > data.length || box.end === fileSize) break
    at = box.end
  }
  return found
}

interface OggPage {
  start: number
  end: number
  length: number
  flags: number
  granule: bigint
}

/** The Ogg pages from the start of data, each checked against its CRC, until data stops being pages. */
function oggPages(data: Buffer): OggPage[] {
  const pages: OggPage[] = []
  for (let at = 0; data.toString('latin1', at, at + 4) === 'OggS'; ) {
    const segments = data[at + 26]!
    let length = 27 + segments
    for (let i = 0; i < segments; i++) length += data[at + 27 + i]!
    const page = Buffer.from(data.subarray(at, at + length))
    const crc = page.readUInt32LE(22)
    page.writeUInt32LE(0, 22)
    expect(oggCrc(page)).toBe(crc)
    pages.push({ start: at, end: at + length, length, flags: data[at + 5]!, granule: data.readBigInt64LE(at + 6) })
    at += length
  }
  return pages
}

function oggCrc(data: Buffer): number {
  let crc = 0
  for (const byte of data) {
    crc ^= byte << 24
    for (let i = 0; i < 8; i++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1
  }
  return crc >>> 0
}

function crc16Arc(data: Buffer): number {
  let crc = 0
  for (const byte of data) {
    crc ^= byte
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1
  }
  return crc
}

/** The MPEG audio frames after the ID3v2 tag, one after another: how many, and where they end. */
function mp3Frames(data: Buffer): { count: number; end: number } {
  let at = 10 + ((data[6]! << 21) | (data[7]! << 14) | (data[8]! << 7) | data[9]!)
  let count = 0
  while (data[at] === 0xff && (data[at + 1]! & 0xe0) === 0xe0) {
    at += mpeg2Layer3FrameLength(data.subarray(at))
    count++
  }
  return { count, end: at }
}

/** The length of an MPEG-2 Layer III frame (22.05 kHz here) from its header. */
function mpeg2Layer3FrameLength(header: Buffer): number {
  const kbps = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160][header[2]! >> 4]!
  const rates = [22_050, 24_000, 16_000]
  const padding = (header[2]! >> 1) & 1
  return Math.floor((72 * kbps * 1000) / rates[(header[2]! >> 2) & 3]!) + padding
}

/**
 * A FLAC reader for what the demo writes (one channel, 16 bits, FIXED or LPC subframes,
 * Rice-coded residuals), checking every CRC; it answers the samples and where the frames end.
 */
function decodeFlac(data: Buffer): { sampleRate: number; totalSamples: number; md5: string; samples: Int16Array; end: number } {
  expect(data.toString('latin1', 0, 4)).toBe('fLaC')
  const bits = new BitReader(data, 4)
  expect(bits.read(1)).toBe(1) // the last metadata block
  expect(bits.read(7)).toBe(0) // STREAMINFO
  expect(bits.read(24)).toBe(34)
  bits.read(16 + 16 + 24 + 24)
  const sampleRate = bits.read(20)
  expect(bits.read(3)).toBe(0) // one channel
  expect(bits.read(5)).toBe(15) // 16 bits
  const totalSamples = bits.read(4) * 2 ** 32 + bits.read(32)
  const md5 = data.toString('hex', 26, 42)
  bits.skipBytes(16)
  const samples: number[] = []
  while (samples.length < totalSamples) {
    const frameStart = bits.byteOffset()
    expect(bits.read(15)).toBe(0b111111111111100) // sync, reserved
    bits.read(1)
    const blockCode = bits.read(4)
    expect(bits.read(4)).toBe(0b0110) // 22.05 kHz
    expect(bits.read(4)).toBe(0) // mono
    expect(bits.read(3)).toBe(0b100) // 16 bits
    bits.read(1)
    bits.read(8) // frame number
    const blockSize = blockCode === 0b1100 ? 4096 : blockCode === 0b0111 ? bits.read(16) + 1 : NaN
    const headerCrc = crc8(data.subarray(frameStart, bits.byteOffset()))
    expect(bits.read(8)).toBe(headerCrc)
    expect(bits.read(1)).toBe(0)
    const type = bits.read(6)
    expect(bits.read(1)).toBe(0)
    const order = type >= 0b100000 ? (type & 0b11111) + 1 : type & 0b111
    const block: number[] = []
    for (let i = 0; i < order; i++) block.push(bits.signed(16))
    let coefficients: number[] = []
    let shift = 0
    if (type >= 0b100000) {
      const precision = bits.read(4) + 1
      shift = bits.read(5)
      for (let i = 0; i < order; i++) coefficients.push(bits.signed(precision))
    } else {
      expect(type & 0b111000).toBe(0b001000)
      coefficients = [[], [1], [2, -1], [3, -3, 1], [4, -6, 4, -1]][order]!
    }
    expect(bits.read(2)).toBe(0)
    const partitionOrder = bits.read(4)
    const residuals: number[] = []
    for (let partition = 0; partition < 2 ** partitionOrder; partition++) {
      const parameter = bits.read(4)
      const count = (blockSize >> partitionOrder) - (partition === 0 ? order : 0)
      for (let i = 0; i < count; i++) {
        let quotient = 0
        while (bits.read(1) === 0) quotient++
        const value = quotient * 2 ** parameter + (parameter > 0 ? bits.read(parameter) : 0)
        residuals.push(value % 2 === 0 ? value / 2 : -(value + 1) / 2)
      }
    }
    for (const residual of residuals) {
      let sum = 0
      for (let j = 0; j < order; j++) sum += coefficients[j]! * block[block.length - 1 - j]!
      block.push(Math.floor(sum / 2 ** shift) + residual)
    }
    bits.align()
    const frameCrc = crc16(data.subarray(frameStart, bits.byteOffset()))
    expect(bits.read(16)).toBe(frameCrc)
    samples.push(...block)
  }
  return { sampleRate, totalSamples, md5, samples: Int16Array.from(samples), end: bits.byteOffset() }
}

class BitReader {
  private position: number
  constructor(
    private readonly data: Buffer,
    byteOffset: number,
  ) {
    this.position = byteOffset * 8
  }
  read(count: number): number {
    let value = 0
    for (let i = 0; i < count; i++, this.position++) value = value * 2 + ((this.data[this.position >> 3]! >> (7 - (this.position & 7))) & 1)
    return value
  }
  signed(count: number): number {
    const value = this.read(count)
    return value >= 2 ** (count - 1) ? value - 2 ** count : value
  }
  skipBytes(count: number): void {
    this.position += count * 8
  }
  align(): void {
    this.position = Math.ceil(this.position / 8) * 8
  }
  byteOffset(): number {
    return this.position >> 3
  }
}

function crc8(data: Buffer): number {
  let crc = 0
  for (const byte of data) {
    crc ^= byte
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff
  }
  return crc
}

function crc16(data: Buffer): number {
  let crc = 0
  for (const byte of data) {
    crc ^= byte << 8
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff
  }
  return crc
}

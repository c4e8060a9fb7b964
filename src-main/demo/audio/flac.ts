/**
 * FLAC, written here rather than embedded: 16-bit mono at 22.05 kHz, the
 * file's five notes of tone in five frames of 4096 samples, one note to a frame
 * (0.93 s). Each frame's one subframe predicts every sample from the two before
 * it (LPC order 2, coefficients fitted to the frame by least squares): a sine
 * obeys x[n] = 2cos(w)x[n-1] - x[n-2] exactly, so what is left is rounding
 * (and the fades), Rice-coded in about 3 bits a sample. The tone takes about
 * 9 KB and fits the smallest upload (16 KiB); stored verbatim it would take 40 KB.
 *
 * What follows the last frame is the file's filler, which never holds a byte
 * 0xFF (files.ts), so a FLAC frame sync (0xFFF8) cannot appear in it: a demuxer
 * that looks for the next frame finds none and the stream ends (Chromium plays
 * the tone and fires 'ended'). STREAMINFO gives the exact sample count and the
 * MD5 of the samples, so players know the length at once and `flac -t` can check them.
 */
import { createHash } from 'node:crypto'
import { toneLevels } from './tone'
import type { FileAudio } from './file-audio'

const SAMPLE_RATE = 22_050
const BLOCK_SIZE = 4096
/** Five notes of one frame each (toneLevels makes five notes of equal length). */
const SAMPLES = 5 * BLOCK_SIZE
const AMPLITUDE = 20_000
/** Coefficients are 15-bit signed numbers scaled by 2^12: 2cos(w) is below 2, so up to 8192 of 16383. */
const PRECISION = 15
const SHIFT = 12
/** 16 Rice partitions of 256 samples a frame, each with its own parameter: the fades cost more than the middle. */
const PARTITION_ORDER = 4

/**
 * The last files written, by seed: writing one takes a few milliseconds, and the service makes
 * an UploadFile for every request, so a download resumed or read in ranges would pay it each time.
 */
const recent = new Map<number, FileAudio>()
const RECENT_FILES = 256

export function flacAudio(seed: number): FileAudio {
  const known = recent.get(seed)
  if (known) return known
  const audio = writeFlac(seed)
  if (recent.size >= RECENT_FILES) recent.delete(recent.keys().next().value!)
  recent.set(seed, audio)
  return audio
}

function writeFlac(seed: number): FileAudio {
  const levels = toneLevels(seed, SAMPLE_RATE, SAMPLES)
  const samples = new Int16Array(SAMPLES)
  for (let i = 0; i < SAMPLES; i++) samples[i] = Math.round(levels[i]! * AMPLITUDE)
  const frames: Buffer[] = []
  for (let start = 0, index = 0; start < samples.length; start += BLOCK_SIZE, index++) {
    frames.push(frame(samples.subarray(start, start + BLOCK_SIZE), index))
  }
  const md5 = createHash('md5').update(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength)).digest()
  return { head: Buffer.concat([Buffer.from('fLaC', 'latin1'), streamInfo(samples.length, md5), ...frames]), trail: Buffer.alloc(0) }
}

/** The STREAMINFO metadata block, flagged as the last metadata block. */
function streamInfo(totalSamples: number, md5: Buffer): Buffer {
  const bits = new BitWriter()
  bits.write(1, 1) // last metadata block
  bits.write(0, 7) // STREAMINFO
  bits.write(34, 24) // its length
  bits.write(BLOCK_SIZE, 16) // minimum block size (the last block may be shorter)
  bits.write(BLOCK_SIZE, 16) // maximum block size
  bits.write(0, 24) // minimum frame size: unknown
  bits.write(0, 24) // maximum frame size: unknown
  bits.write(SAMPLE_RATE, 20)
  bits.write(0, 3) // channels - 1
  bits.write(15, 5) // bits per sample - 1
  bits.write(Math.floor(totalSamples / 2 ** 32), 4) // total samples: 36 bits
  bits.write(totalSamples >>> 0, 32)
  return Buffer.concat([bits.bytes(), md5])
}

/** One frame of BLOCK_SIZE samples: header, one LPC order-2 subframe, CRC-16. */
function frame(samples: Int16Array, index: number): Buffer {
  if (samples.length !== BLOCK_SIZE) throw new RangeError('every frame holds BLOCK_SIZE samples')
  if (index > 127) throw new RangeError('frame numbers past 127 need a longer UTF-8 code')
  const bits = new BitWriter()
  bits.write(0b11111111111110, 14) // sync
  bits.write(0, 1) // reserved
  bits.write(0, 1) // fixed block size
  bits.write(0b1100, 4) // 4096 samples
  bits.write(0b0110, 4) // 22.05 kHz
  bits.write(0b0000, 4) // one channel
  bits.write(0b100, 3) // 16 bits per sample
  bits.write(0, 1) // reserved
  bits.write(index, 8) // the frame number, UTF-8 coded: one byte below 128
  bits.write(crc8(bits.bytes()), 8)

  const [a, b] = predictor(samples)
  bits.write(0, 1) // padding bit
  bits.write(0b100001, 6) // LPC, order 2
  bits.write(0, 1) // no wasted bits
  bits.write(samples[0]! & 0xffff, 16) // warm-up samples
  bits.write(samples[1]! & 0xffff, 16)
  bits.write(PRECISION - 1, 4)
  bits.write(SHIFT, 5)
  bits.write(a & 0x7fff, PRECISION) // the coefficient of the sample before
  bits.write(b & 0x7fff, PRECISION) // and of the one before that
  const residuals: number[] = []
  for (let i = 2; i < samples.length; i++) {
    // As the decoder predicts: an arithmetic shift of the integer sum (exact in a double).
    const residual = samples[i]! - Math.floor((a * samples[i - 1]! + b * samples[i - 2]!) / 2 ** SHIFT)
    residuals.push(residual >= 0 ? 2 * residual : -2 * residual - 1) // zigzag: small magnitudes, small codes
  }
  bits.write(0b00, 2) // Rice coding with 4-bit parameters
  bits.write(PARTITION_ORDER, 4)
  let next = 0
  for (let partition = 0; partition < 2 ** PARTITION_ORDER; partition++) {
    // The first partition is short by the two warm-up samples.
    const count = (BLOCK_SIZE >> PARTITION_ORDER) - (partition === 0 ? 2 : 0)
    const values = residuals.slice(next, (next += count))
    const parameter = riceParameter(values)
    bits.write(parameter, 4)
    for (const value of values) {
      const quotient = value >>> parameter
      bits.write(0, quotient % 24) // the quotient in unary: that many zeros, then a one
      for (let q = quotient - (quotient % 24); q > 0; q -= 24) bits.write(0, 24)
      bits.write(1, 1)
      if (parameter > 0) bits.write(value & ((1 << parameter) - 1), parameter)
    }
  }
  bits.alignToByte()
  const body = bits.bytes()
  const footer = Buffer.alloc(2)
  footer.writeUInt16BE(crc16(body))
  return Buffer.concat([body, footer])
}

/** x[n] ≈ (a x[n-1] + b x[n-2]) / 2^SHIFT: the least-squares fit, quantized (silence gets 0, 0). */
function predictor(samples: Int16Array): [number, number] {
  let r11 = 0, r12 = 0, r22 = 0, r01 = 0, r02 = 0
  for (let i = 2; i < samples.length; i++) {
    const [x0, x1, x2] = [samples[i]!, samples[i - 1]!, samples[i - 2]!]
    r11 += x1 * x1
    r12 += x1 * x2
    r22 += x2 * x2
    r01 += x0 * x1
    r02 += x0 * x2
  }
  const determinant = r11 * r22 - r12 * r12
  if (determinant <= 0) return [0, 0]
  const limit = 2 ** (PRECISION - 1)
  const quantize = (c: number): number => Math.max(-limit, Math.min(limit - 1, Math.round(c * 2 ** SHIFT)))
  return [quantize((r01 * r22 - r02 * r12) / determinant), quantize((r02 * r11 - r01 * r12) / determinant)]
}

/** The Rice parameter that codes these values in the fewest bits (14 at most: 15 means an escape). */
function riceParameter(values: readonly number[]): number {
  let best = 0
  let bestBits = Infinity
  for (let parameter = 0; parameter <= 14; parameter++) {
    let total = 0
    for (const value of values) total += (value >>> parameter) + 1 + parameter
    if (total < bestBits) [best, bestBits] = [parameter, total]
  }
  return best
}

/** Writes values most significant bit first, as FLAC reads them. */
class BitWriter {
  private readonly done: number[] = []
  private current = 0
  private used = 0

  /** Writes count bits of value (a whole number below 2^count), 24 at a time: the sums stay exact. */
  write(value: number, count: number): void {
    if (count > 24) {
      this.write(Math.floor(value / 2 ** 24), count - 24)
      this.write(value % 2 ** 24, 24)
      return
    }
    this.current = this.current * 2 ** count + value
    this.used += count
    while (this.used >= 8) {
      this.used -= 8
      const scale = 2 ** this.used
      this.done.push(Math.floor(this.current / scale))
      this.current %= scale
    }
  }

  alignToByte(): void {
    if (this.used > 0) this.write(0, 8 - this.used)
  }

  /** The whole bytes written so far. */
  bytes(): Buffer {
    return Buffer.from(this.done)
  }
}

/** CRC-8 of a frame header: polynomial x^8 + x^2 + x + 1, initial value 0. */
function crc8(data: Buffer): number {
  let crc = 0
  for (const byte of data) {
    crc ^= byte
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff
  }
  return crc
}

/** CRC-16 of a whole frame: polynomial x^16 + x^15 + x^2 + 1, initial value 0. */
function crc16(data: Buffer): number {
  let crc = 0
  for (const byte of data) {
    crc ^= byte << 8
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff
  }
  return crc
}

/**
 * MP3: the embedded clip (clips.ts), then the file's filler. The clip's Info
 * frame counts its frames, so players know the length (a second) at once; its
 * byte count is set to the whole file's, because FFmpeg, finding the file much
 * longer than the Info frame says, takes it for concatenated files and guesses
 * the length from the bitrate instead (13 minutes for a 3 MB file).
 *
 * Past the clip, MPEG audio demuxers hunt for the next frame sync (0xFFE…). The
 * filler never holds a byte 0xFF (files.ts), so they find none, drop the bytes
 * and reach the end: Chromium plays the second and fires 'ended'.
 */
import { MP3_CLIP } from './clips'
import type { FileAudio } from './file-audio'

export function mp3Audio(size: number): FileAudio {
  const head = Buffer.from(MP3_CLIP)
  const tagLength = head.toString('latin1', 0, 3) === 'ID3' ? 10 + syncSafe(head, 6) : 0
  const frame = head.subarray(tagLength)
  // The Info tag follows the side information: 13 bytes into a mono MPEG-2 frame.
  const info = frame.indexOf('Info', 0, 'latin1')
  if (info < 0 || info > 40) throw new Error('the MP3 clip has no Info frame')
  const flags = frame.readUInt32BE(info + 4)
  if ((flags & 0b11) !== 0b11) throw new Error('the MP3 clip Info frame lacks its frame and byte counts')
  // The count of bytes from the first frame on (a 32-bit field: demo uploads stay below 4 GiB).
  frame.writeUInt32BE(Math.min(size - tagLength, 0xffffffff), info + 12)
  // The LAME tag's own CRC-16 covers the frame's first 190 bytes (with the CRC itself as zeros).
  const crcAt = info + 120 + 34
  frame.writeUInt16BE(0, crcAt)
  frame.writeUInt16BE(crc16Arc(frame.subarray(0, 190)), crcAt)
  return { head, trail: Buffer.alloc(0) }
}

/** A 28-bit ID3v2 size: 7 bits in each of four bytes. */
function syncSafe(data: Buffer, at: number): number {
  return (data[at]! << 21) | (data[at + 1]! << 14) | (data[at + 2]! << 7) | data[at + 3]!
}

/** CRC-16/ARC: polynomial 0x8005 reflected (0xA001), initial value 0. */
function crc16Arc(data: Buffer): number {
  let crc = 0
  for (const byte of data) {
    crc ^= byte
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1
  }
  return crc
}

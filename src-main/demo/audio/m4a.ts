/**
 * M4A: the embedded AAC clip (clips.ts: ftyp, moov, free, mdat), then a `free` box
 * whose payload is the rest of the file. MP4 readers play only the samples the
 * moov's tables list and skip boxes they do not need, so the filler is never
 * read as audio, and the length (a second) is in the moov.
 */
import { M4A_CLIP } from './clips'
import type { FileAudio } from './file-audio'

export function m4aAudio(size: number): FileAudio {
  const rest = size - M4A_CLIP.length
  // A box's size counts its header; past 4 GiB it takes the 64-bit form (size 1, then the size).
  const box = rest < 2 ** 32 ? Buffer.alloc(8) : Buffer.alloc(16)
  if (box.length === 8) box.writeUInt32BE(rest, 0)
  else {
    box.writeUInt32BE(1, 0)
    box.writeBigUInt64BE(BigInt(rest), 8)
  }
  box.write('free', 4, 'latin1')
  return { head: Buffer.concat([M4A_CLIP, box]), trail: Buffer.alloc(0) }
}

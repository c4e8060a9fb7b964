/**
 * OGG: the embedded Vorbis clip (clips.ts), the file's filler, and at the very
 * end a copy of the clip's last page.
 *
 * Reading in order, FFmpeg's Ogg demuxer looks for the next page ("OggS") in
 * the filler and gives up after 64 KiB without one; Chromium takes that as the
 * end of the stream and fires 'ended' after the second. An Ogg file's length
 * is the granule position of its last page, which FFmpeg looks for in the last
 * 64 KiB of the file: without the copied page it would guess the length from
 * the bitrate (17 minutes for a 3 MB file). When the filler is shorter than
 * 64 KiB the demuxer reaches the copy: a page of a stream that has already
 * ended, with the same granule position, which adds nothing.
 */
import { OGG_CLIP } from './clips'
import type { FileAudio } from './file-audio'

export function oggAudio(): FileAudio {
  return { head: OGG_CLIP, trail: lastPage(OGG_CLIP) }
}

/** The last Ogg page of a stream of pages. */
function lastPage(stream: Buffer): Buffer {
  let last: Buffer | undefined
  for (let at = 0; at < stream.length; ) {
    if (stream.toString('latin1', at, at + 4) !== 'OggS') throw new Error(`no Ogg page at ${at}`)
    const segments = stream[at + 26]!
    let length = 27 + segments
    for (let i = 0; i < segments; i++) length += stream[at + 27 + i]!
    last = stream.subarray(at, at + length)
    at += length
  }
  if (!last || (last[5]! & 0x04) === 0) throw new Error('the Ogg clip does not end with an end-of-stream page')
  return last
}

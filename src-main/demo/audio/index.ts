/**
 * The audio at the start (and for some formats the end) of every demo upload:
 * about a second of real, valid audio of the upload's type, so the player plays
 * every demo track. Everything between is the file's filler (files.ts), placed
 * where each format's readers skip it: past the last frame (MP3, FLAC), in a
 * box nobody reads (M4A), in a chunk players skip (WAV), after the last page
 * (OGG).
 */
import type { FileExtension } from '../catalogue'
import type { FileAudio } from './file-audio'
import { flacAudio } from './flac'
import { m4aAudio } from './m4a'
import { mp3Audio } from './mp3'
import { oggAudio } from './ogg'
import { wavAudio } from './wav'

export type { FileAudio } from './file-audio'

/** The audio of an upload of size bytes; seed picks the notes of generated formats. */
export function audioFor(ext: FileExtension, size: number, seed: number): FileAudio {
  switch (ext) {
    case 'wav':
      return wavAudio(size, seed)
    case 'flac':
      return flacAudio(seed)
    case 'mp3':
      return mp3Audio(size)
    case 'm4a':
      return m4aAudio(size)
    case 'ogg':
      return oggAudio()
  }
}

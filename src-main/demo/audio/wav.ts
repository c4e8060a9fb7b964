/**
 * WAV: RIFF/WAVE, 8-bit mono PCM: about a second of tone in the data chunk,
 * then the header of a JUNK chunk (skipped by players) whose payload is the
 * rest of the file, so the file has its exact size.
 */
import { toneLevels } from './tone'
import type { FileAudio } from './file-audio'

const SAMPLE_RATE = 22_050

export function wavAudio(size: number, seed: number): FileAudio {
  const overhead = 12 + 24 + 8 + 8 // RIFF, fmt, data and JUNK chunk headers
  // Every RIFF chunk takes an even number of bytes, so WAV uploads have even sizes (see fileShape).
  const dataLength = Math.min(SAMPLE_RATE, size - overhead) & ~1
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
  at = header.writeUInt32LE(SAMPLE_RATE, at)
  at = header.writeUInt32LE(SAMPLE_RATE, at) // bytes per second
  at = header.writeUInt16LE(1, at) // block align
  at = header.writeUInt16LE(8, at) // bits per sample
  at += header.write('data', at, 'latin1')
  at = header.writeUInt32LE(dataLength, at)
  const levels = toneLevels(seed, SAMPLE_RATE, dataLength)
  for (let i = 0; i < dataLength; i++) header[at + i] = 128 + Math.round(levels[i]! * 90)
  at += dataLength
  at += header.write('JUNK', at, 'latin1')
  header.writeUInt32LE(junkLength, at)
  return { head: header, trail: Buffer.alloc(0) }
}

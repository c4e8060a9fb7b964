/**
 * The tone of the demo's generated audio (WAV and FLAC): five notes of a sine
 * wave, picked by the file's seed so files sound different, with short fades so
 * the notes do not click. A sine, because FLAC's linear predictor follows it
 * almost exactly (flac.ts).
 */
import { Random } from '../random'

/** Notes of the tone pattern, in Hz; each file plays five of them. */
const NOTES = [262, 294, 330, 349, 392, 440, 494, 523, 587, 659] as const

/** count samples at sampleRate, each from -1 to 1. */
export function toneLevels(seed: number, sampleRate: number, count: number): Float64Array {
  const levels = new Float64Array(count)
  const random = new Random(seed)
  const noteLength = Math.max(1, Math.floor(count / 5))
  // Fades of about 18 ms (400 samples at 22.05 kHz), shorter in a short tone.
  const fade = Math.min(Math.round((400 * sampleRate) / 22_050), Math.floor(noteLength / 4))
  for (let note = 0; note < 5; note++) {
    const period = sampleRate / random.pick(NOTES)
    const start = note * noteLength
    const end = note === 4 ? count : start + noteLength
    for (let i = start; i < end; i++) {
      levels[i] = Math.sin((2 * Math.PI * (i - start)) / period) * Math.min(1, (i - start) / fade, (end - i) / fade)
    }
  }
  return levels
}

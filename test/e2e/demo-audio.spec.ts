import { expect, test } from '@playwright/test'
import { startCatalogueService, type RunningCatalogueService } from '../../src-main/demo/index'
import type { FileExtension } from '../../src-main/demo/catalogue'

// Chromium is the judge of the demo's audio (src-main/demo/audio/): every type decodes to about a
// second of tone, and an <audio> element plays it to 'ended' with no error and the right duration,
// the filler after the audio (up to megabytes) skipped. The smallest and the largest file of each type.

let service: RunningCatalogueService

test.beforeAll(async () => {
  service = await startCatalogueService({ artists: 200, seed: 3, maxFileMb: 16 })
})
test.afterAll(async () => service.close())

/** The shortest tone: FLAC's five frames of 4096 samples at 22.05 kHz; a 16 KiB WAV holds less (0.74 s). */
const SHORTEST: Record<FileExtension, number> = { mp3: 0.9, m4a: 0.9, ogg: 0.9, flac: 0.9, wav: 0.7 }

for (const ext of ['mp3', 'm4a', 'ogg', 'flac', 'wav'] as const) {
  test(`Chromium decodes and plays the demo ${ext.toUpperCase()} files to their end`, async ({ page }) => {
    test.setTimeout(60_000)
    const files = service.catalogue.artists
      .flatMap((artist) => service.catalogue.tracksOf(artist))
      .filter((track) => track.ext === ext)
      .sort((a, b) => a.bytes - b.bytes)
    expect(files.length).toBeGreaterThan(2)
    await page.goto(`${service.baseUrl}/api/v1/access_levels`)
    for (const track of [files[0]!, files.at(-1)!]) {
      const url = `${service.baseUrl}/hotlink/${track.uploadId}.${ext}`
      const heard = await page.evaluate(async (address) => {
        const bytes = await (await fetch(address)).arrayBuffer()
        const audio = await new OfflineAudioContext(1, 1, 44_100).decodeAudioData(bytes)
        let peak = 0
        for (const sample of audio.getChannelData(0)) peak = Math.max(peak, Math.abs(sample))
        // Muted, so it may play without a gesture; it plays all the same, in real time.
        const element = new Audio(address)
        element.muted = true
        let metadata = NaN
        element.onloadedmetadata = () => (metadata = element.duration)
        const played = await new Promise<{ ended: boolean; error: string | null; at: number }>((resolve) => {
          const timer = setTimeout(() => resolve({ ended: false, error: 'no end within 20 s', at: element.currentTime }), 20_000)
          element.onended = () => {
            clearTimeout(timer)
            resolve({ ended: true, error: null, at: element.currentTime })
          }
          element.onerror = () => {
            clearTimeout(timer)
            resolve({ ended: false, error: `${element.error?.code}: ${element.error?.message}`, at: element.currentTime })
          }
          element.play().catch((error: unknown) => resolve({ ended: false, error: String(error), at: element.currentTime }))
        })
        return { seconds: audio.duration, peak, metadata, finalDuration: element.duration, ...played }
      }, url)
      const about = `${ext} of ${track.bytes} bytes: ${JSON.stringify(heard)}`
      expect(heard.error, about).toBeNull()
      expect(heard.ended, about).toBe(true)
      expect(heard.seconds, about).toBeGreaterThan(SHORTEST[ext])
      expect(heard.seconds, about).toBeLessThan(1.1)
      expect(heard.peak, about).toBeGreaterThan(0.3)
      // The duration is known from the start (not guessed from the size), and the end is there.
      expect(Math.abs(heard.metadata - heard.seconds), about).toBeLessThan(0.05)
      expect(Math.abs(heard.finalDuration - heard.seconds), about).toBeLessThan(0.05)
      expect(Math.abs(heard.at - heard.seconds), about).toBeLessThan(0.05)
    }
  })
}

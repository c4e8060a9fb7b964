import { expect, test } from '@playwright/test'
import { startCatalogueService, type RunningCatalogueService } from '../../src-main/core/demo/index'

let service: RunningCatalogueService

test.beforeAll(async () => {
  service = await startCatalogueService({ artists: 200, seed: 3, maxFileMb: 16 })
})
test.afterAll(async () => service.close())

test('Chromium decodes and plays the demo WAV files', async ({ page }) => {
  const wavs = service.catalogue.artists
    .flatMap((artist) => service.catalogue.tracksOf(artist))
    .filter((track) => track.ext === 'wav')
    .sort((a, b) => a.bytes - b.bytes)
  expect(wavs.length).toBeGreaterThan(2)
  // The smallest and the largest: the tone is whole in both, the padding differs.
  for (const track of [wavs[0]!, wavs.at(-1)!]) {
    const url = `${service.baseUrl}/hotlink/${track.uploadId}.wav`
    await page.goto(`${service.baseUrl}/api/v1/access_levels`)
    const decoded = await page.evaluate(async (address) => {
      const bytes = await (await fetch(address)).arrayBuffer()
      const audio = await new OfflineAudioContext(1, 1, 22_050).decodeAudioData(bytes)
      const samples = audio.getChannelData(0)
      let peak = 0
      for (const sample of samples) peak = Math.max(peak, Math.abs(sample))
      const element = new Audio(address)
      const duration = await new Promise<number>((resolve, reject) => {
        element.onloadedmetadata = () => resolve(element.duration)
        element.onerror = () => reject(new Error(`audio element error ${element.error?.code}`))
      })
      return { seconds: audio.duration, rate: audio.sampleRate, peak, duration }
    }, url)
    expect(decoded.seconds).toBeGreaterThan(0.5)
    expect(decoded.seconds).toBeLessThan(1.1)
    expect(decoded.peak).toBeGreaterThan(0.5)
    expect(Math.abs(decoded.duration - decoded.seconds)).toBeLessThan(0.05)
  }
})

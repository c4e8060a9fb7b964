// The web bridge as Chromium uses it: what only a real browser does with the page's
// cookie (EventSource, <img>, <audio> with byte ranges) under the page's CSP.
import type { SessionEvent } from '../../src-main/core/shared/types'
import { expect, test } from './support/fixtures'

declare global {
  interface Window {
    /** Event batches the test's EventSource received. */
    seenBatches?: SessionEvent[][]
  }
}

test('the page gets its events over EventSource and its media by cookie, under its CSP', async ({ app, page, bridge, demo }) => {
  await app.open()
  const policy = (await page.request.get(bridge.url)).headers()['content-security-policy']
  expect(policy).toContain("script-src 'self'")
  expect(policy).toContain("frame-ancestors 'none'")

  // The cookie the page got is all these requests carry: no header, no token in the address.
  await page.evaluate(() => {
    window.seenBatches = []
    const source = new EventSource('/events')
    source.onmessage = (message) => window.seenBatches!.push(JSON.parse(message.data as string) as SessionEvent[])
  })
  const report = await bridge.call('sync:start', { skipAvatars: true })
  expect(report.ok).toBe(true)
  await expect
    .poll(() => page.evaluate(() => window.seenBatches!.flat().filter((event) => event.type === 'sync-state').map((event) => event.state.status)), {
      timeout: 30_000,
    })
    .toEqual(expect.arrayContaining(['running', 'idle']))

  // An avatar the sync cached, as the window shows it: avatarBase + the encoded address.
  const info = await bridge.call('app:info')
  const listed = await bridge.call('catalogue:list', { offset: 0, limit: 50 })
  if (!info.ok || !listed.ok) throw new Error('app:info or catalogue:list failed')
  const address = listed.value.artists.map((artist) => artist.avatarThumb).find((candidate) => candidate !== '')!
  const size = await page.evaluate(async (source) => {
    const image = new Image()
    image.src = source
    await image.decode()
    return { width: image.naturalWidth, height: image.naturalHeight }
  }, `${info.value.avatarBase}${encodeURIComponent(address)}`)
  expect(size.width).toBeGreaterThan(0)

  // A downloaded track, played from its playback address: the player asks for byte ranges.
  const wav = demo.catalogue.artists
    .flatMap((artist) => demo.catalogue.tracksOf(artist))
    .filter((track) => track.ext === 'wav')
    .sort((a, b) => a.bytes - b.bytes)[0]!
  const queued = await bridge.call('downloads:enqueue', { uploadIds: [wav.uploadId] })
  if (!queued.ok) throw new Error(queued.error.message)
  const id = queued.value.downloads[0]!.id
  await expect
    .poll(async () => {
      const list = await bridge.call('downloads:list', 'completed')
      return list.ok && list.value.some((download) => download.id === id)
    }, { timeout: 30_000 })
    .toBe(true)
  const playback = await bridge.call('downloads:playbackAddress', id)
  if (!playback.ok) throw new Error(playback.error.message)
  expect(playback.value).toBe(`/media/downloads/${id}`)
  const played = await page.evaluate(async (source) => {
    const audio = new Audio(source)
    const duration = await new Promise<number>((resolve, reject) => {
      audio.onloadedmetadata = () => resolve(audio.duration)
      audio.onerror = () => reject(new Error(`audio error ${audio.error?.code}`))
    })
    // A seek past the start needs a range the bridge serves.
    audio.currentTime = duration / 2
    await new Promise<void>((resolve) => (audio.onseeked = () => resolve()))
    return { duration, position: audio.currentTime }
  }, playback.value)
  expect(played.duration).toBeGreaterThan(0.5)
  expect(played.position).toBeGreaterThan(0.2)

  // Outside the page (no cookie, no token) the same addresses are refused.
  expect((await fetch(new URL(playback.value, bridge.origin))).status).toBe(401)
  expect(app.errors).toEqual([])
})

// The web bridge as Chromium uses it: the token only in the page's memory (never a cookie,
// which the browser would send to every other server on 127.0.0.1), EventSource with the
// token in its address, <img> and <audio> (with byte ranges) at addresses that carry the
// media key, all under the page's CSP.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { SessionEvent } from '../../src-main/core/shared/types'
import { expect, test } from './support/fixtures'
import { ShellPage } from './support/shell-page'

declare global {
  interface Window {
    /** Event batches the test's EventSource received. */
    seenBatches?: SessionEvent[][]
    /** Whether its stream began (the snapshot every stream starts with). */
    streamOpen?: boolean
  }
}

test('the page gets its events over EventSource and its media by address, under its CSP', async ({ app, page, bridge, demo }) => {
  await app.open()
  const policy = (await page.request.get(bridge.url)).headers()['content-security-policy']
  expect(policy).toContain("script-src 'self'")
  expect(policy).toContain("frame-ancestors 'none'")

  // EventSource sends no header: the token rides in its address.
  await page.evaluate((token) => {
    window.seenBatches = []
    window.streamOpen = false
    const source = new EventSource(`/events?token=${encodeURIComponent(token)}`)
    source.onmessage = (message) => {
      const data = JSON.parse(message.data as string) as SessionEvent[] | { snapshot: unknown }
      if (Array.isArray(data)) window.seenBatches!.push(data)
      else window.streamOpen = true
    }
  }, bridge.token)
  // A sync started before the stream is up would be over before it (on a busy machine it was).
  await expect.poll(() => page.evaluate(() => window.streamOpen)).toBe(true)
  const report = await bridge.call('sync:start', { skipAvatars: true })
  expect(report.ok).toBe(true)
  await expect
    .poll(() => page.evaluate(() => window.seenBatches!.flat().filter((event) => event.type === 'sync-state').map((event) => event.state.status)), {
      timeout: 30_000,
    })
    .toEqual(expect.arrayContaining(['running', 'idle']))

  // An avatar the sync cached, as the window shows it: avatarBase + the encoded address, and nothing else.
  const info = await bridge.call('app:info')
  const listed = await bridge.call('catalogue:list', { offset: 0, limit: 50 })
  if (!info.ok || !listed.ok) throw new Error('app:info or catalogue:list failed')
  expect(info.value.avatarBase).toMatch(/^\/media\/[A-Za-z0-9_-]{43}\/avatars\/$/)
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
  expect(playback.value).toBe(`${info.value.avatarBase.replace(/avatars\/$/, '')}downloads/${id}`)
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

  // Without its key, a media address is refused, whatever else the request carries.
  expect((await fetch(new URL(`/media/downloads/${id}`, bridge.origin), { headers: { 'x-tuneshelf-token': bridge.token } })).status).toBe(401)
  expect(app.errors).toEqual([])
})

test('the address bar loses the token once the page has it; the page keeps working, and no other server on 127.0.0.1 gets it', async ({ app, page, context, bridge }) => {
  // Another program's server on another port of the same host: what does the browser send it?
  const seen: http.IncomingHttpHeaders[] = []
  const other = http.createServer((request, response) => {
    if (seen.length < 20) seen.push(request.headers)
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>another program</title>')
  })
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  try {
    await app.open()
    const shell = new ShellPage(page, bridge.url)
    await expect(shell.nav).toBeVisible()
    await expect.poll(() => page.url()).not.toContain('token')
    expect(await page.evaluate(() => window.location.href)).not.toContain(bridge.token)
    expect(await context.cookies()).toEqual([])

    // The app works on its token from memory: its own event stream and its own images.
    await shell.navLink('Artists').click()
    const images = page.locator('main img')
    await expect.poll(() => images.count(), { timeout: 15_000 }).toBeGreaterThan(0)
    await expect
      .poll(() => images.evaluateAll((all) => all.some((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0)), {
        timeout: 15_000,
      })
      .toBe(true)
    expect(page.url()).not.toContain('token')
    const status = await bridge.call('sync:start', { skipAvatars: true })
    expect(status.ok).toBe(true)
    await expect(shell.syncStatus).toBeVisible()

    // A reload finds the token in the tab, not in the address.
    await page.reload()
    await expect(shell.nav).toBeVisible()
    await expect(page.getByText('Tuneshelf is not running here')).toHaveCount(0)
    await shell.navLink('Settings').click()
    expect(page.url()).not.toContain('token')

    // The other server, opened in the same browser, gets no cookie and no token.
    await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`)
    expect(seen.length).toBeGreaterThan(0)
    for (const headers of seen) {
      expect(headers.cookie).toBeUndefined()
      expect(JSON.stringify(headers)).not.toContain(bridge.token)
    }
    expect(app.errors).toEqual([])
  } finally {
    await new Promise<void>((resolve) => other.close(() => resolve()))
  }
})

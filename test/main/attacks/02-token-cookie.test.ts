/**
 * Attack 2: the web bridge's token travelled as a cookie, and cookies do not
 * keep ports apart. A page served from another port of 127.0.0.1 received
 * `Cookie: tuneshelf-token-PORT=<token>` from the browser, and then drove
 * `POST /api/settings:get` with that token. Now no response of the bridge sets
 * a cookie, and a request that carries only the old cookie gets nothing: the
 * page keeps the token in memory and sends it itself, and media are fetched
 * at addresses that carry their own (media-only) key.
 *
 * The bridge runs for real on loopback over the core's host and a synced demo catalogue.
 */
import fs from 'node:fs'
import { describe, expect } from 'vitest'
import type { AppSession } from '../../../src-main/core/session/session'
import { startWebBridge, type WebBridge } from '../../../src-main/web/server'
import { startInProcessCore } from '../support/core'
import { catalogueTest } from '../support/fixtures'
import { call, openEvents, request, writeRenderer, type Reply } from '../web/support'

const test = catalogueTest({ artists: 12, seed: 21, maxFileMb: 1 })
  .extend('renderer', { scope: 'file' }, ({ tempDir }) => writeRenderer(tempDir()))
  .extend('app', { scope: 'file' }, async ({ demo, tempDir }, { onCleanup }) => {
    const dataDir = tempDir()
    const { core, session } = await startInProcessCore({ dataDir, baseUrl: demo.baseUrl })
    onCleanup(() => core.close())
    await session.library.sync.start()
    return { core, session, dataDir }
  })
  .extend('bridge', { scope: 'file' }, async ({ app, renderer }, { onCleanup }): Promise<WebBridge> => {
    const bridge = await startWebBridge({ core: app.core, dataDir: app.dataDir, rendererDir: renderer.root, host: '127.0.0.1' })
    onCleanup(() => bridge.close())
    return bridge
  })

/** One small completed download, and a cached avatar's address. */
async function media(session: AppSession): Promise<{ id: number; avatar: string }> {
  const library = session.library
  let done = library.downloads.list('completed')[0]
  if (!done) {
    const tracks = library.catalogue
      .list({ offset: 0, limit: 100, includeBlank: true })
      .artists.flatMap((artist) => library.catalogue.artist(artist.username).tracks)
      .sort((a, b) => (a.bytes ?? 0) - (b.bytes ?? 0))
    await library.downloads.enqueue({ uploadIds: [tracks[0]!.uploadId] })
    await library.downloads.whenIdle()
    done = library.downloads.list('completed')[0]
  }
  const avatar = library.catalogue
    .list({ offset: 0, limit: 100, includeBlank: true })
    .artists.map((artist) => artist.avatarThumb)
    .find((address) => address !== '' && library.catalogue.avatar(address) !== undefined)
  expect(done && fs.existsSync(done.targetPath)).toBe(true)
  expect(avatar).toBeDefined()
  return { id: done!.id, avatar: avatar! }
}

describe('the token is never a cookie', () => {
  test('no answer of the bridge sets a cookie: the page, its files, calls, events, media, refusals', async ({ bridge, app }) => {
    const { id, avatar } = await media(app.session)
    const info = await call(bridge.port, bridge.token, 'app:info')
    const avatarBase = (info.value as { avatarBase: string }).avatarBase
    const playback = (await call(bridge.port, bridge.token, 'downloads:playbackAddress', [id])).value as string
    const replies: [string, Reply][] = []
    const ask = async (target: string, options: Parameters<typeof request>[2] = {}): Promise<Reply> => {
      const reply = await request(bridge.port, target, options)
      replies.push([`${options.method ?? 'GET'} ${target}`, reply])
      return reply
    }
    expect((await ask(`/?token=${bridge.token}`)).status).toBe(200)
    await ask(`/index.html?token=${bridge.token}`)
    await ask('/')
    await ask('/assets/app.js')
    await ask('/missing.js')
    expect((await ask('/api/settings:get', { method: 'POST', headers: { 'x-tuneshelf-token': bridge.token }, body: '[]' })).status).toBe(200)
    await ask('/api/settings:get', { method: 'POST', body: '[]' })
    expect((await ask(playback, { headers: { range: 'bytes=0-3' } })).status).toBe(206)
    expect((await ask(`${avatarBase}${encodeURIComponent(avatar)}`)).status).toBe(200)
    await ask(`/media/downloads/${id}`)
    const events = await openEvents(bridge.port, `/events?token=${encodeURIComponent(bridge.token)}`)
    try {
      expect(events.status).toBe(200)
      expect(events.headers['set-cookie'], 'GET /events').toBeUndefined()
    } finally {
      events.close()
    }
    for (const [what, reply] of replies) expect(reply.headers['set-cookie'], what).toBeUndefined()
  })

  test('a request that carries only the old cookie gets nothing, whatever the browser says of its site', async ({ bridge, app }) => {
    const { id, avatar } = await media(app.session)
    // What the browser sent to the other port's server, as that server would send it back.
    const cookie = `tuneshelf-token-${bridge.port}=${bridge.token}`
    const sites: Record<string, string>[] = [{}, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'same-site' }, { 'sec-fetch-site': 'none' }]
    for (const site of sites) {
      const headers = { cookie, ...site }
      const settings = await request(bridge.port, '/api/settings:get', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '[]' })
      expect(settings.status, JSON.stringify(site)).toBe(401)
      expect(settings.text).not.toContain('downloadFolder')
      expect((await request(bridge.port, '/events', { headers })).status, JSON.stringify(site)).toBe(401)
      expect((await request(bridge.port, `/media/downloads/${id}`, { headers })).status, JSON.stringify(site)).toBe(401)
      expect((await request(bridge.port, `/media/avatars/${encodeURIComponent(avatar)}`, { headers })).status, JSON.stringify(site)).toBe(401)
    }
  })

  test('the media key in an address opens media only: never a call, never the events', async ({ bridge }) => {
    const info = await call(bridge.port, bridge.token, 'app:info')
    const avatarBase = (info.value as { avatarBase: string }).avatarBase
    const key = /^\/media\/([A-Za-z0-9_-]+)\/avatars\/$/.exec(avatarBase)?.[1]
    expect(key, avatarBase).toBeDefined()
    expect(key).not.toBe(bridge.token)
    expect((await request(bridge.port, '/api/settings:get', { method: 'POST', headers: { 'x-tuneshelf-token': key! }, body: '[]' })).status).toBe(401)
    expect((await request(bridge.port, `/events?token=${key}`)).status).toBe(401)
    // Another key, or the token where the key goes, opens nothing.
    const wrong = key!.replace(/^./, (first) => (first === 'A' ? 'B' : 'A'))
    expect((await request(bridge.port, `/media/${wrong}/avatars/x`)).status).toBe(401)
    expect((await request(bridge.port, `/media/${bridge.token}/avatars/x`)).status).toBe(401)
  })
})

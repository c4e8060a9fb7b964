// The web bridge over real HTTP: the core's host (both its threads in this one) over a real cache, synced from the demo catalogue.
import fs from 'node:fs'
import { describe, expect } from 'vitest'
import type { CoreClient } from '../../../src-main/main-process/core-client'
import type { AppSession } from '../../../src-main/core/session/session'
import { createDispatch } from '../../../src-main/main-process/dispatch'
import { windowHandlers } from '../../../src-main/main-process/window-handlers'
import { webPlatform } from '../../../src-main/web/platform'
import { headerPolicy } from '../../../src-main/core/shared/content-security'
import { MAX_BODY_BYTES, startWebBridge, type WebBridge } from '../../../src-main/web/server'
import { metaContentSecurityPolicy } from '../../../src-main/main-process/static-files'
import { startInProcessCore } from '../support/core'
import { catalogueTest } from '../support/fixtures'
import { call, FIXTURE_POLICY, openEvents, request, writeRenderer } from './support'

const test = catalogueTest({ artists: 30, seed: 17, maxFileMb: 1 })
  .extend('renderer', { scope: 'file' }, ({ tempDir }) => writeRenderer(tempDir()))
  .extend('app', { scope: 'file' }, async ({ demo, tempDir }, { onCleanup }) => {
    const dataDir = tempDir()
    const { core, session } = await startInProcessCore({ dataDir, baseUrl: demo.baseUrl })
    onCleanup(() => core.close())
    // The session started a sync of its empty cache (avatars included): this joins it.
    await session.library.sync.start()
    return { core, session, dataDir }
  })
  .extend('session', { scope: 'file' }, ({ app }) => app.session)
  .extend('bridge', { scope: 'file' }, async ({ app, renderer }, { onCleanup }): Promise<WebBridge> => {
    const bridge = await startWebBridge({ core: app.core, dataDir: app.dataDir, rendererDir: renderer.root, host: '127.0.0.1' })
    onCleanup(() => bridge.close())
    return bridge
  })

/** Where this bridge serves media, its media key included (`/media/<key>`), as app:info tells the window. */
async function mediaBase(bridge: WebBridge): Promise<string> {
  const info = await call(bridge.port, bridge.token, 'app:info')
  return (info.value as { avatarBase: string }).avatarBase.replace(/\/avatars\/$/, '')
}

describe('the page and its token', () => {
  test('the address it prints opens the page, which gets no cookie', async ({ bridge }) => {
    expect(bridge.url).toBe(`${bridge.origin}/?token=${bridge.token}`)
    expect(bridge.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(bridge.token).toMatch(/^[A-Za-z0-9_-]{43}$/)

    const page = await request(bridge.port, new URL(bridge.url).pathname + new URL(bridge.url).search)
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.text).toContain('<div id="app">')
    expect(page.headers['set-cookie']).toBeUndefined()
    expect(page.headers['cache-control']).toBe('no-store')
  })

  test('the page carries the CSP of the built index.html, and forbids sniffing, referrers and framing', async ({ bridge, renderer }) => {
    const page = await request(bridge.port, `/?token=${bridge.token}`)
    const meta = metaContentSecurityPolicy(fs.readFileSync(`${renderer.root}/index.html`, 'utf8'))
    expect(meta).toBe(FIXTURE_POLICY)
    const policy = String(page.headers['content-security-policy'])
    expect(policy).toBe(headerPolicy(meta))
    expect(policy.startsWith(FIXTURE_POLICY)).toBe(true)
    expect(policy).toContain("connect-src 'self'")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect(page.headers['referrer-policy']).toBe('no-referrer')
  })

  test('headerPolicy keeps a connect-src that is there and adds self where it lacks it', () => {
    expect(headerPolicy("default-src 'none'; connect-src 'self'")).toBe("default-src 'none'; connect-src 'self'; frame-ancestors 'none'")
    expect(headerPolicy("default-src 'none'; connect-src https://x.example")).toBe("default-src 'none'; connect-src https://x.example 'self'; frame-ancestors 'none'")
    // Without a meta: the app's own policy (script-src 'self', no eval).
    expect(headerPolicy(undefined)).toMatch(/script-src 'self';/)
  })

  test('the page holds no secret: it is served without the token (after a reload the tab has it), and opens nothing by itself', async ({ bridge }) => {
    for (const target of ['/', '/index.html', `/?token=${bridge.token.slice(1)}x`, '/?token=']) {
      const page = await request(bridge.port, target)
      expect(page.status, target).toBe(200)
      expect(page.text, target).not.toContain(bridge.token)
      expect(page.headers['set-cookie'], target).toBeUndefined()
    }
  })
})

describe('the token guards the API, the events and the media', () => {
  test('without it: 401, as a tagged error for the API', async ({ bridge }) => {
    const api = await request(bridge.port, '/api/app:info', { method: 'POST', body: '[]' })
    expect(api.status).toBe(401)
    expect(JSON.parse(api.text)).toMatchObject({ ok: false, error: { code: 'rejected', message: expect.stringMatching(/token/) } })
    expect((await request(bridge.port, '/events')).status).toBe(401)
    expect((await request(bridge.port, '/media/downloads/1')).status).toBe(401)
    expect((await request(bridge.port, '/media/avatars/x')).status).toBe(401)
  })

  test('a wrong token is refused wherever it comes from', async ({ bridge }) => {
    const wrong = bridge.token.replace(/^./, (first) => (first === 'A' ? 'B' : 'A'))
    const api = (headers: Record<string, string>) => request(bridge.port, '/api/app:info', { method: 'POST', headers, body: '[]' })
    expect((await api({ 'x-tuneshelf-token': wrong })).status).toBe(401)
    expect((await api({ 'x-tuneshelf-token': `${bridge.token}x` })).status).toBe(401)
    // A cookie is no credential at all, even with the right token in it (test/main/attacks/02-token-cookie.test.ts).
    expect((await api({ cookie: `tuneshelf-token-${bridge.port}=${bridge.token}` })).status).toBe(401)
    expect((await request(bridge.port, `/events?token=${wrong}`)).status).toBe(401)
  })

  test('the header works', async ({ bridge }) => {
    const reply = await request(bridge.port, '/api/app:info', { method: 'POST', headers: { 'x-tuneshelf-token': bridge.token }, body: '[]' })
    expect(reply.status).toBe(200)
    expect(JSON.parse(reply.text)).toMatchObject({ ok: true, value: { transport: 'web', avatarBase: expect.stringMatching(/^\/media\/[A-Za-z0-9_-]{43}\/avatars\/$/) } })
  })

  test('media open with the media key in their address, and with nothing else', async ({ bridge }) => {
    const base = await mediaBase(bridge)
    expect(base).not.toContain(bridge.token)
    // As <img> and <audio> ask: the address alone.
    expect((await request(bridge.port, `${base}/downloads/999999`)).status).toBe(404)
    // The token opens calls and events, not media without their key.
    expect((await request(bridge.port, '/media/downloads/999999', { headers: { 'x-tuneshelf-token': bridge.token } })).status).toBe(401)
    expect((await request(bridge.port, `/media/downloads/999999?token=${bridge.token}`)).status).toBe(401)
    expect((await request(bridge.port, `/media/${bridge.token}/downloads/999999`)).status).toBe(401)
  })

  test('the query works where a header cannot be set (EventSource), not for calls', async ({ bridge }) => {
    const events = await openEvents(bridge.port, `/events?token=${encodeURIComponent(bridge.token)}`)
    expect(events.status).toBe(200)
    events.close()
    const api = await request(bridge.port, `/api/app:info?token=${bridge.token}`, { method: 'POST', body: '[]' })
    expect(api.status).toBe(401)
  })
})

describe('other origins and other hosts', () => {
  test('a request from another origin is refused, token or not', async ({ bridge }) => {
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${bridge.port + 1}`, `https://127.0.0.1:${bridge.port}`]) {
      const api = await request(bridge.port, '/api/app:info', { method: 'POST', headers: { origin, 'x-tuneshelf-token': bridge.token }, body: '[]' })
      expect(api.status, origin).toBe(403)
      expect((await request(bridge.port, `/?token=${bridge.token}`, { headers: { origin } })).status, origin).toBe(403)
      expect((await request(bridge.port, '/assets/app.js', { headers: { origin } })).status, origin).toBe(403)
    }
    const own = await request(bridge.port, '/api/app:info', { method: 'POST', headers: { origin: bridge.origin, 'x-tuneshelf-token': bridge.token }, body: '[]' })
    expect(own.status).toBe(200)
  })

  test('a Host other than this server (DNS rebinding) is refused; localhost with its port is fine', async ({ bridge }) => {
    for (const host of ['evil.example', `evil.example:${bridge.port}`, `127.0.0.1:${bridge.port + 1}`, '127.0.0.1', `0.0.0.0:${bridge.port}`]) {
      expect((await request(bridge.port, `/?token=${bridge.token}`, { host })).status, host).toBe(403)
      const api = await request(bridge.port, '/api/app:info', { host, method: 'POST', headers: { 'x-tuneshelf-token': bridge.token }, body: '[]' })
      expect(api.status, host).toBe(403)
      expect((await request(bridge.port, '/assets/app.js', { host })).status, host).toBe(403)
    }
    const local = `localhost:${bridge.port}`
    expect((await request(bridge.port, `/?token=${bridge.token}`, { host: local })).status).toBe(200)
    const api = await request(bridge.port, '/api/app:online', { host: local, method: 'POST', headers: { origin: `http://${local}`, 'x-tuneshelf-token': bridge.token }, body: '[]' })
    expect(api.status).toBe(200)
    // A page on localhost is another origin than one on 127.0.0.1.
    const mixed = await request(bridge.port, '/api/app:online', { host: local, method: 'POST', headers: { origin: bridge.origin, 'x-tuneshelf-token': bridge.token }, body: '[]' })
    expect(mixed.status).toBe(403)
  })

  test('listens on loopback only', async ({ bridge }) => {
    expect(bridge.origin.startsWith('http://127.0.0.1:')).toBe(true)
  })
})

describe('calls', () => {
  test('answer with the very results the handlers give', async ({ bridge, app }) => {
    const dispatch = createDispatch(app.core, windowHandlers(app.core, webPlatform('/media/key'), app.dataDir))
    const calls: [string, unknown[]][] = [
      ['catalogue:list', [{ offset: 0, limit: 5, sort: 'name' }]],
      ['catalogue:list', [{ q: 'a', includeBlank: true }]],
      ['catalogue:levels', []],
      ['downloads:list', []],
      ['settings:get', []],
      ['sync:state', []],
      ['catalogue:list', [{ perPage: -1 }]],
      ['catalogue:artist', ['nobody-has-this-name']],
      ['downloads:pause', ['not a list']],
    ]
    for (const [channel, args] of calls) {
      const direct = JSON.parse(JSON.stringify(await dispatch(channel, args))) as unknown
      expect(await call(bridge.port, bridge.token, channel, args), channel).toEqual(direct)
    }
    const listed = await call(bridge.port, bridge.token, 'catalogue:list', [{ offset: 0, limit: 5 }])
    expect(listed).toMatchObject({ ok: true, value: { total: expect.any(Number), artists: expect.any(Array) } })
    expect((listed.value as { artists: unknown[] }).artists).toHaveLength(5)
    const invalid = await call(bridge.port, bridge.token, 'catalogue:list', [{ perPage: -1 }])
    expect(invalid).toMatchObject({ ok: false, error: { name: 'InvalidArgumentError', code: 'invalid_argument', message: expect.stringMatching(/perPage/) } })
    expect(await call(bridge.port, bridge.token, 'catalogue:artist', ['nobody-has-this-name'])).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })

  test('an unknown channel, bad JSON or a body that is no list give tagged errors', async ({ bridge }) => {
    const post = (target: string, body: string) =>
      request(bridge.port, target, { method: 'POST', headers: { 'x-tuneshelf-token': bridge.token, 'content-type': 'application/json' }, body })
    const unknown = await post('/api/catalogue:steal', '[]')
    expect(unknown.status).toBe(200)
    expect(JSON.parse(unknown.text)).toMatchObject({ ok: false, error: { code: 'invalid_argument', message: expect.stringMatching(/no channel "catalogue:steal"/) } })
    for (const body of ['{', '[1,', 'undefined', '\u0000']) {
      const reply = await post('/api/catalogue:list', body)
      expect(reply.status, body).toBe(200)
      expect(JSON.parse(reply.text), body).toMatchObject({ ok: false, error: { name: 'InvalidArgumentError', code: 'invalid_argument', message: expect.stringMatching(/not JSON/) } })
    }
    expect(JSON.parse((await post('/api/catalogue:list', '{"q":"a"}')).text)).toMatchObject({ ok: false, error: { code: 'invalid_argument', message: expect.stringMatching(/must be a list/) } })
    expect(JSON.parse((await post('/api/', '[]')).text)).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    expect(JSON.parse((await post('/api/%E0%A4%A', '[]')).text)).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    // An empty body is no arguments.
    expect(JSON.parse((await post('/api/app:online', '')).text)).toEqual({ ok: true, value: true })
    // The channel may come percent-encoded.
    expect(JSON.parse((await post('/api/app%3Aonline', '[]')).text)).toEqual({ ok: true, value: true })
  })

  test('a body over 1 MiB is refused before it is parsed, and the bridge goes on', async ({ bridge }) => {
    const big = JSON.stringify([{ q: 'x'.repeat(MAX_BODY_BYTES) }])
    const reply = await request(bridge.port, '/api/catalogue:list', { method: 'POST', headers: { 'x-tuneshelf-token': bridge.token }, body: big })
    expect(reply.status).toBe(413)
    expect(JSON.parse(reply.text)).toMatchObject({ ok: false, error: { code: 'invalid_argument', message: expect.stringMatching(/larger than 1048576 bytes/) } })
    // Sent in chunks without a length, the same.
    const chunked = await request(bridge.port, '/api/catalogue:list', { method: 'POST', headers: { 'x-tuneshelf-token': bridge.token, 'transfer-encoding': 'chunked' }, body: big })
    expect(chunked.status).toBe(413)
    expect((await call(bridge.port, bridge.token, 'app:online')).ok).toBe(true)
  })

  test('calls are POST requests', async ({ bridge }) => {
    const reply = await request(bridge.port, '/api/app:info', { headers: { 'x-tuneshelf-token': bridge.token } })
    expect(reply.status).toBe(405)
    expect(reply.headers['allow']).toBe('POST')
    expect(JSON.parse(reply.text)).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
  })

  test('what needs the desktop says so, and links are left to the window', async ({ bridge, session }) => {
    const picked = await call(bridge.port, bridge.token, 'settings:pickDownloadFolder')
    expect(picked).toMatchObject({ ok: false, error: { name: 'UnsupportedError', code: 'unsupported', message: expect.stringMatching(/needs the desktop app/) } })
    expect(await call(bridge.port, bridge.token, 'app:openLog')).toMatchObject({ ok: false, error: { code: 'unsupported' } })
    expect(await call(bridge.port, bridge.token, 'app:openLink', [{ kind: 'website', value: 'example.com' }])).toEqual({
      ok: true,
      value: { address: 'https://example.com/', opened: false },
    })
    expect(await call(bridge.port, bridge.token, 'app:openLink', [{ kind: 'website', value: 'javascript:alert(1)' }])).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })

    const { id, targetPath } = await completedDownload(session)
    for (const channel of ['downloads:open', 'downloads:reveal']) {
      const result = await call(bridge.port, bridge.token, channel, [id])
      expect(result, channel).toMatchObject({ ok: false, error: { name: 'UnsupportedError', code: 'unsupported', message: expect.stringContaining(targetPath) } })
      expect(result.error!.message).toMatch(/needs the desktop app/)
    }
    expect(await call(bridge.port, bridge.token, 'downloads:playbackAddress', [id])).toEqual({ ok: true, value: `${await mediaBase(bridge)}/downloads/${id}` })
  })
})

/** One small completed download (queued once per session). */
async function completedDownload(session: AppSession): Promise<{ id: number; targetPath: string; bytes: Buffer }> {
  const library = session.library
  let done = library.downloads.list('completed')[0]
  if (!done) {
    const tracks = library.catalogue
      .list({ offset: 0, limit: 100, includeBlank: true })
      .artists.flatMap((artist) => library.catalogue.artist(artist.username).tracks)
      .filter((track) => (track.bytes ?? 0) >= 20_000)
      .sort((a, b) => (a.bytes ?? 0) - (b.bytes ?? 0))
    await library.downloads.enqueue({ uploadIds: [tracks[0]!.uploadId] })
    await library.downloads.whenIdle()
    done = library.downloads.list('completed')[0]
  }
  expect(done).toBeDefined()
  return { id: done!.id, targetPath: done!.targetPath, bytes: fs.readFileSync(done!.targetPath) }
}

describe('the event stream', () => {
  test('delivers the session events in batches: a sync started through the bridge is seen running and ending', async ({ bridge }) => {
    const events = await openEvents(bridge.port, '/events', { 'x-tuneshelf-token': bridge.token })
    try {
      expect(events.status).toBe(200)
      expect(events.headers['content-type']).toBe('text/event-stream; charset=utf-8')
      expect(events.headers['cache-control']).toBe('no-store')
      await events.until((stream) => stream.comments.includes('connected'))
      // The stream starts with the session's state: nothing happens between the two.
      await events.until((stream) => stream.snapshots.length === 1)
      expect(events.snapshots[0]).toMatchObject({ service: { demo: true }, sync: { status: 'idle' } })
      expect(events.batches).toEqual([])

      const report = await call(bridge.port, bridge.token, 'sync:start', [{ skipAvatars: true }])
      expect(report).toMatchObject({ ok: true, value: { runId: expect.any(Number) } })
      const states = () => events.batches.flat().flatMap((event) => (event.type === 'sync-state' ? [event.state.status] : []))
      await events.until(() => states().includes('running') && states().at(-1) === 'idle')
      expect(events.batches.every((batch) => Array.isArray(batch) && batch.length > 0)).toBe(true)
      expect(events.batches.flat().some((event) => event.type === 'sync-progress')).toBe(true)
    } finally {
      events.close()
    }
  })

  test('keeps the stream open with heartbeats, and close() ends it', async ({ app, renderer }) => {
    const bridge = await startWebBridge({ core: app.core, dataDir: app.dataDir, rendererDir: renderer.root, heartbeatMs: 20 })
    try {
      const events = await openEvents(bridge.port, `/events?token=${bridge.token}`)
      await events.until((stream) => stream.comments.filter((comment) => comment === 'heartbeat').length >= 2)
      await bridge.close()
      await events.ended
    } finally {
      await bridge.close()
    }
    await expect(request(bridge.port, '/')).rejects.toThrow(/ECONNREFUSED/)
  })

  test('a reader that goes away is unsubscribed, and close() unsubscribes the rest', async ({ app, renderer }) => {
    // The core as the bridge sees it, counting the subscriptions to its events: every count it goes
    // through, and a wait for a count that ends the moment the bridge subscribes or unsubscribes.
    let live = 0
    const counts: number[] = []
    const heard = new Set<() => void>()
    const count = (change: number): void => {
      live += change
      counts.push(live)
      for (const listener of heard) listener()
    }
    const counted = new Proxy(app.core, {
      get(target, property) {
        if (property === 'onDidEmit') {
          return (listener: Parameters<CoreClient['onDidEmit']>[0]) => {
            count(+1)
            const subscription = target.onDidEmit(listener)
            return { dispose: () => (count(-1), subscription.dispose()) }
          }
        }
        const value: unknown = Reflect.get(target, property, target)
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
      },
    })
    /** Resolves once `live` subscriptions are left; fails, saying the counts, after 10 s. */
    const liveBecomes = (wanted: number): Promise<void> =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (live !== wanted) return
          heard.delete(check)
          clearTimeout(timer)
          resolve()
        }
        const timer = setTimeout(() => {
          heard.delete(check)
          reject(new Error(`the bridge never held ${wanted} subscriptions in 10 s; it went through ${JSON.stringify(counts)}`))
        }, 10_000)
        heard.add(check)
        check()
      })
    const bridge = await startWebBridge({ core: counted, dataDir: app.dataDir, rendererDir: renderer.root })
    try {
      const first = await openEvents(bridge.port, '/events', { 'x-tuneshelf-token': bridge.token })
      const second = await openEvents(bridge.port, '/events', { 'x-tuneshelf-token': bridge.token })
      await liveBecomes(2)
      first.close()
      await liveBecomes(1)
      // The other reader still gets what happens.
      await call(bridge.port, bridge.token, 'settings:set', [{ theme: 'dark' }])
      await second.until((stream) => stream.batches.flat().some((event) => event.type === 'settings' && event.settings.theme === 'dark'))
      await call(bridge.port, bridge.token, 'settings:set', [{ theme: 'system' }])
      await bridge.close()
      await second.ended
      await liveBecomes(0)
      // One subscription per reader, each given back once.
      expect(counts).toEqual([1, 2, 1, 0])
    } finally {
      await bridge.close()
    }
  })
})

describe('media', () => {
  test('a downloaded file is served through mediaResponse, ranges kept', async ({ bridge, session }) => {
    const { id, bytes } = await completedDownload(session)
    const address = `${await mediaBase(bridge)}/downloads/${id}`
    const whole = await request(bridge.port, address)
    expect(whole.status).toBe(200)
    expect(whole.headers['accept-ranges']).toBe('bytes')
    expect(Number(whole.headers['content-length'])).toBe(bytes.length)
    expect(whole.body.equals(bytes)).toBe(true)

    const part = await request(bridge.port, address, { headers: { range: 'bytes=100-1099' } })
    expect(part.status).toBe(206)
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${bytes.length}`)
    expect(part.body.equals(bytes.subarray(100, 1100))).toBe(true)

    const tail = await request(bridge.port, address, { headers: { range: 'bytes=-10' } })
    expect(tail.status).toBe(206)
    expect(tail.body.equals(bytes.subarray(bytes.length - 10))).toBe(true)

    const beyond = await request(bridge.port, address, { headers: { range: `bytes=${bytes.length}-` } })
    expect(beyond.status).toBe(416)

    const head = await request(bridge.port, address, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
    expect(Number(head.headers['content-length'])).toBe(bytes.length)

    // As an <audio> element asks: the address and a range, nothing else.
    const played = await request(bridge.port, address, { headers: { range: 'bytes=0-3' } })
    expect(played.status).toBe(206)
    expect(played.body.equals(bytes.subarray(0, 4))).toBe(true)
    // Never a page that runs anything in this origin.
    expect(whole.headers['content-security-policy']).toMatch(/sandbox/)
    expect(whole.headers['x-content-type-options']).toBe('nosniff')
  })

  test('a cached avatar is served at the address avatarBase makes', async ({ bridge, session }) => {
    const info = await call(bridge.port, bridge.token, 'app:info')
    const avatarBase = (info.value as { avatarBase: string }).avatarBase
    const catalogue = session.library.catalogue
    const address = catalogue
      .list({ offset: 0, limit: 100, includeBlank: true })
      .artists.flatMap((artist) => [artist.avatarThumb, artist.avatar])
      .find((candidate) => candidate !== '' && catalogue.avatar(candidate) !== undefined)
    expect(address).toBeDefined()
    const image = catalogue.avatar(address!)!
    const reply = await request(bridge.port, `${avatarBase}${encodeURIComponent(address!)}`)
    expect(reply.status).toBe(200)
    expect(reply.headers['content-type']).toMatch(/^image\//)
    expect(reply.body.equals(Buffer.from(image.body))).toBe(true)
  })

  test('what mediaResponse refuses stays refused, and only GET and HEAD are asked', async ({ bridge }) => {
    const base = await mediaBase(bridge)
    expect((await request(bridge.port, `${base}/downloads/999999`)).status).toBe(404)
    expect((await request(bridge.port, `${base}/downloads/..%2f..%2fsettings.json`)).status).toBe(400)
    expect((await request(bridge.port, `${base}/nothing`)).status).toBe(404)
    expect((await request(bridge.port, `${base}/avatars/not-cached`)).status).toBe(404)
    expect((await request(bridge.port, `${base}/downloads/1`, { method: 'DELETE' })).status).toBe(405)
  })
})

describe('the built renderer', () => {
  test('its files are served without the token, with their content types', async ({ bridge }) => {
    const script = await request(bridge.port, '/assets/app.js')
    expect(script.status).toBe(200)
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(script.text).toBe('console.log("tuneshelf")\n')
    expect((await request(bridge.port, '/assets/style.css')).headers['content-type']).toBe('text/css; charset=utf-8')
    expect((await request(bridge.port, '/assets/icon.svg')).headers['content-type']).toBe('image/svg+xml')
    const binary = await request(bridge.port, '/assets/nested/data.bin')
    expect(binary.headers['content-type']).toBe('application/octet-stream')
    expect([...binary.body]).toEqual([0, 1, 2, 3])
    expect(script.headers['x-content-type-options']).toBe('nosniff')
    const head = await request(bridge.port, '/assets/app.js', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
    expect((await request(bridge.port, '/assets/app.js', { method: 'POST' })).status).toBe(405)
  })

  test('no listing, nothing outside the folder', async ({ bridge, renderer }) => {
    const secret = fs.readFileSync(renderer.secret, 'utf8')
    for (const target of [
      '/assets',
      '/assets/',
      '/assets/nested/',
      '/missing.js',
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/assets/link-out.txt',
      '/assets/app.js%00.png',
      '/%E0%A4%A',
      `/${'..%2f'.repeat(8)}etc/passwd`,
    ]) {
      const reply = await request(bridge.port, target)
      expect([400, 404], target).toContain(reply.status)
      expect(reply.text, target).not.toContain(secret.trim())
      expect(reply.text, target).not.toMatch(/root:/)
    }
    // A request line with an absolute address is not a path of this server.
    expect((await request(bridge.port, `http://evil.example/assets/app.js`)).status).toBe(400)
  })
})

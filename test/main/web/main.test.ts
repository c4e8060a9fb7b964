// `npm run web` as a user runs it: its own process, one line on stdout, a graceful stop, exit codes.
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { describe, expect, onTestFinished } from 'vitest'
import { newestMtime, rendererStaleness } from '../../../src-main/web/build'
import { catalogueTest } from '../support/fixtures'
import type { SessionSnapshot } from '../../../src-main/core/shared/types'
import { call, openEvents, request, spawnWeb, writeRenderer, type WebProcess } from './support'

const test = catalogueTest({ artists: 24, seed: 8, maxFileMb: 2 }).extend('renderer', { scope: 'file' }, ({ tempDir }) => writeRenderer(tempDir()))

const LINE = /^listening on (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([A-Za-z0-9_-]{43})$/

/** Starts the bridge over the fixture renderer; stopped (killed) after the test if it still runs. */
function startWeb(args: string[], rendererDir: string, env: NodeJS.ProcessEnv = {}): WebProcess {
  const web = spawnWeb(args, { TUNESHELF_WEB_RENDERER_DIR: rendererDir, ...env })
  onTestFinished(async () => {
    if (web.child.exitCode === null && web.child.signalCode === null) {
      web.child.kill('SIGKILL')
      await web.exit
    }
  })
  return web
}

/** The session's state, as a window's event stream starts with it. */
async function snapshotOf(port: number, token: string): Promise<SessionSnapshot> {
  const events = await openEvents(port, '/events', { 'x-tuneshelf-token': token })
  try {
    await events.until((stream) => stream.snapshots.length > 0)
    return events.snapshots[0]!
  } finally {
    events.close()
  }
}

async function ready(web: WebProcess): Promise<{ url: string; origin: string; port: number; token: string }> {
  const line = await web.firstLine()
  const match = LINE.exec(line)
  expect(match, line).not.toBeNull()
  return { url: line.slice('listening on '.length), origin: match![1]!, port: Number(match![2]), token: match![3]! }
}

describe('npm run web', () => {
  test('prints exactly the listening line, serves the service of --base-url, and stops on SIGTERM with 0, the cache closed', async ({ demo, tempDir, renderer }) => {
    const dataDir = tempDir()
    const web = startWeb(['--port', '0', '--data-dir', dataDir, '--base-url', demo.baseUrl], renderer.root)
    const { url, port, token } = await ready(web)

    const page = await request(port, new URL(url).pathname + new URL(url).search)
    expect(page.status).toBe(200)
    expect(page.text).toContain('<div id="app">')
    const status = await call(port, token, 'catalogue:status')
    expect(status).toMatchObject({ ok: true, value: { baseUrl: demo.baseUrl } })
    expect(await snapshotOf(port, token)).toMatchObject({ service: { baseUrl: demo.baseUrl, demo: false } })
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({ baseUrl: demo.baseUrl })
    // It synced in the background, as the app does on a first start; the sync ends before the stop.
    expect(await call(port, token, 'sync:start', [{ skipAvatars: true }])).toMatchObject({ ok: true })

    web.child.kill('SIGTERM')
    expect(await web.exit).toEqual({ code: 0, signal: null })
    expect(web.stdout()).toBe(`listening on ${url}\n`)
    // SQLite removes a cache's write-ahead log when its last connection closes: the cache was closed, not abandoned.
    const files = fs.readdirSync(path.join(dataDir, 'catalogues'))
    expect(files.filter((file) => file.endsWith('.sqlite'))).toHaveLength(1)
    expect(files.filter((file) => file.endsWith('-wal'))).toEqual([])
    await expect(request(port, '/')).rejects.toThrow(/ECONNREFUSED/)
  })

  test('without --base-url the settings decide: the service saved before', async ({ demo, tempDir, renderer }) => {
    const dataDir = tempDir()
    fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ baseUrl: demo.baseUrl }))
    const web = startWeb(['--data-dir', dataDir], renderer.root)
    const { port, token } = await ready(web)
    expect(await snapshotOf(port, token)).toMatchObject({ service: { baseUrl: demo.baseUrl, demo: false } })
    web.child.kill('SIGINT')
    expect(await web.exit).toEqual({ code: 0, signal: null })
  })

  test('with no service set, the demo catalogue runs in-process; SIGTERM during its first sync still exits 0', async ({ tempDir, renderer }) => {
    const dataDir = tempDir()
    const web = startWeb(['--data-dir', dataDir], renderer.root)
    const { port, token } = await ready(web)
    expect(await snapshotOf(port, token)).toMatchObject({ service: { demo: true, baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) } })
    expect(web.stderr()).toMatch(/serving the demo catalogue/)
    web.child.kill('SIGTERM')
    expect(await web.exit).toEqual({ code: 0, signal: null })
    expect(web.stdout().split('\n')).toHaveLength(2)
    // The demo's cache keeps its name whatever port the demo got; no service was saved.
    expect(fs.readdirSync(path.join(dataDir, 'catalogues')).filter((file) => file.endsWith('.sqlite'))).toEqual(['demo.sqlite'])
    expect(fs.existsSync(path.join(dataDir, 'settings.json'))).toBe(false)
  })

  test('a relative --data-dir is taken from where the user typed the command (INIT_CWD)', async ({ demo, tempDir, renderer }) => {
    const home = tempDir()
    const web = startWeb(['--data-dir', 'shelf', '--base-url', demo.baseUrl], renderer.root, { INIT_CWD: home })
    const { port, token } = await ready(web)
    expect(await call(port, token, 'app:info')).toMatchObject({ ok: true, value: { dataDir: path.join(home, 'shelf'), transport: 'web' } })
    web.child.kill('SIGTERM')
    expect(await web.exit).toEqual({ code: 0, signal: null })
  })

  test('--port N listens on that port', async ({ demo, tempDir, renderer }) => {
    const free = await freePort()
    const web = startWeb(['--port', String(free), '--data-dir', tempDir(), '--base-url', demo.baseUrl], renderer.root)
    expect((await ready(web)).port).toBe(free)
    web.child.kill('SIGTERM')
    expect((await web.exit).code).toBe(0)
  })

  test.for([
    [['--port', 'abc'], /--port must be a number/],
    [['--port', '70000'], /--port must be a number/],
    [['--port', '-1'], /--port/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['extra'], /positional argument/],
    [['--base-url', 'ftp://example.com'], /http or https/],
    [['--data-dir', ''], /--data-dir cannot be empty/],
  ] as [string[], RegExp][])('bad flags %j: the usage on stderr, nothing on stdout, exit 2', async ([args, message], { renderer }) => {
    const web = startWeb(args, renderer.root)
    expect(await web.exit).toEqual({ code: 2, signal: null })
    expect(web.stdout()).toBe('')
    expect(web.stderr()).toMatch(message)
    expect(web.stderr()).toMatch(/usage: npm run -s web -- \[--base-url URL\] \[--data-dir DIR\] \[--port N\]/)
  })

  test('--help prints the usage and exits 0', async ({ renderer }) => {
    const web = startWeb(['--help'], renderer.root)
    expect(await web.exit).toEqual({ code: 0, signal: null })
    expect(web.stdout()).toMatch(/^usage: npm run -s web --/)
  })

  test('a port in use: a message and exit 1, the session closed', async ({ demo, tempDir, renderer }) => {
    const blocker = net.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => new Promise<void>((resolve) => blocker.close(() => resolve())))
    const port = (blocker.address() as net.AddressInfo).port
    const dataDir = tempDir()
    const web = startWeb(['--port', String(port), '--data-dir', dataDir, '--base-url', demo.baseUrl], renderer.root)
    expect(await web.exit).toEqual({ code: 1, signal: null })
    expect(web.stdout()).toBe('')
    expect(web.stderr()).toMatch(/EADDRINUSE/)
    const files = fs.readdirSync(path.join(dataDir, 'catalogues'))
    expect(files.filter((file) => file.endsWith('.sqlite'))).toHaveLength(1)
    expect(files.filter((file) => file.endsWith('-wal'))).toEqual([])
  })
})

describe('building the renderer when needed', () => {
  test('stale when index.html is missing or older than a source, current otherwise', ({ tempDir }) => {
    const dir = tempDir()
    const out = path.join(dir, 'out')
    const sources = path.join(dir, 'src')
    fs.mkdirSync(path.join(sources, 'components'), { recursive: true })
    const component = path.join(sources, 'components', 'a.vue')
    fs.writeFileSync(component, '<template/>')
    const single = path.join(dir, 'config.ts')
    fs.writeFileSync(single, '')
    const entries = [sources, single, path.join(dir, 'not-there')]
    expect(rendererStaleness(out, entries)).toMatch(/there is no .*index\.html/)

    fs.mkdirSync(out)
    fs.writeFileSync(path.join(out, 'index.html'), '')
    const built = new Date('2026-01-02T00:00:00Z')
    fs.utimesSync(path.join(out, 'index.html'), built, built)
    const before = new Date('2026-01-01T00:00:00Z')
    fs.utimesSync(component, before, before)
    fs.utimesSync(single, before, before)
    expect(rendererStaleness(out, entries)).toBeUndefined()
    expect(newestMtime(entries)).toBe(before.getTime())

    const after = new Date('2026-01-03T00:00:00Z')
    fs.utimesSync(component, after, after)
    expect(rendererStaleness(out, entries)).toMatch(/changed since it was built/)
    fs.utimesSync(component, before, before)
    fs.utimesSync(single, after, after)
    expect(rendererStaleness(out, entries)).toMatch(/changed since it was built/)
  })
})

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/**
 * Issue 15: the security-relevant primitives have one home each, with one set of tests.
 *
 * - "Lies inside the folder" was written four times with two behaviours (downloads' file names and
 *   plan, the media route, the web bridge's files). It is src-main/core/files/contained-path.ts now, used by
 *   all of them and by the app:// handler; hostile paths are tried on it and on each route.
 * - Byte ranges were parsed twice (the media route, the demo service), with different answers for
 *   the same header; media types were listed three times. One parser, one list.
 * - Content-Security-Policies were written in three places; one module builds them.
 *
 * A scan of src-main checks that no copy has come back.
 */
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appResponse } from '../../../src-main/electron/app-protocol'
import { isInside, realPathInside, realPathInsideSync, resolveInside } from '../../../src-main/core/files/contained-path'
import { startCatalogueService, type RunningCatalogueService } from '../../../src-main/demo/index'
import type { CoreClient } from '../../../src-main/main-process/core-client'
import { parseRange } from '../../../src-main/core/shared/byte-range'
import { UnsafePathError } from '../../../src-main/core/shared/errors'
import { mediaResponse, type MediaSource } from '../../../src-main/main-process/media'
import { startWebBridge, type WebBridge } from '../../../src-main/web/server'
import { request } from '../web/support'

const SRC_MAIN = path.resolve(import.meta.dirname, '../../../src-main')

let dir: string
let root: string
let bridge: WebBridge
let demo: RunningCatalogueService

/**
 * root: a folder with a file, a dotted-name file, and links: one to a secret beside the folder, one to
 * a sibling folder whose name starts like root's (`root` and `root-private`), one that stays inside.
 */
beforeAll(async () => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-one-home-')))
  root = path.join(dir, 'root')
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true })
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>t</title>\n')
  fs.writeFileSync(path.join(root, 'assets', 'track.mp3'), Buffer.alloc(100, 7))
  fs.writeFileSync(path.join(root, 'assets', '..dotted.mp3'), Buffer.alloc(10, 1))
  fs.writeFileSync(path.join(dir, 'secret.txt'), 'SECRET-OUTSIDE\n')
  fs.mkdirSync(path.join(dir, 'root-private'))
  fs.writeFileSync(path.join(dir, 'root-private', 'key.mp3'), 'SECRET-SIBLING\n')
  fs.symlinkSync(path.join(dir, 'secret.txt'), path.join(root, 'assets', 'link-out.mp3'))
  fs.symlinkSync(path.join(dir, 'root-private'), path.join(root, 'assets', 'dir-out'))
  fs.symlinkSync(path.join(root, 'assets', 'track.mp3'), path.join(root, 'link-in.mp3'))
  // The static route never asks the core: the bridge is started without one.
  bridge = await startWebBridge({ core: {} as CoreClient, dataDir: dir, rendererDir: root, host: '127.0.0.1' })
  demo = await startCatalogueService({ artists: 3, seed: 4, maxFileMb: 1 })
})
afterAll(async () => {
  await bridge?.close()
  await demo?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** Hostile paths relative to root, and whether each names something inside it (lexically, then really). */
const HOSTILE: [what: string, relative: string, lexical: boolean, real: 'inside' | 'outside' | 'gone'][] = [
  ['a plain file', 'assets/track.mp3', true, 'inside'],
  ['a name that starts with two dots', 'assets/..dotted.mp3', true, 'inside'],
  ['a link that stays inside', 'link-in.mp3', true, 'inside'],
  ['the folder itself', '.', false, 'outside'],
  ['..', '../secret.txt', false, 'outside'],
  ['.. in the middle', 'assets/../../secret.txt', false, 'outside'],
  ['.. that comes back in', 'assets/../index.html', true, 'inside'],
  // A file path is never decoded: %2e%2e is a name of its own inside the folder (there is none).
  ['encoded dots, as a file name', '%2e%2e/secret.txt', true, 'gone'],
  ['an absolute path', '/etc/passwd', false, 'outside'],
  ['an absolute path with a doubled separator', '//etc/passwd', false, 'outside'],
  ['a NUL', 'assets/track.mp3\0.png', false, 'outside'],
  ['a link to a file outside', 'assets/link-out.mp3', true, 'outside'],
  ['a link to a sibling folder', 'assets/dir-out/key.mp3', true, 'outside'],
  ['a sibling folder with the same prefix', '../root-private/key.mp3', false, 'outside'],
  ['Windows separators', '..\\..\\secret.txt', false, 'outside'],
  ['a Windows separator in a name', 'assets\\track.mp3', path.sep === '\\', path.sep === '\\' ? 'inside' : 'outside'],
  ['a missing file', 'assets/none.mp3', true, 'gone'],
]

describe('the one containment function', () => {
  it.each(HOSTILE)('%s: lexically %s', (_what, relative, lexical) => {
    expect(isInside(root, path.resolve(root, relative))).toBe(lexical)
  })

  it('tells a sibling with the same prefix from a child, and never takes a relative or NUL path', () => {
    expect(isInside('/a/b', '/a/b/c')).toBe(true)
    expect(isInside('/a/b', '/a/bc')).toBe(false)
    expect(isInside('/a/b', '/a/bc/d')).toBe(false)
    expect(isInside('/a/b/', '/a/b/c')).toBe(true)
    expect(isInside('/a/b', '/a/b')).toBe(false)
    expect(isInside('/a/b', '/a/b/..')).toBe(false)
    expect(isInside('/a/b', '/a/b/../bc')).toBe(false)
    expect(isInside('/a/b', '/a/b/..c')).toBe(true)
    expect(isInside('/a/b', 'a/b/c')).toBe(false)
    expect(isInside('a/b', '/a/b/c')).toBe(false)
    expect(isInside('/a/b', '/a/b/c\0')).toBe(false)
    expect(isInside('/a/b', '/')).toBe(false)
    // Another system's paths, judged by its own rules.
    expect(isInside('C:\\Music', 'C:\\Music\\a.mp3', path.win32)).toBe(true)
    expect(isInside('C:\\Music', 'C:\\Music2\\a.mp3', path.win32)).toBe(false)
    expect(isInside('C:\\Music', 'D:\\Music\\a.mp3', path.win32)).toBe(false)
    expect(isInside('C:\\Music', 'C:\\Music\\..\\Windows', path.win32)).toBe(false)
    expect(isInside('/a/b', '/a/b/x\\..\\..\\etc', path.posix)).toBe(false)
  })

  it.each(HOSTILE)('%s: really %s (symbolic links followed)', async (_what, relative, _lexical, real) => {
    const target = relative.includes('\0') ? `${root}/${relative}` : path.resolve(root, relative)
    const expected = real === 'inside' ? fs.realpathSync(target) : real
    expect(realPathInsideSync(root, target)).toBe(expected)
    expect(await realPathInside(root, target)).toBe(expected)
  })

  // A file to write need not exist yet: the same verdicts, a missing file being what is asked for.
  it.each(HOSTILE)('%s: as a file to write, %s', (_what, relative, _lexical, real) => {
    const outcome = (): string => resolveInside(root, relative)
    if (real === 'outside') expect(outcome).toThrow(UnsafePathError)
    else expect(outcome()).toBe(path.resolve(root, relative))
  })
})

/** The same paths, as the addresses each route is asked for. */
const ADDRESSES: string[] = [
  '/../secret.txt',
  '/assets/../../secret.txt',
  '/%2e%2e/secret.txt',
  '/%2E%2E/%2E%2E/etc/passwd',
  '/assets/..%2f..%2fsecret.txt',
  '/assets/..%5c..%5csecret.txt',
  '/assets/%252e%252e/secret.txt',
  '/assets/link-out.mp3',
  '/assets/dir-out/key.mp3',
  '/../root-private/key.mp3',
  '/%2e%2e/root-private/key.mp3',
  '/assets/track.mp3%00.png',
  '//etc/passwd',
  '/%2fetc%2fpasswd',
  `/${'..%2f'.repeat(8)}etc/passwd`,
  '/assets/',
]

describe('each route that serves files uses it', () => {
  it('the web bridge serves what is inside, and none of the hostile addresses', async () => {
    expect((await request(bridge.port, '/assets/track.mp3')).status).toBe(200)
    expect((await request(bridge.port, '/link-in.mp3')).status).toBe(200)
    for (const address of ADDRESSES) {
      const reply = await request(bridge.port, address)
      expect([400, 404], address).toContain(reply.status)
      expect(reply.text, address).not.toMatch(/SECRET|root:/)
    }
  })

  it('the app:// handler serves what is inside, and none of the hostile addresses', async () => {
    expect((await appResponse(root, new Request('app://tuneshelf/assets/track.mp3'))).status).toBe(200)
    for (const address of ADDRESSES) {
      const response = await appResponse(root, new Request(`app://tuneshelf${address}`))
      expect([400, 404], address).toContain(response.status)
      expect(await response.text(), address).not.toMatch(/SECRET|root:/)
    }
  })

  it('the media route plays a download only if its file really lies in its folder', async () => {
    // What the core says of download 1: a stored path, as a hostile or damaged cache may hold it.
    const stored = { file: '', root }
    const source: MediaSource = {
      ask: (async (question: { what: string }) =>
        question.what === 'downloadedFile' ? { state: 'completed', file: stored.file, root: stored.root } : undefined) as MediaSource['ask'],
    }
    const play = async (file: string): Promise<Response> => {
      stored.file = file
      return mediaResponse(source, new Request('tuneshelf-media://app/downloads/1'))
    }
    expect((await play(path.join(root, 'assets', 'track.mp3'))).status).toBe(200)
    expect((await play(path.join(root, 'link-in.mp3'))).status).toBe(200)
    for (const [what, relative, , real] of HOSTILE) {
      if (real === 'inside') continue
      const response = await play(relative.includes('\0') ? `${root}/${relative}` : path.resolve(root, relative))
      expect([403, 404], what).toContain(response.status)
      expect(await response.text(), what).not.toMatch(/SECRET/)
    }
    // A stored path that is not absolute and normal is not judged at all.
    for (const file of ['assets/track.mp3', `${root}/assets/../assets/track.mp3`, `${root}//assets/track.mp3`]) {
      expect((await play(file)).status, file).toBe(403)
    }
  })
})

/** Range headers against a file of SIZE bytes: the one parser's answer. */
const SIZE = 1000
const RANGES: [header: string | null, range: { start: number; end: number } | 'unsatisfiable' | undefined][] = [
  [null, undefined],
  ['bytes=0-', { start: 0, end: 999 }],
  ['bytes=0-0', { start: 0, end: 0 }],
  ['bytes=-5', { start: 995, end: 999 }],
  ['bytes=-5000', { start: 0, end: 999 }],
  ['bytes=990-', { start: 990, end: 999 }],
  ['bytes=500-99999', { start: 500, end: 999 }],
  ['bytes=5-1', undefined],
  ['bytes=0-1,3-4', undefined],
  ['bytes=0-1, 3-4', undefined],
  ['bytes=1000-', 'unsatisfiable'],
  ['bytes=-0', 'unsatisfiable'],
  ['bytes=0-99999999999999999999999', { start: 0, end: 999 }],
  ['bytes=99999999999999999999999-', 'unsatisfiable'],
  ['bytes=-99999999999999999999999', { start: 0, end: 999 }],
  [`bytes=${'9'.repeat(400)}-`, 'unsatisfiable'],
  ['bytes=-', undefined],
  ['bytes=', undefined],
  ['bytes=abc', undefined],
  ['bytes=1.5-3', undefined],
  ['bytes=0x10-', undefined],
  ['bytes=--1', undefined],
  ['bytes=+1-2', undefined],
  ['items=0-1', undefined],
  ['bytes 0-1', undefined],
  ['=0-1', undefined],
  ['', undefined],
  ['Bytes = 1 - 2', { start: 1, end: 2 }],
]

describe('the one range parser', () => {
  it.each(RANGES)('%s', (header, range) => {
    expect(parseRange(header, SIZE)).toEqual(range)
  })

  it('has no range of an empty file', () => {
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable')
    expect(parseRange('bytes=-1', 0)).toBe('unsatisfiable')
    expect(parseRange(null, 0)).toBeUndefined()
  })

  it('is what the media route and the demo service both answer', async () => {
    const track = demo.catalogue.artists.flatMap((artist) => demo.catalogue.tracksOf(artist)).find((candidate) => candidate.bytes > 2_000)!
    const size = track.bytes
    const file = path.join(root, 'assets', 'track.mp3')
    fs.writeFileSync(file, Buffer.alloc(size, 3))
    const source: MediaSource = { ask: (async () => ({ state: 'completed', file, root })) as MediaSource['ask'] }
    const hotlink = new URL(`/hotlink/${track.uploadId}.${track.ext}`, demo.baseUrl)
    for (const [header] of RANGES) {
      const expected = parseRange(header, size)
      const status = expected === undefined ? 200 : expected === 'unsatisfiable' ? 416 : 206
      const contentRange = expected === undefined ? null : expected === 'unsatisfiable' ? `bytes */${size}` : `bytes ${expected.start}-${expected.end}/${size}`
      const headers: Record<string, string> = header === null ? {} : { range: header }
      const media = await mediaResponse(source, new Request('tuneshelf-media://app/downloads/1', { headers }))
      await media.body?.cancel()
      expect([media.status, media.headers.get('content-range')], `media ${header}`).toEqual([status, contentRange])
      const served = await rawGet(hotlink, headers)
      expect([served.status, served.contentRange], `demo ${header}`).toEqual([status, contentRange])
    }
  })
})

/** A GET whose body is thrown away (the demo's files are generated, so no fetch that may add headers). */
function rawGet(url: URL, headers: Record<string, string>): Promise<{ status: number; contentRange: string | null }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.get(url, { headers, agent: false }, (response) => {
      response.resume()
      response.once('end', () => resolve({ status: response.statusCode ?? 0, contentRange: (response.headers['content-range'] as string | undefined) ?? null }))
    })
    outgoing.once('error', reject)
  })
}

/** Every source file of src-main, with its text. */
function sources(): { file: string; text: string }[] {
  return fs
    .readdirSync(SRC_MAIN, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|vue)$/.test(entry.name))
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name)
      return { file: path.relative(SRC_MAIN, file).split(path.sep).join('/'), text: fs.readFileSync(file, 'utf8') }
    })
}

describe('no copy has come back', () => {
  const only = (pattern: RegExp): string[] => sources().filter(({ text }) => pattern.test(text)).map(({ file }) => file)

  it('containment (path.relative, of any path module) lives in core/files/contained-path.ts alone', () => {
    expect(only(/\.relative\(/)).toEqual(['core/files/contained-path.ts'])
  })

  it('content-security policies live in core/shared/content-security.ts alone', () => {
    expect(only(/default-src|script-src|frame-ancestors|object-src|'sandbox'|; sandbox/)).toEqual(['core/shared/content-security.ts'])
  })

  it('media types live in core/shared/media-types.ts alone', () => {
    expect(only(/['"`](audio|video)\/[a-z0-9.+-]+/)).toEqual(['core/shared/media-types.ts'])
  })

  it('Range headers are parsed in core/shared/byte-range.ts alone', () => {
    expect(only(/bytes\\s\*=|bytes=\(/)).toEqual(['core/shared/byte-range.ts'])
  })
})

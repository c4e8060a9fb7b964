/**
 * The media a window loads by address (avatars, downloaded files for playback),
 * answered by mediaResponse over a real session: the demo catalogue on
 * loopback, a synced SQLite cache, and files really downloaded into temporary
 * folders. Each test that changes a file downloads its own.
 */
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, vi } from 'vitest'
import { avatarSvg } from '../../../src-main/demo/avatars'
import type { CoreClient } from '../../../src-main/main-process/core-client'
import type { AppSession } from '../../../src-main/core/session/session'
import type { Download } from '../../../src-main/core/shared/types'
import { parseRange } from '../../../src-main/core/shared/byte-range'
import { mediaTypeOf as contentTypeOf } from '../../../src-main/core/shared/media-types'
import { mediaResponse } from '../../../src-main/main-process/media'
import { startInProcessCore } from '../support/core'
import { catalogueTest } from '../support/fixtures'

const MB = 1024 * 1024
const CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
const ORIGIN = 'tuneshelf-media://media'

interface Media {
  /** The session the core's writer runs (in this thread). */
  session: AppSession
  /** The core as main asks it for media. */
  core: CoreClient
  /** A completed download of an upload no other test has used, in a folder of its own. */
  completed(): Promise<Download>
  /** Every avatar address of the synced catalogue, with the artist it belongs to and its size in pixels. */
  avatars: { address: string; username: string; pixels: number }[]
}

const test = catalogueTest({ artists: 12, seed: 5, maxFileMb: 1 }).extend(
  'media',
  { scope: 'file' },
  async ({ demo, tempDir }, { onCleanup }): Promise<Media> => {
    const { core, session } = await startInProcessCore({ dataDir: tempDir(), baseUrl: demo.baseUrl })
    onCleanup(() => core.close())
    // The session started a sync of its empty cache (thumbnails included): this joins it.
    await session.library.sync.start()
    const catalogue = session.library.catalogue
    const artists = catalogue.list({ offset: 0, limit: 1000, includeBlank: true }).artists
    // The full-size avatars are cached when an artist is opened: open them all.
    for (const artist of artists) await catalogue.refreshArtist(artist.username)
    const uploads = artists
      .flatMap((artist) => catalogue.artist(artist.username).tracks)
      .filter((track) => track.hotlinkPath !== null && (track.bytes ?? 0) >= 20_000)
      .map((track) => track.uploadId)
    let used = 0
    return {
      session,
      core,
      avatars: artists.flatMap((artist) => [
        { address: artist.avatar, username: artist.username, pixels: 256 },
        { address: artist.avatarThumb, username: artist.username, pixels: 64 },
      ]),
      completed: async () => {
        const uploadId = uploads[used++]
        if (uploadId === undefined) throw new Error('the demo catalogue has no upload left for this test file')
        const downloads = session.library.downloads
        const [queued] = (await downloads.enqueue({ uploadIds: [uploadId], folder: tempDir() })).downloads
        await downloads.whenIdle()
        const download = downloads.get(queued!.id)
        expect(download.state).toBe('completed')
        return download
      },
    }
  },
)
test.afterEach(({ demo }) => demo.faults.clear())

/** Asks for `pathname` (already encoded as it would appear in an address) of the media origin. */
function request(media: Media, pathname: string, init: RequestInit = {}, origin = ORIGIN): Promise<Response> {
  return mediaResponse(media.core, new Request(`${origin}${pathname}`, init))
}

async function bytesOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer())
}

function expectCommonHeaders(response: Response): void {
  expect(response.headers.get('content-security-policy')).toBe(CSP)
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
}

/** How many of this process's file descriptors are open on `file`; undefined where /proc does not say. */
function openHandles(file: string): number | undefined {
  if (!fs.existsSync('/proc/self/fd')) return undefined
  let count = 0
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) === file) count++
    } catch {
      // The descriptor of the listing itself, closed by now.
    }
  }
  return count
}

async function expectNoOpenHandles(file: string): Promise<void> {
  if (openHandles(file) === undefined) return
  await vi.waitFor(() => expect(openHandles(file)).toBe(0))
}

describe('parseRange', () => {
  test.each([
    ['bytes=0-0', { start: 0, end: 0 }],
    ['bytes=10-19', { start: 10, end: 19 }],
    ['bytes=990-', { start: 990, end: 999 }],
    ['bytes=500-5000', { start: 500, end: 999 }],
    ['bytes=-1', { start: 999, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['Bytes = 1 - 2', { start: 1, end: 2 }],
  ])('reads %s of 1000 bytes', (header, range) => {
    expect(parseRange(header, 1000)).toEqual(range)
  })

  test.each(['bytes=1000-', 'bytes=1000-1001', 'bytes=-0', 'bytes=99999999999999999999-'])('finds %s unsatisfiable for 1000 bytes', (header) => {
    expect(parseRange(header, 1000)).toBe('unsatisfiable')
  })

  test.each([null, 'bytes=0-1,5-9', 'bytes=0-1, 5-', 'bytes=9-3', 'bytes=-', 'bytes=abc', 'bytes=1.5-3', 'items=0-1', 'bytes 0-1', '=0-1'])(
    'gives the whole file for %s',
    (header) => {
      expect(parseRange(header, 1000)).toBeUndefined()
    },
  )

  test('has no range of an empty file', () => {
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable')
    expect(parseRange('bytes=-10', 0)).toBe('unsatisfiable')
    expect(parseRange(null, 0)).toBeUndefined()
  })
})

describe('contentTypeOf', () => {
  test.each([
    ['a/b [1].mp3', 'audio/mpeg'],
    ['a/b [1].wav', 'audio/wav'],
    ['a/b [1].ogg', 'audio/ogg'],
    ['a/b [1].m4a', 'audio/mp4'],
    ['a/b [1].flac', 'audio/flac'],
    ['a/b [1].MP3', 'audio/mpeg'],
    ['a/b [1].html', 'application/octet-stream'],
    ['a/b.svg', 'application/octet-stream'],
    ['a/b', 'application/octet-stream'],
  ])('%s is %s', (file, type) => {
    expect(contentTypeOf(file)).toBe(type)
  })
})

describe('avatars', () => {
  test('serves each cached avatar with its bytes, type and caching', async ({ media }) => {
    expect(media.avatars.some(({ address }) => address.startsWith('//'))).toBe(true)
    expect(media.avatars.some(({ address }) => address.startsWith('http:'))).toBe(true)
    for (const { address, username, pixels } of media.avatars) {
      const cached = media.session.library.catalogue.avatar(address)!
      const response = await request(media, `/avatars/${encodeURIComponent(address)}`)
      expect(response.status, address).toBe(200)
      expect(response.headers.get('content-type')).toBe(cached.contentType)
      expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
      expect(response.headers.get('cache-control')).toBe('private, max-age=86400')
      expectCommonHeaders(response)
      // What the service drew for this artist, as the sync cached it.
      expect((await bytesOf(response)).toString()).toBe(avatarSvg(username, pixels))

      const head = await request(media, `/avatars/${encodeURIComponent(address)}`, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.headers.get('content-length')).toBe(String(cached.body.length))
      expect(head.headers.get('content-type')).toBe(cached.contentType)
      expectCommonHeaders(head)
      expect(await bytesOf(head)).toHaveLength(0)
    }
  })

  test('answers 404 for an address the cache has no image for', async ({ media }) => {
    for (const address of ['https://elsewhere.example/a.svg', media.avatars[0]!.address + 'x', '../../etc/passwd', '%2e%2e']) {
      const response = await request(media, `/avatars/${encodeURIComponent(address)}`)
      expect(response.status, address).toBe(404)
      expectCommonHeaders(response)
    }
  })

  test('serves an avatar whose stored type is not an image as plain bytes', async ({ media }) => {
    const address = 'https://hostile.example/avatar.svg'
    const db = new Database(media.session.library.cacheFile)
    try {
      db.pragma('busy_timeout = 5000')
      db.prepare('INSERT OR REPLACE INTO avatars (url, content_type, body, fetched_at) VALUES (?, ?, ?, ?)').run(
        address,
        'text/html',
        Buffer.from('<script>alert(1)</script>'),
        Date.now(),
      )
    } finally {
      db.close()
    }
    const response = await request(media, `/avatars/${encodeURIComponent(address)}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/octet-stream')
    expectCommonHeaders(response)
    expect(await response.text()).toBe('<script>alert(1)</script>')
  })
})

describe('downloads', () => {
  test('serves a completed download whole, by GET and HEAD, at any scheme and host', async ({ media }) => {
    const download = await media.completed()
    const file = fs.readFileSync(download.targetPath)
    expect(file.length).toBeGreaterThanOrEqual(20_000)
    for (const origin of [ORIGIN, 'http://127.0.0.1:9']) {
      const response = await request(media, `/downloads/${download.id}`, {}, origin)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(contentTypeOf(download.targetPath))
      expect(response.headers.get('content-type')).toMatch(/^audio\//)
      expect(response.headers.get('accept-ranges')).toBe('bytes')
      expect(response.headers.get('content-length')).toBe(String(file.length))
      expect(response.headers.get('content-range')).toBeNull()
      expectCommonHeaders(response)
      expect((await bytesOf(response)).equals(file)).toBe(true)
    }
    const head = await request(media, `/downloads/${download.id}`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(file.length))
    expect(head.headers.get('accept-ranges')).toBe('bytes')
    expect(await bytesOf(head)).toHaveLength(0)
    await expectNoOpenHandles(download.targetPath)
  })

  test('serves every kind of single byte range with 206, and HEAD says the same', async ({ media }) => {
    const download = await media.completed()
    const file = fs.readFileSync(download.targetPath)
    const size = file.length
    const cases: [header: string, start: number, end: number][] = [
      ['bytes=0-0', 0, 0],
      ['bytes=0-', 0, size - 1],
      ['bytes=10-99', 10, 99],
      ['bytes=1000-', 1000, size - 1],
      [`bytes=${size - 1}-`, size - 1, size - 1],
      [`bytes=5-${size + 1000}`, 5, size - 1],
      ['bytes=-500', size - 500, size - 1],
      [`bytes=-${size + 10}`, 0, size - 1],
    ]
    for (const [header, start, end] of cases) {
      for (const method of ['GET', 'HEAD']) {
        const response = await request(media, `/downloads/${download.id}`, { method, headers: { Range: header } })
        expect(response.status, `${method} ${header}`).toBe(206)
        expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`)
        expect(response.headers.get('content-length')).toBe(String(end - start + 1))
        expect(response.headers.get('accept-ranges')).toBe('bytes')
        expect(response.headers.get('content-type')).toBe(contentTypeOf(download.targetPath))
        expectCommonHeaders(response)
        const body = await bytesOf(response)
        if (method === 'HEAD') expect(body).toHaveLength(0)
        else expect(body.equals(file.subarray(start, end + 1)), `${header}`).toBe(true)
      }
    }
    await expectNoOpenHandles(download.targetPath)
  })

  test('answers 416 with the size for a range past the end', async ({ media }) => {
    const download = await media.completed()
    const size = fs.statSync(download.targetPath).size
    for (const header of [`bytes=${size}-`, `bytes=${size + 5}-${size + 10}`, 'bytes=-0']) {
      for (const method of ['GET', 'HEAD']) {
        const response = await request(media, `/downloads/${download.id}`, { method, headers: { Range: header } })
        expect(response.status, `${method} ${header}`).toBe(416)
        expect(response.headers.get('content-range')).toBe(`bytes */${size}`)
        expectCommonHeaders(response)
      }
    }
    await expectNoOpenHandles(download.targetPath)
  })

  test('serves the whole file for several ranges or a malformed header', async ({ media }) => {
    const download = await media.completed()
    const file = fs.readFileSync(download.targetPath)
    for (const header of ['bytes=0-1,5-9', 'bytes=0-1, 100-', 'bytes=9-3', 'bytes=abc', 'bytes=-', 'items=0-1']) {
      const response = await request(media, `/downloads/${download.id}`, { headers: { Range: header } })
      expect(response.status, header).toBe(200)
      expect(response.headers.get('content-range')).toBeNull()
      expect((await bytesOf(response)).equals(file), header).toBe(true)
    }
  })

  test('streams the file in chunks and closes it, even when the player stops reading', async ({ media }) => {
    const download = await media.completed()
    // A 50 MB sparse file: takes no disk, but would take 50 MB of memory if read whole.
    fs.truncateSync(download.targetPath, 50 * MB)
    const memory = (): number => process.memoryUsage().arrayBuffers + process.memoryUsage().heapUsed
    const before = memory()
    const response = await request(media, `/downloads/${download.id}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-length')).toBe(String(50 * MB))
    expect(response.body).toBeInstanceOf(ReadableStream)
    const reader = response.body!.getReader()
    const first = await reader.read()
    expect(first.done).toBe(false)
    expect(memory() - before).toBeLessThan(20 * MB)

    let total = first.value!.byteLength
    let chunks = 1
    let largest = total
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      total += next.value.byteLength
      largest = Math.max(largest, next.value.byteLength)
      chunks++
    }
    expect(total).toBe(50 * MB)
    expect(largest).toBeLessThanOrEqual(MB)
    expect(chunks).toBeGreaterThanOrEqual(50)
    await expectNoOpenHandles(download.targetPath)

    // A seek: the player reads a little of a range and cancels it; the file is closed all the same.
    const ranged = await request(media, `/downloads/${download.id}`, { headers: { Range: 'bytes=1000-' } })
    expect(ranged.status).toBe(206)
    const rangedReader = ranged.body!.getReader()
    expect((await rangedReader.read()).done).toBe(false)
    if (openHandles(download.targetPath) !== undefined) expect(openHandles(download.targetPath)).toBe(1)
    await rangedReader.cancel()
    await expectNoOpenHandles(download.targetPath)
  })

  test('refuses malformed paths with 400 and paths that leave the routes with 404', async ({ media }) => {
    const { id } = await media.completed()
    const cases: [pathname: string, status: number][] = [
      // The URL parser folds plain and %2e dot segments: what is left names no route.
      [`/downloads/${id}/../../../../etc/passwd`, 404],
      ['/downloads/%2e%2e/%2e%2e/etc/passwd', 404],
      ['/downloads/%2E%2E/secret', 404],
      // What only decoding would make a path is refused as it stands.
      ['/downloads/..%2f..%2f..%2fetc%2fpasswd', 400],
      ['/downloads/%2e%2e%2f%2e%2e%2fetc%2fpasswd', 400],
      [`/downloads/${id}%2f..%2f..%2fsecret`, 400],
      ['/downloads/..%5c..%5cetc%5cpasswd', 400],
      [`/downloads/${id}%5c..`, 400],
      [`/downloads/${id}\\..\\secret`, 400],
      ['/downloads/%252e%252e%252fetc%252fpasswd', 400],
      [`/downloads/%25${id}`, 400],
      // Absolute paths.
      ['/downloads/%2Fetc%2Fpasswd', 400],
      ['/downloads//etc/passwd', 400],
      ['/downloads/C:%5CWindows%5Cwin.ini', 400],
      ['//etc/passwd', 400],
      // Ids that are not plain positive integers, and extra or missing segments.
      ['/downloads/0', 400],
      ['/downloads/-1', 400],
      [`/downloads/0${id}`, 400],
      [`/downloads/+${id}`, 400],
      [`/downloads/${id}.0`, 400],
      ['/downloads/1e3', 400],
      ['/downloads/99999999999999999999', 400],
      [`/downloads/${id}/`, 400],
      [`/downloads/${id}/x`, 400],
      ['/downloads', 400],
      ['/downloads/', 400],
      ['/avatars/', 400],
      ['/downloads/%', 400],
      ['/avatars/%E0%A4%A', 400],
      // Not a route at all.
      ['/', 404],
      ['/etc/passwd', 404],
      [`/download/${id}`, 404],
    ]
    for (const [pathname, status] of cases) {
      const response = await request(media, pathname)
      expect(response.status, pathname).toBe(status)
      expectCommonHeaders(response)
    }
    // Over http a backslash is a separator, so it folds like a slash.
    expect((await request(media, `/downloads/${id}\\..\\..\\secret`, {}, 'http://127.0.0.1:9')).status).toBe(404)
  })

  test('answers 404 for an unknown download, one not completed, and one whose file is gone', async ({ demo, media, tempDir }) => {
    expect((await request(media, '/downloads/999999')).status).toBe(404)

    // A download that failed, with a file at its place all the same: its state alone refuses it.
    const uploadId = media.session.library.catalogue
      .list({ offset: 0, limit: 1000 })
      .artists.flatMap((artist) => media.session.library.catalogue.artist(artist.username).tracks)
      .findLast((track) => track.hotlinkPath !== null && media.session.library.downloads.list().every((download) => download.uploadId !== track.uploadId))!.uploadId
    demo.faults.add({ path: `/hotlink/${uploadId}.*`, fault: { kind: 'status', status: 404 } })
    const downloads = media.session.library.downloads
    const [queued] = (await downloads.enqueue({ uploadIds: [uploadId], folder: tempDir() })).downloads
    await downloads.whenIdle()
    const failed = downloads.get(queued!.id)
    expect(failed.state).toBe('failed')
    fs.mkdirSync(path.dirname(failed.targetPath), { recursive: true })
    fs.writeFileSync(failed.targetPath, 'not the download')
    expect((await request(media, `/downloads/${failed.id}`)).status).toBe(404)
    expect((await request(media, `/downloads/${failed.id}`, { method: 'HEAD' })).status).toBe(404)

    const gone = await media.completed()
    fs.rmSync(gone.targetPath)
    expect((await request(media, `/downloads/${gone.id}`)).status).toBe(404)
    // A folder or a dangling link where the file was is no file either.
    fs.mkdirSync(gone.targetPath)
    expect((await request(media, `/downloads/${gone.id}`)).status).toBe(404)
    fs.rmdirSync(gone.targetPath)
    fs.symlinkSync(path.join(tempDir(), 'nothing-here.mp3'), gone.targetPath)
    expect((await request(media, `/downloads/${gone.id}`)).status).toBe(404)
  })

  test('answers 405 to methods other than GET and HEAD', async ({ media }) => {
    const { id } = await media.completed()
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      for (const pathname of [`/downloads/${id}`, `/avatars/${encodeURIComponent(media.avatars[0]!.address)}`, '/elsewhere']) {
        const response = await request(media, pathname, { method })
        expect(response.status, `${method} ${pathname}`).toBe(405)
        expect(response.headers.get('allow')).toBe('GET, HEAD')
        expectCommonHeaders(response)
      }
    }
  })
})

describe.skipIf(process.platform === 'win32')('downloads and symbolic links (they need privileges on Windows)', () => {
  test('refuses with 403 a file replaced by a link to a file outside its folder', async ({ media, tempDir }) => {
    const download = await media.completed()
    const secret = path.join(tempDir(), 'secret.mp3')
    fs.writeFileSync(secret, 'the secret')
    fs.rmSync(download.targetPath)
    fs.symlinkSync(secret, download.targetPath)
    for (const method of ['GET', 'HEAD']) {
      const response = await request(media, `/downloads/${download.id}`, { method, headers: { Range: 'bytes=0-' } })
      expect(response.status, method).toBe(403)
      expectCommonHeaders(response)
      expect(await response.text()).not.toContain('the secret')
    }
    // A relative link climbing out is refused the same.
    fs.rmSync(download.targetPath)
    fs.symlinkSync(path.relative(path.dirname(download.targetPath), secret), download.targetPath)
    expect((await request(media, `/downloads/${download.id}`)).status).toBe(403)
    await expectNoOpenHandles(secret)
  })

  test('refuses with 403 a file whose artist folder is a link leading outside', async ({ media, tempDir }) => {
    const download = await media.completed()
    const artistFolder = path.dirname(download.targetPath)
    const elsewhere = path.join(tempDir(), 'elsewhere')
    fs.renameSync(artistFolder, elsewhere)
    fs.symlinkSync(elsewhere, artistFolder)
    expect(fs.existsSync(download.targetPath)).toBe(true)
    const response = await request(media, `/downloads/${download.id}`)
    expect(response.status).toBe(403)
    expectCommonHeaders(response)
  })

  test('serves a file linked to another inside its folder, and a download folder that is itself a link', async ({ media, tempDir }) => {
    // Judged on real paths, not on the mere presence of a link: these stay inside.
    const first = await media.completed()
    const root = path.dirname(path.dirname(first.targetPath))
    const copy = path.join(root, 'kept', 'copy.bin')
    fs.mkdirSync(path.dirname(copy))
    fs.writeFileSync(copy, 'a copy kept in the same folder')
    fs.rmSync(first.targetPath)
    fs.symlinkSync(copy, first.targetPath)
    const linked = await request(media, `/downloads/${first.id}`)
    expect(linked.status).toBe(200)
    expect(await linked.text()).toBe('a copy kept in the same folder')

    // The user's music folder moved to another disk, a link left at its old place.
    const second = await media.completed()
    const file = fs.readFileSync(second.targetPath)
    const secondRoot = path.dirname(path.dirname(second.targetPath))
    const moved = path.join(tempDir(), 'moved')
    fs.renameSync(secondRoot, moved)
    fs.symlinkSync(moved, secondRoot)
    const response = await request(media, `/downloads/${second.id}`, { headers: { Range: 'bytes=0-99' } })
    expect(response.status).toBe(206)
    expect((await bytesOf(response)).equals(file.subarray(0, 100))).toBe(true)
  })
})

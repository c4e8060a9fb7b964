/**
 * The media a window loads by address rather than over IPC: cached avatar
 * images (`/avatars/<encodeURIComponent(address)>`) and downloaded files for
 * playback (`/downloads/<id>`). Electron's protocol handler and the web bridge
 * both hand a web-standard Request to mediaResponse and send back its Response,
 * so both transports serve (and refuse) exactly the same things.
 *
 * The file path never comes from the address: a download is looked up by its
 * id, and its file is served only if, once every symbolic link is resolved, it
 * still lies inside the folder it was downloaded into.
 */
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { realPathInside } from '../core/files/contained-path'
import type { CoreClient } from './core-client'
import { parseRange } from '../core/shared/byte-range'
import { MEDIA_POLICY } from '../core/shared/content-security'
import { mediaTypeOf } from '../core/shared/media-types'
import { parseUrl } from '../core/shared/urls'

/** Where media come from: the core, asked for an avatar's bytes or a download's file. */
export type MediaSource = Pick<CoreClient, 'ask'>

/** Headers of every media response. The CSP keeps an SVG (or anything else) from running scripts even if opened as a page. */
const COMMON_HEADERS = {
  'Content-Security-Policy': MEDIA_POLICY,
  'X-Content-Type-Options': 'nosniff',
} as const

/** Avatars change rarely and a sync replaces them under a new address if they do: a day of caching is safe. */
const AVATAR_CACHE = 'private, max-age=86400'

/** Answers a request for media; never throws, every failure is a Response. */
export async function mediaResponse(core: MediaSource, request: Request): Promise<Response> {
  try {
    if (request.method !== 'GET' && request.method !== 'HEAD') return failure(request, 405, 'only GET and HEAD', { Allow: 'GET, HEAD' })
    const route = routeOf(request.url)
    if (route === 'malformed') return failure(request, 400, 'malformed path')
    if (route?.kind === 'avatar') return await avatarResponse(core, request, route.address)
    if (route?.kind === 'download') return await downloadResponse(core, request, route.id)
    return failure(request, 404, 'not found')
  } catch {
    // A core that is gone or a database failure: the window shows a broken image or a silent player.
    return failure(request, 500, 'the media could not be read')
  }
}

type Route = { kind: 'avatar'; address: string } | { kind: 'download'; id: number } | 'malformed' | undefined

/**
 * What a request's path names. The URL parser has already folded plain and
 * `%2e` dot segments away, so what is left to refuse is what decoding would
 * turn into one: empty or dot segments, and encoded separators where a name
 * must be a plain id.
 */
function routeOf(url: string): Route {
  const parsed = parseUrl(url)
  if (!parsed) return 'malformed'
  const { pathname } = parsed
  if (pathname === '/') return undefined
  const segments = pathname.split('/').slice(1)
  const decoded: string[] = []
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') return 'malformed'
    let value: string
    try {
      value = decodeURIComponent(segment)
    } catch {
      return 'malformed'
    }
    if (value === '' || value === '.' || value === '..') return 'malformed'
    decoded.push(value)
  }
  const [kind, name, ...rest] = decoded
  if (kind === 'avatars' && name !== undefined && rest.length === 0) return { kind: 'avatar', address: name }
  if (kind === 'downloads' && name !== undefined && rest.length === 0) {
    // Only a plain positive integer: no sign, no leading zero, no separator, nothing a path could hide in.
    if (!/^[1-9][0-9]{0,15}$/.test(name) || !Number.isSafeInteger(Number(name))) return 'malformed'
    return { kind: 'download', id: Number(name) }
  }
  if (kind === 'avatars' || kind === 'downloads') return 'malformed'
  return undefined
}

async function avatarResponse(core: MediaSource, request: Request, address: string): Promise<Response> {
  const image = await core.ask({ what: 'avatar', address })
  if (!image) return failure(request, 404, 'no cached avatar')
  // The type is what a stranger's server said: only an image type is passed on, so nothing can make it a page.
  const contentType = /^image\/[\w.+-]+\s*(;.*)?$/i.test(image.contentType) ? image.contentType : 'application/octet-stream'
  const headers = { ...COMMON_HEADERS, 'Content-Type': contentType, 'Content-Length': String(image.body.length), 'Cache-Control': AVATAR_CACHE }
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(image.body), { status: 200, headers })
}

async function downloadResponse(core: MediaSource, request: Request, id: number): Promise<Response> {
  const download = await core.ask({ what: 'downloadedFile', id })
  if (!download) return failure(request, 404, 'no such download')
  if (download.state !== 'completed') return failure(request, 404, 'the download is not completed')

  const file = await containedFile(download.file, download.root)
  if (file === 'gone') return failure(request, 404, 'the file is gone')
  if (file === 'outside') return failure(request, 403, 'the file is outside its download folder')

  // Open what was checked, not the name again: O_NOFOLLOW refuses a link swapped in since (where the system has it).
  let handle: fs.promises.FileHandle
  try {
    handle = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0))
  } catch {
    return failure(request, 404, 'the file is gone')
  }
  let handed = false
  try {
    const stat = await handle.stat()
    if (!stat.isFile()) return failure(request, 404, 'the file is gone')
    const size = stat.size
    const headers: Record<string, string> = { ...COMMON_HEADERS, 'Content-Type': mediaTypeOf(file), 'Accept-Ranges': 'bytes' }

    const range = parseRange(request.headers.get('range'), size)
    if (range === 'unsatisfiable') return failure(request, 416, 'range not satisfiable', { 'Content-Range': `bytes */${size}` })
    const { start, end } = range ?? { start: 0, end: size - 1 }
    headers['Content-Length'] = String(end - start + 1)
    if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`
    const status = range ? 206 : 200
    if (request.method === 'HEAD' || size === 0) return new Response(null, { status, headers })

    // Streamed in small chunks, never read whole: a podcast can be a gigabyte. The stream closes the
    // file when it ends, fails, or the player cancels it (as it does on every seek).
    const stream = fs.createReadStream('', { fd: handle, start, end })
    handed = true
    try {
      return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status, headers })
    } catch (error) {
      stream.destroy()
      throw error
    }
  } finally {
    if (!handed) await handle.close()
  }
}

/**
 * The real path of a download's file if it lies inside the real path of its
 * download folder: 'outside' when the file or its artist folder is a link that
 * leads elsewhere, 'gone' when there is no such file.
 */
async function containedFile(targetPath: string, root: string): Promise<string | 'gone' | 'outside'> {
  // A stored path that is not absolute and normal cannot be judged against its folder.
  if (!path.isAbsolute(targetPath) || path.resolve(targetPath) !== targetPath) return 'outside'
  // The download folder itself may be a link (a music folder on another disk): that is the user's choice.
  return realPathInside(root, targetPath)
}

/** A short plain-text answer (no body for HEAD), with the common headers. */
function failure(request: Request, status: number, message: string, extra: Record<string, string> = {}): Response {
  const headers = { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...extra }
  return new Response(request.method === 'HEAD' ? null : `${message}\n`, { status, headers })
}

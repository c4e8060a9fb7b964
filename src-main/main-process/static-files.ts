/**
 * The built renderer's files, as the web bridge and the app's app:// protocol
 * serve them: only regular files inside the folder (after symlinks are
 * followed, core/files/contained-path.ts), never a listing, with the content type
 * of their extension.
 */
import fs from 'node:fs'
import path from 'node:path'
import { realPathInsideSync } from '../core/files/contained-path'
import { OPAQUE_TYPE, isPlayable, mediaTypeOf } from '../core/shared/media-types'

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
}

/** The type of one of the window's files; a sound among them has the type the app plays it as. */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? (isPlayable(file) ? mediaTypeOf(file) : OPAQUE_TYPE)
}

export interface StaticFile {
  file: string
  size: number
  contentType: string
}

/**
 * The file a URL path names under root, or undefined: for a path that does not
 * decode, holds a NUL or a backslash, leaves root (`..`, encoded or not, or a
 * symlink pointing out), or names anything but a regular file.
 */
export function resolveStaticFile(root: string, urlPath: string): StaticFile | undefined {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return undefined
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return undefined
  const segments = decoded.split('/').filter((segment) => segment !== '')
  if (segments.some((segment) => segment === '..' || segment === '.')) return undefined
  const real = realPathInsideSync(root, path.join(root, ...segments))
  if (real === 'gone' || real === 'outside') return undefined
  const stat = fs.statSync(real, { throwIfNoEntry: false })
  if (!stat?.isFile()) return undefined
  return { file: real, size: stat.size, contentType: contentTypeOf(real) }
}

/** The Content-Security-Policy of a page, from its `<meta http-equiv="Content-Security-Policy">`. */
export function metaContentSecurityPolicy(html: string): string | undefined {
  for (const [tag] of html.matchAll(/<meta\b[^>]*>/gis)) {
    if (!/http-equiv\s*=\s*["']?content-security-policy["'\s/>]/i.test(tag)) continue
    const content = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)')/is.exec(tag)
    const value = content?.[1] ?? content?.[2]
    if (value !== undefined) return decodeEntities(value).replace(/\s+/g, ' ').trim()
  }
  return undefined
}

function decodeEntities(text: string): string {
  return text.replace(/&(quot|#39|apos|amp|lt|gt);/g, (_entity, name: string) => ENTITIES[name] ?? '')
}

const ENTITIES: Readonly<Record<string, string>> = { quot: '"', '#39': "'", apos: "'", amp: '&', lt: '<', gt: '>' }

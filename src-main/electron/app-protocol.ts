/**
 * The app:// protocol: the built window (out/renderer) and nothing else, as
 * Electron's protocol.handle('app', ...) asks for it. Only app://tuneshelf/,
 * only GET and HEAD, only regular files inside the folder once every link is
 * followed (main-process/static-files.ts, core/files/contained-path.ts: the same code as the
 * web bridge's), each with the content type of its extension, the app's
 * Content-Security-Policy as a header, and no sniffing.
 *
 * No Electron here: a web-standard Request in, a Response out, so a test runs it.
 */
import fs from 'node:fs'
import { headerPolicy, contentSecurityPolicy } from '../core/shared/content-security'
import { parseUrl } from '../core/shared/urls'
import { resolveStaticFile } from '../main-process/static-files'
import { APP_HOST } from './security'

/** The built page's own policy, with what only a header can say (no framing). */
const POLICY = headerPolicy(contentSecurityPolicy({ development: false }))

/** Answers one request of the window for its own files; never throws, every failure is a Response. */
export async function appResponse(rendererDir: string, request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return failure(request, 405, 'only GET and HEAD', { Allow: 'GET, HEAD' })
  const url = parseUrl(request.url)
  if (!url) return failure(request, 400, 'malformed address')
  // One host, no port, no user: any other address of the scheme names nothing.
  if (url.host !== APP_HOST || url.username !== '' || url.password !== '') return failure(request, 404, 'not found')
  const found = resolveStaticFile(rendererDir, url.pathname === '/' ? '/index.html' : url.pathname)
  if (!found) return failure(request, 404, 'not found')
  let body: Buffer
  try {
    body = await fs.promises.readFile(found.file)
  } catch {
    return failure(request, 404, 'not found')
  }
  const headers = { ...COMMON_HEADERS, 'Content-Type': found.contentType, 'Content-Length': String(body.length), 'Cache-Control': 'no-cache' }
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers })
}

const COMMON_HEADERS = { 'Content-Security-Policy': POLICY, 'X-Content-Type-Options': 'nosniff' } as const

function failure(request: Request, status: number, message: string, extra: Record<string, string> = {}): Response {
  const headers = { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...extra }
  return new Response(request.method === 'HEAD' ? null : `${message}\n`, { status, headers })
}

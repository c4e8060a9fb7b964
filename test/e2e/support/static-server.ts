// Serves a built folder over http on loopback, so the renderer loads as it
// does in the app (module scripts do not run from file:// in Chromium).
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, relative, resolve, sep } from 'node:path'

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
}

/** A running static server. */
export interface StaticServer {
  /** Base address without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string
  close(): Promise<void>
}

/** Serves the files under root on 127.0.0.1 at a free port; `/` is index.html. */
export async function startStaticServer(root: string): Promise<StaticServer> {
  const rootDir = resolve(root)
  const server = createServer((request, response) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
      const file = resolve(rootDir, '.' + normalize(pathname === '/' ? '/index.html' : pathname))
      const inside = relative(rootDir, file)
      if (inside.startsWith('..' + sep) || inside === '..' || !(await isFile(file))) {
        response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found')
        return
      }
      response.writeHead(200, {
        'Content-Type': contentTypes[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-store',
      })
      if (request.method === 'HEAD') {
        response.end()
        return
      }
      createReadStream(file).pipe(response)
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error))
    })
  })
  await listen(server)
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolveClose, rejectClose) => {
        server.close((error) => (error ? rejectClose(error) : resolveClose()))
        server.closeAllConnections()
      }),
  }
}

/** The built renderer, as `electron-vite build` writes it. */
export const rendererDir = join(import.meta.dirname, '../../../out/renderer')

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

function listen(server: Server): Promise<void> {
  return new Promise((resolveListen, rejectListen) => {
    server.once('error', rejectListen)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', rejectListen)
      resolveListen()
    })
  })
}

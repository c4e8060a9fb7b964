/**
 * The demo catalogue behind a server of the test's own: its addresses (hotlinks,
 * avatars) are paths relative to the base URL, as a real service may give them,
 * and the test may answer any request itself before the demo does. Every
 * request is recorded with the credentials it carried.
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { Catalogue, type CatalogueOptions } from '../../../src-main/demo/catalogue'
import { CatalogueServer } from '../../../src-main/demo/server'

export interface SeenRequest {
  path: string
  /** The Authorization header, if any. */
  authorization: string | undefined
}

export interface RelativeCatalogue {
  /** http://127.0.0.1:PORT, no trailing slash. */
  baseUrl: string
  catalogue: Catalogue
  requests: SeenRequest[]
  close(): Promise<void>
}

/**
 * Answers a request the test wants to answer itself (and returns true), or leaves
 * it to the demo (false).
 */
export type Intercept = (request: http.IncomingMessage, response: http.ServerResponse) => boolean

/** Starts the demo's handler over catalogue (a new one of options when none) on loopback, with relative addresses. */
export async function startRelativeCatalogue(
  source: CatalogueOptions | Catalogue,
  intercept: Intercept = () => false,
): Promise<RelativeCatalogue> {
  const catalogue = source instanceof Catalogue ? source : new Catalogue(source)
  const demo = new CatalogueServer(catalogue)
  // No origin: every hotlink_path and avatar is a path, resolved against the base URL by the client.
  demo.setOrigin('')
  const requests: SeenRequest[] = []
  const server = http.createServer((request, response) => {
    requests.push({ path: request.url ?? '/', authorization: request.headers.authorization })
    if (!intercept(request, response)) demo.handle(request, response)
  })
  const sockets = new Set<Socket>()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    catalogue,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
  }
}

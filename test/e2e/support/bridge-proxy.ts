// A stand-in address for `npm run web`, for the tests of a bridge that goes away and comes back on
// the same address with the same token (a real bridge comes back with another token, which start(to)
// stands for): every
// request is passed on to the bridge, as if the page had asked it directly; stop() cuts every
// connection and refuses new ones, start() answers on the same port again.
import http from 'node:http'
import type { Socket } from 'node:net'

export interface BridgeProxy {
  /** The bridge's address (token included) on the proxy's port. */
  url: string
  /** Cuts every connection (the event stream too) and stops listening. */
  stop(): Promise<void>
  /** Listens again on the same port; `to`: passing requests on to another bridge (another run, another token) from now on. */
  start(to?: string): Promise<void>
}

/** A proxy to the bridge at bridgeUrl (`http://127.0.0.1:PORT/?token=T`). */
export async function startBridgeProxy(bridgeUrl: string): Promise<BridgeProxy> {
  let target = new URL(bridgeUrl)
  const sockets = new Set<Socket>()
  let port = 0
  let server: http.Server | undefined

  const listen = async (): Promise<void> => {
    const next = http.createServer((request, response) => {
      // The bridge answers only to its own address: the request is made as the page would make it there.
      const headers = { ...request.headers, host: target.host }
      if (headers.origin !== undefined) headers.origin = target.origin
      const upstream = http.request({ host: target.hostname, port: target.port, method: request.method, path: request.url, headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      })
      upstream.on('error', () => response.destroy())
      response.on('close', () => upstream.destroy())
      request.pipe(upstream)
    })
    next.on('connection', (socket) => {
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
    })
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject)
      next.listen(port, '127.0.0.1', () => resolve())
    })
    port = (next.address() as { port: number }).port
    server = next
  }

  await listen()
  return {
    url: `http://127.0.0.1:${port}/${target.search}`,
    stop: async () => {
      const current = server
      server = undefined
      if (!current) return
      const closed = new Promise<void>((resolve) => current.close(() => resolve()))
      for (const socket of sockets) socket.destroy()
      await closed
    },
    start: async (to) => {
      if (to !== undefined) target = new URL(to)
      if (!server) await listen()
    },
  }
}

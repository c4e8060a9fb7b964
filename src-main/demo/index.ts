/**
 * The demo catalogue service, in-process: the app's built-in default, the peer
 * of the integration and end-to-end tests, and the server of the benchmarks.
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { Catalogue } from './catalogue'
import type { FaultInjector } from './faults'
import { NewUploads, type AddedUploads, type NewUploadsOptions } from './new-uploads'
import { CatalogueServer, type RequestCounts } from './server'

export type { Fault, FaultRule } from './faults'
export type { AddedUploads, NewUploadsOptions } from './new-uploads'
export { Catalogue } from './catalogue'

export interface CatalogueServiceOptions {
  /** Number of artists in the generated catalogue (default 1100). */
  artists?: number
  /** Seed of the generator; the same seed and size give the same bytes (default 1). */
  seed?: number
  /** Size in MiB of the largest upload (default 4096). */
  maxFileMb?: number
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number
  /** Every answer is delayed by this many milliseconds, as a remote service's would be (default 0). */
  latencyMs?: number
  /**
   * A service stopped before, whose catalogue is served again with every change made to it
   * (edits, removals, new uploads and their count): a restart, not a new catalogue.
   */
  resume?: RunningCatalogueService
}

export interface RunningCatalogueService {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:8787 */
  baseUrl: string
  /** The generated data; tests edit it to see a client notice changes. */
  catalogue: Catalogue
  /** Faults for the next requests that match a path. */
  faults: FaultInjector
  /** Requests answered so far, by kind and by API path (reset() starts over). */
  requests: RequestCounts
  /**
   * Publishes new uploads (a few artists the seed picks, or those named), as the real service
   * would while the app runs: their num_tracks, list entries and recently_updated order change.
   */
  addUploads(options?: NewUploadsOptions): AddedUploads[]
  /** Stops listening and closes every open connection. */
  close(): Promise<void>
}

export const DEFAULT_CATALOGUE = { artists: 1100, seed: 1, maxFileMb: 4096 } as const

/** Generates the catalogue, then listens on 127.0.0.1; resolves once connections are accepted. */
export async function startCatalogueService(options: CatalogueServiceOptions = {}): Promise<RunningCatalogueService> {
  const catalogue =
    options.resume?.catalogue ??
    new Catalogue({
      artists: options.artists ?? DEFAULT_CATALOGUE.artists,
      seed: options.seed ?? DEFAULT_CATALOGUE.seed,
      maxFileMb: options.maxFileMb ?? DEFAULT_CATALOGUE.maxFileMb,
    })
  const handler = new CatalogueServer(catalogue, options.latencyMs ?? 0)
  const server = http.createServer({ keepAliveTimeout: 10_000 }, handler.handle)
  const sockets = new Set<Socket>()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const baseUrl = `http://127.0.0.1:${port}`
  handler.setOrigin(baseUrl)
  const newUploads = (options.resume && uploadsOf.get(options.resume)) ?? new NewUploads(catalogue)
  const running: RunningCatalogueService = {
    baseUrl,
    catalogue,
    faults: handler.faults,
    requests: handler.requests,
    addUploads: (addOptions) => newUploads.add(addOptions),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
  }
  uploadsOf.set(running, newUploads)
  return running
}

/** Each service's new uploads, for a restart to go on from (its batches are numbered). */
const uploadsOf = new WeakMap<RunningCatalogueService, NewUploads>()

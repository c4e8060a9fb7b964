/**
 * A download queue as a window makes one: a copy of the big catalogue's cache, the app opened on
 * it (no sync at start: the cache is fresh), `downloads:enqueue` of the uploads in one call (as
 * "Download all" does), and the event stream telling every download's bytes as they move
 * (download-progress while a file runs; the row's bytes when it changes state).
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Download } from '../../../src-main/core/shared/types'
import { startApp, type App } from './app'
import { config } from './config'
import type { Context, Upload } from './context'
import { EventStream } from './events'
import { within } from './stats'

export interface Queue {
  app: App
  stream: EventStream
  dataDir: string
  downloads: Download[]
  /** The enqueue call, from sending it to its answer; and to its rows (or their count, for a long queue) on the event stream (NaN: the bridge cut the stream first). */
  enqueueMs: number
  rowsMs: number
  /** Bytes on disk of every download of the queue now, as the events told them. */
  bytes(): number
  /** Downloads completed, as the events told them. */
  completed(): Set<number>
  close(): Promise<void>
}

export async function openQueue(context: Context, name: string, uploads: readonly Upload[], speedLimit: number | null): Promise<Queue> {
  const dataDir = await context.cacheCopy(name)
  const folder = path.join(context.work, `${path.basename(dataDir)}-downloads`)
  fs.mkdirSync(folder)
  const app = await startApp(dataDir, { downloadConcurrency: config.concurrency, downloadFolder: folder, downloadSpeedLimit: speedLimit, syncOnStart: false })
  const stream = await EventStream.open(app.origin, app.token)
  const bytes = new Map<number, number>()
  const completed = new Set<number>()
  const seen = new Set<number>()
  // A change of more than MANY_CHANGED rows (the enqueue of a long queue) says only how many, as it does to a window.
  let many = 0
  // Bytes only grow here (nothing is cancelled): a row's bytesDone is written once a second, the progress is live.
  const grow = (id: number, value: number): void => void bytes.set(id, Math.max(bytes.get(id) ?? 0, value))
  let rowsCame: () => void = () => undefined
  const rows = new Promise<number>((resolve) => {
    rowsCame = () => resolve(performance.now())
    // Their event was lost with the stream: the window would read the list again.
    stream.onDrop(() => resolve(NaN))
  })
  stream.on((event) => {
    if (event.type === 'download-progress') grow(event.progress.id, event.progress.bytes)
    else if (event.type === 'downloads-changed') {
      for (const row of event.downloads) {
        seen.add(row.id)
        grow(row.id, row.state === 'completed' ? row.bytesTotal : row.bytesDone)
        if (row.state === 'completed') completed.add(row.id)
      }
      many += event.many ?? 0
      if (seen.size + many >= uploads.length) rowsCame()
    }
  })
  const started = performance.now()
  const queued = await app.call<{ downloads: Download[] }>('downloads:enqueue', { uploadIds: uploads.map((upload) => upload.id) })
  const answered = performance.now()
  const rowsAt = await within(rows, 'the queued rows on the event stream', 120_000)
  return {
    app,
    stream,
    dataDir,
    downloads: queued.downloads,
    enqueueMs: answered - started,
    rowsMs: rowsAt - started,
    bytes: () => [...bytes.values()].reduce((sum, value) => sum + value, 0),
    completed: () => completed,
    close: async () => {
      stream.close()
      await app.close()
      fs.rmSync(folder, { recursive: true, force: true })
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** `download` and `downloads`: the queue from the command line, on the same cache as everything else. */
import path from 'node:path'
import { DownloadManager, type DownloadProgress } from '../downloads/manager'
import type { Download } from '../downloads/store'
import { formatBytes } from '../shared/format'
import type { CliOptions } from './main'
import { openSyncedCache } from './offline'
import { table, truncate } from './table'
import { UsageError, integerOption } from './usage'

/** Runs the queue until every requested file is complete and verified (exit 0), or cannot be (exit 1). */
export async function runDownload(uploadIds: string[], options: CliOptions): Promise<number> {
  if ((uploadIds.length === 0) === (options.artist === undefined)) throw new UsageError('give UPLOAD_ID... or --artist USERNAME')
  const concurrency = integerOption(options.concurrency, 'concurrency', 1, 8) ?? 3
  return openSyncedCache(options, async (db, baseUrl, dataDir) => {
    const downloads = new DownloadManager({
      db,
      baseUrl,
      downloadDir: path.resolve(options.to ?? path.join(dataDir, 'downloads')),
      concurrency,
    })
    const { orphanParts } = await downloads.start()
    for (const part of orphanParts) process.stderr.write(`note: ${part} belongs to no download; it was left alone\n`)
    let requested: Download[]
    try {
      requested = options.artist ? await downloads.enqueueArtist(options.artist) : await downloads.enqueueUploads(uploadIds)
    } catch (error) {
      await downloads.stop()
      process.stderr.write(`${(error as Error).message}\n`)
      return 1
    }
    const stop = (): void => void downloads.stop()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    const line = progressLine(requested, downloads)
    downloads.on('progress', line.progress)
    downloads.on('change', line.change)
    downloads.on('queue-paused', (message) => process.stderr.write(`\nqueue paused: ${message}\n`))
    try {
      await downloads.whenIdle()
    } finally {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      line.end()
    }
    const final = requested.map((download) => downloads.get(download.id)!)
    for (const download of final.filter((d) => d.state !== 'completed')) {
      process.stderr.write(`${download.uploadId} ${download.state}${download.error ? `: ${download.error}` : ''}\n`)
    }
    const complete = final.filter((download) => download.state === 'completed')
    process.stderr.write(`${complete.length} of ${final.length} files complete and verified in ${path.resolve(options.to ?? path.join(dataDir, 'downloads'))}\n`)
    await downloads.stop()
    if (final.some((download) => download.state === 'downloading' || download.state === 'queued')) return 130
    return complete.length === final.length ? 0 : 1
  })
}

/** Lists the queue, oldest first. */
export async function runDownloads(options: CliOptions): Promise<number> {
  return openSyncedCache(options, async (db, baseUrl, dataDir) => {
    const downloads = new DownloadManager({ db, baseUrl, downloadDir: path.join(dataDir, 'downloads') })
    const list = downloads.list()
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ downloads: list, monthlyBytes: downloads.monthlyBytes() })}\n`)
      return 0
    }
    process.stdout.write(
      `${table(
        ['id', 'state', 'done', 'size', 'upload', 'title', 'file'],
        list.map((download) => [
          String(download.id),
          download.state,
          `${download.bytesTotal === 0 ? 100 : Math.floor((download.bytesDone / download.bytesTotal) * 100)}%`,
          formatBytes(download.bytesTotal),
          download.uploadId,
          truncate(download.title, 40),
          download.targetPath,
        ]),
      )}\n`,
    )
    return 0
  })
}

/** One line on stderr: files done, bytes, speed; rewritten in place on a terminal. */
function progressLine(requested: Download[], downloads: DownloadManager) {
  const tty = process.stderr.isTTY === true
  const total = requested.reduce((sum, download) => sum + download.bytesTotal, 0)
  const bytes = new Map(requested.map((download) => [download.id, download.bytesDone]))
  const speeds = new Map<number, number>()
  let lastLine = 0
  const render = (force: boolean): void => {
    const now = Date.now()
    if (!force && now - lastLine < (tty ? 200 : 1000)) return
    lastLine = now
    const done = requested.filter((download) => downloads.get(download.id)?.state === 'completed').length
    const received = [...bytes.values()].reduce((sum, value) => sum + value, 0)
    const speed = [...speeds.values()].reduce((sum, value) => sum + value, 0)
    const text = `${done}/${requested.length} files, ${formatBytes(received)} of ${formatBytes(total)}, ${formatBytes(speed)}/s`
    process.stderr.write(tty ? `\r\u001b[2K${text}` : `${text}\n`)
  }
  return {
    progress: (event: DownloadProgress) => {
      bytes.set(event.id, event.bytes)
      speeds.set(event.id, event.speed)
      render(false)
    },
    change: (download: Download) => {
      if (!bytes.has(download.id)) return
      bytes.set(download.id, download.bytesDone)
      if (download.state !== 'downloading') speeds.delete(download.id)
      render(download.state === 'completed')
    },
    end: () => {
      render(true)
      if (tty) process.stderr.write('\n')
    },
  }
}

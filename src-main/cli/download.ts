/** `download` and `downloads`: the queue from the command line, on the same cache as everything else. */
import type { Download, DownloadProgress } from '../core/shared/types'
import * as v from 'valibot'
import { errorCode, InvalidArgumentError, isTuneshelfError, NotFoundError } from '../core/shared/errors'
import { parseArguments } from '../core/shared/validation'
import { downloadConcurrencySchema } from '../core/shared/arguments'
import { formatBytes, formatSpeed } from '../core/shared/format'
import { throttle } from '../core/shared/throttle'
import type { Library } from '../core/library/library'
import { withLibrary } from './open'
import { pathFromUser } from '../core/startup/command-line'
import { numberFlag, type CliOptions } from './options'
import { printAnswer, printJson, printMessage } from './print'
import { cliIo } from './io'
import { table, truncate } from './table'

const flagsSchema = v.object({ concurrency: v.optional(downloadConcurrencySchema) })

/**
 * Runs the queue until every requested file is complete and verified (exit 0),
 * or cannot be (exit 1). A requested download that is paused (by a full disk,
 * or by the user in the app) is resumed from the bytes it kept, as the app's
 * Resume does: naming it is asking for it, and there is no other way on here.
 */
export async function runDownload(uploadIds: string[], options: CliOptions): Promise<number> {
  const heldBack = options['held-back'] === true
  if ([uploadIds.length > 0, options.artist !== undefined, heldBack].filter(Boolean).length !== 1) {
    throw new InvalidArgumentError('give UPLOAD_ID..., --artist USERNAME or --held-back')
  }
  // Checked before the cache is opened, so a bad flag is always a usage error.
  const { concurrency } = parseArguments(flagsSchema, { concurrency: numberFlag(options.concurrency) })
  return withLibrary(options, { mustExist: true, synced: true }, async (library) => {
    const downloads = library.downloads
    if (concurrency !== undefined) downloads.setConcurrency(concurrency)
    const folder = options.to === undefined ? undefined : pathFromUser(options.to)
    if (heldBack) return downloadHeldBack(library, folder)
    // Queued before the queue starts, so a refusal (no space, unknown upload) leaves the queue as it was.
    const queued = await downloads.enqueue(uploadIds.length > 0 ? { uploadIds, folder } : { artist: options.artist, folder }).catch((error: unknown) => {
      throw uploadIds.length > 0 ? unknownUpload(library, uploadIds, error) : error
    })
    const requested = queued.downloads
    for (const part of await downloads.strayPartFiles(queued.folder)) printMessage(`note: ${part} belongs to no download; it was left alone`)
    const paused = requested.filter((download) => download.state === 'paused')
    for (const download of paused) {
      const why = download.pauseReason === 'disk_full' ? 'because the disk was full' : 'by the user'
      printMessage(`resuming ${download.uploadId} (paused ${why}) from the ${formatBytes(download.bytesDone)} kept`)
    }
    if (paused.length > 0) downloads.resume(paused.map((download) => download.id))
    return runUntilSettled(library, queued)
  })
}

/** `download --held-back`: what auto-download held back, queued and run like any other download. */
async function downloadHeldBack(library: Library, folder: string | undefined): Promise<number> {
  const queued = await library.newTracks.downloadHeldBack(folder)
  if (queued.folder === null) {
    printMessage('auto-download has held back no new tracks; nothing to download')
    return 0
  }
  printMessage(`queued ${queued.downloads.length} new tracks that auto-download held back`)
  return runUntilSettled(library, { downloads: queued.downloads, folder: queued.folder })
}

/**
 * The core's "no upload X in the cache; sync first" in this verb's terms. Here the cache has
 * completed a sync (`download` refuses to run before one), so syncing first is no answer: the
 * upload is not in the catalogue as last synced, and a name (not an upload id) may be an artist's.
 * The error's field says which of the ids it was (`uploadIds.2`).
 */
function unknownUpload(library: Library, uploadIds: string[], error: unknown): unknown {
  if (!isTuneshelfError(error) || error.code !== 'not_found') return error
  const index = /^uploadIds\.(\d+)$/.exec(error.field ?? '')?.[1]
  const id = index === undefined ? undefined : uploadIds[Number(index)]
  if (id === undefined) return error
  const syncedAt = library.catalogue.status().lastCheckAt
  const synced = syncedAt === null ? '' : ` as synced at ${new Date(syncedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`
  const hint = artistHint(library, id)
  return new NotFoundError(`no upload ${id} in the cache of ${library.displayUrl}${synced}${hint}`, { cause: error })
}

/** For an upload id that is really a name: how to download the artist's tracks. */
function artistHint(library: Library, id: string): string {
  try {
    const { username } = library.catalogue.artist(id)
    return `; ${username} is an artist: to download their tracks, run: npm run -s cli -- download --artist ${username} --data-dir ${library.dataDir}`
  } catch (error) {
    if (errorCode(error) !== 'not_found' && errorCode(error) !== 'invalid_argument') throw error
  }
  // An upload id is a number; anything else looks like a name mistyped or not in the catalogue.
  return /^\d+$/.test(id) ? '' : `; to download an artist's tracks, give --artist USERNAME (and no artist named ${JSON.stringify(id)} is in the cache either)`
}

/**
 * Runs the queue until every download of `queued` is settled, with the progress line on stderr;
 * says which did not complete and how many did. Exit code: 0 all complete and verified, 1 some
 * could not be or wait for a service that does not answer, 130 interrupted (Ctrl-C). What
 * `download` and `sync` (its auto-download) share.
 */
export async function runUntilSettled(library: Library, queued: { downloads: Download[]; folder: string }): Promise<number> {
  const downloads = library.downloads
  const requested = queued.downloads
  const line = progressLine(requested)
  let interrupted = false
  const stop = (): void => {
    interrupted = true
    void downloads.stop()
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  const subscriptions = [
    downloads.onDidProgress(line.progress),
    downloads.onDidChange(({ downloads: changed }) => changed.forEach(line.change)),
    downloads.onDidPauseQueue((message) => {
      cliIo().stderr.write('\n')
      printMessage(`queue paused: ${message}`)
    }),
  ]
  try {
    downloads.start()
    // Idle once every file is settled, or once Ctrl-C has stopped the queue.
    await downloads.whenIdle()
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    for (const subscription of subscriptions) subscription.dispose()
    line.end()
  }
  await downloads.stop()
  const final = requested.map((download) => downloads.get(download.id))
  for (const download of final.filter((d) => d.state !== 'completed')) {
    // Left queued or running without a Ctrl-C: the queue stopped waiting for a service that does not answer.
    const state = download.state === 'downloading' || download.state === 'queued' ? (interrupted ? 'interrupted' : 'not reached') : download.state
    printMessage(`${download.uploadId} ${state}${download.error ? `: ${download.error}` : ''}`)
  }
  const complete = final.filter((download) => download.state === 'completed')
  printMessage(`${complete.length} of ${final.length} files complete and verified in ${queued.folder}`)
  if (final.some((download) => download.pauseReason === 'disk_full')) printMessage('once there is space, run the same command again: it goes on from the bytes kept')
  if (final.some((download) => download.state === 'downloading' || download.state === 'queued')) {
    if (!interrupted) {
      printMessage('the service did not answer: run the same command again once it does; the bytes kept are kept')
      return 1
    }
    printMessage('interrupted: run the same command again to resume')
    return 130
  }
  return complete.length === final.length ? 0 : 1
}

/** Lists the queue, oldest first; nothing is created or started by listing it. */
export async function runDownloads(options: CliOptions): Promise<number> {
  return withLibrary(options, { mustExist: true, synced: false }, (library) => {
    const list = library.downloads.list()
    if (options.json) {
      printJson({ downloads: list, monthlyBytes: library.downloads.monthlyBytes().months })
      return 0
    }
    if (list.length === 0) {
      printMessage('no downloads yet')
      return 0
    }
    printAnswer(
      table(
        ['id', 'state', 'done', 'size', 'upload', 'title', 'file'],
        list.map((download) => [
          String(download.id),
          download.interrupted ? 'interrupted' : download.fileMissing ? 'file missing' : download.state,
          // A completed file deleted from disk is not 100% of anything on it.
          download.fileMissing ? '—' : `${download.bytesTotal === 0 ? 100 : Math.floor((download.bytesDone / download.bytesTotal) * 100)}%`,
          formatBytes(download.bytesTotal),
          download.uploadId,
          truncate(download.title, 40),
          download.targetPath,
        ]),
      ),
    )
    // The bytes downloaded by month, as --help says (the app's "This month" and its history).
    const months = library.downloads.monthlyBytes().months.filter((month) => month.bytes > 0)
    if (months.length > 0) printAnswer(`\n${table(['month', 'downloaded'], months.map((month) => [month.month, formatBytes(month.bytes)]))}`)
    const interrupted = list.filter((download) => download.interrupted).length
    if (interrupted > 0) printMessage(`${interrupted} interrupted: run download again (or open the app) to resume`)
    const missing = list.filter((download) => download.fileMissing).length
    if (missing > 0) printMessage(`${missing} completed, their file${missing === 1 ? '' : 's'} no longer on disk: download again to fetch ${missing === 1 ? 'it' : 'them'}`)
    return 0
  })
}

/**
 * One line on stderr: files done, bytes, speed; rewritten in place on a terminal. The last one
 * gives the average speed of the run (none when nothing was transferred): the speed of the
 * moment is 0 once every file has finished, which says nothing about how the transfer went.
 */
function progressLine(requested: Download[]) {
  const tty = cliIo().stderr.isTTY === true
  const total = requested.reduce((sum, download) => sum + download.bytesTotal, 0)
  const bytes = new Map(requested.map((download) => [download.id, download.bytesDone]))
  const completed = new Set(requested.filter((download) => download.state === 'completed').map((download) => download.id))
  // The queue's speed (weighted over about 10 s: downloads/progress.ts) while any of these runs.
  const running = new Set<number>()
  let queueSpeed = 0
  const received = (): number => [...bytes.values()].reduce((sum, value) => sum + value, 0)
  const startedAt = performance.now()
  const receivedAtStart = received()
  let changed = false
  const write = (speed: string | undefined): void => {
    const text = `${completed.size}/${requested.length} files, ${formatBytes(received())} of ${formatBytes(total)}${speed === undefined ? '' : `, ${speed}`}`
    cliIo().stderr.write(tty ? `\r\u001b[2K${text}` : `${text}\n`)
  }
  const render = throttle<void>(() => write(`${formatBytes(running.size > 0 ? queueSpeed : 0)}/s`), tty ? 200 : 1000)
  return {
    progress: (event: DownloadProgress) => {
      if (!bytes.has(event.id)) return
      bytes.set(event.id, event.bytes)
      running.add(event.id)
      queueSpeed = event.queueSpeed
      changed = true
      render()
    },
    change: (download: Download) => {
      if (!bytes.has(download.id)) return
      bytes.set(download.id, download.bytesDone)
      if (download.state === 'completed') completed.add(download.id)
      if (download.state !== 'downloading') running.delete(download.id)
      changed = true
      render()
    },
    end: () => {
      render.cancel()
      if (!changed) return
      const seconds = (performance.now() - startedAt) / 1000
      const transferred = received() - receivedAtStart
      write(transferred > 0 && seconds > 0 ? `${formatSpeed(transferred / seconds)} on average` : undefined)
      if (tty) cliIo().stderr.write('\n')
    },
  }
}

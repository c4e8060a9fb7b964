/**
 * `sync`: a full (or incremental, or resumed) sync with a progress line on stderr; then, as the
 * app does after a sync, the new tracks of artists followed with auto-download on are downloaded
 * (into the download folder of the settings, or --to DIR), unless --no-download.
 */
import { normaliseBaseUrl } from '../shared/urls'
import { errorCode, InvalidArgumentError, ReadOnlyError } from '../shared/errors'
import { syncStartSchema } from '../shared/arguments'
import { parseArguments } from '../shared/validation'
import { formatBytes } from '../shared/format'
import { newTracksText } from '../shared/new-tracks-text'
import type { Library } from '../library'
import type { SyncProgress } from '../shared/types'
import { runUntilSettled } from './download'
import { withLibrary } from './open'
import { pathFromUser } from '../command-line'
import { numberFlag, type CliOptions } from './options'
import { printMessage } from './print'
import { cliIo } from './io'

export async function runSync(options: CliOptions): Promise<number> {
  const baseUrl = options['base-url']
  if (baseUrl === '') throw new InvalidArgumentError('--base-url must not be empty')
  // Checked before anything is created, so a bad flag is always a usage error.
  if (baseUrl !== undefined) normaliseBaseUrl(baseUrl)
  const start = parseArguments(syncStartSchema, { concurrency: numberFlag(options.concurrency), skipAvatars: options['no-avatars'] === true })
  if (options['no-download'] === true && options.to !== undefined) throw new InvalidArgumentError('give --to DIR or --no-download, not both')
  // Without --base-url, the service this folder synced last is synced again (there must be one).
  return withLibrary(options, { mustExist: baseUrl === undefined, synced: false }, async (library) => {
    // Refused as a folder that cannot be created is (exit 2): running the same command again cannot help.
    if (library.readOnly) {
      throw new ReadOnlyError(
        `the data folder ${library.dataDir} is read-only, so a sync cannot store anything in it (what it holds can still be browsed); ` +
          'make it writable, or give --data-dir a folder you can write to, and sync again',
      )
    }
    // A --to the downloads could never use is refused now (exit 2), not after a whole sync.
    const to = options.to === undefined ? undefined : library.downloads.checkFolder(pathFromUser(options.to))
    const line = progressLine()
    const subscriptions = [
      library.sync.onDidProgress(line.update),
      library.sync.onDidChangeState((state) => {
        if (state.status === 'waiting' && state.waitingFor) {
          line.end()
          printMessage(`another Tuneshelf process (pid ${state.waitingFor.pid}) is syncing this catalogue; waiting for it to finish`)
        }
      }),
    ]
    // The offline verbs answer from the service asked for last, also while its first sync is unfinished.
    if (library.settings.get().baseUrl !== library.baseUrl) library.settings.update({ baseUrl: library.baseUrl })
    const cancel = (): void => library.sync.cancel()
    process.once('SIGINT', cancel)
    process.once('SIGTERM', cancel)
    try {
      const report = await library.sync.start(start)
      line.end()
      const seconds = (report.durationMs / 1000).toFixed(1)
      const { cacheBytes } = library.catalogue.status()
      printMessage(
        report.joined
          ? `synced ${library.displayUrl} by another process meanwhile; nothing left to fetch (database ${formatBytes(cacheBytes)})`
          : `synced ${library.displayUrl} in ${seconds} s${report.resumed ? ' (resumed)' : ''}: ${report.listPages} list pages, ` +
              `${report.detailsFetched} artist details, ${report.accessLevels} access levels, ${report.avatarsFetched} avatar thumbnails` +
              (report.gone > 0 ? `, ${report.gone} artists gone` : '') +
              ` (database ${formatBytes(cacheBytes)})`,
      )
      for (const failure of report.detailFailures) printMessage(`  could not fetch ${failure.username}: ${failure.message}`)
      if (report.avatarFailures.length > 0) {
        printMessage(`  ${report.avatarFailures.length} avatars could not be fetched (first: ${report.avatarFailures[0]!.message})`)
      }
      const news = library.newTracks.ofRun(report.runId)
      if (news.total > 0) printMessage(newTracksText(news))
    } catch (error) {
      line.end()
      const code = errorCode(error)
      // A bad argument, or a cache that cannot be written: running the same command again cannot help.
      if (code === 'invalid_argument' || code === 'read_only') throw error
      if (code === 'cancelled') {
        printMessage('sync cancelled; run the same command again to resume where it stopped')
        return 130
      }
      printMessage(`sync failed: ${(error as Error).message}`)
      printMessage('run the same command again to resume where it stopped')
      return 1
    } finally {
      process.off('SIGINT', cancel)
      process.off('SIGTERM', cancel)
      for (const subscription of subscriptions) subscription.dispose()
    }
    return options['no-download'] === true ? 0 : downloadNewTracks(library, to)
  })
}

/**
 * Downloads the new tracks of artists followed with auto-download on (never one queued before),
 * one line per file, then waits for them as `download` does, with its exit codes.
 */
async function downloadNewTracks(library: Library, folder: string | undefined): Promise<number> {
  let queued
  try {
    queued = await library.newTracks.autoDownload(folder)
  } catch (error) {
    // Unusable folder: a usage error (exit 2), as for `download --to`.
    if (errorCode(error) === 'folder_unusable') throw error
    printMessage(`the new tracks of followed artists could not be queued: ${(error as Error).message}`)
    return 1
  }
  if (queued.folder === null) return 0
  for (const download of queued.downloads) printMessage(`new track ${download.uploadId} of ${download.artistUsername}: ${download.title} -> ${download.targetPath}`)
  try {
    return await runUntilSettled(library, { downloads: queued.downloads, folder: queued.folder })
  } catch (error) {
    // The app (or another CLI) runs this queue: the new tracks are in it, and that process downloads them.
    if (errorCode(error) !== 'busy') throw error
    printMessage(`${(error as Error).message}; the new tracks are queued there`)
    return 0
  }
}

/** One line rewritten in place on a terminal; a line per report otherwise (logs, CI). */
function progressLine(): { update: (progress: SyncProgress) => void; end: () => void } {
  const tty = cliIo().stderr.isTTY === true
  let shown = false
  return {
    update: ({ phase, done, total }) => {
      const percent = total > 0 ? Math.floor((done / total) * 100) : 100
      // The end is one step, not a count: the search index's upkeep, then the run completed.
      const text =
        phase === 'done' ? (done < total ? 'finishing: updating the search index' : 'finished') : `${phase.padEnd(7)} ${String(done).padStart(6)}/${total} (${percent}%)`
      cliIo().stderr.write(tty ? `\r\u001b[2K${text}` : `${text}\n`)
      shown = true
    },
    end: () => {
      if (tty && shown) cliIo().stderr.write('\n')
      shown = false
    },
  }
}

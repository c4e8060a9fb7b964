/**
 * `sync`: a full refresh (or resumed), or with --quick a quick check for new tracks, with a progress line on stderr; then, as the
 * app does after a sync, the new tracks of artists followed with auto-download on are downloaded
 * (into the download folder of the settings, or --to DIR), unless --no-download.
 */
import { normaliseBaseUrl } from '../core/shared/urls'
import { errorCode, InvalidArgumentError, ReadOnlyError } from '../core/shared/errors'
import { syncStartSchema } from '../core/shared/arguments'
import { parseArguments } from '../core/shared/validation'
import { formatBytes } from '../core/shared/format'
import { heldBackText, newTracksText } from '../core/shared/new-tracks-text'
import type { Library } from '../core/library/library'
import type { SyncProgress, SyncReport } from '../core/shared/types'
import { runUntilSettled } from './download'
import { baseUrlFlag, withLibrary } from './open'
import { pathFromUser } from '../core/startup/command-line'
import { numberFlag, type CliOptions } from './options'
import { printMessage } from './print'
import { cliIo } from './io'

export async function runSync(options: CliOptions): Promise<number> {
  const baseUrl = baseUrlFlag(options)
  if (baseUrl === '') throw new InvalidArgumentError('--base-url must not be empty')
  // Checked before anything is created, so a bad flag is always a usage error.
  if (baseUrl !== undefined) normaliseBaseUrl(baseUrl)
  const start = parseArguments(syncStartSchema, {
    kind: options.quick === true ? 'quick' : 'full',
    concurrency: numberFlag(options.concurrency),
    skipAvatars: options['no-avatars'] === true,
  })
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
    // Whether this run (or the one it resumes) got anything at all: a sync that never reached the service has nothing to resume.
    let fetched = false
    const subscriptions = [
      library.sync.onDidProgress((progress) => {
        if (progress.done > 0) fetched = true
        // A retry is its own line (what, why, when), each one: a sync that waits on its service says so.
        if (progress.retry) {
          const { what, why, attempt, inMs } = progress.retry
          line.end()
          printMessage(`retrying ${what} (try ${attempt + 1} in ${Math.max(1, Math.round(inMs / 1000))} s): ${why}`)
          return
        }
        line.update(progress)
      }),
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
      printMessage(summaryLine(library, report, start.kind))
      if (report.moreChanged) {
        printMessage(`  more artists changed than a quick check reads (${report.listPages} pages); run sync without --quick for a full refresh to bring the rest`)
      }
      for (const ended of report.listsEndedEarly) {
        printMessage(`  the ${ended.pass} list ended at its empty page ${ended.page}, though the service claimed ${ended.claimed} pages`)
      }
      if (report.skipped.length > 0) {
        const first = report.skipped.slice(0, 3).map((entry) => `${entry.what} (${entry.message})`).join('; ')
        const more = report.skipped.length > 3 ? `; and ${report.skipped.length - 3} more` : ''
        printMessage(`  skipped ${report.skipped.length} ${report.skipped.length === 1 ? 'entry' : 'entries'} the service described badly: ${first}${more}`)
      }
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
      // Only a service that never answered leaves nothing to resume; a full disk, say, stopped a run that had begun.
      const unanswered = !fetched && (code === 'network' || code === 'server')
      printMessage(
        !unanswered
          ? 'run the same command again to resume where it stopped'
          : `nothing was fetched from ${library.displayUrl}: check the address and that the service is running, then run the same command again`,
      )
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
 * within the limits of the settings (saying what was held back over them), one line per file, then waits for them as `download` does, with its exit codes.
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
  // Told, and not a failure: the limits did what they are for, and the rest is one command away.
  if (queued.heldBack) {
    printMessage(`${heldBackText(queued.heldBack)}: npm run -s cli -- download --held-back --data-dir ${library.dataDir}, or What's new in the app, to get them`)
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

/** What a sync did, in one line: a full refresh's lists, details, levels and thumbnails; a quick check's pages and changed artists. */
function summaryLine(library: Library, report: SyncReport, asked: SyncReport['kind'] | undefined): string {
  const database = `(database ${formatBytes(library.catalogue.status().cacheBytes)})`
  if (report.joined) return `synced ${library.displayUrl} by another process meanwhile; nothing left to fetch ${database}`
  const seconds = (report.durationMs / 1000).toFixed(1)
  if (report.kind === 'quick') {
    const thumbnails = report.avatarsFetched > 0 ? `, ${report.avatarsFetched} avatar thumbnails` : ''
    return `checked ${library.displayUrl} for new tracks in ${seconds} s: ${report.listPages} list pages, ${report.detailsFetched} changed artists${thumbnails} ${database}`
  }
  const how = `${report.resumed ? ' (resumed)' : ''}${asked === 'quick' ? ' (a full refresh: the cache needed one first)' : ''}`
  const gone = report.gone > 0 ? `, ${report.gone} artists gone` : ''
  return (
    `synced ${library.displayUrl} in ${seconds} s${how}: ${report.listPages} list pages, ${report.detailsFetched} artist details, ` +
    `${report.accessLevels} access levels, ${report.avatarsFetched} avatar thumbnails${gone} ${database}`
  )
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

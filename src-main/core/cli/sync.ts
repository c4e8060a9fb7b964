/** `sync`: a full (or incremental, or resumed) sync with a progress line on stderr. */
import { normaliseBaseUrl } from '../shared/urls'
import { errorCode, InvalidArgumentError } from '../shared/errors'
import { syncStartSchema } from '../shared/arguments'
import { parseArguments } from '../shared/validation'
import { formatBytes } from '../shared/format'
import type { SyncProgress } from '../sync/sync'
import { withLibrary } from './open'
import { numberFlag, type CliOptions } from './options'
import { printMessage } from './print'

export async function runSync(options: CliOptions): Promise<number> {
  if (options['base-url'] === undefined || options['base-url'] === '') throw new InvalidArgumentError('--base-url is required')
  // Checked before anything is created, so a bad flag is always a usage error.
  normaliseBaseUrl(options['base-url'])
  const start = parseArguments(syncStartSchema, { concurrency: numberFlag(options.concurrency), skipAvatars: options['no-avatars'] === true })
  return withLibrary(options, { mustExist: false, synced: false }, async (library) => {
    const line = progressLine()
    const subscriptions = [
      library.sync.onProgress(line.update),
      library.sync.onStateChange((state) => {
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
      return 0
    } catch (error) {
      line.end()
      const code = errorCode(error)
      if (code === 'invalid_argument') throw error
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
  })
}

/** One line rewritten in place on a terminal; a line per report otherwise (logs, CI). */
function progressLine(): { update: (progress: SyncProgress) => void; end: () => void } {
  const tty = process.stderr.isTTY === true
  let shown = false
  return {
    update: ({ phase, done, total }) => {
      const percent = total > 0 ? Math.floor((done / total) * 100) : 100
      const text = `${phase.padEnd(7)} ${String(done).padStart(6)}/${total} (${percent}%)`
      process.stderr.write(tty ? `\r\u001b[2K${text}` : `${text}\n`)
      shown = true
    },
    end: () => {
      if (tty && shown) process.stderr.write('\n')
      shown = false
    },
  }
}

/** `sync`: a full (or incremental, or resumed) sync with a progress line on stderr. */
import { createCatalogueClient } from '../api/index'
import { openCache } from '../db/connection'
import { rememberLastService } from '../data-dir'
import { syncCatalogue, type SyncProgress } from '../sync/sync'
import { formatBytes } from '../shared/format'
import type { CliOptions } from './main'
import { integerOption, requireOption } from './usage'

export async function runSync(options: CliOptions): Promise<number> {
  const baseUrl = requireOption(options['base-url'], 'base-url')
  const dataDir = requireOption(options['data-dir'], 'data-dir')
  const concurrency = integerOption(options.concurrency, 'concurrency', 1, 16) ?? 4
  const client = createCatalogueClient({ baseUrl })
  const { db, recovered } = openCache(dataDir, baseUrl)
  if (recovered) process.stderr.write(`${recovered}\n`)
  const controller = new AbortController()
  const cancel = (): void => controller.abort(new Error('cancelled'))
  process.once('SIGINT', cancel)
  process.once('SIGTERM', cancel)
  const line = progressLine()
  try {
    const report = await syncCatalogue({
      db,
      client,
      detailConcurrency: concurrency,
      listConcurrency: concurrency,
      skipAvatars: options['no-avatars'] === true,
      signal: controller.signal,
      onProgress: line.update,
    })
    line.end()
    rememberLastService(dataDir, baseUrl)
    const seconds = (report.durationMs / 1000).toFixed(1)
    process.stderr.write(
      `synced ${client.baseUrl} in ${seconds} s${report.resumed ? ' (resumed)' : ''}: ${report.listPages} list pages, ` +
        `${report.detailsFetched} artist details, ${report.accessLevels} access levels, ${report.avatarsFetched} avatars` +
        (report.gone > 0 ? `, ${report.gone} artists gone` : '') +
        ` (database ${formatBytes(db.prepare('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()').pluck().get() as number)})\n`,
    )
    for (const failure of report.detailFailures) process.stderr.write(`  could not fetch ${failure.username}: ${failure.message}\n`)
    if (report.avatarFailures.length > 0) process.stderr.write(`  ${report.avatarFailures.length} avatars could not be fetched (first: ${report.avatarFailures[0]!.message})\n`)
    return 0
  } catch (error) {
    line.end()
    if (controller.signal.aborted) {
      process.stderr.write('sync cancelled; run the same command again to resume where it stopped\n')
      return 130
    }
    process.stderr.write(`sync failed: ${(error as Error).message}\nrun the same command again to resume where it stopped\n`)
    return 1
  } finally {
    process.off('SIGINT', cancel)
    process.off('SIGTERM', cancel)
    db.close()
  }
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
    },
  }
}

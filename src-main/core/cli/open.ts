/** Opening the library the CLI's flags name, with the CLI's own hints when there is nothing to answer from. */
import { checkDataFolder } from '../data-folders'
import { openLibrary, type Library } from '../library'
import { InvalidArgumentError, NotSyncedError, isTuneshelfError } from '../shared/errors'
import { normaliseBaseUrl, redactUrl } from '../shared/urls'
import type { CliOptions } from './options'
import { pathFromUser } from '../command-line'
import { cliIo } from './io'
import { printMessage } from './print'

export interface OpenHow {
  /** Reading verbs: never create a cache or a data folder. */
  mustExist: boolean
  /** The verb answers from a completed sync. */
  synced: boolean
}

/** Runs work on the library of --data-dir (and --base-url, else the service synced last), then closes it. */
export async function withLibrary(options: CliOptions, how: OpenHow, work: (library: Library) => Promise<number> | number): Promise<number> {
  const dataDir = requireDataDir(options)
  // A file in the way is refused as a folder under /proc is (exit 2), before the settings are read from it (a raw ENOTDIR).
  checkDataFolder(dataDir)
  let library: Library
  try {
    library = openLibrary({ ...cliIo().library, dataDir, baseUrl: options['base-url'], mustExist: how.mustExist })
  } catch (error) {
    if (isTuneshelfError(error) && error.code === 'not_synced') {
      const baseUrl = options['base-url']
      if (baseUrl === undefined) throw new NotSyncedError(`nothing has been synced into ${dataDir}; run: npm run -s cli -- sync --base-url URL --data-dir ${dataDir}`)
      // The service named has no cache there yet (another may): how to make one, its password never shown.
      const shown = redactUrl(normaliseBaseUrl(baseUrl))
      throw new NotSyncedError(`nothing has been synced from ${shown} into ${dataDir}; run: npm run -s cli -- sync --base-url ${shown} --data-dir ${dataDir}`)
    }
    throw error
  }
  try {
    for (const notice of library.notices) printMessage(`note: ${notice}`)
    if (how.synced) requireSynced(library)
    return await work(library)
  } finally {
    await library.dispose()
  }
}

export function requireDataDir(options: CliOptions): string {
  const dataDir = options['data-dir']
  if (dataDir === undefined || dataDir === '') throw new InvalidArgumentError('--data-dir is required', { field: 'dataDir' })
  return pathFromUser(dataDir)
}

/** A cache whose first sync never completed has no lists to show yet: say so, and how to finish it. */
function requireSynced(library: Library): void {
  const status = library.catalogue.status()
  if (status.lastFullSyncAt !== null) return
  const resume = `npm run -s cli -- sync --base-url ${library.displayUrl} --data-dir ${library.dataDir}`
  if (status.lastRun === null) throw new NotSyncedError(`nothing has been synced from ${library.displayUrl} into ${library.dataDir} yet; run: ${resume}`)
  const stopped = status.lastRun.state === 'running' ? 'is still running or was killed' : status.lastRun.state === 'failed' ? 'failed' : `was ${status.lastRun.state}`
  throw new NotSyncedError(
    `the first sync of ${library.displayUrl} into ${library.dataDir} has not finished (it ${stopped} during its ${status.lastRun.phase} phase); ` +
      `run the same command again to resume it: ${resume}`,
  )
}

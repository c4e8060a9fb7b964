/** Opening the library the CLI's flags name, with the CLI's own hints when there is nothing to answer from. */
import { openLibrary, type Library } from '../library'
import { InvalidArgumentError, NotSyncedError, isTuneshelfError } from '../shared/errors'
import type { CliOptions } from './options'
import { pathFromUser } from './options'
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
  let library: Library
  try {
    library = openLibrary({ dataDir, baseUrl: options['base-url'], mustExist: how.mustExist })
  } catch (error) {
    if (isTuneshelfError(error) && error.code === 'not_synced' && options['base-url'] === undefined) {
      throw new NotSyncedError(`nothing has been synced into ${dataDir}; run: npm run -s cli -- sync --base-url URL --data-dir ${dataDir}`)
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
  const stopped = status.lastRun.state === 'running' ? 'is still running or was killed' : `was ${status.lastRun.state}`
  throw new NotSyncedError(
    `the first sync of ${library.displayUrl} into ${library.dataDir} has not finished (it ${stopped} during its ${status.lastRun.phase} phase); ` +
      `run the same command again to resume it: ${resume}`,
  )
}

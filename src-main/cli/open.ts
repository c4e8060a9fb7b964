/** Opening the library the CLI's flags name, with the CLI's own hints when there is nothing to answer from. */
import { checkDataFolder } from '../core/files/data-folders'
import { openLibrary, type Library } from '../core/library/library'
import { InvalidArgumentError, NotSyncedError, isTuneshelfError } from '../core/shared/errors'
import { normaliseBaseUrl, redactUrl } from '../core/shared/urls'
import type { CliOptions } from './options'
import { pathFromUser } from '../core/startup/command-line'
import { cliIo } from './io'
import { printMessage } from './print'

export interface OpenHow {
  /** Reading verbs: never create a cache or a data folder. */
  mustExist: boolean
  /** The verb answers from a completed sync. */
  synced: boolean
}

/** The environment variable a --base-url's password comes from when the flag names its user alone. */
export const PASSWORD_VARIABLE = 'TUNESHELF_PASSWORD'

/**
 * --base-url as given; one that names a user but no password (`http://ann@host/`) takes its password
 * from TUNESHELF_PASSWORD when that is set. It is the form of the commands the CLI suggests for a
 * service with a password (syncCommand), so they run as printed and the password is neither shown on
 * the terminal nor kept in the shell's history.
 */
export function baseUrlFlag(options: CliOptions): string | undefined {
  const given = options['base-url']
  const password = process.env[PASSWORD_VARIABLE]
  if (given === undefined || password === undefined || password === '') return given
  let url: URL
  try {
    url = new URL(given)
  } catch {
    return given
  }
  if (url.username === '' || url.password !== '' || given.includes(':@')) return given
  url.password = password
  // URL adds a slash after a bare origin; the address keeps the shape it was given in (the cache is named by it).
  return !given.endsWith('/') && url.pathname === '/' && url.search === '' && url.hash === '' ? url.href.slice(0, -1) : url.href
}

/**
 * The command that syncs a service into a data folder, to print: it must run as printed, and never
 * show the password (a `***` in its place made a command that failed). Without a password, the
 * address itself. With one: no --base-url when it is the service the data folder synced last (sync
 * saves it in settings.json, password included, readable by the user alone; without --base-url, sync
 * syncs that one again); else the address with its user alone, and a note that the password comes
 * from TUNESHELF_PASSWORD (baseUrlFlag), which the user sets without it showing.
 */
export function syncCommand(baseUrl: string, dataDir: string, saved: string | null): string {
  const url = new URL(baseUrl)
  if (url.password === '') return `npm run -s cli -- sync --base-url ${baseUrl} --data-dir ${dataDir}`
  if (saved !== null && normaliseBaseUrl(saved) === baseUrl) return `npm run -s cli -- sync --data-dir ${dataDir} (it syncs the service saved there, password included)`
  const userOnly = redactUrl(baseUrl).replace(`:***@`, '@')
  return `npm run -s cli -- sync --base-url ${userOnly} --data-dir ${dataDir} (with the service's password in the environment variable ${PASSWORD_VARIABLE})`
}

/** Runs work on the library of --data-dir (and --base-url, else the service synced last), then closes it. */
export async function withLibrary(options: CliOptions, how: OpenHow, work: (library: Library) => Promise<number> | number): Promise<number> {
  const dataDir = requireDataDir(options)
  // A file in the way is refused as a folder under /proc is (exit 2), before the settings are read from it (a raw ENOTDIR).
  checkDataFolder(dataDir)
  const baseUrl = baseUrlFlag(options)
  let library: Library
  try {
    library = openLibrary({ ...cliIo().library, dataDir, baseUrl, mustExist: how.mustExist })
  } catch (error) {
    if (isTuneshelfError(error) && error.code === 'not_synced') {
      if (baseUrl === undefined) throw new NotSyncedError(`nothing has been synced into ${dataDir}; run: npm run -s cli -- sync --base-url URL --data-dir ${dataDir}`)
      // The service named has no cache there yet (another may): how to make one, its password never shown.
      const normalised = normaliseBaseUrl(baseUrl)
      throw new NotSyncedError(
        `nothing has been synced from ${redactUrl(normalised)} into ${dataDir}; run: ${syncCommand(normalised, dataDir, null)}`,
      )
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
  const resume = syncCommand(library.baseUrl, library.dataDir, library.settings.get().baseUrl)
  if (status.lastRun === null) throw new NotSyncedError(`nothing has been synced from ${library.displayUrl} into ${library.dataDir} yet; run: ${resume}`)
  const stopped = status.lastRun.state === 'running' ? 'is still running or was killed' : status.lastRun.state === 'failed' ? 'failed' : `was ${status.lastRun.state}`
  throw new NotSyncedError(
    `the first sync of ${library.displayUrl} into ${library.dataDir} has not finished (it ${stopped} during its ${status.lastRun.phase} phase); ` +
      `run the same command again to resume it: ${resume}`,
  )
}

/**
 * Folders the app needs (the data folder, the download folder), created one
 * level at a time with a clear error for every way that can fail. Node's
 * recursive mkdir is not used: on a file system that refuses new entries
 * without saying why (/proc answers ENOENT), it loops forever at full CPU.
 * And the one rule of where downloads may go, whoever names the folder.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { firstNameBelow, isAtOrBelow } from './contained-path'
import { DiskFullError, FolderError } from '../shared/errors'

/**
 * The absolute path of folder, created if missing (with its missing parents).
 * `what` names the folder in messages ("the data folder"). Throws a FolderError
 * naming the cause: a file in the way, a parent that refuses, no permission.
 * The folders it makes get `mode` less the umask (by default 0777 less the umask).
 */
export function ensureFolder(folder: string, what: string, mode?: number): string {
  const absolute = path.resolve(folder)
  for (const dir of missingFolders(absolute, what).reverse()) makeOne(dir, absolute, what, mode)
  return absolute
}

/**
 * The FolderError ensureFolder would throw for a file at folder or in its way, without
 * creating anything: whoever only reads a folder (the CLI's offline verbs) gets the same
 * clear message instead of the raw ENOTDIR of the first file it opens there.
 */
export function checkFolderPath(folder: string, what: string): void {
  missingFolders(path.resolve(folder), what)
}

/** The folders of absolute that do not exist yet, deepest first; a FolderError when a file is in the way. */
function missingFolders(absolute: string, what: string): string[] {
  const missing: string[] = []
  for (let current = absolute; ; current = path.dirname(current)) {
    const stats = statOrUndefined(current, absolute, what)
    if (stats === undefined) {
      missing.push(current)
      if (path.dirname(current) === current) throw new FolderError(`cannot create ${what} ${absolute}: ${current} does not exist`)
      continue
    }
    if (!stats.isDirectory()) {
      throw new FolderError(
        current === absolute
          ? `${what} ${absolute} is a file, not a folder`
          : `cannot create ${what} ${absolute}: ${current} is a file, not a folder`,
      )
    }
    return missing
  }
}

/** Whether the process may create files in an existing folder (a read-only mount says no, even to root). */
export function isWritableFolder(folder: string): boolean {
  try {
    fs.accessSync(folder, fs.constants.W_OK)
    return true
  } catch {
    return false
  }
}

function statOrUndefined(current: string, absolute: string, what: string): fs.Stats | undefined {
  try {
    return fs.statSync(current)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    if (code === 'ENOTDIR') throw new FolderError(`cannot create ${what} ${absolute}: a file is in the way`, { cause: error })
    if (code === 'EACCES' || code === 'EPERM') {
      throw new FolderError(`cannot use ${what} ${absolute}: no permission to look into ${path.dirname(current)}`, { cause: error })
    }
    throw new FolderError(`cannot use ${what} ${absolute}: ${(error as Error).message}`, { cause: error })
  }
}

function makeOne(dir: string, absolute: string, what: string, mode: number | undefined): void {
  try {
    fs.mkdirSync(dir, mode === undefined ? undefined : { mode })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const parent = path.dirname(dir)
    if (code === 'EEXIST' && fs.statSync(dir).isDirectory()) return // made meanwhile by someone else
    if (code === 'EEXIST') throw new FolderError(`cannot create ${what} ${absolute}: ${dir} is a file, not a folder`, { cause: error })
    if (code === 'ENOSPC') throw new DiskFullError(`cannot create ${what} ${absolute}: the disk is full`, { cause: error })
    if (code === 'EACCES' || code === 'EPERM') {
      throw new FolderError(`cannot create ${what} ${absolute}: no permission to create folders in ${parent}`, { cause: error })
    }
    if (code === 'EROFS') throw new FolderError(`cannot create ${what} ${absolute}: ${parent} is on a read-only file system`, { cause: error })
    if (code === 'ENOENT') {
      throw new FolderError(`cannot create ${what} ${absolute}: ${parent} does not accept new folders`, { cause: error })
    }
    throw new FolderError(`cannot create ${what} ${absolute}: ${(error as Error).message}`, { cause: error })
  }
}

/** Where the download folder is judged from; each defaults to this process's own (tests pass a home of their own). */
export interface FolderPlaces {
  /** The app's data folder: refused with all it holds, but for its `downloads` (the default download folder). */
  dataDir: string
  home?: string
  platform?: NodeJS.Platform
  env?: NodeJS.ProcessEnv
}

/** A place downloads may not go: the folder itself and all inside it, or (`exactly`) only the folder, whose subfolders an artist's name could make. */
interface Forbidden {
  place: string
  what: string
  exactly?: boolean
  /** A place in the system's folders: a home inside one (/usr/home/ann) is the user's all the same. */
  system?: boolean
}

const SYSTEM = 'a system folder'
const STARTS_PROGRAMS = 'whose files start programs at login'

/**
 * The absolute path of a folder named as the download folder (in the settings,
 * by the CLI's --to), or a FolderError saying why it may not be one. Files land
 * at `<folder>/<artist>/<title> [id].<ext>`, the artist and the extension being
 * the catalogue's: a folder where any file is run (autostart, Startup,
 * LaunchAgents), the folder just above one, the system's folders and the app's
 * own data are refused, judged by where the path really leads once the links of
 * its existing part are followed. The default download folder (`downloads` in
 * the data folder) is always accepted: the data folder is the app's own choice.
 */
export function checkDownloadFolder(folder: string, places: FolderPlaces): string {
  const platform = places.platform ?? process.platform
  const p = platform === 'win32' ? path.win32 : path.posix
  if (folder.includes('\0')) throw new FolderError(`cannot use ${JSON.stringify(folder)} as the download folder: its path holds a NUL character`)
  if (!p.isAbsolute(folder)) throw new FolderError(`cannot use ${JSON.stringify(folder)} as the download folder: it is not an absolute path`)
  const absolute = p.resolve(folder)
  const dataDir = p.resolve(places.dataDir)
  const fold = platform === 'win32' || platform === 'darwin' ? (text: string) => text.toLowerCase() : (text: string) => text
  const within = (child: string, parent: string): boolean => isAtOrBelow(fold(parent), fold(child), p)
  if (within(absolute, p.join(dataDir, 'downloads'))) return absolute

  // Links are followed only on this system's own paths (a test may judge another's).
  const real = (target: string): string => (platform === process.platform ? realPathOf(target, p) : target)
  const home = places.home ?? os.homedir()
  const homes = home !== '' && p.isAbsolute(home) && p.dirname(p.resolve(home)) !== p.resolve(home) ? [...new Set([p.resolve(home), real(p.resolve(home))])] : []
  const forbidden = forbiddenPlaces(platform, p, homes, places.env ?? process.env)
  forbidden.push({ place: dataDir, what: "the app's data folder (its settings and caches)" })
  if (real(dataDir) !== dataDir) forbidden.push({ place: real(dataDir), what: "the app's data folder (its settings and caches)" })

  for (const target of [...new Set([absolute, real(absolute)])]) {
    const via = target === absolute ? '' : `it leads to ${target}; `
    if (p.dirname(target) === target) throw new FolderError(`cannot use ${absolute} as the download folder: ${via}it is the root of the file system`)
    const inHome = homes.some((candidate) => within(target, candidate))
    for (const { place, what, exactly, system } of forbidden) {
      if (system && inHome) continue
      if (exactly ? fold(target) !== fold(place) : !within(target, place)) continue
      const where = fold(target) === fold(place) ? `${target === absolute ? 'it' : 'that'} is` : `it is inside ${place},`
      throw new FolderError(`cannot use ${absolute} as the download folder: ${via}${where} ${what}`)
    }
    // Where programs keep their settings and start-up files (~/.config, ~/.local, ~/.kde, ~/.bashrc.d, ...).
    for (const candidate of homes) {
      const first = firstNameBelow(fold(candidate), fold(target), p)
      if (first?.startsWith('.')) {
        throw new FolderError(
          `cannot use ${absolute} as the download folder: ${via}it is in ${p.join(candidate, first)}, a hidden folder where programs keep their settings and start-up files`,
        )
      }
    }
  }
  return absolute
}

function forbiddenPlaces(platform: NodeJS.Platform, p: path.PlatformPath, homes: string[], env: NodeJS.ProcessEnv): Forbidden[] {
  const absoluteEnv = (name: string): string | undefined => {
    const value = env[name]
    return value !== undefined && p.isAbsolute(value) ? p.resolve(value) : undefined
  }
  if (platform === 'win32') {
    const startup = ['Microsoft', 'Windows', 'Start Menu', 'Programs', 'Startup']
    const roaming = [absoluteEnv('APPDATA'), ...homes.map((home) => p.join(home, 'AppData', 'Roaming'))].filter((dir) => dir !== undefined)
    const appData = [absoluteEnv('APPDATA'), absoluteEnv('LOCALAPPDATA'), ...homes.map((home) => p.join(home, 'AppData'))].filter((dir) => dir !== undefined)
    const programData = absoluteEnv('ProgramData') ?? 'C:\\ProgramData'
    return [
      ...roaming.map((dir) => ({ place: p.join(dir, ...startup), what: `the Startup folder, ${STARTS_PROGRAMS}` })),
      { place: p.join(programData, ...startup), what: `the Startup folder of all users, ${STARTS_PROGRAMS}` },
      ...appData.map((dir) => ({ place: dir, what: "the folder of programs' settings and start-up files" })),
      ...[absoluteEnv('SystemRoot') ?? 'C:\\Windows', programData, absoluteEnv('ProgramFiles'), absoluteEnv('ProgramFiles(x86)'), 'C:\\Program Files', 'C:\\Program Files (x86)']
        .filter((dir) => dir !== undefined)
        .map((dir) => ({ place: dir, what: SYSTEM, system: true })),
    ]
  }
  const configHome = absoluteEnv('XDG_CONFIG_HOME')
  const dataHome = absoluteEnv('XDG_DATA_HOME')
  const configs = [...homes.map((home) => p.join(home, '.config')), ...(configHome ? [configHome] : [])]
  const shares = [...homes.map((home) => p.join(home, '.local', 'share')), ...(dataHome ? [dataHome] : [])]
  return [
    ...configs.map((dir) => ({ place: p.join(dir, 'autostart'), what: `the autostart folder, ${STARTS_PROGRAMS}` })),
    ...shares.map((dir) => ({ place: p.join(dir, 'applications'), what: 'the folder of the applications menu, whose files start programs' })),
    ...configs.map((dir) => ({ place: dir, what: "the folder of programs' settings and start-up files" })),
    ...shares.map((dir) => ({ place: dir, what: 'the folder above the applications menu', exactly: true })),
    ...homes.map((home) => ({ place: p.join(home, 'Library', 'LaunchAgents'), what: `a LaunchAgents folder, ${STARTS_PROGRAMS}` })),
    ...homes.map((home) => ({ place: p.join(home, 'Library'), what: 'the folder above LaunchAgents', exactly: true })),
    { place: '/Library/LaunchAgents', what: `a LaunchAgents folder, ${STARTS_PROGRAMS}` },
    { place: '/Library/LaunchDaemons', what: 'the LaunchDaemons folder, whose files start programs' },
    { place: '/Library', what: 'the folder above LaunchAgents', exactly: true },
    ...['/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/boot', '/proc', '/sys', '/dev', '/System', '/private/etc'].map((place) => ({
      place,
      what: SYSTEM,
      system: true,
    })),
  ]
}

/** Where target really leads: the links of its longest existing part followed, the rest as it is. */
function realPathOf(target: string, p: path.PlatformPath): string {
  const rest: string[] = []
  for (let current = target; ; current = p.dirname(current)) {
    try {
      return p.join(fs.realpathSync.native(current), ...rest)
    } catch {
      if (p.dirname(current) === current) return target
      rest.unshift(p.basename(current))
    }
  }
}

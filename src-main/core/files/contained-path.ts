/**
 * "Lies inside the folder": the one judge of it, for every path that comes
 * from somewhere it should not be trusted (a catalogue's titles, a stored
 * download row, an address asked of the web bridge or the app:// protocol).
 *
 * Two checks, and when each applies:
 * - isInside, lexical (no disk access): for two absolute paths that are
 *   already real (every link resolved), or for a path whose parent was just
 *   checked for real. It says nothing about links on the way.
 * - realPathInside (and its Sync twin), real: for a file that exists and is
 *   about to be read or served. Both paths are resolved through every link
 *   first, so a link inside that leads out is outside.
 * resolveInside is for a file about to be written: the lexical check of the
 * joined path, then the real one of the deepest part of it that exists.
 * checkWritePlace is for the moment it is written, and put in place: the real
 * path of its folder, and the file itself no link.
 *
 * All of them refuse the folder itself, NUL, and a backslash where it is not
 * the separator (it would be one on Windows), and tell `/a/bc` from `/a/b/c`.
 */
import fs from 'node:fs'
import path from 'node:path'
import { UnsafePathError } from '../shared/errors'

/**
 * Whether target lies strictly inside root, by their names alone; both must be absolute. `paths` is
 * the path module of the system the paths belong to (path.win32 to judge a Windows path anywhere).
 */
export function isInside(root: string, target: string, paths: path.PlatformPath = path): boolean {
  if (!paths.isAbsolute(root) || !paths.isAbsolute(target) || root.includes('\0') || target.includes('\0')) return false
  const relative = paths.relative(root, target)
  if (relative === '' || relative === '..' || relative.startsWith(`..${paths.sep}`) || paths.isAbsolute(relative)) return false
  // On POSIX a backslash is part of a name, which the same folder on Windows would read as a separator.
  return paths.sep === '\\' || !relative.includes('\\')
}

/**
 * The first name below root on the way to target (`.config` for ~/.config/autostart), or undefined
 * when target is root itself or not below it. Unlike isInside this is for refusing, not allowing:
 * the folder itself counts, and a backslash on POSIX is what it is there, a character of a name, so
 * `~/.config/a\\b` is still under ~/.config.
 */
export function firstNameBelow(root: string, target: string, paths: path.PlatformPath = path): string | undefined {
  if (!paths.isAbsolute(root) || !paths.isAbsolute(target)) return undefined
  const relative = paths.relative(root, target)
  if (relative === '' || relative === '..' || relative.startsWith(`..${paths.sep}`) || paths.isAbsolute(relative)) return undefined
  return relative.split(paths.sep)[0]
}

/** Whether target is root or lies below it, by names alone: for places to refuse (see firstNameBelow). */
export function isAtOrBelow(root: string, target: string, paths: path.PlatformPath = path): boolean {
  return paths.resolve(root) === paths.resolve(target) || firstNameBelow(root, target, paths) !== undefined
}

/** What a real-path check finds: the file's real path when it lies inside, else why not. */
export type Contained = string | 'outside' | 'gone'

/**
 * The real path of target if, once every link of both is resolved, it lies inside the real root;
 * 'gone' when target (or root) does not exist; 'outside' otherwise. The root itself may be a link
 * (a music folder on another disk): that is the user's choice, so target is judged only once real.
 */
export async function realPathInside(root: string, target: string): Promise<Contained> {
  if (foreign(root, target)) return 'outside'
  let realRoot: string
  let real: string
  try {
    realRoot = await fs.promises.realpath(root)
    real = await fs.promises.realpath(target)
  } catch {
    return 'gone'
  }
  return isInside(realRoot, real) ? real : 'outside'
}

/** realPathInside without waiting: for the few small files of the built window. */
export function realPathInsideSync(root: string, target: string): Contained {
  if (foreign(root, target)) return 'outside'
  let realRoot: string
  let real: string
  try {
    realRoot = fs.realpathSync(root)
    real = fs.realpathSync(target)
  } catch {
    return 'gone'
  }
  return isInside(realRoot, real) ? real : 'outside'
}

/**
 * What no real-path check should ask the disk about: a NUL, or a backslash in what target adds to
 * root where it is not the separator. Nothing else is judged by name here: the stored path of a
 * file may be the real one of a root that is a link.
 */
function foreign(root: string, target: string): boolean {
  if (root.includes('\0') || target.includes('\0')) return true
  return path.sep !== '\\' && path.relative(path.resolve(root), path.resolve(target)).includes('\\')
}

/**
 * The absolute path of relative inside folder (in the folder's real path), for a file to be written:
 * refused unless it stays inside after resolving "..", and unless the deepest part of it that exists
 * (the file itself, else a folder on the way) really leads inside too; a dangling link is refused.
 */
export function resolveInside(folder: string, relative: string, name = 'the folder'): string {
  const root = fs.realpathSync(path.resolve(folder))
  const target = path.resolve(root, relative)
  if (!isInside(root, target)) throw new UnsafePathError(`${relative} would land outside ${name} ${root}`)
  // A link counts even if dangling: it is what would be written through, so it is judged (and refused).
  const existing = nearestExisting(target, { stopAt: root, exists: entryExists })
  if (existing === root) return target
  let real: string
  try {
    real = fs.realpathSync(existing)
  } catch {
    throw new UnsafePathError(`${relative} passes through ${existing}, a link that leads nowhere`)
  }
  if (real !== root && !isInside(root, real)) throw new UnsafePathError(`${relative} leads outside ${name} ${root} through ${existing}`)
  return target
}

/**
 * Throws UnsafePathError unless the real path of file's folder is root's real path or lies inside
 * it, and unless file, if it exists, is a plain file: for a file about to be opened for writing, or
 * renamed into place. A planned path says nothing of what the disk holds by then: a folder on the
 * way may have been swapped for a link that leads out since, and a link at file itself would be
 * written through (or put in place as a link). file's folder must exist.
 */
export async function checkWritePlace(root: string, file: string, name = 'the folder'): Promise<void> {
  const folder = path.dirname(file)
  const [realRoot, realFolder] = await Promise.all([fs.promises.realpath(root), fs.promises.realpath(folder)])
  if (realFolder !== realRoot && !isInside(realRoot, realFolder)) {
    throw new UnsafePathError(`${file} would land outside ${name} ${root}: its folder ${folder} leads to ${realFolder}`)
  }
  const stats = await fs.promises.lstat(file).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  })
  if (stats && !stats.isFile()) {
    throw new UnsafePathError(`${file} is ${stats.isSymbolicLink() ? 'a link' : 'not a plain file'}; refused, so nothing lands outside ${name} ${root} through it`)
  }
}

/**
 * The deepest part of target that exists: target itself, else the nearest folder above it that does
 * (the root of the file system at worst, or `stopAt`, an ancestor of target). By default a link
 * counts only if it leads somewhere, as a place to measure free space in or to create folders from
 * must; `exists` may judge otherwise.
 */
export function nearestExisting(target: string, { stopAt, exists = fs.existsSync }: { stopAt?: string; exists?: (file: string) => boolean } = {}): string {
  let current = target
  while (current !== stopAt && !exists(current) && path.dirname(current) !== current) current = path.dirname(current)
  return current
}

/** Whether something, a link even if dangling, has this name (a file on the way is no folder: nothing). */
function entryExists(file: string): boolean {
  try {
    fs.lstatSync(file)
    return true
  } catch {
    return false
  }
}

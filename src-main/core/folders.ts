/**
 * Folders the app needs (the data folder, the download folder), created one
 * level at a time with a clear error for every way that can fail. Node's
 * recursive mkdir is not used: on a file system that refuses new entries
 * without saying why (/proc answers ENOENT), it loops forever at full CPU.
 */
import fs from 'node:fs'
import path from 'node:path'
import { DiskFullError, FolderError } from './shared/errors'

/**
 * The absolute path of folder, created if missing (with its missing parents).
 * `what` names the folder in messages ("the data folder"). Throws a FolderError
 * naming the cause: a file in the way, a parent that refuses, no permission.
 */
export function ensureFolder(folder: string, what: string): string {
  const absolute = path.resolve(folder)
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
    break
  }
  for (const dir of missing.reverse()) makeOne(dir, absolute, what)
  return absolute
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

function makeOne(dir: string, absolute: string, what: string): void {
  try {
    fs.mkdirSync(dir)
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

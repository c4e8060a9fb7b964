/** Partial files no download knows of (left by a removed download, or an older version of the app): reported, never deleted. */
import fsp from 'node:fs/promises'
import path from 'node:path'
import type { Download } from '../db/downloads'
import { partPathOf } from './file-names'

/** Partial files in folder (recursively) that none of downloads knows of; none when folder cannot be read. */
export async function strayPartFiles(folder: string, downloads: Iterable<Download>): Promise<string[]> {
  const known = new Set([...downloads].map((download) => partPathOf(download.targetPath)))
  let entries
  try {
    entries = await fsp.readdir(folder, { recursive: true, withFileTypes: true })
  } catch {
    return []
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.part'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((part) => !known.has(part))
}

/** Avatars copied into the data folder, so artist screens show them offline. */
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { CatalogueClient } from '../api/index'

const MAX_AVATAR_BYTES = 2 * 1024 * 1024
const EXTENSIONS: Record<string, string> = {
  'image/svg+xml': 'svg',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
}

/** The stem of an avatar's file name: a digest of its address, so a new address means a new file. */
export function avatarStem(url: string): string {
  return createHash('sha1').update(url).digest('hex')
}

/** Whether the stored file still belongs to this address and is on disk. */
export async function avatarIsCurrent(directory: string, url: string, file: string | null): Promise<boolean> {
  if (!file || !file.startsWith(`${avatarStem(url)}.`)) return false
  return fs.access(path.join(directory, file)).then(
    () => true,
    () => false,
  )
}

/** Fetches an avatar and writes it atomically; returns the file name inside directory. */
export async function downloadAvatar(client: CatalogueClient, directory: string, url: string, signal: AbortSignal): Promise<string> {
  const { body, contentType } = await client.fetchBinary(url, { signal, maxBytes: MAX_AVATAR_BYTES })
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  const extension = EXTENSIONS[mediaType]
  if (!extension) throw new Error(`${url} is not an image (${mediaType || 'no content type'})`)
  const file = `${avatarStem(url)}.${extension}`
  const temporary = path.join(directory, `${file}.${process.pid}.tmp`)
  await fs.writeFile(temporary, body)
  await fs.rename(temporary, path.join(directory, file))
  return file
}

/**
 * The layout of a data folder: one cache file and one avatar folder per
 * service, and a note of the service synced last (the offline default).
 */
import fs from 'node:fs'
import path from 'node:path'
import { cacheFileFor, normaliseBaseUrl } from './db/connection'

const LAST_SERVICE_FILE = 'last-service.json'

/** Where the avatars of a service's cache live: beside its cache file, named alike. */
export function avatarDirFor(dataDir: string, baseUrl: string): string {
  return path.join(dataDir, 'avatars', path.basename(cacheFileFor(dataDir, baseUrl), '.sqlite'))
}

export function rememberLastService(dataDir: string, baseUrl: string): void {
  const file = path.join(dataDir, LAST_SERVICE_FILE)
  fs.mkdirSync(dataDir, { recursive: true })
  fs.writeFileSync(`${file}.tmp`, JSON.stringify({ baseUrl: normaliseBaseUrl(baseUrl) }))
  fs.renameSync(`${file}.tmp`, file)
}

/** The base URL synced last into dataDir, if any. */
export function lastService(dataDir: string): string | undefined {
  try {
    const saved = JSON.parse(fs.readFileSync(path.join(dataDir, LAST_SERVICE_FILE), 'utf8')) as { baseUrl?: unknown }
    return typeof saved.baseUrl === 'string' ? saved.baseUrl : undefined
  } catch {
    return undefined
  }
}

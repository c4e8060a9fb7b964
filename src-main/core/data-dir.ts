/**
 * The data folder beside the caches (one SQLite file per service, see
 * db/connection): a note of the service synced last, the offline default.
 */
import fs from 'node:fs'
import path from 'node:path'
import { normaliseBaseUrl } from './db/connection'

const LAST_SERVICE_FILE = 'last-service.json'

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

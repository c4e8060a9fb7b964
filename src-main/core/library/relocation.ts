/**
 * Moving stored addresses to where the service is now, for a cache kept under
 * a fixed name (the built-in demo, whose port can change from one run to the next).
 */
import type { Database } from 'better-sqlite3'
import { readMeta, writeMeta } from '../db/meta'
import { parseUrl } from '../shared/urls'

/**
 * Every origin the cache was served from is remembered, and a stored address on
 * any of them is moved to where the service is now.
 */
export function relocation(db: Database, baseUrl: string): (url: string) => string {
  const current = new URL(baseUrl).origin
  const saved = readMeta(db, 'service_origins')
  const origins = new Set<string>(saved ? (JSON.parse(saved) as string[]) : [])
  if (!origins.has(current)) {
    origins.add(current)
    writeMeta(db, 'service_origins', JSON.stringify([...origins]))
  }
  return (url) => {
    const parsed = parseUrl(url)
    if (parsed === undefined || parsed.origin === current || !origins.has(parsed.origin)) return url
    return `${current}${parsed.pathname}${parsed.search}`
  }
}

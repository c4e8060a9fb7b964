/**
 * Remembers answers of costly reads (counts, the full relevancy order of a
 * search) until the database changes, so paging through a list or a search
 * costs one page, not the whole query again. A change by this connection
 * (total_changes) or by another one (data_version) empties it.
 */
import type { Database } from 'better-sqlite3'
import { statement } from './statements'

const MAX_ENTRIES = 32

interface Entry {
  version: string
  answers: Map<string, unknown>
}

const caches = new WeakMap<Database, Entry>()

function currentVersion(db: Database): string {
  const dataVersion = db.pragma('data_version', { simple: true }) as number
  const changes = statement<[], { n: number }>(db, 'SELECT total_changes() AS n').get()!.n
  return `${dataVersion}:${changes}`
}

/** The cached answer for key, or compute() stored as one; valid until the database changes. */
export function cached<T>(db: Database, key: string, compute: () => T): T {
  const version = currentVersion(db)
  let entry = caches.get(db)
  if (!entry || entry.version !== version) {
    entry = { version, answers: new Map() }
    caches.set(db, entry)
  }
  if (entry.answers.has(key)) return entry.answers.get(key) as T
  const answer = compute()
  if (entry.answers.size >= MAX_ENTRIES) entry.answers.delete(entry.answers.keys().next().value!)
  entry.answers.set(key, answer)
  return answer
}

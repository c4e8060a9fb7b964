/**
 * Remembers answers of costly reads (counts, the relevancy order of a search)
 * until the catalogue changes, so paging through a list or a search costs one
 * page, not the whole query again. The catalogue's version is a counter in the
 * cache that every write to artists or tracks raises (by any connection or
 * process); other writes, such as download progress, leave the answers alone.
 */
import type { Database } from 'better-sqlite3'
import { incrementMeta, readMeta } from './meta'

const MAX_ENTRIES = 32

interface Entry {
  version: string
  answers: Map<string, unknown>
}

const caches = new WeakMap<Database, Entry>()

/** The catalogue's version: raised by every write to artists or tracks. */
export function currentCatalogueVersion(db: Database): string {
  return readMeta(db, 'catalogue_version') ?? '0'
}

/** Marks the catalogue as changed; call it in every transaction that writes artists or tracks. */
export function bumpCatalogueVersion(db: Database): void {
  incrementMeta(db, 'catalogue_version')
}

/** The cached answer for key, or compute() stored as one; valid until the database changes. */
export function cached<T>(db: Database, key: string, compute: () => T): T {
  const version = currentCatalogueVersion(db)
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

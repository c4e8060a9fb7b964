/**
 * Remembers answers of costly reads (counts, the relevancy order of a search)
 * until the catalogue changes, so paging through a list or a search costs one
 * page, not the whole query again. The catalogue's version is a counter in the
 * cache that every write to artists or tracks raises (by any connection or
 * process); other writes, such as download progress, leave the answers alone.
 *
 * While a sync runs, the version moves several times a second, and a broad
 * search's order (up to 100,000 ids) would be ranked again on nearly every call:
 * 3–5 ms each and enough garbage for 150–200 ms collector pauses in the thread
 * that answers the window (bench:scale part 6). So a reader may let its answers
 * lag the catalogue for a short while (`letAnswersLag`) while a sync runs; the
 * rows of a page are always read fresh, only the order and counts lag, and the
 * sync's end turns the lag off again, before the window reloads.
 */
import type { Database } from 'better-sqlite3'
import { incrementMeta, readMeta } from './meta'

const MAX_ENTRIES = 32

interface Answer {
  version: string
  /** When it was computed (performance.now(): a clock no setting of the time moves). */
  at: number
  value: unknown
}

interface Entry {
  /** How long an answer of an older version may still be given, in ms (0: never). */
  lagMs: number
  /** The answers, the least recently computed first. */
  answers: Map<string, Answer>
}

const caches = new WeakMap<Database, Entry>()

function entryOf(db: Database): Entry {
  let entry = caches.get(db)
  if (!entry) caches.set(db, (entry = { lagMs: 0, answers: new Map() }))
  return entry
}

/** The catalogue's version: raised by every write to artists or tracks. */
export function currentCatalogueVersion(db: Database): string {
  return readMeta(db, 'catalogue_version') ?? '0'
}

/** Marks the catalogue as changed; call it in every transaction that writes artists or tracks. */
export function bumpCatalogueVersion(db: Database): void {
  incrementMeta(db, 'catalogue_version')
}

/**
 * Lets this connection's cached answers lag the catalogue by up to lagMs (0: answers are always of the
 * current version, the default). Set while a sync writes; an answer older than lagMs is computed again.
 */
export function letAnswersLag(db: Database, lagMs: number): void {
  entryOf(db).lagMs = lagMs
}

/** The cached answer for key, or compute() stored as one; valid until the catalogue changes (or as `letAnswersLag` allows). */
export function cached<T>(db: Database, key: string, compute: () => T): T {
  const version = currentCatalogueVersion(db)
  const entry = entryOf(db)
  const now = performance.now()
  const known = entry.answers.get(key)
  if (known && (known.version === version || now - known.at < entry.lagMs)) return known.value as T
  const value = compute()
  entry.answers.delete(key)
  // Without a lag, answers of older versions are never given again: let them go at once.
  if (entry.lagMs === 0) for (const [other, answer] of entry.answers) if (answer.version !== version) entry.answers.delete(other)
  if (entry.answers.size >= MAX_ENTRIES) entry.answers.delete(entry.answers.keys().next().value!)
  entry.answers.set(key, { version, at: now, value })
  return value
}

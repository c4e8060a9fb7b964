/** The app's own SQL functions, registered on every connection before any migration or query uses them. */
import path from 'node:path'
import type { Database } from 'better-sqlite3'
import { searchWords } from '../shared/text'

/**
 * `search_text(text)`: the words of text as the service's search sees them
 * (shared/text's `searchWords`: folded runs of letters and digits), joined by
 * single spaces; what the search index holds. NULL stays NULL.
 *
 * `dirname(path)`: the folder of a path as this system's path module sees it
 * (a Windows path's backslashes too), for migration 0015. NULL stays NULL.
 */
export function registerSqlFunctions(db: Database): void {
  db.function('search_text', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? searchWords(text).join(' ') : (text ?? null),
  )
  db.function('dirname', { deterministic: true }, (file: unknown) => (typeof file === 'string' ? path.dirname(file) : (file ?? null)))
}

/** The app's own SQL functions, registered on every connection before any migration or query uses them. */
import type { Database } from 'better-sqlite3'
import { searchWords } from '../shared/text'

/**
 * `search_text(text)`: the words of text as the service's search sees them
 * (shared/text's `searchWords`: folded runs of letters and digits), joined by
 * single spaces; what the search index holds. NULL stays NULL.
 */
export function registerSqlFunctions(db: Database): void {
  db.function('search_text', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? searchWords(text).join(' ') : (text ?? null),
  )
}

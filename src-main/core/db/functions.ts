/** The app's own SQL functions, registered on every connection before any migration or query uses them. */
import type { Database } from 'better-sqlite3'
import { foldText } from '../shared/text'

/** `fold(text)`: text as the search index holds it (see shared/text); NULL stays NULL. */
export function registerSqlFunctions(db: Database): void {
  db.function('fold', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? foldText(text) : text ?? null))
}

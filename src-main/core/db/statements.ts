/** Prepared statements, compiled once per connection and reused. */
import type { Database, Statement } from 'better-sqlite3'

const cache = new WeakMap<Database, Map<string, Statement>>()

/** The prepared statement for sql on db, from the connection's cache. */
export function statement<Params extends unknown[] | object = unknown[], Row = unknown>(
  db: Database,
  sql: string,
): Statement<Params, Row> {
  let statements = cache.get(db)
  if (!statements) {
    statements = new Map()
    cache.set(db, statements)
  }
  let prepared = statements.get(sql)
  if (!prepared) {
    prepared = db.prepare(sql)
    statements.set(sql, prepared)
  }
  return prepared as unknown as Statement<Params, Row>
}

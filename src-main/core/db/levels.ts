/** The service's access levels (tiers), as the last sync stored them. */
import type { Database } from 'better-sqlite3'
import type { AccessLevel } from '../shared/catalogue'
import { statement } from './statements'

export function accessLevels(db: Database): AccessLevel[] {
  return statement<[], AccessLevel>(db, 'SELECT id, name, maxsize, price, bandwidth, storage FROM access_levels ORDER BY id').all()
}

export function replaceAccessLevels(db: Database, levels: AccessLevel[]): void {
  const insert = statement(
    db,
    'INSERT INTO access_levels (id, name, maxsize, price, bandwidth, storage) VALUES (@id, @name, @maxsize, @price, @bandwidth, @storage)',
  )
  db.transaction(() => {
    statement(db, 'DELETE FROM access_levels').run()
    for (const level of levels) insert.run(level)
  }).immediate()
}

/** Brings a cache up to the schema of this code, one migration per transaction. */
import type { Database } from 'better-sqlite3'
import { MIGRATIONS, type Migration } from './migrations/index'

export class SchemaTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(`the cache was written by a newer Tuneshelf (schema ${found}; this version knows up to ${supported})`)
  }
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number
}

/** Runs every migration above the database's user_version, in order; returns the versions applied. */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS, target = migrations.length): number[] {
  const current = schemaVersion(db)
  const latest = migrations.at(-1)?.version ?? 0
  if (current > latest) throw new SchemaTooNewError(current, latest)
  const applied: number[] = []
  for (const migration of migrations) {
    if (migration.version <= current || migration.version > target) continue
    db.transaction(() => {
      migration.up(db)
      db.pragma(`user_version = ${migration.version}`)
    })()
    applied.push(migration.version)
  }
  return applied
}

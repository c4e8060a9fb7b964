/**
 * Brings a cache up to the schema of this code, one migration per transaction,
 * recording each migration's checksum; refuses a cache newer than the code, or
 * one whose applied migration differs from the code's migration of that number.
 */
import { createHash } from 'node:crypto'
import type { Database } from 'better-sqlite3'
import { SchemaMismatchError, SchemaTooNewError } from '../shared/errors'
import { registerSqlFunctions } from './functions'
import { MIGRATIONS, type Migration } from './migrations/index'

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number
}

/** The checksum a migration is recorded with: SHA-256 of its SQL text. */
export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex')
}

/** Runs every migration above the database's user_version, in order (up to target); returns the versions applied. */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS, target = migrations.length): number[] {
  registerSqlFunctions(db)
  const current = schemaVersion(db)
  const latest = migrations.at(-1)?.version ?? 0
  if (current > latest) {
    throw new SchemaTooNewError(
      `the catalogue cache was written by a newer Tuneshelf (schema ${current}; this version knows up to ${latest}): update Tuneshelf to open it`,
    )
  }
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    checksum TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`)
  db.transaction(() => verifyApplied(db, migrations, schemaVersion(db))).immediate()
  const record = db.prepare('INSERT OR REPLACE INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)')
  const applied: number[] = []
  for (const migration of migrations) {
    if (migration.version <= current || migration.version > target) continue
    // The version is read again under the write lock: another process opening the same new
    // cache at the same moment may have applied this migration meanwhile.
    const ran = db.transaction(() => {
      if (schemaVersion(db) >= migration.version) return false
      db.exec(migration.sql)
      record.run(migration.version, migration.name, migrationChecksum(migration), Date.now())
      db.pragma(`user_version = ${migration.version}`)
      return true
    }).immediate()
    if (ran) applied.push(migration.version)
  }
  return applied
}

/**
 * Each applied migration must be the code's, byte for byte. A cache from before
 * checksums were recorded has none: its migrations are taken as they are and
 * recorded now.
 */
function verifyApplied(db: Database, migrations: readonly Migration[], current: number): void {
  const recorded = new Map(
    (db.prepare('SELECT version, name, checksum FROM schema_migrations').all() as { version: number; name: string; checksum: string }[]).map(
      (row) => [row.version, row],
    ),
  )
  const adopt = db.prepare('INSERT OR IGNORE INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)')
  for (const migration of migrations) {
    if (migration.version > current) break
    const row = recorded.get(migration.version)
    if (row === undefined) {
      adopt.run(migration.version, migration.name, migrationChecksum(migration), Date.now())
    } else if (row.checksum !== migrationChecksum(migration)) {
      const file = db.memory ? 'the cache file' : `the cache file ${db.name}`
      throw new SchemaMismatchError(
        `the catalogue cache was built by a different version of migration ${migration.version} (${row.name}) than this ` +
          `Tuneshelf's (${migration.name}); it cannot be read safely. Move ${file} aside (or delete it) and sync again.`,
      )
    }
  }
}

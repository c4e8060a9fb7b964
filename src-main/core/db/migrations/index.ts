/**
 * The schema's history, oldest first. Migration N takes a database from
 * user_version N-1 to N; never edit one that has shipped, add the next.
 */
import type { Database } from 'better-sqlite3'
import * as initial from './0001-initial'
import * as downloads from './0002-downloads'

export interface Migration {
  version: number
  name: string
  up(db: Database): void
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: '0001-initial', up: initial.up },
  { version: 2, name: '0002-downloads', up: downloads.up },
]

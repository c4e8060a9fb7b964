/**
 * The schema's history, oldest first. Migration N takes a database from
 * user_version N-1 to N. Each is SQL text whose checksum every cache stores,
 * so a cache built by a migration that has since changed is refused rather than
 * half understood: never edit one that has shipped, add the next.
 */
import * as initial from './0001-initial'
import * as downloads from './0002-downloads'
import * as downloadStates from './0003-download-states'
import * as foldedSearch from './0004-folded-search'
import * as locks from './0005-locks'
import * as whatsNew from './0006-whats-new'
import * as searchAnswers from './0007-search-answers'
import * as follows from './0008-follows'
import * as tracksRowid from './0009-tracks-rowid'
import * as downloadTotals from './0010-download-totals'
import * as syncKinds from './0011-sync-kinds'
import * as completedNewest from './0012-completed-newest'
import * as artistNames from './0013-artist-names'
import * as searchWhileSyncing from './0014-search-while-syncing'
import * as downloadFolders from './0015-download-folders'

export interface Migration {
  version: number
  name: string
  sql: string
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: '0001-initial', sql: initial.sql },
  { version: 2, name: '0002-downloads', sql: downloads.sql },
  { version: 3, name: '0003-download-states', sql: downloadStates.sql },
  { version: 4, name: '0004-folded-search', sql: foldedSearch.sql },
  { version: 5, name: '0005-locks', sql: locks.sql },
  { version: 6, name: '0006-whats-new', sql: whatsNew.sql },
  { version: 7, name: '0007-search-answers', sql: searchAnswers.sql },
  { version: 8, name: '0008-follows', sql: follows.sql },
  { version: 9, name: '0009-tracks-rowid', sql: tracksRowid.sql },
  { version: 10, name: '0010-download-totals', sql: downloadTotals.sql },
  { version: 11, name: '0011-sync-kinds', sql: syncKinds.sql },
  { version: 12, name: '0012-completed-newest', sql: completedNewest.sql },
  { version: 13, name: '0013-artist-names', sql: artistNames.sql },
  { version: 14, name: '0014-search-while-syncing', sql: searchWhileSyncing.sql },
  { version: 15, name: '0015-download-folders', sql: downloadFolders.sql },
]

/**
 * The queue's rows in the cache as the manager changes them: every change of state checked against
 * the table (states.ts), made in one transaction, and announced in one change event.
 */
import type { Database } from 'better-sqlite3'
import * as store from '../db/downloads'
import type { Download } from '../db/downloads'
import type { Emitter } from '../events'
import { NotFoundError } from '../shared/errors'
import type { DownloadState } from '../shared/catalogue'
import type { DownloadChange } from '../shared/types'
import { checkChange } from './states'

export class DownloadRows {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    private readonly changes: Emitter<DownloadChange>,
  ) {}

  /** The download as the cache has it now; NotFoundError when it is gone. */
  require(id: number): Download {
    const download = store.getDownload(this.db, id)
    if (!download) throw new NotFoundError(`no download ${id}`)
    return download
  }

  /** Moves downloads to a state the table allows, in one transaction and one change event. */
  setStates(downloads: readonly Download[], state: DownloadState, fields: Omit<store.StateFields, 'now'> = {}): void {
    if (downloads.length === 0) return
    this.db.transaction(() => {
      for (const download of downloads) {
        const current = this.require(download.id)
        checkChange(download.id, current.state, state)
        store.setState(this.db, download.id, state, { ...fields, now: this.now() })
      }
    }).immediate()
    this.fireChange(downloads.map((download) => download.id))
  }

  /** One change event for these downloads, as they are now (no event, and no reading, when none listens). */
  fireChange(ids: readonly number[]): void {
    if (ids.length === 0 || !this.changes.hasListeners) return
    this.changes.fire({ downloads: ids.map((id) => this.require(id)), removed: [] })
  }
}

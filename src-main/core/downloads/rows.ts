/**
 * The queue's rows in the cache as the manager changes them: every change of state checked against
 * the table (states.ts), made in one transaction, and announced in one change event.
 */
import type { Database } from 'better-sqlite3'
import * as store from '../db/downloads'
import type { Download } from '../db/downloads'
import type { Emitter } from '../base/events'
import { NotFoundError } from '../shared/errors'
import type { DownloadState } from '../shared/catalogue'
import { MANY_CHANGED, type DownloadChange } from '../shared/types-downloads'
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
    const ids = downloads.map((download) => download.id)
    this.db.transaction(() => {
      // Each one as it is now, read together: a selection of thousands is a few reads, not thousands.
      const current = store.getDownloads(this.db, ids)
      for (const id of ids) {
        const download = current.get(id)
        if (!download) throw new NotFoundError(`no download ${id}`)
        checkChange(id, download.state, state)
        store.setState(this.db, id, state, { ...fields, now: this.now() })
      }
    }).immediate()
    this.fireChange(ids)
  }

  /**
   * One change event for these downloads, as they are now (no event, and no reading, when none listens);
   * for more than MANY_CHANGED, only how many: whoever shows the queue reads what it shows again.
   */
  fireChange(ids: readonly number[]): void {
    if (ids.length === 0 || !this.changes.hasListeners) return
    if (ids.length > MANY_CHANGED) {
      this.changes.fire({ downloads: [], removed: [], many: ids.length })
      return
    }
    const rows = store.getDownloads(this.db, ids)
    this.changes.fire({ downloads: ids.flatMap((id) => rows.get(id) ?? []), removed: [] })
  }

  /** One change event for downloads taken off the list (for more than MANY_CHANGED, only how many). */
  fireRemoved(ids: readonly number[]): void {
    if (ids.length === 0) return
    this.changes.fire(ids.length > MANY_CHANGED ? { downloads: [], removed: [], many: ids.length } : { downloads: [], removed: [...ids] })
  }
}

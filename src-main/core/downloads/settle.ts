/** What a transfer that did not complete becomes: decided by why it was stopped, or by its error. */
import fsp from 'node:fs/promises'
import type { Database } from 'better-sqlite3'
import * as store from '../db/downloads'
import type { Download } from '../db/downloads'
import { DiskFullError } from '../shared/errors'
import type { DiskFullPolicy } from './disk-full'
import { deletablePart } from './file-names'
import type { DownloadRows } from './rows'
import type { StopReason } from './scheduler'
import { isUnreachable } from './transfer'

export interface Settling {
  db: Database
  now: () => number
  rows: DownloadRows
  diskFull: DiskFullPolicy
  /** No server can be reached: the queue holds back until the network is back. */
  networkGone: () => void
}

export async function settleStopped(download: Download, reason: StopReason | undefined, error: Error, queue: Settling): Promise<void> {
  switch (reason) {
    case 'pause':
      return queue.rows.setStates([download], 'paused')
    case 'requeue':
      return queue.rows.setStates([download], 'queued')
    case 'stop':
    case 'remove':
      return // stays as it is in the cache: the next start resumes it, or remove() deletes it
    case 'cancel': {
      const part = deletablePart(store.downloadFolder(queue.db, download.id), download.targetPath)
      if (part !== undefined) await fsp.rm(part, { force: true })
      store.recordProgress(queue.db, download.id, 0, 0, queue.now())
      return queue.rows.setStates([download], 'cancelled')
    }
    case 'disk-full':
      return queue.diskFull.pauseForSpace(download)
  }
  // Nothing is lost: every running download pauses with its bytes, and the queue waits for space (disk-full.ts).
  if (error instanceof DiskFullError) return queue.diskFull.filled(download, error)
  if (isUnreachable(error)) {
    // Not a failure of the download: back in line, saying why (it waits for the network), and the
    // queue holds back, as every download would fail the same way, until networkBack().
    queue.networkGone()
    return queue.rows.setStates([download], 'queued', { error: error.message })
  }
  queue.rows.setStates([download], 'failed', { error: error.message })
}

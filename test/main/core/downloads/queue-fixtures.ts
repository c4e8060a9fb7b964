/**
 * The download queue's tests share one synced cache per file: synced once, then
 * copied into a fresh data folder for each library a test opens, so every test
 * starts from the same catalogue and an empty queue without syncing again.
 */
import fs from 'node:fs'
import Database from 'better-sqlite3'
import type { CatalogueServiceOptions } from '../../../../src-main/demo/index'
import type { Event } from '../../../../src-main/core/base/events'
import { openLibrary as openRealLibrary, type Library, type LibraryOptions } from '../../../../src-main/core/library/library'
import { QUICK_RETRIES, catalogueTest } from '../../support/fixtures'

/** Quick transfer retries, as the shared fixture sets them. */
export const QUICK_TRANSFERS = { backoffMs: 5, maxDelayMs: 20 } as const

/** What the synced cache holds, for choosing uploads and artists. */
export interface SyncedCache {
  /** A data folder holding the synced cache (never opened by a test: each copies it). */
  dataDir: string
  /** `count` upload ids with at least minBytes each, smallest first. */
  uploads(count: number, minBytes?: number): string[]
  /** The artist with the most tracks between min and max. */
  artistWithTracks(min: number, max: number): string
}

/** Opens a library over a copy of the synced cache, in a fresh folder or options.dataDir (disposed after the test). */
export type SyncedLibrary = (options?: Partial<LibraryOptions>) => Library

export function queueTest(demoOptions: Partial<CatalogueServiceOptions>) {
  return catalogueTest(demoOptions)
    .extend('synced', { scope: 'file' }, async ({ demo, tempDir }): Promise<SyncedCache> => {
      const dataDir = tempDir()
      const library = openRealLibrary({ dataDir, baseUrl: demo.baseUrl, client: QUICK_RETRIES })
      let cacheFile: string
      try {
        await library.sync.start({ skipAvatars: true })
        cacheFile = library.cacheFile
      } finally {
        await library.dispose()
      }
      const db = new Database(cacheFile, { readonly: true })
      try {
        const uploads = db
          .prepare('SELECT upload_id AS uploadId, bytes FROM tracks WHERE bytes IS NOT NULL AND hotlink_path IS NOT NULL ORDER BY bytes, upload_id')
          .all() as { uploadId: string; bytes: number }[]
        const artists = db.prepare('SELECT username, num_tracks AS tracks FROM artists ORDER BY num_tracks DESC, username').all() as {
          username: string
          tracks: number
        }[]
        return {
          dataDir,
          uploads: (count, minBytes = 0) => {
            const chosen = uploads.filter((upload) => upload.bytes >= minBytes).slice(0, count)
            if (chosen.length < count) throw new Error(`the demo catalogue has fewer than ${count} uploads of ${minBytes} bytes or more`)
            return chosen.map((upload) => upload.uploadId)
          },
          artistWithTracks: (min, max) => {
            const artist = artists.find((candidate) => candidate.tracks >= min && candidate.tracks <= max)
            if (!artist) throw new Error(`the demo catalogue has no artist with ${min} to ${max} tracks`)
            return artist.username
          },
        }
      } finally {
        db.close()
      }
    })
    .extend('syncedLibrary', async ({ openLibrary, synced, tempDir }): Promise<SyncedLibrary> => {
      return (options = {}) => {
        const dataDir = options.dataDir ?? tempDir()
        fs.cpSync(synced.dataDir, dataDir, { recursive: true })
        return openLibrary({ ...options, dataDir })
      }
    })
}

/** The first value of event that satisfies predicate; rejects naming `what` after timeoutMs. */
export function until<T>(event: Event<T>, predicate: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose()
      reject(new Error(`timed out waiting for ${what}`))
    }, timeoutMs)
    const subscription = event((value) => {
      if (!predicate(value)) return
      clearTimeout(timer)
      subscription.dispose()
      resolve(value)
    })
  })
}

/** Everything event delivers from now on (until its emitter is disposed with the library). */
export function collect<T>(event: Event<T>): T[] {
  const values: T[] = []
  event((value) => values.push(value))
  return values
}


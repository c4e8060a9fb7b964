// Artists of the demo catalogue for the artist and player specs, picked by what a test
// needs. The specs share one bridge (and its download queue) per worker with every
// other spec, so each pick takes the last artist that fits: others' picks tend to be first.
import { expect } from '@playwright/test'
import type { RunningCatalogueService } from '../../../src-main/demo/index'
import type { ArtistRecord, TrackRecord } from '../../../src-main/demo/catalogue'
import type { RunningWebBridge } from './web-bridge'

export interface Pick {
  artist: ArtistRecord
  tracks: TrackRecord[]
}

/** The last live artist for which test holds, with its tracks (the artist's order, newest first). */
export function pickArtist(demo: RunningCatalogueService, test: (artist: ArtistRecord, tracks: TrackRecord[]) => boolean, skip: string[] = []): Pick {
  const artists = demo.catalogue.artists.filter((artist) => !artist.removed && !skip.includes(artist.username))
  for (const artist of artists.reverse()) {
    const tracks = demo.catalogue.tracksOf(artist)
    if (test(artist, tracks)) return { artist, tracks }
  }
  throw new Error('no artist in the demo catalogue fits')
}

/** Waits until the bridge's cache holds a complete sync (joining the first sync if it still runs). */
export async function ensureSynced(bridge: RunningWebBridge): Promise<void> {
  const status = await bridge.call('catalogue:status')
  if (status.ok && status.value.lastFullSyncAt !== null) return
  const report = await bridge.call('sync:start')
  if (!report.ok) throw new Error(`sync failed: ${report.error.message}`)
}

/** Queues uploads through the contract and waits until all of them are downloaded; resolves with their downloads. */
export async function downloadNow(bridge: RunningWebBridge, uploadIds: string[], timeout = 30_000): Promise<{ id: number; uploadId: string; targetPath: string }[]> {
  const queued = await bridge.call('downloads:enqueue', { uploadIds })
  if (!queued.ok) throw new Error(queued.error.message)
  const ids = new Set(queued.value.downloads.map((download) => download.id))
  let done: { id: number; uploadId: string; targetPath: string }[] = []
  await expect
    .poll(
      async () => {
        const list = await bridge.call('downloads:list', 'completed')
        if (!list.ok) throw new Error(list.error.message)
        done = list.value.filter((download) => ids.has(download.id))
        return done.length
      },
      { timeout, message: 'the downloads complete' },
    )
    .toBe(ids.size)
  return done
}

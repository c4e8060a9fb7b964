// Waiting for the bridge's catalogue, and picking uploads of the demo for a test to download.
import { expect } from '@playwright/test'
import type { ArtistRecord, Catalogue, TrackRecord } from '../../../src-main/demo/catalogue'
import type { RunningWebBridge } from './web-bridge'

/** Resolves once the bridge has completed a sync of its catalogue (the first one starts by itself). */
export async function whenSynced(bridge: RunningWebBridge, timeout = 90_000): Promise<void> {
  await expect
    .poll(
      async () => {
        const state = await bridge.call('sync:state')
        return state.ok && state.value.lastFullSyncAt !== null && state.value.status === 'idle'
      },
      { timeout, message: 'the catalogue is synced' },
    )
    .toBe(true)
}

/** A track of the demo with its artist, as a test downloads it. */
export interface DemoUpload {
  artist: ArtistRecord
  track: TrackRecord
  /** The path its file is served at, for faults. */
  path: string
}

/**
 * Uploads of the demo for one test: `count` tracks between minBytes and maxBytes,
 * from the artists at `from` onwards (tests pick apart ranges, so they rarely share a file).
 */
export function pickUploads(catalogue: Catalogue, count: number, from: number, minBytes = 2_000_000, maxBytes = Infinity): DemoUpload[] {
  const picked: DemoUpload[] = []
  for (const artist of catalogue.artists.slice(from)) {
    if (artist.removed) continue
    for (const track of catalogue.tracksOf(artist)) {
      if (track.bytes < minBytes || track.bytes > maxBytes) continue
      // One title once: rows are told apart by title on screen too.
      if (picked.some((other) => other.track.title === track.title)) continue
      picked.push({ artist, track, path: `/hotlink/${track.uploadId}.${track.ext}` })
      if (picked.length === count) return picked
    }
  }
  throw new Error(`the demo has fewer than ${count} uploads of ${minBytes} to ${maxBytes} bytes from artist ${from} on`)
}

/** Unwraps a bridge call's result, failing the test with the core's error otherwise. */
export function valueOf<T>(result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!result.ok) throw new Error(`the bridge answered ${result.error.code}: ${result.error.message}`)
  return result.value
}

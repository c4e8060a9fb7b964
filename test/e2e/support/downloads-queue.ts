// The download queue as the downloads spec drives it through the web bridge: queuing a test's
// uploads into its own folder, reading a row as the core has it, tidying up, and picking uploads.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Catalogue } from '../../../src-main/demo/catalogue'
import type { RunningCatalogueService } from '../../../src-main/demo/index'
import { pickUploads, valueOf, whenSynced, type DemoUpload } from './catalogue-ready'
import type { test as fixtureTest } from './fixtures'
import type { RunningWebBridge } from './web-bridge'

/** Slow enough that a few-megabyte file is still running while the test looks at it, for a minute or more. */
export const SLOW = { kind: 'slow', bytesPerSecond: 48_000 } as const

/** What a test queued: the uploads and their download ids, in the same order. */
export interface Queued {
  uploads: DemoUpload[]
  ids: number[]
}

/** Queues uploads into folder: the download folder of the settings for the test (a request names no folder of its own). */
export async function enqueue(bridge: RunningWebBridge, folder: string, uploads: DemoUpload[]): Promise<Queued> {
  valueOf(await bridge.call('settings:set', { downloadFolder: folder }))
  const result = valueOf(await bridge.call('downloads:enqueue', { uploadIds: uploads.map((upload) => upload.track.uploadId) }))
  const ids = uploads.map((upload) => result.downloads.find((download) => download.uploadId === upload.track.uploadId)!.id)
  return { uploads, ids }
}

/** Takes a test's rows off the queue (stopping any still running), so later tests see a quiet queue. */
export async function tidy(bridge: RunningWebBridge, ids: number[]): Promise<void> {
  const rows = valueOf(await bridge.call('downloads:list'))
  const mine = rows.filter((row) => ids.includes(row.id)).map((row) => row.id)
  if (mine.length > 0) valueOf(await bridge.call('downloads:remove', mine))
}

export async function monthBytes(bridge: RunningWebBridge): Promise<number> {
  return valueOf(await bridge.call('downloads:monthlyBytes')).bytes
}

/** A test's own part of the shared queue: its folder, and the ids it queued (to be taken off after it). */
export interface OwnQueue {
  folder: string
  ids: number[]
}

/**
 * Gives each test of a describe block a folder of its own for its downloads, after the shared bridge's
 * sync, and puts the queue back as it found it afterwards: its rows removed, no faults, the settings
 * a test may change at their defaults. `asDownloadFolder`: the folder is the settings' from the start.
 */
export function ownQueue(test: typeof fixtureTest, prefix: string, options: { asDownloadFolder?: boolean } = {}): OwnQueue {
  const own: OwnQueue = { folder: '', ids: [] }
  test.beforeEach(async ({ bridge, demo }) => {
    await whenSynced(bridge)
    demo.faults.clear()
    own.folder = await mkdtemp(join(tmpdir(), prefix))
    own.ids = []
    if (options.asDownloadFolder) valueOf(await bridge.call('settings:set', { downloadFolder: own.folder }))
  })
  test.afterEach(async ({ bridge, demo }) => {
    demo.faults.clear()
    await tidy(bridge, own.ids)
    valueOf(await bridge.call('settings:set', { downloadFolder: null, downloadConcurrency: 3, downloadSpeedLimit: null }))
    await rm(own.folder, { recursive: true, force: true })
  })
  return own
}

/**
 * A queue held in line, for a test that acts on it while it moves: one download at a time, and `count`
 * files of 2 MB or more (picked from artist `from` on) each sent slowly, queued into the test's folder.
 * The ids, in the order queued: the first runs, the others wait in Queued.
 */
export async function queueInLine(own: OwnQueue, bridge: RunningWebBridge, demo: RunningCatalogueService, count: number, from: number): Promise<number[]> {
  valueOf(await bridge.call('settings:set', { downloadConcurrency: 1 }))
  const uploads = pickUploads(demo.catalogue, count, from, 2_000_000)
  for (const upload of uploads) demo.faults.add({ path: upload.path, fault: SLOW })
  const { ids } = await enqueue(bridge, own.folder, uploads)
  own.ids = ids
  return ids
}

/** A download's row as the core has it now. */
export async function rowOf(bridge: RunningWebBridge, id: number) {
  return valueOf(await bridge.call('downloads:list')).find((row) => row.id === id)
}

/** The artist's name as a screen shows it: the display name, else the username (whitespace runs read as one space). */
export function shownName(upload: DemoUpload): string {
  const name = upload.artist.pfName.trim()
  return (name === '' ? upload.artist.username : name).replace(/\s+/g, ' ')
}

/** An upload of the demo with a blank title, by an artist with a plain name of its own (not its username). */
export function untitledUpload(catalogue: Catalogue, from: number): DemoUpload {
  for (const artist of catalogue.artists.slice(from)) {
    if (artist.removed || !/^[A-Za-z]+ [A-Za-z]+$/.test(artist.pfName) || artist.pfName === artist.username) continue
    const track = catalogue.tracksOf(artist).find((candidate) => candidate.title.trim() === '' && candidate.bytes < 3_000_000)
    if (track) return { artist, track, path: `/hotlink/${track.uploadId}.${track.ext}` }
  }
  throw new Error(`the demo has no untitled upload by a named artist from artist ${from} on`)
}

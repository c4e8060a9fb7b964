/**
 * Full and incremental sync of a catalogue service into the cache (design §5):
 * every page of the artist list in each sort order and once for podcasters,
 * then the detail of every artist whose list entry changed, the access levels,
 * and the avatars. A run is checkpointed in the cache as it goes, so a
 * cancelled or crashed run resumes where it stopped.
 */
import pLimit from 'p-limit'
import type { CatalogueClient, ListArtistsQuery } from '../api/index'
import type { Database } from '../db/connection'
import {
  LIST_PASSES, addDetailsFetched, applyLists, artistsNeedingDetail, avatarsWanted, endRun, listProgress,
  recordAvatars, recordDetailError, recordDetails, recordListPage, replaceAccessLevels, setRunPhase, startOrResumeRun,
  type AvatarImage, type DetailWanted, type FetchedDetail, type ListPass, type SyncPhase,
} from '../db/sync-store'
import { fetchAvatar } from './avatars'
import { WriteBatch } from './batch'
import { ProgressReporter, type SyncProgress } from './progress'

export type { SyncProgress } from './progress'

const PER_PAGE = 50

export interface SyncOptions {
  db: Database
  client: CatalogueClient
  /** Artist details fetched at once (default 4). */
  detailConcurrency?: number
  /** List pages fetched at once (default 4). */
  listConcurrency?: number
  /** Avatars fetched at once (default 8). */
  avatarConcurrency?: number
  /** Skip avatars (default false). */
  skipAvatars?: boolean
  signal?: AbortSignal
  onProgress?: (progress: SyncProgress) => void
  /** Least time between two progress reports of a phase (default 250 ms). */
  progressIntervalMs?: number
  now?: () => number
}

export interface SyncReport {
  runId: number
  resumed: boolean
  listPages: number
  detailsFetched: number
  /** Artists whose detail could not be fetched, even on a second try; a later sync tries again. */
  detailFailures: { username: string; message: string }[]
  gone: number
  accessLevels: number
  avatarsFetched: number
  avatarFailures: { url: string; message: string }[]
  durationMs: number
}

const PHASES: SyncPhase[] = ['lists', 'details', 'levels', 'avatars', 'done']

/** What every phase of one run works with. */
interface Run {
  db: Database
  client: CatalogueClient
  runId: number
  signal: AbortSignal
  progress: ProgressReporter
  now: () => number
  report: SyncReport
}

/** Runs (or resumes) a sync to the end; rejects with the failure, or the abort reason when cancelled. */
export async function syncCatalogue(options: SyncOptions): Promise<SyncReport> {
  const { db, client } = options
  const now = options.now ?? Date.now
  const startedAt = performance.now()
  const progress = new ProgressReporter(options.onProgress, options.progressIntervalMs ?? 250)
  // One controller for the run: the caller's cancel, or a failure, stops every request in flight.
  const controller = new AbortController()
  const onAbort = (): void => controller.abort(options.signal?.reason)
  options.signal?.addEventListener('abort', onAbort, { once: true })
  if (options.signal?.aborted) onAbort()
  const signal = controller.signal

  const { run, resumed } = startOrResumeRun(db, now())
  const report: SyncReport = {
    runId: run.id, resumed, listPages: 0, detailsFetched: 0, detailFailures: [], gone: 0, accessLevels: 0,
    avatarsFetched: 0, avatarFailures: [], durationMs: 0,
  }
  const context: Run = { db, client, runId: run.id, signal, progress, now, report }
  try {
    const from = PHASES.indexOf(run.phase)
    if (from <= 0) {
      report.listPages = await syncLists(context, options.listConcurrency ?? 4)
      report.gone = applyLists(db, run.id, now()).gone
    }
    if (from <= 1) await syncDetails(context, options.detailConcurrency ?? 4)
    if (from <= 2) {
      setRunPhase(db, run.id, 'levels')
      progress.report({ phase: 'levels', done: 0, total: 1 }, true)
      const levels = await client.accessLevels({ signal })
      replaceAccessLevels(db, levels)
      report.accessLevels = levels.length
      progress.report({ phase: 'levels', done: 1, total: 1 }, true)
    }
    setRunPhase(db, run.id, 'avatars')
    if (!options.skipAvatars) await syncAvatars(context, options.avatarConcurrency ?? 8)
    endRun(db, run.id, 'completed', now())
    progress.report({ phase: 'done', done: 1, total: 1 }, true)
  } catch (error) {
    const cancelled = options.signal?.aborted === true
    controller.abort(error)
    try {
      endRun(db, run.id, cancelled ? 'cancelled' : 'failed', now(), cancelled ? 'cancelled' : (error as Error).message)
    } catch {
      // A full disk can refuse this note too; the run then stays "running" and is resumed all the same.
    }
    throw cancelled ? options.signal!.reason : error
  } finally {
    options.signal?.removeEventListener('abort', onAbort)
    report.durationMs = performance.now() - startedAt
  }
  return report
}

/** Every page of every list pass that this run has not stored yet; returns the pages fetched. */
async function syncLists({ db, client, runId, signal, progress }: Run, concurrency: number): Promise<number> {
  const limit = pLimit(concurrency)
  const stored = listProgress(db, runId)
  const pagesOf = new Map<ListPass, number>(LIST_PASSES.map((pass) => [pass, stored.get(pass)?.pages ?? 1]))
  const doneOf = new Map<ListPass, Set<number>>(LIST_PASSES.map((pass) => [pass, stored.get(pass)?.done ?? new Set()]))
  const known = new Set(LIST_PASSES.filter((pass) => stored.has(pass)))
  let fetched = 0
  const total = (): number => [...pagesOf.values()].reduce((sum, pages) => sum + Math.max(pages, 1), 0)
  const done = (): number => [...doneOf.values()].reduce((sum, pages) => sum + pages.size, 0)
  progress.report({ phase: 'lists', done: done(), total: total() }, true)

  const fetchPage = async (pass: ListPass, page: number): Promise<void> => {
    signal.throwIfAborted()
    const query: ListArtistsQuery =
      pass === 'podcasters'
        ? { page, perPage: PER_PAGE, includeBlank: true, isPodcaster: 1 }
        : { page, perPage: PER_PAGE, includeBlank: true, sort: pass }
    const result = await client.listArtists(query, { signal })
    // The page count can change while a run goes on; the larger one wins so no page is skipped.
    const pages = Math.max(result.pages, pagesOf.get(pass)!)
    pagesOf.set(pass, pages)
    recordListPage(db, runId, pass, page, pages, PER_PAGE, result.artists)
    doneOf.get(pass)!.add(page)
    fetched++
    progress.report({ phase: 'lists', done: done(), total: total() })
  }

  const syncPass = async (pass: ListPass): Promise<void> => {
    if (!known.has(pass)) await limit(() => fetchPage(pass, 1))
    // Loop in case a later page reports more pages than the first did.
    for (;;) {
      const missing: number[] = []
      for (let page = 1; page <= pagesOf.get(pass)!; page++) if (!doneOf.get(pass)!.has(page)) missing.push(page)
      if (missing.length === 0) return
      await Promise.all(missing.map((page) => limit(() => fetchPage(pass, page))))
    }
  }

  await Promise.all(LIST_PASSES.map(syncPass))
  progress.report({ phase: 'lists', done: done(), total: total() }, true)
  return fetched
}

async function syncDetails({ db, client, runId, signal, progress, now, report }: Run, concurrency: number): Promise<void> {
  const limit = pLimit(concurrency)
  const wanted = artistsNeedingDetail(db)
  let done = 0
  progress.report({ phase: 'details', done, total: wanted.length }, true)
  const failures = new Map<number, { artist: DetailWanted; message: string }>()

  // Details are stored in batches; a batch lost to a crash is fetched again on resume.
  const batch = new WriteBatch<FetchedDetail>((items) =>
    db.transaction(() => {
      recordDetails(db, items)
      addDetailsFetched(db, runId, items.length)
    })(),
  )
  const fetchDetail = async (artist: DetailWanted): Promise<void> => {
    signal.throwIfAborted()
    try {
      const detail = await client.getArtist(artist.username, { signal })
      batch.add({ wanted: artist, detail, fetchedAt: now() })
      failures.delete(artist.id)
      report.detailsFetched++
    } catch (error) {
      if (signal.aborted) throw error
      // One artist's failure never fails the sync: it is noted, kept, and tried again.
      const message = (error as Error).message
      recordDetailError(db, artist.id, message)
      failures.set(artist.id, { artist, message })
    }
  }

  try {
    await Promise.all(
      wanted.map((artist) =>
        limit(async () => {
          await fetchDetail(artist)
          progress.report({ phase: 'details', done: ++done, total: wanted.length })
        }),
      ),
    )
    // A second try for the failures, now that the rest is done.
    await Promise.all([...failures.values()].map(({ artist }) => limit(() => fetchDetail(artist))))
  } finally {
    // Also after a stop: what arrived is kept, and a resume has less to fetch.
    batch.flush()
  }
  report.detailFailures = [...failures.values()].map(({ artist, message }) => ({ username: artist.username, message }))
  progress.report({ phase: 'details', done: wanted.length, total: wanted.length }, true)
}

async function syncAvatars({ db, client, signal, progress, now, report }: Run, concurrency: number): Promise<void> {
  const limit = pLimit(concurrency)
  const urls = avatarsWanted(db)
  const batch = new WriteBatch<AvatarImage>((images) => recordAvatars(db, images, now()), 256)
  let done = 0
  progress.report({ phase: 'avatars', done, total: urls.length }, true)
  try {
    await Promise.all(
      urls.map((url) =>
        limit(async () => {
          signal.throwIfAborted()
          try {
            batch.add(await fetchAvatar(client, url, signal))
            report.avatarsFetched++
          } catch (error) {
            if (signal.aborted) throw error
            report.avatarFailures.push({ url, message: (error as Error).message })
          }
          progress.report({ phase: 'avatars', done: ++done, total: urls.length })
        }),
      ),
    )
  } finally {
    batch.flush()
  }
  progress.report({ phase: 'avatars', done: urls.length, total: urls.length }, true)
}

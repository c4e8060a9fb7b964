/**
 * The work of one sync run, as one stream of requests through one queue: the
 * queue's concurrency is the cap on requests in flight to the service, all
 * kinds together. Each list page that arrives is stored at once and queues the
 * details and thumbnails it calls for, so those overlap with the later pages;
 * what a resumed run still lacks (pages stored by an earlier attempt) is swept
 * up once the lists are in. Progress is reported by stage, in the order the
 * run is checkpointed: lists, details, levels, thumbnails ('avatars').
 */
import PQueue from 'p-queue'
import type { ArtistDetail, CatalogueClient, ListArtist, ListArtistsQuery, SkippedEntry } from '../api/index'
import type { ArtistDetailRecord, ListedArtistRecord } from '../db/artist-records'
import type { Database } from '../db/connection'
import { avatarsMissing, dropUnusedAvatars, recordAvatars, thumbnailsWanted, type AvatarImage } from '../db/avatars'
import { replaceAccessLevels } from '../db/levels'
import { fitLogToCache } from '../db/wal'
import { recordDetails, type FetchedDetail } from '../db/detail-store'
import { indexArtistsSoFar } from '../db/search'
import {
  LIST_PASSES, addDetailsFetched, applyLists, artistsNeedingDetail, recordChangedEntries, recordDetailError, recordListPage, setRunPhase,
  type DetailWanted, type ListPass, type SyncRun,
} from '../db/sync-store'
import type { Throttled } from '../shared/throttle'
import type { SameType, SyncPhase, SyncProgress, SyncReport } from '../shared/types'
import { AVATAR_MAX_BYTES, fetchAvatar } from './avatars'
import { WriteBatch } from './batch'
import { checkPageCount, ListPages, PER_PAGE } from './list-pages'

// The client's results go to the cache as they are (a list entry's signature is a digest of the whole
// entry): the cache's records (db/artist-records.ts) must be exactly the service's shapes.
const sameShapes: [SameType<ListArtist, ListedArtistRecord>, SameType<ArtistDetail, ArtistDetailRecord>] = [true, true]
void sameShapes

/**
 * Which requests the queue serves first when several wait: list pages, which find the rest of
 * the work and make a first sync browsable; then details and thumbnails alike, in the order their
 * pages came, so the first rows of the list get their pictures early.
 */
const PRIORITY = { lists: 2, levels: 2, details: 1, thumbnails: 1 } as const

/**
 * While a first sync's lists come in, the artists stored are made searchable at most this often
 * (and at once for the first page): each time in one statement (db/search.ts, `indexArtistsSoFar`),
 * so a name on screen is found within this long of its row. A slice costs about what the bulk
 * build costs for its rows, and the segments it leaves are merged as the index grows: on 30,000
 * artists the slices of a first sync took 1.2-1.5 s together, where the one bulk build they
 * replace at the lists' end took 0.7 (test/bench/search-while-syncing.bench.ts).
 */
export const SEARCH_SLICE_MS = 1000

/** What a run's pipeline works with. */
export interface PipelineContext {
  db: Database
  client: CatalogueClient
  run: SyncRun
  signal: AbortSignal
  /** Stops the run with a failure (a list page that cannot be had, a write that fails on a timer). */
  fail: (error: unknown) => void
  progress: Throttled<SyncProgress>
  now: () => number
  report: SyncReport
  skipAvatars: boolean
  /** The most list pages a quick check reads (QUICK_PAGE_LIMIT). */
  quickPageLimit: number
}

/** Promises of one kind of request, awaited until none is left (new ones may come while waiting). */
class Pending {
  private readonly promises = new Set<Promise<void>>()

  add(promise: Promise<void>): void {
    this.promises.add(promise)
    void promise.finally(() => this.promises.delete(promise))
  }

  async settled(): Promise<void> {
    while (this.promises.size > 0) await Promise.all(this.promises)
  }
}

export class Pipeline {
  private readonly queue: PQueue
  private stage: SyncPhase = 'lists'
  // Lists: the pages of each pass, stored and asked for, a few at a time.
  private readonly listPages: ListPages
  private readonly lists = new Pending()
  // A quick check's list: the pages read, and the one it waits for.
  private quickPages: { done: number; total: number } | undefined
  // Details: the list signature each artist's detail was asked for, what came back, and the failures.
  private readonly detailAsked = new Map<number, string>()
  private readonly details = new Pending()
  private detailsDone = 0
  private readonly detailFailures = new Map<number, { artist: DetailWanted; message: string }>()
  private readonly detailBatch: WriteBatch<FetchedDetail>
  // Thumbnails: every address asked for in this run, at most once.
  private readonly thumbnailAsked = new Set<string>()
  private readonly thumbnails = new Pending()
  private thumbnailsDone = 0
  private readonly thumbnailBatch: WriteBatch<AvatarImage>
  private levels: Promise<void> = Promise.resolve()
  // Search during a first sync's lists: when the last slice was indexed, and the timer of the next.
  private slicedAt = Number.NEGATIVE_INFINITY
  private sliceTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly context: PipelineContext,
    concurrency: number,
  ) {
    this.queue = new PQueue({ concurrency })
    const { db, run, fail, now } = context
    // Enough list pages outstanding to take every slot of the queue, and the first page of every pass.
    this.listPages = new ListPages(db, run.id, Math.max(concurrency, LIST_PASSES.length))
    // Details are stored in batches; a batch lost to a crash is fetched again on resume.
    this.detailBatch = new WriteBatch<FetchedDetail>(
      (items) =>
        db.transaction(() => {
          recordDetails(db, items, run.id)
          addDetailsFetched(db, run.id, items.length)
        }).immediate(),
      fail,
    )
    // A few images a transaction: up to 32 of the largest kept is 8 MiB, a sliver of the disk's reserve (room.ts).
    this.thumbnailBatch = new WriteBatch<AvatarImage>((images) => recordAvatars(db, images, now()), fail, 32)
    // A stop empties the queue at once; requests in flight end with the abort.
    context.signal.addEventListener('abort', () => this.queue.clear(), { once: true })
  }

  /** Runs every part to its end; rejects with the run's failure (the signal's reason) once every request has settled. */
  async run(): Promise<void> {
    const { signal } = this.context
    try {
      // The log's checkpoints follow the cache's size, which a sync changes: fitted at each stage.
      fitLogToCache(this.context.db)
      if (this.context.run.kind === 'quick') await this.quickLists()
      else await this.fullLists()
      await this.detailsStage()
      if (this.context.run.kind === 'full') await this.levelsStage()
      await this.thumbnailsStage()
    } catch (error) {
      this.context.fail(error)
      throw signal.reason
    } finally {
      // Also after a stop: what arrived is kept, and a resume has less to fetch.
      await this.queue.onIdle()
      await Promise.allSettled([this.lists.settled(), this.details.settled(), this.thumbnails.settled()])
      // A first sync stopped in its lists: what they stored stays searchable until it resumes.
      if (this.stopSlices() && this.stage === 'lists') this.indexSlice()
      for (const batch of [this.detailBatch, this.thumbnailBatch]) {
        try {
          batch.flush()
        } catch (error) {
          // A failure to store is the run's failure only when nothing else failed first.
          this.context.fail(error)
        }
      }
    }
    signal.throwIfAborted()
  }

  /** A full refresh's lists: every page of every pass, a few at a time; then the run's lists become the cache's. */
  private async fullLists(): Promise<void> {
    const { db, run, signal, report } = this.context
    this.announce(this.stageProgress())
    this.levels = this.enqueue(PRIORITY.levels, () => this.fetchLevels())
    this.askListPages()
    await this.lists.settled()
    this.stopSlices()
    signal.throwIfAborted()
    // Pages stored by an earlier attempt of this run called for details and thumbnails too.
    if (run.phase === 'lists') report.gone = applyLists(db, run.id, this.context.now()).gone
  }

  /**
   * A quick check's lists: the recently updated list, a page at a time from its top, until a page
   * whose every entry is as the cache holds it (the artists below it have not changed since). The
   * entries that differ are stored as they come and their details asked for at once. It reads
   * at most `quickPageLimit` pages: more changed than that is a full refresh's work (and a service
   * whose every page differs at every look cannot make a check read its whole list); the report
   * says so (`moreChanged`), and the caller runs one.
   */
  private async quickLists(): Promise<void> {
    const { db, client, run, signal, report } = this.context
    for (let page = 1; ; page++) {
      if (page > this.context.quickPageLimit) {
        report.moreChanged = true
        break
      }
      this.quickPages = { done: page - 1, total: page }
      this.announce(this.stageProgress())
      const result = await client.listArtists({ page, perPage: PER_PAGE, includeBlank: true, sort: 'recently_updated' }, { signal })
      signal.throwIfAborted()
      checkPageCount('recently_updated', result.pages)
      const outcome = recordChangedEntries(db, run.id, page, PER_PAGE, result.artists)
      report.listPages++
      for (const artist of outcome.detailsWanted) this.askDetail(artist)
      if (!this.context.skipAvatars) for (const url of avatarsMissing(db, outcome.thumbnails)) this.askThumbnail(url)
      if (outcome.detailsWanted.length === 0 || page >= result.pages || result.artists.length === 0) break
    }
    this.quickPages = { done: 1, total: 1 }
    this.announce(this.stageProgress())
    setRunPhase(db, run.id, 'details')
  }

  /** Every detail the cache lacks (those the lists asked for, and any an earlier sync could not fetch), each tried twice. */
  private async detailsStage(): Promise<void> {
    const { db, signal, report } = this.context
    this.stage = 'details'
    fitLogToCache(db)
    for (const artist of artistsNeedingDetail(db)) this.askDetail(artist)
    this.announce(this.stageProgress())
    await this.details.settled()
    signal.throwIfAborted()
    // A second try for the failures, now that the rest is done.
    for (const { artist } of [...this.detailFailures.values()]) this.askDetail(artist, true)
    await this.details.settled()
    this.detailBatch.flush()
    signal.throwIfAborted()
    report.detailFailures = [...this.detailFailures.values()].map(({ artist, message }) => ({ username: artist.username, message }))
    this.announce(this.stageProgress())
  }

  private async levelsStage(): Promise<void> {
    const { db, run, signal } = this.context
    setRunPhase(db, run.id, 'levels')
    this.stage = 'levels'
    this.announce({ phase: 'levels', done: 0, total: 1 })
    await this.levels
    signal.throwIfAborted()
    this.announce({ phase: 'levels', done: 1, total: 1 })
  }

  /**
   * The thumbnails still missing: a full refresh looks at every artist's, a quick check only at those its lists asked for.
   * The lists are the cache's by now: an image no artist refers to any more (an artist's address changed) goes first,
   * so the new ones replace the old rather than add to them, and again at the end (what an artist's refresh left).
   */
  private async thumbnailsStage(): Promise<void> {
    const { db, run, signal } = this.context
    setRunPhase(db, run.id, 'avatars')
    this.stage = 'avatars'
    fitLogToCache(db)
    dropUnusedAvatars(db, AVATAR_MAX_BYTES)
    if (!this.context.skipAvatars && run.kind === 'full') for (const url of thumbnailsWanted(db)) this.askThumbnail(url)
    this.announce(this.stageProgress())
    await this.thumbnails.settled()
    this.thumbnailBatch.flush()
    signal.throwIfAborted()
    dropUnusedAvatars(db, AVATAR_MAX_BYTES)
    this.announce(this.stageProgress())
  }

  /** Queues one request; its failure stops the run (each kind catches what must not). */
  private enqueue(priority: number, task: () => Promise<void>): Promise<void> {
    const { signal, fail } = this.context
    return this.queue
      .add(
        async () => {
          // A task that starts after a stop fetches nothing.
          if (!signal.aborted) await task()
        },
        { priority },
      )
      .catch(fail)
  }

  /**
   * The next list pages, as many as may be outstanding. A page that arrives asks for its
   * successors before its task ends, so the slot it frees goes to a list page, not a detail.
   */
  private askListPages(): void {
    for (const { pass, page } of this.listPages.take()) {
      this.lists.add(this.enqueue(PRIORITY.lists, () => this.fetchListPage(pass, page)))
    }
  }

  private async fetchListPage(pass: ListPass, page: number): Promise<void> {
    const { db, client, run, signal, report } = this.context
    const query: ListArtistsQuery =
      pass === 'podcasters'
        ? { page, perPage: PER_PAGE, includeBlank: true, isPodcaster: 1 }
        : { page, perPage: PER_PAGE, includeBlank: true, sort: pass }
    const result = await client.listArtists(query, { signal, onSkipped: this.skipped })
    if (signal.aborted) return
    // An impossible page count throws here, before anything of the page is stored.
    const claimed = result.pages
    const pages = this.listPages.arrived(pass, page, claimed, result.artists.length)
    if (result.artists.length === 0 && page < claimed && !report.listsEndedEarly.some((ended) => ended.pass === pass)) {
      report.listsEndedEarly.push({ pass, page, claimed })
    }
    const outcome = recordListPage(db, run.id, pass, page, pages, PER_PAGE, result.artists, run.initial)
    report.listPages++
    this.askListPages()
    this.sliceSoon()
    for (const artist of outcome.detailsWanted) this.askDetail(artist)
    // An address asked for already in this run needs no look in the cache (each artist is on five passes' pages).
    const thumbnails = outcome.thumbnails.filter((url) => !this.thumbnailAsked.has(url))
    if (!this.context.skipAvatars) for (const url of avatarsMissing(db, thumbnails)) this.askThumbnail(url)
    this.report()
  }

  /**
   * In a first sync's lists: the artists stored so far are indexed now if the last slice is
   * SEARCH_SLICE_MS old, or when it will be. Only a first sync (of an empty cache) needs it:
   * a later one finds its index whole, kept by its triggers.
   */
  private sliceSoon(): void {
    if (!this.context.run.initial || this.sliceTimer !== undefined) return
    const wait = this.slicedAt + SEARCH_SLICE_MS - performance.now()
    if (wait <= 0) {
      this.indexSlice()
      return
    }
    this.sliceTimer = setTimeout(() => {
      this.sliceTimer = undefined
      // The window hears of it as of a page: a progress report looks at the catalogue's version.
      if (this.indexSlice() > 0) this.report()
    }, wait)
  }

  /** Indexes the artists stored since the last slice, and says how many; a failure to write stops the run. */
  private indexSlice(): number {
    const { db, fail } = this.context
    this.slicedAt = performance.now()
    try {
      return db.transaction(() => indexArtistsSoFar(db)).immediate()
    } catch (error) {
      fail(error)
      return 0
    }
  }

  /** No more slices: the lists are in (applyLists indexes the rest), or the run stops. True when a slice was still due. */
  private stopSlices(): boolean {
    const due = this.sliceTimer !== undefined
    clearTimeout(this.sliceTimer)
    this.sliceTimer = undefined
    return due
  }

  /** Queues an artist's detail unless it was asked for at the same list signature (again after a failure when `retry`). */
  private askDetail(artist: DetailWanted, retry = false): void {
    if (!retry && this.detailAsked.get(artist.id) === artist.listSignature) return
    this.detailAsked.set(artist.id, artist.listSignature)
    this.details.add(this.enqueue(PRIORITY.details, () => this.fetchDetail(artist, retry)))
  }

  private async fetchDetail(artist: DetailWanted, retry: boolean): Promise<void> {
    const { db, client, signal, now, report } = this.context
    let detail
    try {
      detail = await client.getArtist(artist.username, { signal })
    } catch (error) {
      if (signal.aborted) return
      // One artist's failure never fails the sync: it is noted, kept, and tried again.
      const message = (error as Error).message
      recordDetailError(db, artist.id, message)
      this.detailFailures.set(artist.id, { artist, message })
      if (!retry) this.detailsDone++
      this.report()
      return
    }
    if (signal.aborted) return
    // A failure to store is the run's failure, not the artist's: it is thrown to the queue's catch.
    this.detailBatch.add({ wanted: artist, detail, fetchedAt: now() })
    this.detailFailures.delete(artist.id)
    report.detailsFetched++
    if (!retry) this.detailsDone++
    this.report()
  }

  private askThumbnail(url: string): void {
    if (this.thumbnailAsked.has(url)) return
    this.thumbnailAsked.add(url)
    this.thumbnails.add(this.enqueue(PRIORITY.thumbnails, () => this.fetchThumbnail(url)))
  }

  private async fetchThumbnail(url: string): Promise<void> {
    const { client, signal, report } = this.context
    let image
    try {
      image = await fetchAvatar(client, url, signal)
    } catch (error) {
      if (signal.aborted) return
      // A missing picture is a placeholder on screen, never a failed sync.
      report.avatarFailures.push({ url, message: (error as Error).message })
    }
    if (signal.aborted) return
    if (image) {
      this.thumbnailBatch.add(image)
      report.avatarsFetched++
    }
    this.thumbnailsDone++
    this.report()
  }

  private async fetchLevels(): Promise<void> {
    const { db, client, signal, report } = this.context
    const levels = await client.accessLevels({ signal, onSkipped: this.skipped })
    if (signal.aborted) return
    replaceAccessLevels(db, levels)
    report.accessLevels = levels.length
  }

  /** An entry the service described badly, left out: told in the report once (an artist is on five lists' pages). */
  private readonly skipped = (entry: SkippedEntry): void => {
    const { skipped } = this.context.report
    if (!skipped.some((each) => each.what === entry.what)) skipped.push(entry)
  }

  /** The progress of the stage the run is in (work of later stages may already be under way). */
  private stageProgress(): SyncProgress {
    switch (this.stage) {
      case 'lists':
        // A quick check does not know how many pages it will read: the one it waits for is the last it knows of.
        if (this.quickPages) return { phase: 'lists', ...this.quickPages }
        return { phase: 'lists', done: this.listPages.stored(), total: this.listPages.known() }
      case 'details':
        return { phase: 'details', done: this.detailsDone, total: this.detailAsked.size }
      case 'avatars':
        return { phase: 'avatars', done: this.thumbnailsDone, total: this.thumbnailAsked.size }
      default:
        return { phase: this.stage, done: 0, total: 1 }
    }
  }

  private report(): void {
    if (this.context.signal.aborted || this.stage === 'levels') return
    this.context.progress(this.stageProgress())
  }

  /** Reports at once: a stage's start and end are never throttled away. */
  private announce(value: SyncProgress): void {
    this.context.progress(value)
    this.context.progress.flush()
  }
}

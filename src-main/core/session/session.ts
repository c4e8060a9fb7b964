/**
 * The app's session over one data folder: its settings, the library of the
 * service they name (the built-in demo catalogue when they name none), a
 * background sync when the cache is empty or stale, the online state (and what
 * waited for the service going on once it answers again), and one stream of
 * events with a snapshot to start from. The Electron main process and
 * the web bridge both run one; the IPC handlers ask it for everything.
 */
import { redactUrl } from '../shared/urls'
import fs from 'node:fs'
import { listCaches } from '../db/connection'
import { BusyError, NotFoundError, serializeError, toTuneshelfError } from '../shared/errors'
import { DisposableStore, Emitter, type Disposable, type Event } from '../base/events'
import { openLibrary, type Library, type LibraryOptions } from '../library/library'
import { SettingsStore, redactedSettings, type Settings, type SettingsPatch } from '../library/settings'
import { MAX_NOTICES } from '../shared/session-state'
import { SyncSchedule, followUpSync, type SyncScheduleOptions } from './new-tracks-watch'
import type { QueueState, ServiceInfo, SessionSnapshot, SessionEvent, SyncKind, SyncState } from '../shared/types'
export type { ServiceInfo, SessionSnapshot, SessionEvent } from '../shared/types'

/** The built-in demo catalogue, started when no service is set. */
export interface DemoService {
  baseUrl: string
  close(): Promise<void>
}

export interface SessionOptions {
  dataDir: string
  /** Starts the demo catalogue (the app passes one on loopback; tests pass a small one). */
  startDemo: () => Promise<DemoService>
  /** Sync in the background when the cache is older than this (default a day). */
  staleAfterMs?: number
  /** How often the online state is checked (default 30 s). */
  onlineCheckMs?: number
  /** How often instead while something waits for the service: a download, or a sync that failed for the network (default 5 s). */
  waitingCheckMs?: number
  /** How long after the last sync's end each "Check for new tracks" setting syncs again (tests shorten them). */
  newTracksCheckMs?: SyncScheduleOptions['intervalsMs']
  /** Library options that are not user settings (tests shorten retries). */
  library?: Pick<LibraryOptions, 'client' | 'downloads' | 'syncProgressIntervalMs' | 'quickPageLimit' | 'syncSilenceLimitMs'>
  now?: () => number
}

const DAY_MS = 24 * 60 * 60 * 1000
/** How often the queue's state is looked at for what changes with no event of its own (another process's lock going stale). */
const STATE_CHECK_MS = 1000
/** The demo catalogue's cache keeps its name whatever port the demo gets. */
const DEMO_CACHE = 'demo'

export class AppSession implements Disposable {
  private current: { library: Library; demo: DemoService | undefined; subscriptions: DisposableStore } | undefined
  private online = true
  /** A check found the service unreachable since the last one that reached it: it went away, and may come back. */
  private sawUnreachable = false
  /** Answers the service gave so far (to any request): a check that finds none while others came is not believed. */
  private answers = 0
  private readonly notices: string[] = []
  private readonly events = new Emitter<SessionEvent>()
  private readonly disposables = new DisposableStore()
  private onlineTimer: NodeJS.Timeout | undefined
  private closed = false
  private switching: Promise<void> = Promise.resolve()
  /** The queue's state as the last queue-state event said it (JSON), to tell only changes. */
  private queueStateSaid = ''
  /** The sync's state as the last sync-state event said it (JSON, without its progress), likewise. */
  private syncStateSaid = ''
  private stateTimer: NodeJS.Timeout | undefined
  /** The session's clock (the library's too): what "now" and "this month" are. */
  readonly now: () => number

  private readonly libraries = new Emitter<Library | undefined>()
  /** Every change a window shows, in one stream. */
  readonly onDidEmit: Event<SessionEvent> = this.events.event
  /** A library opened (at start and after a switch of service); undefined as a switch closes the old one. */
  readonly onDidChangeLibrary: Event<Library | undefined> = this.libraries.event
  /** The data folder's settings file. */
  private readonly store: SettingsStore

  /** The contract's settings channels: the settings as a window may see them (no password), and a change of them. */
  readonly settings = {
    get: (): Settings => redactedSettings(this.store.get()),
    /**
     * Changes settings. A new base URL switches the service at once (each keeps its own cache,
     * so switching back is instant); a base URL given as shown (its password masked) keeps the stored one.
     */
    set: async (patch: SettingsPatch): Promise<Settings> => {
      const before = this.store.get()
      const keepsUrl = patch.baseUrl !== undefined && patch.baseUrl !== null && before.baseUrl !== null && patch.baseUrl === redactUrl(before.baseUrl)
      const settings = this.store.update(keepsUrl ? { ...patch, baseUrl: before.baseUrl } : patch)
      if (settings.baseUrl !== before.baseUrl) await this.switchService()
      return redactedSettings(settings)
    },
  }

  /** The contract's caches channel the session answers (caches:list is a read: the host's reader answers it). */
  readonly caches = {
    /**
     * Empties a cache of the data folder: the one shown now (its catalogue; the next sync fills it
     * again), or another service's, whose files go (it is made afresh if that service is chosen again).
     */
    clear: async (file?: string): Promise<void> => {
      const library = this.library
      if (file === undefined || file === library.cacheFile) return library.catalogue.clear()
      const cache = listCaches(library.dataDir).find((candidate) => candidate.file === file)
      if (!cache) throw new NotFoundError(`there is no cache ${JSON.stringify(file)} in ${library.dataDir}`)
      try {
        for (const suffix of ['', '-wal', '-shm']) fs.rmSync(cache.file + suffix, { force: true })
      } catch (error) {
        throw toTuneshelfError(error, `removing the cache ${cache.file}`)
      }
    },
  }

  private constructor(private readonly options: SessionOptions) {
    this.store = new SettingsStore(options.dataDir)
    this.now = options.now ?? Date.now
  }

  /** Opens the session: the service the settings name (or the demo), its download queue, and a background sync if stale. */
  static async open(options: SessionOptions): Promise<AppSession> {
    const session = new AppSession(options)
    try {
      await session.openService()
    } catch (error) {
      session.dispose()
      throw toTuneshelfError(error, 'opening the catalogue')
    }
    // In the snapshot the session starts from (the settings' own, and the cache's); a switch of service
    // tells the new cache's as notices.
    session.notices.push(...session.library.notices)
    session.disposables.add(
      session.store.onDidChange((settings) => {
        session.events.fire({ type: 'settings', settings: redactedSettings(settings) })
        // The folder and the number of transfers are part of the queue's state.
        session.checkQueueState()
      }),
    )
    session.checkOnline()
    // What changes with no event of its own: another process's lock going stale, its sync ending.
    session.stateTimer = setInterval(() => {
      session.checkQueueState()
      session.checkSyncState()
    }, STATE_CHECK_MS)
    session.stateTimer.unref()
    return session
  }

  /** The library of the service shown now. */
  get library(): Library {
    if (!this.current) throw toTuneshelfError(new Error('the session is closed'))
    return this.current.library
  }

  get service(): ServiceInfo {
    const { library, demo } = this.current!
    return { baseUrl: library.displayUrl, demo: demo !== undefined, readOnly: library.readOnly }
  }

  /**
   * The session's state now, whole: what the core's host starts from. It is taken once, when the
   * session opens; every change after it comes as an event that carries it (applySessionEvent).
   */
  snapshot(): SessionSnapshot {
    const library = this.library
    return {
      service: this.service,
      settings: this.settings.get(),
      sync: library.sync.state,
      downloads: library.downloads.state,
      online: this.online,
      notices: [...this.notices],
    }
  }

  /** Resolves once a switch of service under way has ended (at once when none is): what a call made meanwhile waits for. */
  async whenReady(): Promise<void> {
    await this.switching.catch(() => undefined)
  }

  /** Starts a sync in the background unless one runs; its failure becomes a notice (the app goes on from the cache). */
  syncInBackground(kind: SyncKind = 'full'): void {
    const library = this.library
    // Its end sets the online state like any sync's (see openService).
    library.sync.start({ kind }).then(
      // More changed than a quick check reads: a full refresh brings the rest.
      (report) => {
        if (report.moreChanged && this.current?.library === library) this.syncInBackground('full')
      },
      (error: unknown) => {
        const failure = toTuneshelfError(error)
        if (failure.code === 'cancelled') return
        this.notice(`the sync of ${library.displayUrl} failed: ${failure.message}`, failure)
      },
    )
  }

  dispose(): void {
    void this.close()
  }

  /** Stops everything gracefully: transfers paused (they resume next time), the cache closed, the demo stopped. */
  async close(): Promise<void> {
    this.closed = true
    clearInterval(this.stateTimer)
    clearTimeout(this.onlineTimer)
    this.onlineTimer = undefined
    await this.switching.catch(() => undefined)
    await this.closeService()
    this.disposables.dispose()
    this.events.dispose()
    this.libraries.dispose()
    this.store.dispose()
  }

  private switchService(): Promise<void> {
    this.switching = this.switching
      .catch(() => undefined)
      .then(async () => {
        await this.closeService()
        await this.openService()
        // The service, then the new service's own states: whoever holds the session's state applies them.
        this.events.fire({ type: 'service', service: this.service })
        this.syncStateSaid = ''
        this.checkSyncState()
        this.queueStateSaid = ''
        this.checkQueueState()
        for (const message of this.library.notices) if (!this.store.notices.includes(message)) this.notice(message)
        // The online state was the old service's: check the new one now, not at the next tick.
        this.checkOnline()
      })
    return this.switching
  }

  private async openService(): Promise<void> {
    const configured = this.store.get().baseUrl
    const demo = configured === null ? await this.options.startDemo() : undefined
    let library: Library
    try {
      library = openLibrary({
        ...this.options.library,
        dataDir: this.options.dataDir,
        baseUrl: configured ?? demo!.baseUrl,
        cacheName: demo ? DEMO_CACHE : undefined,
        settings: this.store,
        now: this.now,
      })
    } catch (error) {
      await demo?.close()
      throw error
    }
    const subscriptions = new DisposableStore()
    this.current = { library, demo, subscriptions }
    this.libraries.fire(library)
    // While the app is open, a sync on the setting's schedule finds new tracks (never for a read-only folder).
    const schedule = subscriptions.add(
      new SyncSchedule({
        check: () => this.store.get().checkForNewTracks,
        lastEnd: () => (library.sync.state.status === 'idle' ? (library.sync.state.lastRun?.finishedAt ?? null) : null),
        sync: () => this.checkInBackground(library),
        now: this.now,
        intervalsMs: this.options.newTracksCheckMs,
      }),
    )
    let syncing = false
    let active = false
    let followedUp = 0
    subscriptions.add(
      library.sync.onDidChangeState((state) => {
        this.syncStateSaid = syncStateKey(state)
        this.events.fire({ type: 'sync-state', state })
        // Any sync that ends (this process's, or another's it waited for): what it brought followed artists.
        if (active && state.status === 'idle' && state.lastError === null && state.lastRun?.state === 'completed' && state.lastRun.id > followedUp) {
          followedUp = state.lastRun.id
          void followUpSync(library, followedUp, {
            tell: (summary) => {
              if (this.current?.library === library) this.events.fire({ type: 'new-tracks', ...summary })
            },
            notice: (message, error) => this.notice(message, error),
          })
        }
        active = state.status !== 'idle'
        if (!active && !library.readOnly) schedule.arm()
        // Any sync that ends, the window's or the background's, says whether the service answers.
        if (syncing && state.status === 'idle') {
          if (state.lastError === null) this.setOnline(true)
          else if (state.lastError.code === 'network') {
            this.setOnline(false)
            // It runs again once the service answers. Checked at once: a service that does not answer
            // now went away (and its return is worth a sync); one that does has a broken list instead.
            this.checkSoon(library, 0)
          }
        }
        syncing = state.status === 'running'
      }),
    )
    subscriptions.add(library.sync.onDidProgress((progress) => this.events.fire({ type: 'sync-progress', progress })))
    subscriptions.add(library.onDidHearFromService(() => this.heardFrom(library)))
    subscriptions.add(
      library.catalogue.onDidChange(({ version }) => {
        this.events.fire({ type: 'catalogue-changed', version })
        // A cache cleared, or filled by another process, has another last sync.
        this.checkSyncState()
      }),
    )
    subscriptions.add(library.follows.onDidChange((username) => this.events.fire({ type: 'follows-changed', username })))
    subscriptions.add(
      library.downloads.onDidChange((change) => {
        this.events.fire({ type: 'downloads-changed', ...change })
        this.checkQueueState()
        // A download that could not reach the service waits for it: look again soon, not at the next usual check.
        if (change.downloads.some((download) => download.waitingFor === 'network')) this.checkSoon(library)
      }),
    )
    subscriptions.add(library.downloads.onDidProgress((progress) => this.events.fire({ type: 'download-progress', progress })))
    subscriptions.add(
      library.downloads.onDidPauseQueue((message) => {
        this.events.fire({ type: 'queue-paused', message })
        this.checkQueueState()
      }),
    )
    subscriptions.add(library.downloads.onDidBecomeIdle(() => this.checkQueueState()))
    if (library.readOnly) return
    schedule.arm()
    subscriptions.add(this.store.onDidChange(() => schedule.arm()))
    try {
      library.downloads.start()
    } catch (error) {
      // Another Tuneshelf process (the CLI) runs this queue: browsing goes on, downloads wait for it.
      if (!(error instanceof BusyError)) throw error
      this.notice(error.message, error)
    }
    this.checkQueueState()
    if (this.fullRefreshDue(library) && this.store.get().syncOnStart) this.syncInBackground('full')
  }

  /**
   * A check for new tracks: a quick check, unless the last full refresh (every list in every order,
   * so the offline sorts stay exact) is a day old. (A full refresh left unfinished is resumed either way.)
   */
  private checkInBackground(library: Library): void {
    this.syncInBackground(this.fullRefreshDue(library) ? 'full' : 'quick')
  }

  /** Whether the cache's last full refresh is missing or older than a day (staleAfterMs). */
  private fullRefreshDue(library: Library): boolean {
    const { lastFullSyncAt } = library.sync.state
    return lastFullSyncAt === null || this.now() - lastFullSyncAt > (this.options.staleAfterMs ?? DAY_MS)
  }

  private async closeService(): Promise<void> {
    const current = this.current
    if (!current) return
    this.current = undefined
    this.libraries.fire(undefined)
    current.subscriptions.dispose()
    try {
      await current.library.dispose()
    } finally {
      await current.demo?.close()
    }
  }

  /**
   * Checks now whether the service answers, then again every onlineCheckMs while
   * it is the one shown (every waitingCheckMs while something waits for it). A
   * service that answers lets what waited go on. A check that ends after the
   * service changed is dropped: the switch started the new service's own checks.
   */
  private checkOnline(): void {
    clearTimeout(this.onlineTimer)
    this.onlineTimer = undefined
    const library = this.current?.library
    if (this.closed || !library) return
    const asked = this.answers
    const next = (found: boolean | undefined): void => {
      if (this.closed || this.current?.library !== library) return
      // No answer to the check, while the service answered other requests meanwhile (a sync's pages, a
      // download): the service is slow, or this machine busy, not away. What the other requests saw stands.
      const reachable = found === false && this.answers !== asked ? undefined : found
      if (reachable !== undefined) this.setOnline(reachable)
      if (reachable === false) this.sawUnreachable = true
      if (reachable) this.catchUp(library)
      this.scheduleCheck(this.waitsForService(library) ? this.waitingCheckMs : (this.options.onlineCheckMs ?? 30_000))
    }
    // A sync under way asks the service all the time, and its end says whether it answered: no probe beside it.
    if (syncRunning(library)) return next(undefined)
    library.catalogue.reachable().then(next, () => next(undefined))
  }

  /**
   * The service answered a request (a sync's list page or detail, a download, a check): it can be
   * reached, now, whatever a check still on its way finds. Offline until then, what waited for the
   * service goes on, as when a check reaches it again.
   */
  private heardFrom(library: Library): void {
    this.answers++
    if (this.online || this.closed || this.current?.library !== library) return
    this.setOnline(true)
    // Once the answer's own request is through, not from inside it.
    setTimeout(() => {
      if (!this.closed && this.current?.library === library) this.catchUp(library)
    }, 0).unref()
  }

  private get waitingCheckMs(): number {
    return this.options.waitingCheckMs ?? 5_000
  }

  private scheduleCheck(ms: number): void {
    clearTimeout(this.onlineTimer)
    this.onlineTimer = setTimeout(() => this.checkOnline(), ms)
    this.onlineTimer.unref()
  }

  /** The next check within ms (of library, while it is the one shown). */
  private checkSoon(library: Library, ms = this.waitingCheckMs): void {
    if (this.closed || this.current?.library !== library) return
    this.scheduleCheck(ms)
  }

  /** Whether a download waits for the network, or the last sync failed for it and the service is away. */
  private waitsForService(library: Library): boolean {
    try {
      const sync = library.sync.state
      return library.downloads.state.waitingFor === 'network' || (!this.online && sync.status === 'idle' && sync.lastError?.code === 'network')
    } catch {
      return false // closed meanwhile
    }
  }

  /**
   * The service answers: downloads that waited for the network go on, and a sync that failed for it
   * runs again (the offline banner promises that Tuneshelf catches up) if a check saw the service
   * away meanwhile: a service that answers the check but fails the sync (a broken list) is not
   * synced again and again.
   */
  private catchUp(library: Library): void {
    const cameBack = this.sawUnreachable
    this.sawUnreachable = false
    if (library.readOnly) return
    try {
      library.downloads.networkBack()
      const sync = library.sync.state
      if (cameBack && sync.status === 'idle' && sync.lastError?.code === 'network') this.checkInBackground(library)
    } catch {
      // Closed meanwhile: the next library has its own checks.
    }
  }

  /**
   * Tells the queue's state when it changed: after each change of the queue, its going idle or
   * pausing, a change of settings, and once a second for what changes with no event of its own
   * (another process's lock going stale). A few fields, whatever the queue's length.
   */
  private checkQueueState(): void {
    let state: QueueState
    try {
      state = this.library.downloads.state
    } catch {
      return // Between two services: the switch tells the new one's.
    }
    const said = JSON.stringify(state)
    if (said === this.queueStateSaid) return
    this.queueStateSaid = said
    this.events.fire({ type: 'queue-state', state })
  }

  /** Tells the sync's state when it changed otherwise than by its own events (a cleared cache, another process's sync). */
  private checkSyncState(): void {
    let state: SyncState
    try {
      state = this.library.sync.state
    } catch {
      return // Between two services: the switch tells the new one's.
    }
    const said = syncStateKey(state)
    if (said === this.syncStateSaid) return
    this.syncStateSaid = said
    this.events.fire({ type: 'sync-state', state })
  }

  private setOnline(online: boolean): void {
    if (online === this.online) return
    this.online = online
    this.events.fire({ type: 'online', online })
  }

  private notice(message: string, error?: unknown): void {
    this.notices.push(message)
    if (this.notices.length > MAX_NOTICES) this.notices.shift()
    this.events.fire({ type: 'notice', message, ...(error === undefined ? {} : { error: serializeError(toTuneshelfError(error)) }) })
  }
}

/** A sync state as compared for changes: its progress changes often and comes as its own events. */
function syncStateKey(state: SyncState): string {
  return JSON.stringify({ ...state, progress: null })
}

/** Whether the library's sync runs now (false once it is closed). */
function syncRunning(library: Library): boolean {
  try {
    return library.sync.state.status === 'running'
  } catch {
    return false
  }
}

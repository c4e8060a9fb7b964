/**
 * The app's session over one data folder: its settings, the library of the
 * service they name (the built-in demo catalogue when they name none), a
 * background sync when the cache is empty or stale, the online state (and what
 * waited for the service going on once it answers again), and one stream of
 * events with a snapshot to start from. The Electron main process and
 * the web bridge both run one; the IPC handlers ask it for everything.
 */
import { redactUrl } from './shared/urls'
import fs from 'node:fs'
import { listCaches } from './db/connection'
import { BusyError, NotFoundError, serializeError, toTuneshelfError } from './shared/errors'
import { DisposableStore, Emitter, type Disposable, type Event } from './events'
import { openLibrary, type Library, type LibraryOptions } from './library'
import { SettingsStore, redactedSettings, type Settings, type SettingsPatch } from './settings'
import { MAX_NOTICES } from './shared/session-state'
import { SyncSchedule, followUpSync, type SyncScheduleOptions } from './new-tracks-watch'
import type { ServiceInfo, SessionSnapshot, SessionEvent } from './shared/types'
export type { ServiceInfo, SessionSnapshot, SessionEvent } from './shared/types'

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
  library?: Pick<LibraryOptions, 'client' | 'downloads' | 'syncProgressIntervalMs'>
  now?: () => number
}

const DAY_MS = 24 * 60 * 60 * 1000
/** The demo catalogue's cache keeps its name whatever port the demo gets. */
const DEMO_CACHE = 'demo'

export class AppSession implements Disposable {
  private current: { library: Library; demo: DemoService | undefined; subscriptions: DisposableStore } | undefined
  private online = true
  /** A check found the service unreachable since the last one that reached it: it went away, and may come back. */
  private sawUnreachable = false
  private readonly notices: string[] = []
  private readonly events = new Emitter<SessionEvent>()
  private readonly disposables = new DisposableStore()
  private onlineTimer: NodeJS.Timeout | undefined
  private closed = false
  private switching: Promise<void> = Promise.resolve()
  /** The session's clock (the library's too): what "now" and "this month" are. */
  readonly now: () => number

  private readonly libraries = new Emitter<Library | undefined>()
  /** Every change a window shows, in one stream. */
  readonly onDidEmit: Event<SessionEvent> = this.events.event
  /** A library opened (at start and after a switch of service); undefined as a switch closes the old one. */
  readonly onDidChangeLibrary: Event<Library | undefined> = this.libraries.event
  readonly settings: SettingsStore

  private constructor(private readonly options: SessionOptions) {
    this.settings = new SettingsStore(options.dataDir)
    this.now = options.now ?? Date.now
    this.notices.push(...this.settings.notices)
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
    session.disposables.add(session.settings.onDidChange((settings) => session.events.fire({ type: 'settings', settings: redactedSettings(settings) })))
    session.checkOnline()
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

  snapshot(): SessionSnapshot {
    const library = this.library
    return {
      service: this.service,
      settings: redactedSettings(this.settings.get()),
      sync: library.sync.state,
      downloads: library.downloads.state,
      online: this.online,
      notices: [...this.notices],
    }
  }

  /**
   * Changes settings. A new base URL switches the service at once (each keeps
   * its own cache, so switching back is instant); a base URL given as shown
   * (its password masked) keeps the stored one.
   */
  async updateSettings(patch: SettingsPatch): Promise<Settings> {
    const before = this.settings.get()
    const keepsUrl = patch.baseUrl !== undefined && patch.baseUrl !== null && before.baseUrl !== null && patch.baseUrl === redactUrl(before.baseUrl)
    const settings = this.settings.update(keepsUrl ? { ...patch, baseUrl: before.baseUrl } : patch)
    if (settings.baseUrl !== before.baseUrl) await this.switchService()
    return redactedSettings(settings)
  }

  /**
   * Empties a cache of the data folder: the one shown now (its catalogue; the next sync fills it
   * again), or another service's, whose files go (it is made afresh if that service is chosen again).
   */
  async clearCache(file?: string): Promise<void> {
    const library = this.library
    if (file === undefined || file === library.cacheFile) return library.catalogue.clear()
    const cache = listCaches(library.dataDir).find((candidate) => candidate.file === file)
    if (!cache) throw new NotFoundError(`there is no cache ${JSON.stringify(file)} in ${library.dataDir}`)
    try {
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(cache.file + suffix, { force: true })
    } catch (error) {
      throw toTuneshelfError(error, `removing the cache ${cache.file}`)
    }
  }

  /** Resolves once a switch of service under way has ended (at once when none is): what a call made meanwhile waits for. */
  async whenReady(): Promise<void> {
    await this.switching.catch(() => undefined)
  }

  /** Starts a sync in the background unless one runs; its failure becomes a notice (the app goes on from the cache). */
  syncInBackground(): void {
    const library = this.library
    // Its end sets the online state like any sync's (see openService).
    library.sync.start().then(
      () => undefined,
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
    clearTimeout(this.onlineTimer)
    this.onlineTimer = undefined
    await this.switching.catch(() => undefined)
    await this.closeService()
    this.disposables.dispose()
    this.events.dispose()
    this.libraries.dispose()
    this.settings.dispose()
  }

  private switchService(): Promise<void> {
    this.switching = this.switching
      .catch(() => undefined)
      .then(async () => {
        await this.closeService()
        await this.openService()
        this.events.fire({ type: 'service', service: this.service })
        // The online state was the old service's: check the new one now, not at the next tick.
        this.checkOnline()
      })
    return this.switching
  }

  private async openService(): Promise<void> {
    const configured = this.settings.get().baseUrl
    const demo = configured === null ? await this.options.startDemo() : undefined
    let library: Library
    try {
      library = openLibrary({
        ...this.options.library,
        dataDir: this.options.dataDir,
        baseUrl: configured ?? demo!.baseUrl,
        cacheName: demo ? DEMO_CACHE : undefined,
        settings: this.settings,
        now: this.now,
      })
    } catch (error) {
      await demo?.close()
      throw error
    }
    const subscriptions = new DisposableStore()
    this.current = { library, demo, subscriptions }
    this.libraries.fire(library)
    this.notices.push(...library.notices)
    // While the app is open, a sync on the setting's schedule finds new tracks (never for a read-only folder).
    const schedule = subscriptions.add(
      new SyncSchedule({
        check: () => this.settings.get().checkForNewTracks,
        lastEnd: () => (library.sync.state.status === 'idle' ? (library.sync.state.lastRun?.finishedAt ?? null) : null),
        sync: () => this.syncInBackground(),
        now: this.now,
        intervalsMs: this.options.newTracksCheckMs,
      }),
    )
    let syncing = false
    let active = false
    let followedUp = 0
    subscriptions.add(
      library.sync.onDidChangeState((state) => {
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
    subscriptions.add(library.catalogue.onDidChange(({ version }) => this.events.fire({ type: 'catalogue-changed', version })))
    subscriptions.add(library.follows.onDidChange((username) => this.events.fire({ type: 'follows-changed', username })))
    subscriptions.add(
      library.downloads.onDidChange((change) => {
        this.events.fire({ type: 'downloads-changed', ...change })
        // A download that could not reach the service waits for it: look again soon, not at the next usual check.
        if (change.downloads.some((download) => download.waitingFor === 'network')) this.checkSoon(library)
      }),
    )
    subscriptions.add(library.downloads.onDidProgress((progress) => this.events.fire({ type: 'download-progress', progress })))
    subscriptions.add(library.downloads.onDidPauseQueue((message) => this.events.fire({ type: 'queue-paused', message })))
    if (library.readOnly) return
    schedule.arm()
    subscriptions.add(this.settings.onDidChange(() => schedule.arm()))
    try {
      library.downloads.start()
    } catch (error) {
      // Another Tuneshelf process (the CLI) runs this queue: browsing goes on, downloads wait for it.
      if (!(error instanceof BusyError)) throw error
      this.notice(error.message, error)
    }
    const { lastFullSyncAt } = library.catalogue.status()
    const stale = lastFullSyncAt === null || this.now() - lastFullSyncAt > (this.options.staleAfterMs ?? DAY_MS)
    if (stale && this.settings.get().syncOnStart) this.syncInBackground()
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
    const next = (reachable: boolean | undefined): void => {
      if (this.closed || this.current?.library !== library) return
      if (reachable !== undefined) this.setOnline(reachable)
      if (reachable === false) this.sawUnreachable = true
      if (reachable) this.catchUp(library)
      this.scheduleCheck(this.waitsForService(library) ? this.waitingCheckMs : (this.options.onlineCheckMs ?? 30_000))
    }
    library.catalogue.reachable().then(next, () => next(undefined))
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
      if (cameBack && sync.status === 'idle' && sync.lastError?.code === 'network') this.syncInBackground()
    } catch {
      // Closed meanwhile: the next library has its own checks.
    }
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

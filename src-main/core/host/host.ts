/**
 * The core's host: a process of its own (Electron's utility process in the
 * app, a forked Node process under `npm run web` and in tests), so that
 * nothing the core does holds up the main process, which draws the window
 * frame, runs the menus and answers every call. Inside it, two threads:
 *
 *   main process ──(its channel)──▶ host thread ──(worker port)──▶ writer thread
 *                                   queries: its reader            session: commands,
 *                                   and the session's state        sync, downloads
 *
 * The host thread holds the session's state, the one copy of it outside the
 * session itself: the snapshot the writer sent when the session opened, kept
 * current by each event the writer sends, which carries what changed. From it
 * the host answers the state channels (sync:state, downloads:state, ...) and
 * gives a window that subscribes its snapshot; main keeps no copy. It answers
 * the other queries from its own read-only connection to the cache (WAL: it
 * sees every committed write at once and never waits behind one), and passes
 * commands to the writer and everything the writer says back to main, in
 * order. It never runs a long task, so a query's answer waits for nothing but
 * the query. Calls carry main's ids both ways.
 */
import { applySessionEvent } from '../shared/session-state'
import { answer } from '../shared/answer'
import { CONTRACT, handlersFrom, type ServicesAt } from '../shared/contract'
import { CancelledError, deserializeError, toTuneshelfError, type TuneshelfError } from '../shared/errors'
import type { SessionSnapshot } from '../shared/types'
import { cacheInfos } from '../library/queries'
import type { Ask, AskResults, HostMessage, HostRequest, OpenedLibrary, WriterMessage, WriterRequest } from './messages'
import type { Port } from './port'
import { openReader, type LibraryReader } from './reader'

/**
 * How often the avatars the window was given are told to the writer, which notes them as used in one
 * write: the reader cannot write, and a write a picture would cost more than the picture's read.
 */
export const AVATARS_SHOWN_MS = 60_000

export interface HostOptions {
  /** The session's clock (tests set it; the writer's session has the same). */
  now?: () => number
}

/** Serves main until the writer says the session is closed (or could not open); resolves then. */
export function runHost(main: Port<HostRequest, HostMessage>, writer: Port<WriterMessage, WriterRequest>, options: HostOptions = {}): Promise<void> {
  const now = options.now ?? Date.now
  let reader: LibraryReader | undefined
  let readerFailure: TuneshelfError | undefined
  let interrupted: readonly number[] = []
  /** The session's state: set by the writer's ready, then each of its events applied. */
  let state: SessionSnapshot | undefined
  // Queries wait while there is no library to read (before the first, during a switch of service).
  let waiting: (() => void)[] | undefined = []
  const queries = handlersFrom('query', () => queryServices(reader!, () => state!)) as Record<string, (...args: unknown[]) => unknown>

  const open = (library: OpenedLibrary): void => {
    if (readerFailure instanceof CancelledError) return
    reader?.close()
    reader = undefined
    readerFailure = undefined
    try {
      reader = openReader(library, { interrupted: () => interrupted, now })
      reader.followSync(state?.sync.status === 'running')
    } catch (error) {
      readerFailure = toTuneshelfError(error)
    }
    const resumed = waiting ?? []
    waiting = undefined
    for (const run of resumed) run()
  }
  const whenReadable = (run: () => void): void => {
    if (waiting) waiting.push(run)
    else run()
  }
  // The avatars given to the window since they were last told to the writer.
  const shown = new Set<string>()
  const tellShown = (): void => {
    if (shown.size === 0) return
    writer.post({ type: 'avatarsShown', urls: [...shown] })
    shown.clear()
  }
  const shownTimer = setInterval(tellShown, AVATARS_SHOWN_MS)
  shownTimer.unref()
  const read = (work: (reader: LibraryReader) => unknown) =>
    answer(() => {
      if (!reader) throw readerFailure ?? new Error('the catalogue cache is not open')
      return work(reader)
    })

  return new Promise((resolve) => {
    const finish = (): void => {
      clearInterval(shownTimer)
      reader?.close()
      reader = undefined
      fromWriter.dispose()
      fromMain.dispose()
      resolve()
    }
    const fromWriter = writer.onDidReceiveMessage((message) => {
      switch (message.type) {
        case 'opened':
          return open(message.library)
        case 'switching':
          waiting ??= []
          return
        case 'unavailable': {
          reader?.close()
          reader = undefined
          readerFailure = deserializeError(message.error)
          const waited = waiting ?? []
          waiting = undefined
          for (const run of waited) run()
          return
        }
        case 'interrupted':
          interrupted = message.ids
          return
        case 'ready':
          state = message.snapshot
          reader?.followSync(state.sync.status === 'running')
          return main.post(message)
        case 'event':
          // Applied before it goes on: a snapshot asked after this event holds it.
          if (state) state = applySessionEvent(state, message.event)
          // Before the event goes on: a window that reloads on it is answered without a lag once the sync ended.
          if (message.event.type === 'sync-state') reader?.followSync(message.event.state.status === 'running')
          return main.post(message)
        case 'failed':
        case 'closed':
          main.post(message)
          return finish()
        default:
          return main.post(message)
      }
    })
    const fromMain = main.onDidReceiveMessage((request) => {
      if (request.type === 'close') {
        // The reader lets go first: the writer's connection is then the cache's last, and closing it
        // checkpoints the write-ahead log into the cache and removes it (a read-only one cannot).
        reader?.close()
        reader = undefined
        readerFailure = new CancelledError('the app is closing')
        waiting = undefined
        tellShown()
        return writer.post(request)
      }
      if (request.type === 'ask') {
        // The snapshot is answered at once, in order with the events: it holds every event sent before it.
        if (request.ask.what === 'snapshot') return main.post({ type: 'reply', id: request.id, result: { ok: true, value: state } })
        const ask = request.ask
        return whenReadable(() => void read((current) => answerAsk(current, ask, shown)).then((result) => main.post({ type: 'reply', id: request.id, result })))
      }
      if (CONTRACT[request.channel].where !== 'query') return writer.post(request)
      const handler = queries[request.channel]!
      whenReadable(() => void read(() => handler(...request.args)).then((result) => main.post({ type: 'reply', id: request.id, result })))
    })
  })
}

/**
 * The services of the queries, by the contract's domains (`catalogue:list` is `catalogue.list`): the
 * reader's reads of the cache, and the session's state as the host holds it.
 */
export function queryServices(reader: LibraryReader, state: () => SessionSnapshot): ServicesAt<'query'> {
  return {
    catalogue: reader.catalogue,
    follows: reader.follows,
    downloads: { ...reader.downloads, state: () => state().downloads },
    caches: { list: () => cacheInfos(reader.library.dataDir, reader.library.cacheFile) },
    sync: { state: () => state().sync },
    settings: { get: () => state().settings },
    app: { online: () => state().online },
  }
}

/** What main asks for its media protocol and file actions; an avatar given is noted in `shown`. */
function answerAsk(reader: LibraryReader, request: Exclude<Ask, { what: 'snapshot' }>, shown: Set<string>): AskResults[Ask['what']] {
  switch (request.what) {
    case 'avatar': {
      const image = reader.catalogue.avatar(request.address)
      if (image) shown.add(request.address)
      return image && { contentType: image.contentType, body: new Uint8Array(image.body) }
    }
    case 'downloadedFile': {
      let download
      let root
      try {
        download = reader.downloads.get(request.id)
        // The folder it was queued into, not one read from its target path (which the cache may have had rewritten).
        root = reader.downloads.folderOf(request.id)
      } catch {
        return undefined
      }
      return { file: download.targetPath, root, state: download.state }
    }
    case 'completedFile':
      return reader.downloads.completedFile(request.id)
  }
}

/**
 * The core's host: a process of its own (Electron's utility process in the
 * app, a forked Node process under `npm run web` and in tests), so that
 * nothing the core does holds up the main process, which draws the window
 * frame, runs the menus and answers every call. Inside it, two threads:
 *
 *   main process ──(its channel)──▶ host thread ──(worker port)──▶ writer thread
 *                                   reader: queries                session: commands,
 *                                   on its own connection          sync, downloads
 *
 * The host thread answers the contract's queries from its own read-only
 * connection to the cache (WAL: it sees every committed write at once and
 * never waits behind one), and passes commands to the writer and everything
 * the writer says back to main. It never runs a long task, so a query's
 * answer waits for nothing but the query. Calls carry main's ids both ways.
 */
import { CONTRACT } from '../shared/contract'
import { CancelledError, deserializeError, toTuneshelfError, type TuneshelfError } from '../shared/errors'
import { answer } from './answer'
import type { Ask, AskResults, HostMessage, HostRequest, OpenedLibrary, WriterMessage, WriterRequest } from './messages'
import type { Port } from './port'
import { queryHandlers } from './query-handlers'
import { openReader, type LibraryReader } from './reader'
import { downloadRoot } from '../queries'

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
  // Queries wait while there is no library to read (before the first, during a switch of service).
  let waiting: (() => void)[] | undefined = []
  const queries = queryHandlers(() => ({ reader: reader!, interrupted, now }))

  const open = (library: OpenedLibrary): void => {
    if (readerFailure instanceof CancelledError) return
    reader?.close()
    reader = undefined
    readerFailure = undefined
    try {
      reader = openReader(library)
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
  const read = (work: (reader: LibraryReader) => unknown) =>
    answer(() => {
      if (!reader) throw readerFailure ?? new Error('the catalogue cache is not open')
      return work(reader)
    })

  return new Promise((resolve) => {
    const finish = (): void => {
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
        case 'state':
          interrupted = message.interrupted
          return main.post({ type: 'state', snapshot: message.snapshot })
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
        return writer.post(request)
      }
      if (request.type === 'ask') {
        return whenReadable(() => void read((current) => ask(current, request.ask)).then((result) => main.post({ type: 'reply', id: request.id, result })))
      }
      if (CONTRACT[request.channel].where !== 'query') return writer.post(request)
      const handler = queries[request.channel as keyof typeof queries] as (...args: unknown[]) => unknown
      whenReadable(() => void read(() => handler(...request.args)).then((result) => main.post({ type: 'reply', id: request.id, result })))
    })
  })
}

/** What main asks for its media protocol and file actions. */
function ask(reader: LibraryReader, request: Ask): AskResults[Ask['what']] {
  switch (request.what) {
    case 'avatar': {
      const image = reader.catalogue.avatar(request.address)
      return image && { contentType: image.contentType, body: new Uint8Array(image.body) }
    }
    case 'downloadedFile': {
      let download
      try {
        download = reader.downloads.get(request.id)
      } catch {
        return undefined
      }
      return { file: download.targetPath, root: downloadRoot(download.targetPath), state: download.state }
    }
    case 'completedFile':
      return reader.downloads.completedFile(request.id)
  }
}

/**
 * The core's writer: the app session (settings, the library of the service
 * shown, its sync and its download queue, the demo catalogue) on a thread of
 * its own, so its work (parsing, hashing, the cache's write transactions)
 * never holds up the host's reader or the main process. It answers the
 * command channels, and tells the host what changed as it changes: each event
 * of the session (which carries the change), each library it opens (what the
 * reader reads), and the downloads nothing transfers. The session's state is
 * taken whole once, when it opens; it is never serialised again.
 */
import type { Disposable } from '../base/events'
import { AppSession, type DemoService, type SessionOptions } from '../session/session'
import type { Library } from '../library/library'
import { answer } from '../shared/answer'
import { handlersFrom, type ServicesAt } from '../shared/contract'
import { serializeError, toTuneshelfError } from '../shared/errors'
import type { OpenedLibrary, WriterMessage, WriterRequest } from './messages'
import type { Port } from './port'

export interface WriterOptions {
  dataDir: string
  startDemo: () => Promise<DemoService>
  /** What tests change of the session (its clock, shorter retries); not set in the app. */
  session?: Omit<SessionOptions, 'dataDir' | 'startDemo'>
  /** Told of the session once it is open (tests that run the host in their own thread look inside). */
  onSession?: (session: AppSession) => void
}

/** Opens the session and serves the host until it asks to close; resolves once the session is closed (or could not open). */
export async function runWriter(port: Port<WriterRequest, WriterMessage>, options: WriterOptions): Promise<void> {
  // Requests that come while the session opens wait for it.
  const early: WriterRequest[] = []
  let serve: ((request: WriterRequest) => void) | undefined
  const listening = port.onDidReceiveMessage((request) => (serve ? serve(request) : early.push(request)))

  let session: AppSession
  try {
    session = await AppSession.open({ ...options.session, dataDir: options.dataDir, startDemo: options.startDemo })
  } catch (error) {
    port.post({ type: 'failed', error: serializeError(toTuneshelfError(error, 'opening the catalogue')) })
    listening.dispose()
    return
  }

  // The downloads that say "downloading" though nothing transfers them: the queue's state counts them, and
  // a change of that count is a queue-state event; the ids go to the reader when they change.
  let interruptedSaid: string | undefined
  const tellInterrupted = (): void => {
    let ids: number[]
    try {
      ids = session.library.downloads.interruptedIds()
    } catch {
      return // Between two services: the next library's follow.
    }
    const said = ids.join()
    if (said === interruptedSaid) return
    interruptedSaid = said
    port.post({ type: 'interrupted', ids })
  }
  // Set between a switch's closing of the old library and the opening of the new one.
  let switching = false
  const subscriptions: Disposable[] = [
    session.onDidChangeLibrary((library) => {
      switching = library === undefined
      port.post(library ? { type: 'opened', library: opened(library) } : { type: 'switching' })
      if (library) tellInterrupted()
    }),
    session.onDidEmit((event) => {
      port.post({ type: 'event', event })
      if (event.type === 'queue-state') tellInterrupted()
    }),
  ]
  options.onSession?.(session)
  port.post({ type: 'opened', library: opened(session.library) })
  tellInterrupted()
  port.post({ type: 'ready', snapshot: session.snapshot() })

  const handlers = handlersFrom('command', () => commandServices(session)) as Record<string, (...args: unknown[]) => unknown>
  let closing: Promise<void> | undefined
  const closed = new Promise<void>((resolve) => {
    serve = (request) => {
      if (request.type === 'close') {
        closing ??= (async () => {
          for (const subscription of subscriptions) subscription.dispose()
          await session.close().catch(() => undefined)
          port.post({ type: 'closed' })
          listening.dispose()
          resolve()
        })()
        return
      }
      if (request.type === 'avatarsShown') {
        try {
          session.library.catalogue.avatarsShown(request.urls)
        } catch {
          // Only the order in which pictures leave the store is lost (a read-only folder, a switch of service).
        }
        return
      }
      if (closing) {
        port.post({ type: 'reply', id: request.id, result: { ok: false, error: serializeError(toTuneshelfError(new Error('the app is closing'))) } })
        return
      }
      const handler = handlers[request.channel]
      void answer(async () => {
        if (!handler) throw new Error(`the writer does not answer ${request.channel}`)
        // A call made while the service switches waits for the new one.
        await session.whenReady()
        return handler(...request.args)
      }).then((result) => {
        // Every command waits for a switch under way, so one still switching now failed and left no
        // library: the host's queries hear why instead of waiting for one.
        if (switching) {
          try {
            void session.library
          } catch (error) {
            // The command that failed says why (a cache made by a newer Tuneshelf, a folder that cannot be used).
            port.post({ type: 'unavailable', error: result.ok ? serializeError(toTuneshelfError(error)) : result.error })
          }
        }
        port.post({ type: 'reply', id: request.id, result })
      })
    }
  })
  for (const request of early.splice(0)) serve!(request)
  await closed
}

function opened(library: Library): OpenedLibrary {
  return { dataDir: library.dataDir, cacheFile: library.cacheFile, readFile: library.readFile, displayUrl: library.displayUrl, readOnly: library.readOnly }
}

/**
 * The services of the commands, by the contract's domains (`downloads:pause` is `downloads.pause`): the
 * library of the service shown (whichever it is when the call comes), and the session's own.
 */
export function commandServices(session: AppSession): ServicesAt<'command'> {
  // The library's are read when asked for: after a failed switch there is none, and settings:set must still answer.
  return {
    get catalogue() {
      return session.library.catalogue
    },
    get sync() {
      return session.library.sync
    },
    get downloads() {
      return session.library.downloads
    },
    get follows() {
      return session.library.follows
    },
    settings: session.settings,
    caches: session.caches,
  }
}

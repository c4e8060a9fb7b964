/**
 * The core's writer: the app session (settings, the library of the service
 * shown, its sync and its download queue, the demo catalogue) on a thread of
 * its own, so its work (parsing, hashing, the cache's write transactions)
 * never holds up the host's reader or the main process. It answers the
 * command channels, and tells the host everything that changed: each event;
 * the session's whole state (what main mirrors) after each burst of events and
 * before each reply; and each library it opens (what the reader reads).
 */
import { DisposableStore, type Disposable } from '../events'
import type { Library } from '../library'
import { AppSession, type DemoService, type SessionOptions } from '../session'
import { serializeError, toTuneshelfError } from '../shared/errors'
import { answer } from './answer'
import { commandHandlers } from './command-handlers'
import type { OpenedLibrary, WriterMessage, WriterRequest } from './messages'
import type { Port } from './port'

/** How often the state is looked at for what changed with no event. */
const STATE_REFRESH_MS = 1000

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

  let lastState = ''
  const postState = (onlyIfChanged = false): void => {
    let message: WriterMessage
    try {
      message = { type: 'state', snapshot: session.snapshot(), interrupted: session.library.downloads.interruptedIds() }
    } catch {
      return // Between two services (a switch closes the old library first): the next state follows the switch.
    }
    const text = JSON.stringify(message)
    if (onlyIfChanged && text === lastState) return
    lastState = text
    port.post(message)
  }
  // What changes with no event (another process's lock going stale, a queue stopped) is said within a second.
  const refresh = setInterval(() => postState(true), STATE_REFRESH_MS)
  refresh.unref()
  // Events come in bursts (a queue of 200 downloads, a sync's pages): the state follows each burst once.
  let stateDue: NodeJS.Immediate | undefined
  const stateSoon = (): void => {
    stateDue ??= setImmediate(() => {
      stateDue = undefined
      postState()
    })
  }
  // Set between a switch's closing of the old library and the opening of the new one.
  let switching = false
  // A queue that has gone idle has no event of its own, but the count of transfers it shows has changed.
  const idle = new DisposableStore()
  const watch = (library: Library): void => {
    idle.clear()
    idle.add(library.downloads.onDidBecomeIdle(stateSoon))
  }
  watch(session.library)
  const subscriptions: Disposable[] = [
    idle,
    session.onDidChangeLibrary((library) => {
      if (library) watch(library)
      switching = library === undefined
      port.post(library ? { type: 'opened', library: opened(library) } : { type: 'switching' })
    }),
    session.onDidEmit((event) => {
      port.post({ type: 'event', event })
      // Progress of a download leaves the session's state as it was: it goes alone, and often.
      if (event.type !== 'download-progress') stateSoon()
    }),
  ]
  options.onSession?.(session)
  port.post({ type: 'opened', library: opened(session.library) })
  postState()
  port.post({ type: 'ready', snapshot: session.snapshot() })

  const handlers = commandHandlers(session)
  let closing: Promise<void> | undefined
  const closed = new Promise<void>((resolve) => {
    serve = (request) => {
      if (request.type === 'close') {
        closing ??= (async () => {
          clearInterval(refresh)
          if (stateDue) clearImmediate(stateDue)
          for (const subscription of subscriptions) subscription.dispose()
          await session.close().catch(() => undefined)
          port.post({ type: 'closed' })
          listening.dispose()
          resolve()
        })()
        return
      }
      if (closing) {
        port.post({ type: 'reply', id: request.id, result: { ok: false, error: serializeError(toTuneshelfError(new Error('the app is closing'))) } })
        return
      }
      const handler = handlers[request.channel as keyof typeof handlers] as ((...args: unknown[]) => unknown) | undefined
      void answer(() => {
        if (!handler) throw new Error(`the writer does not answer ${request.channel}`)
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
        // The state first, so main's copy already holds what the call changed when its answer arrives.
        postState()
        port.post({ type: 'reply', id: request.id, result })
      })
      // Once what the command does at once is done (a sync says it runs, a download that it is paused), the
      // state says so: main's state channels answer a window that asks right after a command from it.
      setImmediate(() => {
        postState()
        port.post({ type: 'accepted', id: request.id })
      })
    }
  })
  for (const request of early.splice(0)) serve!(request)
  await closed
}

function opened(library: Library): OpenedLibrary {
  return { dataDir: library.dataDir, cacheFile: library.cacheFile, readFile: library.readFile, displayUrl: library.displayUrl, readOnly: library.readOnly }
}

/**
 * The core as the main process sees it: a host started by a launcher (a
 * utility process in the app, a forked process under `npm run web`, one
 * thread in tests), the calls sent to it, and its events. Main keeps no copy
 * of the session's state: the host holds it, answers the state channels from
 * it, and gives a window that subscribes its snapshot (`snapshot()`), with the
 * number of the last event it holds, so that the window's stream starts right
 * after it. Replies cross as the host tagged them: the core's error is
 * serialised once, in the host, and reaches the window as it is.
 *
 * If the host dies (a native crash, out of memory, a kill), it is started
 * again, a notice says so once, and the windows catch up through the events a
 * switch of service sends; calls made meanwhile wait for it, reads it was
 * answering are asked again, commands fail with a retryable error. Nothing is
 * lost: the cache and the partial files are on disk, and the queue resumes
 * from them.
 */
import { DisposableStore, Emitter, type Disposable, type Event } from '../core/base/events'
import { CONTRACT, type ResultOf, type Tagged } from '../core/shared/contract'
import { deserializeError, InternalError, serializeError, toTuneshelfError, type TuneshelfError } from '../core/shared/errors'
import type { SessionEvent, SessionSnapshot } from '../core/shared/types'
import type { Ask, AskResults, CoreChannel, HostMessage, HostRequest, LaunchedHost, LaunchHost } from '../core/host/messages'
export type { LaunchedHost, LaunchHost } from '../core/host/messages'

export interface CoreClientOptions {
  launch: LaunchHost
  /** At most this many restarts within restartWindowMs; then the core stays down and says why (default 3 in a minute). */
  maxRestarts?: number
  restartWindowMs?: number
  /** How long a graceful close may take before the host is killed (default 20 s). */
  closeTimeoutMs?: number
}

interface Pending {
  request: HostRequest
  /** The host's answer, and the number of the last event received before it. */
  settle: (result: Tagged<unknown>, seq: number) => void
}

/** The session's state as the host holds it, and the number of the last event it holds (see CoreClient.seq). */
export interface NumberedSnapshot {
  snapshot: SessionSnapshot
  seq: number
}

/** Whether a request only reads, so that a host that died before answering it can be asked again. */
function onlyReads(request: HostRequest): boolean {
  return request.type === 'ask' || (request.type === 'call' && CONTRACT[request.channel].where === 'query')
}

const failure = (error: unknown): Tagged<never> => ({ ok: false, error: serializeError(toTuneshelfError(error)) })

export class CoreClient implements Disposable {
  private host: LaunchedHost
  private nextId = 1
  private lastSeq = 0
  private readonly pending = new Map<number, Pending>()
  private readonly events = new Emitter<SessionEvent>()
  private readonly hostSubscriptions = new DisposableStore()
  /** Resolves when the host is ready for calls; replaced while it restarts. */
  private ready: Promise<void> = Promise.resolve()
  private restarts: number[] = []
  private down: TuneshelfError | undefined
  private closing: Promise<void> | undefined
  /** Every event of the session, in order (and the ones a restart adds); `seq` is the number of the one fired. */
  readonly onDidEmit: Event<SessionEvent> = this.events.event

  private constructor(
    private readonly options: CoreClientOptions,
    started: ReadyHost,
  ) {
    this.host = started.host
    this.attach(started)
  }

  /** Starts the host and resolves once its session is open; rejects with why it could not open (the host is gone then). */
  static async start(options: CoreClientOptions): Promise<CoreClient> {
    const started = await launchReady(options.launch)
    return new CoreClient(options, started)
  }

  /** The number of the last event fired: read inside an onDidEmit listener, the number of that event. */
  get seq(): number {
    return this.lastSeq
  }

  /**
   * The session's state as the host holds it now, and the number of the last event it holds: every
   * event numbered after it is newer than the snapshot (the host answers in order with its events).
   */
  async snapshot(): Promise<NumberedSnapshot> {
    const id = this.nextId++
    const { result, seq } = await this.send(id, { type: 'ask', id, ask: { what: 'snapshot' } })
    return { snapshot: unwrap(result) as SessionSnapshot, seq }
  }

  /** The host's process id, when it is a process (tests kill it). */
  get pid(): number | undefined {
    return this.host.pid
  }

  /** Calls a channel the core answers; its arguments have passed the contract in main. Resolves with the result as the host tagged it, never rejects. */
  async invoke(channel: CoreChannel, args: readonly unknown[]): Promise<Tagged<unknown>> {
    const id = this.nextId++
    try {
      return (await this.send(id, { type: 'call', id, channel, args: [...args] })).result
    } catch (error) {
      return failure(error)
    }
  }

  /** Calls a channel the core answers; rejects with the core's error (for main's own use, tests and benchmarks). */
  async call<C extends CoreChannel>(channel: C, args: readonly unknown[]): Promise<ResultOf<C>> {
    return unwrap(await this.invoke(channel, args)) as ResultOf<C>
  }

  /** Asks the core for what main's media and file actions need. */
  async ask<A extends Exclude<Ask, { what: 'snapshot' }>>(ask: A): Promise<AskResults[A['what']]> {
    const id = this.nextId++
    return unwrap((await this.send(id, { type: 'ask', id, ask })).result) as AskResults[A['what']]
  }

  /** Closes the session gracefully (transfers paused with their bytes, the cache closed) and ends the host. */
  close(): Promise<void> {
    return (this.closing ??= (async () => {
      await this.ready.catch(() => undefined)
      const host = this.host
      this.hostSubscriptions.dispose()
      if (!this.down) {
        host.port.post({ type: 'close' })
        const timer = setTimeout(() => host.kill(), this.options.closeTimeoutMs ?? 20_000)
        await host.exited
        clearTimeout(timer)
      }
      this.failPending(new InternalError('the app closed before the core answered'))
      this.events.dispose()
    })())
  }

  dispose(): void {
    void this.close()
  }

  /** Sends a request and resolves with the host's tagged answer; rejects only when it cannot be sent (the core down, the app closing). */
  private async send(id: number, request: HostRequest): Promise<{ result: Tagged<unknown>; seq: number }> {
    if (!this.closing) await this.ready
    const refusal = this.closing ? new InternalError('the app is closing') : this.down
    if (refusal) throw refusal
    return new Promise((resolve) => {
      this.pending.set(id, { request, settle: (result, seq) => resolve({ result, seq }) })
      this.host.port.post(request)
    })
  }

  private fire(event: SessionEvent): void {
    this.lastSeq += 1
    this.events.fire(event)
  }

  private attach(started: ReadyHost): void {
    const { host } = started
    const receive = (message: HostMessage): void => {
      switch (message.type) {
        case 'event':
          return this.fire(message.event)
        case 'reply': {
          const pending = this.pending.get(message.id)
          this.pending.delete(message.id)
          pending?.settle(message.result, this.lastSeq)
          return
        }
        default:
          return
      }
    }
    this.hostSubscriptions.add(host.port.onDidReceiveMessage(receive))
    for (const message of started.handOver()) receive(message)
    void host.exited.then((how) => {
      if (this.closing || this.host !== host) return
      void this.restart(how, host.lastWords())
    })
  }

  /** The host ended by itself: start another, unless it keeps ending. */
  private async restart(how: string, lastWords: string): Promise<void> {
    this.hostSubscriptions.clear()
    const cause = `Tuneshelf's core stopped unexpectedly (${how}${lastWords ? `: ${lastWords}` : ''})`
    // Reads are asked again of the next host; a command may or may not have been done, so it fails.
    const reads = [...this.pending].filter(([, call]) => onlyReads(call.request))
    for (const [id] of reads) this.pending.delete(id)
    this.failPending(new InternalError(`${cause} while answering; it is being restarted, so try again`, { retryable: true }))
    const now = Date.now()
    this.restarts = [...this.restarts.filter((at) => now - at < (this.options.restartWindowMs ?? 60_000)), now]
    const giveUp = (down: InternalError): void => {
      this.down = down
      for (const [, call] of reads) call.settle(failure(down), this.lastSeq)
      this.fire({ type: 'notice', message: down.message })
    }
    if (this.restarts.length > (this.options.maxRestarts ?? 3)) {
      giveUp(new InternalError(`${cause}, again and again, so it was not restarted: close the app and open it again (the log says more)`))
      return
    }
    let started: ReadyHost
    let restarted!: () => void
    this.ready = new Promise((resolve) => (restarted = resolve))
    try {
      started = await launchReady(this.options.launch)
    } catch (error) {
      giveUp(new InternalError(`${cause}, and could not be started again: ${(error as Error).message}`))
      restarted()
      return
    }
    if (this.closing) {
      started.handOver()
      started.host.kill()
      for (const [, call] of reads) call.settle(failure(new InternalError('the app closed before the core answered')), this.lastSeq)
      restarted()
      return
    }
    this.host = started.host
    // What the new host's session says now, as the events a switch of service sends: every window
    // applies them (and reads its lists again), and the new host's state holds the same.
    const { snapshot } = started
    this.fire({ type: 'notice', message: `${cause}; it was restarted, and nothing was lost` })
    this.fire({ type: 'service', service: snapshot.service })
    this.fire({ type: 'settings', settings: snapshot.settings })
    this.fire({ type: 'sync-state', state: snapshot.sync })
    this.fire({ type: 'queue-state', state: snapshot.downloads })
    this.fire({ type: 'online', online: snapshot.online })
    this.attach(started)
    for (const [id, call] of reads) {
      this.pending.set(id, call)
      this.host.port.post(call.request)
    }
    restarted()
  }

  private failPending(error: TuneshelfError): void {
    const pending = [...this.pending.values()]
    this.pending.clear()
    for (const call of pending) call.settle(failure(error), this.lastSeq)
  }
}

/** The value of a tagged result, or the core's error thrown. */
function unwrap(result: Tagged<unknown>): unknown {
  if (result.ok) return result.value
  throw deserializeError(result.error)
}

/** A host whose session is open, with what it said since (to be handed to the client's own listener). */
interface ReadyHost {
  host: LaunchedHost
  /** The session's state as it opened: what a restart tells the windows. */
  snapshot: SessionSnapshot
  /** Stops collecting and gives what was collected: call it right after the client's own listener is added. */
  handOver(): HostMessage[]
}

/** Launches a host and waits for its session to open. */
async function launchReady(launch: LaunchHost): Promise<ReadyHost> {
  const host = launch()
  const subscription = new DisposableStore()
  // Messages after 'ready' can come in the same turn: they are kept until the client listens.
  let since: HostMessage[] | undefined
  try {
    return await new Promise((resolve, reject) => {
      subscription.add(
        host.port.onDidReceiveMessage((message) => {
          if (since) since.push(message)
          else if (message.type === 'ready') {
            since = []
            resolve({
              host,
              snapshot: message.snapshot,
              handOver: () => {
                subscription.dispose()
                return since ?? []
              },
            })
          } else if (message.type === 'failed') reject(deserializeError(message.error))
        }),
      )
      void host.exited.then((how) => {
        const words = host.lastWords()
        reject(new InternalError(`Tuneshelf's core could not start (${how})${words ? `: ${words}` : ''}`))
      })
    })
  } catch (error) {
    subscription.dispose()
    host.kill()
    throw error
  }
}

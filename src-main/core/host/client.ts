/**
 * The core as the main process sees it: a host started by a launcher (a
 * utility process in the app, a forked process under `npm run web`, one
 * thread in tests), the calls sent to it, its events, and the session's state
 * as it last said, which main answers the window's state channels from at
 * once. If the host dies (a native crash, out of memory, a kill), it is started
 * again, a notice says so once, and the windows catch up through the events a
 * switch of service sends; calls made meanwhile wait for it, calls it was
 * answering fail with a retryable error. Nothing is lost: the cache and the
 * partial files are on disk, and the queue resumes from them.
 */
import { DisposableStore, Emitter, type Disposable, type Event } from '../events'
import { CONTRACT, type ResultOf } from '../shared/contract'
import { deserializeError, InternalError, type TuneshelfError } from '../shared/errors'
import { applySessionEvent } from '../shared/session-state'
import type { SessionEvent, SessionSnapshot } from '../shared/types'
import type { Ask, AskResults, CoreChannel, HostMessage, HostRequest } from './messages'
import type { Port } from './port'

/** A started host: its channel, and how it ends. */
export interface LaunchedHost {
  port: Port<HostMessage, HostRequest>
  /** Resolves when the host has ended, with how (`exit code 1`, `signal SIGKILL`). */
  exited: Promise<string>
  /** Ends it at once. */
  kill(): void
  /** Its process id, when it is a process. */
  pid: number | undefined
  /** The last lines it wrote on stderr, for a message about why it ended. */
  lastWords(): string
}

export type LaunchHost = () => LaunchedHost

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
  resolve: (value: unknown) => void
  reject: (error: TuneshelfError) => void
}

/** Whether a request only reads, so that a host that died before answering it can be asked again. */
function onlyReads(request: HostRequest): boolean {
  return request.type === 'ask' || (request.type === 'call' && CONTRACT[request.channel].where === 'query')
}

export class CoreClient implements Disposable {
  private host: LaunchedHost
  private state: SessionSnapshot
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private readonly events = new Emitter<SessionEvent>()
  private readonly hostSubscriptions = new DisposableStore()
  /** Resolves when the host is ready for calls; replaced while it restarts. */
  private ready: Promise<void> = Promise.resolve()
  private restarts: number[] = []
  /** The last command sent, and the last the writer has begun: state asked for in between waits for it. */
  private lastCommand = 0
  private lastAccepted = 0
  private readonly acceptWaiters: { id: number; resolve: () => void }[] = []
  private down: TuneshelfError | undefined
  private closing: Promise<void> | undefined
  /** Every event of the session, in order (and the ones a restart adds). */
  readonly onDidEmit: Event<SessionEvent> = this.events.event

  private constructor(
    private readonly options: CoreClientOptions,
    started: ReadyHost,
  ) {
    this.host = started.host
    this.state = started.snapshot
    this.attach(started)
  }

  /** Starts the host and resolves once its session is open; rejects with why it could not open (the host is gone then). */
  static async start(options: CoreClientOptions): Promise<CoreClient> {
    const started = await launchReady(options.launch)
    return new CoreClient(options, started)
  }

  /** The session's state as the core last said (with every call's effect, once the call has answered). */
  snapshot(): SessionSnapshot {
    return structuredClone(this.state)
  }

  /**
   * The state once the writer has begun every command sent so far: what a window that just
   * started a sync or paused a download reads next. At once when no command is on its way.
   */
  async current(): Promise<SessionSnapshot> {
    const id = this.lastCommand
    if (this.lastAccepted < id) await new Promise<void>((resolve) => this.acceptWaiters.push({ id, resolve }))
    return this.snapshot()
  }

  /** The host's process id, when it is a process (tests kill it). */
  get pid(): number | undefined {
    return this.host.pid
  }

  /** Calls a channel the core answers; its arguments have passed the contract in main. Rejects with the core's error. */
  call<C extends CoreChannel>(channel: C, args: readonly unknown[]): Promise<ResultOf<C>> {
    // Numbered at once: a state channel asked right after this command waits for the writer to begin it.
    const id = this.nextId++
    if (CONTRACT[channel].where === 'command') this.lastCommand = id
    return this.send(id, { type: 'call', id, channel, args: [...args] }) as Promise<ResultOf<C>>
  }

  /** Asks the core for what main's media and file actions need. */
  async ask<A extends Ask>(ask: A): Promise<AskResults[A['what']]> {
    const id = this.nextId++
    return (await this.send(id, { type: 'ask', id, ask })) as AskResults[A['what']]
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

  private async send(id: number, request: HostRequest): Promise<unknown> {
    if (!this.closing) await this.ready
    const refusal = this.closing ? new InternalError('the app is closing') : this.down
    if (refusal) {
      // Never sent, so never begun: nothing waits for it.
      this.accepted(id)
      throw refusal
    }
    return new Promise((resolve, reject) => {
      this.pending.set(id, { request, resolve, reject })
      this.host.port.post(request)
    })
  }

  private attach(started: ReadyHost): void {
    const { host } = started
    const receive = (message: HostMessage): void => {
      switch (message.type) {
        case 'state':
          this.state = message.snapshot
          return
        case 'event':
          // The copy follows each event at once; the full state that comes after the burst corrects the rest.
          this.state = applySessionEvent(this.state, message.event)
          return this.events.fire(message.event)
        case 'accepted':
          return this.accepted(message.id)
        case 'reply': {
          const pending = this.pending.get(message.id)
          this.pending.delete(message.id)
          if (message.result.ok) pending?.resolve(message.result.value)
          else pending?.reject(deserializeError(message.result.error))
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
      for (const [, call] of reads) call.reject(down)
      this.notice(down.message)
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
      for (const [, call] of reads) call.reject(new InternalError('the app closed before the core answered'))
      restarted()
      return
    }
    const wasOnline = this.state.online
    this.host = started.host
    this.state = started.snapshot
    this.attach(started)
    for (const [id, call] of reads) {
      this.pending.set(id, call)
      this.host.port.post(call.request)
    }
    restarted()
    // One notice, then what a switch of service sends: a window reads its state and its lists again.
    this.notice(`${cause}; it was restarted, and nothing was lost`)
    const snapshot = this.snapshot()
    this.events.fire({ type: 'service', service: snapshot.service })
    this.events.fire({ type: 'settings', settings: snapshot.settings })
    this.events.fire({ type: 'sync-state', state: snapshot.sync })
    if (snapshot.online !== wasOnline) this.events.fire({ type: 'online', online: snapshot.online })
  }

  private notice(message: string): void {
    const event: SessionEvent = { type: 'notice', message }
    this.state = applySessionEvent(this.state, event)
    this.events.fire(event)
  }

  private accepted(id: number): void {
    this.lastAccepted = Math.max(this.lastAccepted, id)
    for (let index = this.acceptWaiters.length - 1; index >= 0; index--) {
      const waiter = this.acceptWaiters[index]!
      if (waiter.id > this.lastAccepted) continue
      this.acceptWaiters.splice(index, 1)
      waiter.resolve()
    }
  }

  private failPending(error: TuneshelfError): void {
    const pending = [...this.pending.values()]
    this.pending.clear()
    for (const call of pending) call.reject(error)
    // Commands the host never began are gone with it: the state waits for nothing more.
    this.accepted(this.lastCommand)
  }
}

/** A host whose session is open, with what it said since (to be handed to the client's own listener). */
interface ReadyHost {
  host: LaunchedHost
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

/**
 * The session's event stream read as a window reads it: GET /events on the web bridge with the
 * run's token, server-sent events whose first message is `{"snapshot": ...}` and each later one a
 * JSON array of events (one batch, a few a second). Each batch is kept with the time it arrived
 * and its size on the wire, and handed to the listeners event by event. A stream the bridge cuts
 * (it drops one whose reader falls more than 4 MiB behind) is opened again a second later, as the
 * window's EventSource does (`retry: 1000`), and counted: the events sent meanwhile are lost to it.
 */
import type { SessionEvent, SessionSnapshot } from '../../../src-main/core/shared/types'
import { within } from './stats'

export interface Batch {
  /** performance.now() when it arrived. */
  at: number
  /** The batch's JSON as the bridge serialised it, in bytes. */
  bytes: number
  events: number
}

export class EventStream {
  readonly batches: Batch[] = []
  /** Times the bridge cut the stream (each followed by a new snapshot, as a window's reconnection). */
  drops = 0
  private readonly dropListeners = new Set<() => void>()
  private readonly listeners = new Set<(event: SessionEvent, at: number) => void>()
  private readonly abort = new AbortController()
  private snapshotTaken!: (snapshot: SessionSnapshot) => void
  /** The snapshot the stream starts with. */
  readonly snapshot = new Promise<SessionSnapshot>((resolve) => (this.snapshotTaken = resolve))

  private constructor() {}

  /** Opens the stream and resolves once its snapshot came. */
  static async open(origin: string, token: string): Promise<EventStream> {
    const stream = new EventStream()
    void stream.connect(origin, token)
    await within(stream.snapshot, 'the event stream\'s snapshot', 60_000)
    return stream
  }

  /** Hears the bridge cutting the stream. */
  onDrop(listener: () => void): () => void {
    this.dropListeners.add(listener)
    return () => void this.dropListeners.delete(listener)
  }

  /** Reads the stream until closed; a stream cut by the bridge is opened again, as EventSource does. */
  private async connect(origin: string, token: string): Promise<void> {
    while (!this.abort.signal.aborted) {
      try {
        const response = await fetch(`${origin}/events`, { headers: { 'x-tuneshelf-token': token }, signal: this.abort.signal })
        if (!response.ok || !response.body) throw new Error(`GET /events answered ${response.status}`)
        await this.read(response.body)
      } catch (error) {
        if (this.abort.signal.aborted) return
        process.stderr.write(`   [stream] cut: ${(error as Error).message}\n`)
      }
      if (this.abort.signal.aborted) return
      this.drops += 1
      for (const listener of this.dropListeners) listener()
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  }

  /** Hears each event as it arrives (with the time its batch came). */
  on(listener: (event: SessionEvent, at: number) => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  /** Resolves with the first event (from now on) that found holds for, and when it came. */
  next<E extends SessionEvent>(found: (event: SessionEvent) => event is E, what: string, timeoutMs: number): Promise<{ event: E; at: number }> {
    let stop = (): void => undefined
    const next = new Promise<{ event: E; at: number }>((resolve) => {
      stop = this.on((event, at) => {
        if (found(event)) resolve({ event, at })
      })
    })
    return within(next, what, timeoutMs).finally(() => stop())
  }

  close(): void {
    this.abort.abort()
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder()
    let text = ''
    for await (const chunk of body) {
      // Only the new text can end a message (one of 10,000 rows comes in a hundred chunks).
      let from = Math.max(0, text.length - 1)
      text += decoder.decode(chunk, { stream: true })
      let end: number
      while ((end = text.indexOf('\n\n', from)) >= 0) {
        this.message(text.slice(0, end))
        text = text.slice(end + 2)
        from = 0
      }
    }
  }

  /** One server-sent message: its data lines (comments and `retry:` aside). */
  private message(block: string): void {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice(6))
      .join('\n')
    if (data === '') return
    const at = performance.now()
    const parsed = JSON.parse(data) as SessionEvent[] | { snapshot: SessionSnapshot }
    // A stream opened again starts with a snapshot too: the first one is the stream's.
    if (!Array.isArray(parsed)) return this.snapshotTaken(parsed.snapshot)
    this.batches.push({ at, bytes: Buffer.byteLength(data), events: parsed.length })
    for (const event of parsed) for (const listener of this.listeners) listener(event, at)
  }
}

/**
 * One end of a message channel, whatever carries it: a forked Node process's
 * IPC channel, Electron's utility process port, a worker thread's port, or an
 * in-memory pair (tests run the whole core on one thread that way).
 */
import type { EventEmitter } from 'node:events'
import type { MessagePort, Worker } from 'node:worker_threads'
import type { Disposable } from '../base/events'

export interface Port<TIn, TOut> {
  post(message: TOut): void
  onDidReceiveMessage(listener: (message: TIn) => void): Disposable
}

/** Two connected ends in one thread; each message is cloned and delivered on a later turn, as across threads. */
export function portPair<A, B>(): [Port<A, B>, Port<B, A>] {
  const listeners: [Set<(message: A) => void>, Set<(message: B) => void>] = [new Set(), new Set()]
  const end = <TIn, TOut>(own: Set<(message: TIn) => void>, other: Set<(message: TOut) => void>): Port<TIn, TOut> => ({
    post: (message) => {
      const copy = structuredClone(message)
      setImmediate(() => {
        for (const listener of other) listener(copy)
      })
    },
    onDidReceiveMessage: (listener) => {
      own.add(listener)
      return { dispose: () => own.delete(listener) }
    },
  })
  return [end<A, B>(listeners[0], listeners[1]), end<B, A>(listeners[1], listeners[0])]
}

/** A worker thread's port (its parentPort, or a Worker seen from outside). */
export function workerPort<TIn, TOut>(port: Worker | MessagePort): Port<TIn, TOut> {
  const events = port as unknown as EventEmitter
  return {
    post: (message) => port.postMessage(message),
    onDidReceiveMessage: (listener) => {
      const forward = (message: TIn): void => listener(message)
      events.on('message', forward)
      return { dispose: () => void events.off('message', forward) }
    },
  }
}

/** Electron's `process.parentPort` in a utility process: messages arrive as `{ data }`. */
export interface ParentPortLike {
  postMessage(message: unknown): void
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown
  off(event: 'message', listener: (event: { data: unknown }) => void): unknown
}

/**
 * The host's end of its channel to main: Electron's parentPort in a utility
 * process, Node's IPC channel in a forked process; undefined when neither is
 * there (the script was run by hand).
 */
export function parentProcessPort<TIn, TOut>(): Port<TIn, TOut> | undefined {
  const electronPort = (process as { parentPort?: ParentPortLike }).parentPort
  if (electronPort) {
    return {
      post: (message) => electronPort.postMessage(message),
      onDidReceiveMessage: (listener) => {
        const forward = (event: { data: unknown }): void => listener(event.data as TIn)
        electronPort.on('message', forward)
        return { dispose: () => electronPort.off('message', forward) }
      },
    }
  }
  if (process.send === undefined) return undefined
  return {
    post: (message) => {
      // The channel closes when main goes away; what is left to say then has no one to hear it.
      if (process.connected) process.send!(message)
    },
    onDidReceiveMessage: (listener) => {
      const forward = (message: unknown): void => listener(message as TIn)
      process.on('message', forward)
      return { dispose: () => process.off('message', forward) }
    },
  }
}

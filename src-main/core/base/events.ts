/**
 * Subscriptions that can be undone: every service of the core offers a
 * snapshot of its state plus `onDid…(listener) → Disposable`, so a window that
 * reloads can reattach, and whoever subscribes can let go.
 */
import type { Disposable } from '../shared/disposable'

export type { Disposable }

/**
 * A typed event: `event(listener)` subscribes and returns the Disposable that unsubscribes.
 * The convention, everywhere (core, bridge, window): an event is named for what happened,
 * `onDid` and a verb in the past (`onDidChange`, `onDidChangeState`, `onDidPauseQueue`),
 * and subscribing to it returns a Disposable, never a bare function.
 */
export type Event<T> = (listener: (value: T) => void) => Disposable

/** The source of one event. A listener that throws is reported, never allowed to break the emitter or the others. */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>()

  /** Subscribe with `emitter.event(listener)`; pass `event` around, keep `fire` to yourself. */
  readonly event: Event<T> = (listener) => {
    // A wrapper per subscription, so the same function subscribed twice is two subscriptions.
    const wrapped = (value: T): void => listener(value)
    this.listeners.add(wrapped)
    return { dispose: () => this.listeners.delete(wrapped) }
  }

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value)
      } catch (error) {
        reportListenerError(error)
      }
    }
  }

  get hasListeners(): boolean {
    return this.listeners.size > 0
  }

  dispose(): void {
    this.listeners.clear()
  }
}

function reportListenerError(error: unknown): void {
  // A listener's bug must not stop a sync or a download; it is still shown.
  console.error('Tuneshelf: an event listener failed', error)
}

/** Disposables released together, last added first. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = []
  private disposed = false

  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose()
    else this.items.push(item)
    return item
  }

  /** Disposes what it holds, and stays open for more. */
  clear(): void {
    for (const item of this.items.splice(0).reverse()) item.dispose()
  }

  dispose(): void {
    this.disposed = true
    this.clear()
  }
}

/**
 * The transfers running now: at most `concurrency` at once, the free slots filled from the queue in
 * its order, and each one stopped with a reason that decides what it becomes.
 */
import type { Download } from '../db/downloads'
import { toTuneshelfError } from '../shared/errors'

/** Why a running transfer was stopped: the first reason given wins. */
export type StopReason = 'pause' | 'cancel' | 'remove' | 'requeue' | 'stop' | 'disk-full'

interface Active {
  controller: AbortController
  reason?: StopReason
  done: Promise<void>
}

export interface SchedulerHooks {
  /** Whether anything may start now (the queue runs here, and nothing holds it back). */
  canStart: () => boolean
  /** Up to limit queued downloads, in the queue's order. */
  nextQueued: (limit: number) => Download[]
  /** Marks a download running, before its transfer starts. */
  starting: (download: Download) => void
  /** Transfers one download; rejects when it fails or controller aborts. */
  transfer: (download: Download, controller: AbortController) => Promise<void>
  /** What a transfer that did not complete becomes: by why it was stopped (reason), else by its error. */
  settle: (download: Download, reason: StopReason | undefined, error: Error) => Promise<void> | void
  /** A transfer ended, and the slots it freed are filled. */
  ended: () => void
}

export class Scheduler {
  private readonly active = new Map<number, Active>()

  constructor(
    public concurrency: number,
    private readonly hooks: SchedulerHooks,
  ) {}

  get running(): number {
    return this.active.size
  }

  isRunning(id: number): boolean {
    return this.active.has(id)
  }

  /** The ids of the running downloads, the earliest started first. */
  runningIds(): number[] {
    return [...this.active.keys()]
  }

  /** Starts queued downloads while there are free slots. */
  pump(): void {
    if (!this.hooks.canStart() || this.active.size >= this.concurrency) return
    // Only as many rows as there are free slots: a long queue costs nothing per finished download.
    for (const download of this.hooks.nextQueued(this.concurrency - this.active.size)) {
      if (!this.active.has(download.id)) this.run(download)
    }
  }

  /** Stops a running transfer for reason, and resolves once it is settled. */
  async interrupt(id: number, reason: StopReason): Promise<void> {
    const active = this.active.get(id)
    if (!active) return
    active.reason ??= reason
    active.controller.abort()
    await active.done
  }

  /** Transfers at once; applies at once (extra running transfers go back to the queue, keeping their bytes). */
  setConcurrency(concurrency: number): void {
    this.concurrency = concurrency
    const excess = [...this.active.keys()].slice(this.concurrency)
    for (const id of excess) void this.interrupt(id, 'requeue')
    this.pump()
  }

  private run(download: Download): void {
    const controller = new AbortController()
    const active: Active = { controller, done: Promise.resolve() }
    this.active.set(download.id, active)
    this.hooks.starting(download)
    active.done = this.hooks
      .transfer(download, controller)
      .catch((error: unknown) => this.hooks.settle(download, active.reason, toTuneshelfError(error, `downloading ${download.title}`)))
      .catch((error: unknown) => console.error(`Tuneshelf: download ${download.id} could not be settled`, error))
      .finally(() => {
        this.active.delete(download.id)
        this.pump()
        this.hooks.ended()
      })
  }
}

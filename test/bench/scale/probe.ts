/**
 * What bench:scale installs in the window before the app's own scripts run (addInitScript):
 *
 * - The event stream's handler, timed. The app sets `stream.onmessage` on its EventSource
 *   (src-renderer/web-transport.ts); the probe wraps whatever handler is set. For each batch
 *   it records the handler's own time (JSON.parse, the session store applying the events, every
 *   store's listener: the downloads store's put(), ...) and the time until a microtask queued at
 *   the handler's end runs: Vue queued its re-render of what changed (its scheduler's flush, a
 *   microtask) while the handler ran, so this one runs after it: the batch's whole script cost in
 *   the window (style, layout and paint come later, in the frame: they are in the page's
 *   main-thread times, browser.ts). Wall time: on a loaded machine it includes the renderer
 *   waiting for a processor.
 *   The batch's size and event count are taken afterwards, outside both times.
 * - Actions timed from their input to their result on screen (part 5): the input event's
 *   timeStamp, then the first painted frame in which the DOM shows the result (a MutationObserver
 *   checks it on every change; then a frame's callbacks, and a task after them: the frame has
 *   been painted, as bench:ui measures), and when the window was last busy after it (the end of
 *   the last long animation frame, ≥ 50 ms, that started within the next few seconds).
 *
 * The page runs this function's source alone: it uses nothing from outside it.
 */

// What the page's code uses of the DOM: this project type-checks with Node's types, not the DOM's.
interface PageElement {
  textContent: string | null
  querySelector(selector: string): PageElement | null
  querySelectorAll(selector: string): Iterable<PageElement>
  getAttribute(name: string): string | null
}
interface PageWindow {
  /** snapshots: how many the stream began with (more than one: the bridge cut it and EventSource opened it again). */
  benchStream: { recording: boolean; batches: StreamBatch[]; snapshots: number }
  benchAction: (condition: Condition) => Promise<ActionTiming>
}
declare const window: PageWindow
declare const document: PageElement & {
  addEventListener(type: string, listener: (event: InputEvent) => void, options: { capture: boolean }): void
  removeEventListener(type: string, listener: (event: InputEvent) => void, options: { capture: boolean }): void
}
interface InputEvent {
  timeStamp: number
  key?: string
}
declare function requestAnimationFrame(callback: (timestamp: number) => void): number
declare class MutationObserver {
  constructor(callback: () => void)
  observe(target: unknown, options: Record<string, boolean>): void
  disconnect(): void
}

export interface StreamBatch {
  bytes: number
  events: number
  /** The handler's own time, ms. */
  handlerMs: number
  /** From the handler's start to the end of Vue's re-render it caused, ms. */
  scriptMs: number
}

/** What an action's result looks like on the Downloads screen. */
export type Condition =
  | { selected: number }
  | { paused: number }
  | { resumed: number }
  /** The download's row is no longer first in the Queued group, but last or beyond the rows drawn (moved to the bottom). */
  | { movedDown: number }

export interface ActionTiming {
  /** Input to the first frame painted with the result, ms. */
  shownMs: number
  /** Input to the end of the last long animation frame after it (or shownMs if later), ms. */
  settledMs: number
  /** The long animation frames from the input on, ms each. */
  longFrames: number[]
}

export function installProbe(): void {
  // ---- The event stream's handler.
  const stream: PageWindow['benchStream'] = { recording: false, batches: [], snapshots: 0 }
  window.benchStream = stream
  const descriptor = Object.getOwnPropertyDescriptor(EventSource.prototype, 'onmessage')!
  Object.defineProperty(EventSource.prototype, 'onmessage', {
    configurable: true,
    get(this: EventSource) {
      return descriptor.get!.call(this)
    },
    set(this: EventSource, handler: ((message: { data: string }) => void) | null) {
      const timed = function (this: EventSource, message: { data: string }): void {
        const started = performance.now()
        handler!.call(this, message)
        const handled = performance.now()
        if (message.data.startsWith('{"snapshot"')) stream.snapshots += 1
        if (!stream.recording || message.data.startsWith('{"snapshot"')) return
        // Queued after Vue's flush (queued by the handler's changes): it runs once the re-render is done.
        queueMicrotask(() => {
          const ended = performance.now()
          // Counted after the timed part: the page parses the batch once for the app, once here.
          stream.batches.push({
            bytes: new TextEncoder().encode(message.data).length,
            events: (JSON.parse(message.data) as unknown[]).length,
            handlerMs: handled - started,
            scriptMs: ended - started,
          })
        })
      }
      descriptor.set!.call(this, handler === null ? null : timed)
    },
  })

  // ---- Actions, input to result.
  const longFrames: { startTime: number; duration: number }[] = []
  new PerformanceObserver((list) => longFrames.push(...list.getEntries())).observe({ type: 'long-animation-frame' as 'mark', buffered: false }) // Chromium's entry type, unknown to Node's types
  const afterPaint = (): Promise<number> => new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)))
  const count = (selector: string): number => {
    const text = document.querySelector(selector)?.textContent ?? ''
    const digits = /[\d,]+/.exec(text)
    return digits ? Number(digits[0].replaceAll(',', '')) : 0
  }
  const groupFiles = (group: string): number => count(`[data-group="${group}"] [data-testid="group-totals"]`)
  const holds = (condition: Condition): boolean => {
    if ('selected' in condition) return count('[data-testid="selection-count"]') === condition.selected
    if ('paused' in condition) return groupFiles('paused') === condition.paused && document.querySelector('[data-group="queued"]') === null
    if ('resumed' in condition) return document.querySelector('[data-group="paused"]') === null && groupFiles('queued') + groupFiles('downloading') === condition.resumed
    const rows = [...document.querySelectorAll('[data-group="queued"] li[data-download-id]')].map((row) => Number(row.getAttribute('data-download-id')))
    const at = rows.indexOf(condition.movedDown)
    return rows.length > 1 && rows[0] !== condition.movedDown && (at < 0 || at === rows.length - 1)
  }
  /** How long after the result was painted the window may still be busy with it. */
  const SETTLE_MS = 3000
  window.benchAction = (condition) =>
    new Promise((resolve) => {
      const input = (event: InputEvent): void => {
        // Ctrl+A starts at the A: a modifier pressed alone is not the input yet.
        if (['Control', 'Shift', 'Alt', 'Meta'].includes(event.key ?? '')) return
        document.removeEventListener('keydown', input, { capture: true })
        document.removeEventListener('click', input, { capture: true })
        const at = event.timeStamp
        const observer = new MutationObserver(() => check())
        let done = false
        const check = (): void => {
          if (done || !holds(condition)) return
          done = true
          observer.disconnect()
          void afterPaint().then(async (painted) => {
            await new Promise((wait) => setTimeout(wait, SETTLE_MS))
            const long = longFrames.filter((frame) => frame.startTime + frame.duration >= at)
            const busyUntil = Math.max(painted, ...long.map((frame) => frame.startTime + frame.duration))
            resolve({ shownMs: painted - at, settledMs: busyUntil - at, longFrames: long.map((frame) => Math.round(frame.duration)) })
          })
        }
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
        // The input's own handlers may have changed the DOM already (or the result needs no change).
        setTimeout(check, 0)
      }
      document.addEventListener('keydown', input, { capture: true })
      document.addEventListener('click', input, { capture: true })
    })
}

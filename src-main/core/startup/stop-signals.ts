/**
 * Ctrl-C and SIGTERM for a program that closes in order (the web bridge, the demo catalogue).
 *
 * One Ctrl-C must close in order, always. A terminal sends its SIGINT to every process of its
 * foreground process group at once (npm, the shell npm starts, the launcher, this program), so
 * anything between the terminal and this program that passes signals on makes a copy: tsx's
 * own CLI, for one, sends its child a second SIGINT when the child has not told it, within
 * 30 ms, that it got one (often, on a busy machine). The npm scripts therefore run node with
 * tsx's loader rather than tsx's CLI, and `npm start`'s launcher passes no SIGINT on; but a
 * wrapper we do not control (a process manager, an editor's task runner) may still make one.
 * So a second signal within SAME_SIGNAL_MS of the first counts as the same one: copies come
 * within milliseconds, while a person's second Ctrl-C, made because the close takes too
 * long, comes later and still exits at once.
 */

/** How soon after the first a second signal is taken for a copy of it. */
export const SAME_SIGNAL_MS = 500

export type StopSignal = 'SIGINT' | 'SIGTERM'

/**
 * Calls stop on the first SIGINT or SIGTERM and again on a later one (not a copy of the first);
 * hands back what removes both handlers.
 */
export function onStopSignals(stop: (signal: StopSignal) => void, again: (signal: StopSignal) => void, now: () => number = Date.now): () => void {
  let first: number | undefined
  const onSignal = (signal: StopSignal): void => {
    if (first === undefined) {
      first = now()
      stop(signal)
    } else if (now() - first >= SAME_SIGNAL_MS) {
      again(signal)
    }
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return () => {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}

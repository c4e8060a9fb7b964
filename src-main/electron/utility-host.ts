/**
 * The core's host as Electron's utility process (Electron glue: the one place
 * that starts it in the app). A utility process is a Node.js process that
 * Electron starts and stops with the app and that talks to main over a
 * message port; see core/host/host.ts for what runs in it.
 */
import { finished } from 'node:stream/promises'
import { utilityProcess } from 'electron'
import type { LaunchOptions } from '../core/host/messages'
import { lastLines } from '../main-process/host-output'
import type { HostMessage, HostRequest, LaunchHost } from '../core/host/messages'

/** How long the news of the host's exit waits for the rest of its output. */
const OUTPUT_DRAIN_MS = 2000

/** Starts `script` (the built core-host.js) as a utility process; its output goes to output a line at a time. */
export function utilityHost(script: string, options: LaunchOptions, output: (line: string) => void): LaunchHost {
  return () => {
    const child = utilityProcess.fork(script, [JSON.stringify(options)], { serviceName: 'Tuneshelf core', stdio: 'pipe' })
    const tail = lastLines(output)
    // Kept here: Electron drops the streams, and every listener on them, as it emits 'exit'.
    const streams = [child.stdout, child.stderr].filter((stream) => stream !== null)
    for (const stream of streams) stream.setEncoding('utf8').on('data', tail.add)
    // A fatal V8 error in the host (EventEmitter would throw, in main, on an 'error' nobody hears). The host
    // is gone then, and its 'exit' follows: the core client starts another, and says why from lastWords.
    child.on('error', (type: string, location: string) => tail.add(`tuneshelf core: ${type} at ${location}\n`))
    const exited = new Promise<string>((resolve) =>
      child.once('exit', (code) => {
        // Its last words (why it could not start) may still be on their way, in pipes that Electron reads apart
        // from the exit: once Electron has taken its listeners off, they are read to their end before the exit is told.
        setImmediate(() => void drained(streams, tail.add).then(() => resolve(`exit code ${code}`)))
      }),
    )
    return {
      port: {
        post: (message: HostRequest) => child.postMessage(message),
        onDidReceiveMessage: (listener: (message: HostMessage) => void) => {
          const forward = (message: HostMessage): void => listener(message)
          child.on('message', forward)
          return { dispose: () => void child.off('message', forward) }
        },
      },
      exited,
      // SIGTERM (then SIGKILL after a while, from Electron): the host closes its session on it.
      kill: () => void child.kill(),
      // Undefined until the process has spawned (and again once it has exited): read when asked.
      get pid() {
        return child.pid
      },
      lastWords: tail.last,
    }
  }
}

/** Reads each stream to its end into add; resolves then, or after OUTPUT_DRAIN_MS (a pipe something else holds open). */
async function drained(streams: NodeJS.ReadableStream[], add: (chunk: string) => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const ended = Promise.all(
    streams.map((stream) => {
      stream.on('data', add)
      return finished(stream, { writable: false }).catch(() => undefined)
    }),
  )
  await Promise.race([ended, new Promise((resolve) => (timer = setTimeout(resolve, OUTPUT_DRAIN_MS)))])
  clearTimeout(timer)
}

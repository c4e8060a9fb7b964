/**
 * Starting the core's host where there is no Electron: a forked Node process
 * (`npm run web`, the tests of the host, the benchmarks) or, for unit tests
 * that need many sessions fast, both of its threads in this very thread
 * (same code, in-memory ports). The app starts it as Electron's utility
 * process instead (src-main/electron/utility-host.ts).
 */
import { fork } from 'node:child_process'
import path from 'node:path'
import type { LaunchedHost, LaunchHost } from './client'
import { runHost, type HostOptions } from './host'
import type { LaunchOptions } from './host-main'
import type { HostMessage, HostRequest, WriterMessage, WriterRequest } from './messages'
import { portPair, type Port } from './port'
import { lastLines } from './output'
import { runWriter, type WriterOptions } from './writer'

/** The host's script from the sources (run under tsx, as `npm run web` is). */
export const HOST_SCRIPT = path.join(import.meta.dirname, 'host-main.ts')

export interface ForkOptions {
  /** The host's script (default: HOST_SCRIPT). */
  script?: string
  /** Node's options for it (default: this process's, which carry tsx's loader under `npm run web`). */
  execArgv?: string[]
  /** Where the host's output goes, a line at a time (default: this process's stderr). */
  output?: (line: string) => void
}

/** The host in a Node process of its own, as `npm run web` runs it. */
export function forkedHost(options: LaunchOptions, how: ForkOptions = {}): LaunchHost {
  return () => {
    const child = fork(how.script ?? HOST_SCRIPT, [JSON.stringify(options)], {
      execArgv: how.execArgv ?? process.execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Its own process group: Ctrl-C in a terminal reaches main alone, which closes the core in order.
      detached: true,
    })
    const output = how.output ?? ((line: string) => process.stderr.write(`${line}\n`))
    const tail = lastLines(output)
    child.stdout!.setEncoding('utf8').on('data', tail.add)
    child.stderr!.setEncoding('utf8').on('data', tail.add)
    const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `exit code ${code}`)))
    const port: Port<HostMessage, HostRequest> = {
      post: (message) => {
        if (child.connected) child.send(message)
      },
      onDidReceiveMessage: (listener) => {
        const forward = (message: unknown): void => listener(message as HostMessage)
        child.on('message', forward)
        return { dispose: () => child.off('message', forward) }
      },
    }
    return { port, exited, kill: () => child.kill('SIGKILL'), pid: child.pid, lastWords: tail.last }
  }
}

/** Both of the host's threads in this one (tests): the same host and writer, over in-memory ports. */
export function inProcessHost(options: WriterOptions & HostOptions): LaunchHost {
  return (): LaunchedHost => {
    const [mainEnd, hostEnd] = portPair<HostMessage, HostRequest>()
    const [hostWriterEnd, writerEnd] = portPair<WriterMessage, WriterRequest>()
    let ended!: (how: string) => void
    const exited = new Promise<string>((resolve) => (ended = resolve))
    void Promise.all([runHost(hostEnd, hostWriterEnd, { now: options.now ?? options.session?.now }), runWriter(writerEnd, options)]).then(() =>
      // As a process's end follows its last messages.
      setTimeout(() => ended('exit code 0'), 10),
    )
    return { port: mainEnd, exited, kill: () => undefined, pid: undefined, lastWords: () => '' }
  }
}

/**
 * Starting the core's host where there is no Electron: a forked Node process
 * (`npm run web`, the tests of the host, the benchmarks). The app starts it as
 * Electron's utility process instead (src-main/electron/utility-host.ts); unit
 * tests may run both of its threads in their own (core/host/in-process.ts).
 */
import { fork } from 'node:child_process'
import path from 'node:path'
import type { HostMessage, HostRequest, LaunchOptions, LaunchHost } from '../core/host/messages'
import type { Port } from '../core/host/port'
import { lastLines } from './host-output'

/** The host's script from the sources (run under tsx, as `npm run web` is). */
export const HOST_SCRIPT = path.join(import.meta.dirname, '../core-host.ts')

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

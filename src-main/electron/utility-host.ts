/**
 * The core's host as Electron's utility process (Electron glue: the one place
 * that starts it in the app). A utility process is a Node.js process that
 * Electron starts and stops with the app and that talks to main over a
 * message port; see core/host/host.ts for what runs in it.
 */
import { utilityProcess } from 'electron'
import type { LaunchHost } from '../main-process/core-client'
import type { LaunchOptions } from '../core/host/messages'
import { lastLines } from '../main-process/host-output'
import type { HostMessage, HostRequest } from '../core/host/messages'

/** Starts `script` (the built core-host.js) as a utility process; its output goes to output a line at a time. */
export function utilityHost(script: string, options: LaunchOptions, output: (line: string) => void): LaunchHost {
  return () => {
    const child = utilityProcess.fork(script, [JSON.stringify(options)], { serviceName: 'Tuneshelf core', stdio: 'pipe' })
    const tail = lastLines(output)
    child.stdout?.setEncoding('utf8').on('data', tail.add)
    child.stderr?.setEncoding('utf8').on('data', tail.add)
    const exited = new Promise<string>((resolve) => child.once('exit', (code) => resolve(`exit code ${code}`)))
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
      kill: () => void child.kill(),
      pid: child.pid,
      lastWords: tail.last,
    }
  }
}

/**
 * Both of the core host's threads in the caller's own thread, for unit tests
 * that need many sessions fast: the same host and writer as the process runs,
 * over in-memory ports. The app and `npm run web` start the host as a
 * process (main-process/host-launch.ts, electron/utility-host.ts).
 */
import { runHost, type HostOptions } from './host'
import type { HostMessage, HostRequest, LaunchedHost, LaunchHost, WriterMessage, WriterRequest } from './messages'
import { portPair } from './port'
import { runWriter, type WriterOptions } from './writer'

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

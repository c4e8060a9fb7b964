/**
 * The core host's process entry, for both of its threads: run as the process
 * (Electron's utility process, or a Node process forked by `npm run web`) it
 * serves main on the host thread and starts itself again as the writer thread.
 * Its one argument is the JSON of LaunchOptions. See host.ts.
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import './core/startup/node-check'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { startCatalogueService } from './demo/index'
import type { DemoService } from './core/session/session'
import { runHost } from './core/host/host'
import type { HostMessage, HostRequest, LaunchOptions, TestTiming, WriterMessage, WriterRequest } from './core/host/messages'
import { parentProcessPort, workerPort } from './core/host/port'
import { runWriter, type WriterOptions } from './core/host/writer'

/** The session options of a test timing. */
function timedSession(timing: TestTiming | undefined): WriterOptions['session'] {
  if (timing === undefined) return undefined
  const retries = { backoffMs: timing.retryBackoffMs, maxDelayMs: timing.retryMaxDelayMs }
  return { onlineCheckMs: timing.onlineCheckMs, waitingCheckMs: timing.waitingCheckMs, library: { client: retries, downloads: { transferSettings: retries } } }
}

/** The writer thread's niceness (0 usual, 19 lowest): below the threads a window waits on. */
const WRITER_NICENESS = 10

/** Exit code when a thread of the host failed (main restarts the host). */
const THREAD_FAILED = 70

function say(line: string): void {
  process.stderr.write(`tuneshelf core: ${line}\n`)
}

async function startDemo({ demoPort, demo }: LaunchOptions): Promise<DemoService> {
  try {
    return await startCatalogueService({ ...demo, port: demoPort })
  } catch (error) {
    if (demoPort === 0) throw error
    return startCatalogueService({ ...demo, port: 0 })
  }
}

function hostThread(): void {
  const main = parentProcessPort<HostRequest, HostMessage>()
  if (!main) {
    say('this is the core of the Tuneshelf app: the app starts it (npm start, npm run web)')
    process.exit(2)
  }
  let options: LaunchOptions
  try {
    options = JSON.parse(process.argv[2] ?? '') as LaunchOptions
    if (typeof options.dataDir !== 'string' || typeof options.demoPort !== 'number') throw new Error('dataDir and demoPort are needed')
  } catch (error) {
    say(`bad launch options: ${(error as Error).message}`)
    process.exit(2)
  }
  const writer = new Worker(fileURLToPath(import.meta.url), { workerData: options })
  let finished = false
  writer.once('error', (error) => {
    say(`the writer thread failed: ${error.stack ?? error.message}`)
    process.exit(THREAD_FAILED)
  })
  writer.once('exit', (code) => {
    if (finished) return
    say(`the writer thread stopped (exit code ${code})`)
    process.exit(THREAD_FAILED)
  })
  // Main closes the core in order when the app quits (a Ctrl-C reaches main); a SIGTERM for the host
  // alone, or a forked host whose parent went away, closes the session gracefully all the same.
  const closeAlone = (): void => writer.postMessage({ type: 'close' } satisfies WriterRequest)
  process.on('SIGINT', () => undefined)
  process.once('SIGTERM', closeAlone)
  process.once('disconnect', closeAlone)
  void runHost(main, workerPort<WriterMessage, WriterRequest>(writer)).then(() => {
    finished = true
    // The last messages (closed, or why the session could not open) reach main before the process ends.
    setTimeout(() => process.exit(0), 50)
  })
}

function writerThread(): void {
  const options = workerData as LaunchOptions
  // The writer's work is background work: when the machine is busy, the window's process and the host
  // thread (the window's queries) come first. On Linux this lowers this thread alone; elsewhere the host.
  try {
    os.setPriority(WRITER_NICENESS)
  } catch {
    // Not allowed here: the writer runs at the usual priority.
  }
  const port = workerPort<WriterRequest, WriterMessage>(parentPort!)
  void runWriter(port, { dataDir: options.dataDir, startDemo: () => startDemo(options), session: timedSession(options.testTiming) }).then(() => parentPort!.close())
}

if (isMainThread) hostThread()
else writerThread()

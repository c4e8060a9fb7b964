/**
 * `npm run -s web -- [--base-url URL] [--data-dir DIR] [--port N]`: Tuneshelf's
 * window in a browser, for development, tests and machines without Electron.
 * Builds the renderer if it is missing or older than its sources, opens an app
 * session over the data folder (the service of --base-url, else the one the
 * settings name, else the built-in demo catalogue, as the app does) and serves
 * both on 127.0.0.1. Once ready it prints exactly one line on stdout,
 * `listening on http://127.0.0.1:PORT/?token=TOKEN`; everything else goes to
 * stderr. Ctrl-C or SIGTERM closes the session gracefully (transfers paused,
 * the cache closed), says `closed` and exits 0. Bad flags print the usage and exit 2, and so
 * does a data folder that cannot be used, with the CLI's message.
 *
 * TUNESHELF_WEB_RENDERER_DIR serves that built renderer as it is, without a build (tests).
 * TUNESHELF_WEB_TEST_TIMING=fast checks the service and retries sooner (tests only: test-timing.ts).
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../core/startup/node-check'
import { parseArgs } from 'node:util'
import { normaliseBaseUrl } from '../core/shared/urls'
import { checkBaseUrlFlag, EXIT_2, pathFromUser } from '../core/startup/command-line'
import { ensureDataFolder, webDataDir } from '../core/files/data-folders'
import { onStopSignals } from '../core/startup/stop-signals'
import { InvalidArgumentError, toTuneshelfError } from '../core/shared/errors'
import { printable } from '../core/shared/text'
import { buildApp, RENDERER_OUT, RENDERER_SOURCES, rendererStaleness } from './build'
import { startWebApp } from './app'
import { testTimingFrom } from './test-timing'

const USAGE = `usage: npm run -s web -- [--base-url URL] [--data-dir DIR] [--port N]

Serves Tuneshelf's window on http://127.0.0.1:PORT/ and prints the address that opens it.
  --base-url URL   the catalogue service (saved in the settings); without it, the
                   service the settings name, or the built-in demo catalogue
  --data-dir DIR   the data folder (default: ${webDataDir()})
  --port N         the port on 127.0.0.1 (default: a free one)
`

interface WebOptions {
  baseUrl: string | undefined
  dataDir: string
  port: number
}

/** The flags, or an InvalidArgumentError saying what is wrong with them; null for --help. */
function parseWebOptions(argv: string[]): WebOptions | null {
  let values
  try {
    ;({ values } = parseArgs({
      args: argv,
      options: { 'base-url': { type: 'string' }, 'data-dir': { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: false,
      strict: true,
    }))
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message)
  }
  if (values.help) return null
  const port = values.port ?? '0'
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65_535) throw new InvalidArgumentError(`--port must be a number from 0 to 65535, not ${JSON.stringify(port)}`)
  checkBaseUrlFlag(values['base-url'])
  const baseUrl = values['base-url'] === undefined ? undefined : normaliseBaseUrl(values['base-url'])
  const dataDir = values['data-dir']
  if (dataDir === '') throw new InvalidArgumentError('--data-dir cannot be empty')
  return { baseUrl, dataDir: dataDir === undefined ? webDataDir() : pathFromUser(dataDir), port: Number(port) }
}

/** A message on stderr: one line, made printable as the CLI's are (cli/print.ts), whatever the text holds. */
function say(line: string): void {
  process.stderr.write(`${printable(line)}\n`)
}

/** Every line but the address: notices, a service's errors, the core's own output. */
function warn(line: string): void {
  say(`tuneshelf web: ${line}`)
}

async function main(argv: string[]): Promise<number> {
  let options: WebOptions | null
  try {
    options = parseWebOptions(argv)
  } catch (error) {
    say((error as Error).message)
    process.stderr.write(`\n${USAGE}`)
    return 2
  }
  if (options === null) {
    process.stdout.write(USAGE)
    return 0
  }
  // Before any build: a data folder that cannot be used is refused at once, as the CLI refuses it (exit 2).
  ensureDataFolder(options.dataDir)

  // From here on a signal stops the run gracefully, whatever it is doing; a second one exits at once
  // (a copy of the first, which some wrappers make, does not: see stop-signals.ts).
  let stop!: () => void
  const stopped = new Promise<void>((resolve) => (stop = resolve))
  onStopSignals(
    (signal) => {
      warn(`${signal}: closing (${signal} again exits without closing)`)
      stop()
    },
    (signal) => {
      warn(`${signal} again: exiting without closing`)
      process.exit(130)
    },
  )
  let stopRequested = false
  void stopped.then(() => (stopRequested = true))

  let rendererDir = process.env['TUNESHELF_WEB_RENDERER_DIR']
  if (rendererDir === undefined || rendererDir === '') {
    rendererDir = RENDERER_OUT
    const why = rendererStaleness(RENDERER_OUT, RENDERER_SOURCES)
    if (why !== undefined) {
      warn(`building the app (${why})`)
      await buildApp()
    }
  }
  if (stopRequested) return 0

  const testTiming = testTimingFrom(process.env)
  const app = await startWebApp({ dataDir: options.dataDir, baseUrl: options.baseUrl, port: options.port, rendererDir, log: warn, testTiming })
  try {
    if (!stopRequested) {
      warn(`serving ${app.serving} from ${options.dataDir}`)
      process.stdout.write(`listening on ${app.url}\n`)
      await stopped
    }
  } finally {
    await app.close()
  }
  warn('closed')
  return 0
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const failure = toTuneshelfError(error)
    const text = failure.code === 'internal' && error instanceof Error ? (error.stack ?? failure.message) : failure.message
    for (const line of text.split('\n')) warn(line)
    process.exit(EXIT_2.has(failure.code) ? 2 : 1)
  },
)

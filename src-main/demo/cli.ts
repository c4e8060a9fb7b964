/**
 * Runs the demo catalogue service on its own:
 *   npm run -s catalogue -- --port 8787 --artists 1100 --seed 1 --max-file-mb 4096 [--latency-ms 20]
 * Prints one line, "listening on http://127.0.0.1:PORT", once it accepts connections;
 * on SIGINT or SIGTERM it stops and writes to stderr how many requests it answered, by kind.
 * The catalogue changes while it runs, for a client's next sync to find: each SIGUSR2 (its pid is the
 * first line on stderr), and every --new-uploads-every SECONDS, publishes new uploads of a few
 * artists (those of --new-uploads-for, else some the seed picks) and names them on stderr.
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../core/startup/node-check'
import { parseArgs } from 'node:util'
import { plainArgsError } from '../core/shared/args-errors'
import { onStopSignals } from '../core/startup/stop-signals'
import { DEFAULT_CATALOGUE, startCatalogueService } from './index'
import { describeAdded } from './new-uploads'

const USAGE =
  'usage: catalogue [--port N] [--artists N] [--seed N] [--max-file-mb N] [--latency-ms N] [--new-uploads-every SECONDS] [--new-uploads-for USERNAME[,USERNAME…]]'

const HELP = `${USAGE}

The demo catalogue service: a generated catalogue of artists, their tracks and the access
levels, served on 127.0.0.1 as the real service's API (its files too). Prints
"listening on http://127.0.0.1:PORT" once it accepts connections; Ctrl-C stops it and says
how many requests it answered.
  --port N                 the port (default 8787; 0: any free one)
  --artists N              artists in the catalogue (default ${DEFAULT_CATALOGUE.artists})
  --seed N                 the same seed gives the same catalogue (default ${DEFAULT_CATALOGUE.seed})
  --max-file-mb N          the largest file, in MB (default ${DEFAULT_CATALOGUE.maxFileMb})
  --latency-ms N           delays every answer, as a service far away (default 0)
  --new-uploads-every S    publishes new uploads of a few artists every S seconds
  --new-uploads-for NAMES  those artists (comma-separated usernames), not the seed's pick
Each SIGUSR2 to the pid it prints publishes new uploads too.
`

function integerOption(values: Record<string, string | boolean | undefined>, name: string, fallback: number, min: number): number {
  const text = values[name]
  if (text === undefined) return fallback
  if (typeof text !== 'string') throw new Error(`--${name} takes a number`)
  if (!/^-?\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
    throw new Error(`--${name} must be an integer of at least ${min}`)
  }
  return Number(text)
}

async function main(): Promise<void> {
  let options
  let newUploadsEvery: number
  /** The artists every batch goes to, instead of those the seed picks. */
  let newUploadsFor: string[] | undefined
  try {
    const { values } = parseArgs({
      options: {
        port: { type: 'string' },
        artists: { type: 'string' },
        seed: { type: 'string' },
        'max-file-mb': { type: 'string' },
        'latency-ms': { type: 'string' },
        'new-uploads-every': { type: 'string' },
        'new-uploads-for': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    })
    if (values.help) {
      process.stdout.write(HELP)
      return
    }
    options = {
      port: integerOption(values, 'port', 8787, 0),
      artists: integerOption(values, 'artists', DEFAULT_CATALOGUE.artists, 1),
      seed: integerOption(values, 'seed', DEFAULT_CATALOGUE.seed, -2147483648),
      maxFileMb: integerOption(values, 'max-file-mb', DEFAULT_CATALOGUE.maxFileMb, 1),
      latencyMs: integerOption(values, 'latency-ms', 0, 0),
    }
    newUploadsEvery = integerOption(values, 'new-uploads-every', 0, 1)
    newUploadsFor = values['new-uploads-for']?.split(',').map((name) => name.trim()).filter((name) => name !== '')
    if (newUploadsFor?.length === 0) throw new Error('--new-uploads-for must name at least one artist')
    if (options.port > 65535) throw new Error('--port must be at most 65535')
    if (options.latencyMs > 60_000) throw new Error('--latency-ms must be at most 60000')
    if (newUploadsEvery > 86_400) throw new Error('--new-uploads-every must be at most 86400 (a day)')
  } catch (error) {
    process.stderr.write(`${(plainArgsError(error) as Error).message}\n${USAGE}\n`)
    process.exitCode = 2
    return
  }
  let service
  try {
    service = await startCatalogueService(options)
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EADDRINUSE') throw error
    process.stderr.write(`catalogue: port ${options.port} on 127.0.0.1 is in use (another demo, or another program): pick another with --port N, or --port 0 for any free one\n`)
    process.exitCode = 2
    return
  }
  // A name the catalogue does not have is said now, not at the first signal.
  const unknown = newUploadsFor?.filter((name) => !service.catalogue.findArtist(name))
  if (unknown && unknown.length > 0) {
    await service.close()
    process.stderr.write(`--new-uploads-for: no artist ${unknown.join(', ')} in this catalogue\n${USAGE}\n`)
    process.exitCode = 2
    return
  }
  const addUploads = (): void => {
    try {
      process.stderr.write(describeAdded(service.addUploads(newUploadsFor ? { artists: newUploadsFor } : {})))
    } catch (error) {
      process.stderr.write(`new uploads failed: ${(error as Error).message}\n`)
    }
  }
  const timer = newUploadsEvery > 0 ? setInterval(addUploads, newUploadsEvery * 1000) : undefined
  const stop = (): void => {
    clearInterval(timer)
    void service.close().then(() => {
      process.stderr.write(`answered ${service.requests.summary()}\n`)
      process.exit(0)
    })
  }
  // Handlers first: whoever reads the line below may signal at once. A second signal exits at once
  // (a copy of the first, which some wrappers make, does not: see stop-signals.ts).
  onStopSignals(stop, () => process.exit(130))
  process.on('SIGUSR2', addUploads)
  process.stdout.write(`listening on ${service.baseUrl}\n`)
  // npm and tsx stand between a shell and this process, and die of a SIGUSR2 sent to them: name the one to signal.
  process.stderr.write(`pid ${process.pid}: kill -USR2 ${process.pid} publishes new uploads\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`catalogue: ${(error as Error).message}\n`)
  process.exit(1)
})

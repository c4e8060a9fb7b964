/**
 * The headless CLI: `npm run cli -- <verb> ...`. With `npm run -s`, stdout
 * carries only the answer; progress and messages go to stderr.
 * Exit codes: 0 done, 1 failed, 2 bad arguments or nothing synced, 130 cancelled.
 */
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { runArtist, runArtists, runLevels } from './offline'
import { runDownload, runDownloads } from './download'
import { runSync } from './sync'
import { UsageError } from './usage'

const USAGE = `usage: npm run -s cli -- <verb> [options]

  sync    --base-url URL --data-dir DIR [--concurrency N] [--no-avatars]
  artists --data-dir DIR [--q TEXT] [--podcasts|--musicians] [--sort trending|top|recently_created|recently_updated]
          [--reverse] [--include-blank] [--page N] [--per-page N] [--json] [--base-url URL]
  artist  USERNAME --data-dir DIR [--json] [--base-url URL]
  levels  --data-dir DIR [--json] [--base-url URL]
  download (UPLOAD_ID... | --artist USERNAME) --data-dir DIR [--to DIR] [--concurrency N] [--base-url URL]
  downloads --data-dir DIR [--json] [--base-url URL]`

const OPTIONS = {
  'base-url': { type: 'string' },
  'data-dir': { type: 'string' },
  concurrency: { type: 'string' },
  'no-avatars': { type: 'boolean' },
  q: { type: 'string' },
  podcasts: { type: 'boolean' },
  musicians: { type: 'boolean' },
  sort: { type: 'string' },
  reverse: { type: 'boolean' },
  'include-blank': { type: 'boolean' },
  page: { type: 'string' },
  'per-page': { type: 'string' },
  json: { type: 'boolean' },
  artist: { type: 'string' },
  to: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

export type CliOptions = ReturnType<typeof parse>['values']

function parse(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
}

export async function main(argv: string[]): Promise<number> {
  let parsed
  try {
    parsed = parse(argv)
  } catch (error) {
    return usage((error as Error).message)
  }
  const [verb, ...rest] = parsed.positionals
  if (parsed.values.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  try {
    switch (verb) {
      case 'sync':
        expectPositionals(rest, 0)
        return await runSync(parsed.values)
      case 'artists':
        expectPositionals(rest, 0)
        return runArtists(parsed.values)
      case 'artist':
        expectPositionals(rest, 1)
        return runArtist(rest[0]!, parsed.values)
      case 'levels':
        expectPositionals(rest, 0)
        return runLevels(parsed.values)
      case 'download':
        return await runDownload(rest, parsed.values)
      case 'downloads':
        expectPositionals(rest, 0)
        return await runDownloads(parsed.values)
      default:
        return usage(verb === undefined ? 'no verb given' : `unknown verb: ${verb}`)
    }
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message)
    process.stderr.write(`error: ${(error as Error).message}\n`)
    return 1
  }
}

function expectPositionals(rest: string[], count: number): void {
  if (rest.length !== count) throw new UsageError(count === 0 ? `unexpected argument: ${rest[0]}` : 'expected one USERNAME')
}

function usage(message: string): number {
  process.stderr.write(`${message}\n${USAGE}\n`)
  return 2
}

// Run when executed directly (npm run cli), not when imported by a test.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      process.stderr.write(`error: ${(error as Error).stack ?? String(error)}\n`)
      process.exitCode = 1
    },
  )
}

/**
 * The headless CLI: `npm run cli -- <verb> ...`, on the same library the app
 * uses. With `npm run -s`, stdout carries only the answer; progress and
 * messages go to stderr.
 * Exit codes: 0 done, 1 failed, 2 bad arguments or nothing synced, 130 cancelled.
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../node-check'
import { pathToFileURL } from 'node:url'
import { InvalidArgumentError, isTuneshelfError, toTuneshelfError, type TuneshelfError } from '../shared/errors'
import { printable } from '../shared/text'
import { runDownload, runDownloads } from './download'
import { runFollow, runFollowing, runUnfollow } from './follow'
import { runArtist, runArtists, runLevels } from './offline'
import { FLAG_OF_FIELD, parseCommandLine } from './options'
import { printMessage } from './print'
import { runSync } from './sync'
import { runWhatsNew } from './whats-new'

const USAGE = `usage: npm run -s cli -- <verb> [options]

  sync    --base-url URL --data-dir DIR [--concurrency N] [--no-avatars] [--to DIR | --no-download]
  artists --data-dir DIR [--q TEXT] [--podcasts|--musicians] [--sort trending|top|recently_created|recently_updated]
          [--reverse] [--include-blank] [--page N] [--per-page N] [--json] [--base-url URL]
  artist  USERNAME --data-dir DIR [--json] [--base-url URL]
  levels  --data-dir DIR [--json] [--base-url URL]
  download (UPLOAD_ID... | --artist USERNAME) --data-dir DIR [--to DIR] [--concurrency N] [--base-url URL]
  downloads --data-dir DIR [--json] [--base-url URL]
  follow  USERNAME --data-dir DIR [--auto-download] [--base-url URL]
  unfollow USERNAME --data-dir DIR [--base-url URL]
  following --data-dir DIR [--json] [--base-url URL]
  whats-new --data-dir DIR [--json] [--base-url URL]`

/** Codes that mean "the command line is wrong" or "there is nothing to answer from": exit 2. */
const EXIT_2 = new Set(['invalid_argument', 'not_synced', 'folder_unusable'])

export async function main(argv: string[]): Promise<number> {
  let parsed
  try {
    parsed = parseCommandLine(argv)
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
        return await runArtists(parsed.values)
      case 'artist':
        expectPositionals(rest, 1)
        return await runArtist(rest[0]!, parsed.values)
      case 'levels':
        expectPositionals(rest, 0)
        return await runLevels(parsed.values)
      case 'download':
        return await runDownload(rest, parsed.values)
      case 'downloads':
        expectPositionals(rest, 0)
        return await runDownloads(parsed.values)
      case 'follow':
        expectPositionals(rest, 1)
        return await runFollow(rest[0]!, parsed.values)
      case 'unfollow':
        expectPositionals(rest, 1)
        return await runUnfollow(rest[0]!, parsed.values)
      case 'following':
        expectPositionals(rest, 0)
        return await runFollowing(parsed.values)
      case 'whats-new':
        expectPositionals(rest, 0)
        return await runWhatsNew(parsed.values)
      default:
        return usage(verb === undefined ? 'no verb given' : `unknown verb: ${verb}`)
    }
  } catch (error) {
    return fail(toTuneshelfError(error))
  }
}

/** The exit code and message of a failure, in the CLI's terms. */
function fail(error: TuneshelfError): number {
  if (error.code === 'invalid_argument') return usage(inFlagTerms(error))
  if (error.code === 'cancelled') {
    printMessage('cancelled')
    return 130
  }
  printMessage(`${EXIT_2.has(error.code) ? '' : 'error: '}${error.message}`)
  return EXIT_2.has(error.code) ? 2 : 1
}

/** `perPage must be ...` as `--per-page must be ...`. */
function inFlagTerms(error: TuneshelfError): string {
  const field = (error as { field?: unknown }).field
  if (typeof field !== 'string') return error.message
  const top = field.split('.')[0]!
  const flag = FLAG_OF_FIELD[top]
  return flag !== undefined && error.message.startsWith(field) ? `${flag}${error.message.slice(field.length)}` : error.message
}

function expectPositionals(rest: string[], count: number): void {
  if (rest.length !== count) throw new InvalidArgumentError(count === 0 ? `unexpected argument: ${rest[0]}` : 'expected one USERNAME')
}

function usage(message: string): number {
  printMessage(message)
  process.stderr.write(`${USAGE}\n`)
  return 2
}

// Run when executed directly (npm run cli), not when imported by a test.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      // A stack keeps its lines; only what could drive the terminal goes.
      process.stderr.write(`${printable(`error: ${isTuneshelfError(error) ? error.message : ((error as Error).stack ?? String(error))}`, { lines: true })}\n`)
      process.exitCode = 1
    },
  )
}

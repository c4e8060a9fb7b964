/**
 * The headless CLI: `npm run cli -- <verb> ...`, on the same library the app
 * uses. With `npm run -s`, stdout carries only the answer; progress and
 * messages go to stderr.
 * Exit codes (exit-codes.ts): 0 done, 1 failed, 2 bad arguments, an unusable folder or nothing synced, 130 cancelled.
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../node-check'
import { pathToFileURL } from 'node:url'
import { InvalidArgumentError, isTuneshelfError, toTuneshelfError, type TuneshelfError } from '../shared/errors'
import { printable } from '../shared/text'
import { runDownload, runDownloads } from './download'
import { runFollow, runFollowing, runUnfollow } from './follow'
import { runArtist, runArtists, runLevels } from './offline'
import { cliIo, withCliIo, type CliIo } from './io'
import { EXIT_2 } from './exit-codes'
import { FLAG_OF_FIELD, parseCommandLine } from './options'
import { printMessage } from './print'
import { runSync } from './sync'
import { checkFlags, isVerb, USAGE, verbHelp } from './verbs'
import { runWhatsNew } from './whats-new'

/**
 * Runs one command line and resolves with its exit code. io: where it writes
 * (tests run the CLI in their own process this way); the process's streams without it.
 */
export function main(argv: string[], io?: CliIo): Promise<number> {
  return io === undefined ? runOrSay(argv) : withCliIo(io, () => runOrSay(argv))
}

/** A failure no verb turned into an exit code: its message (a stack keeps its lines; only what could drive the terminal goes), exit 1. */
async function runOrSay(argv: string[]): Promise<number> {
  try {
    return await run(argv)
  } catch (error) {
    cliIo().stderr.write(`${printable(`error: ${isTuneshelfError(error) ? error.message : ((error as Error).stack ?? String(error))}`, { lines: true })}\n`)
    return 1
  }
}

async function run(argv: string[]): Promise<number> {
  let parsed
  try {
    parsed = parseCommandLine(argv)
  } catch (error) {
    return usage((error as Error).message)
  }
  const [verb, ...rest] = parsed.positionals
  // `help`, as many command lines take it, is --help; of one verb, that verb's help.
  if (parsed.values.help || verb === 'help') {
    const about = verb === 'help' ? rest[0] : verb
    cliIo().stdout.write(`${isVerb(about) ? verbHelp(about) : USAGE}\n`)
    return 0
  }
  try {
    if (isVerb(verb)) checkFlags(verb, parsed.values)
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
  cliIo().stderr.write(`${USAGE}\n`)
  return 2
}

// Run when executed directly (npm run cli), not when imported by a test.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code
  })
}

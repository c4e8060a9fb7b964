/**
 * The headless CLI: `npm run cli -- <verb> ...`, on the same library the app
 * uses. With `npm run -s`, stdout carries only the answer; progress and
 * messages go to stderr.
 * Exit codes (EXIT_2 in ../command-line.ts, shared with `npm run web`): 0 done, 1 failed, 2 bad arguments, an unusable folder or nothing synced, 130 cancelled.
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../core/startup/node-check'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { InvalidArgumentError, isTuneshelfError, toTuneshelfError, type TuneshelfError } from '../core/shared/errors'
import { printable } from '../core/shared/text'
import { runDownload, runDownloads } from './download'
import { runFollow, runFollowing, runUnfollow } from './follow'
import { runArtist, runArtists, runLevels } from './offline'
import { cliIo, withCliIo, type CliIo } from './io'
import { EXIT_2 } from '../core/startup/command-line'
import { FLAG_OF_FIELD, OPTIONS, parseCommandLine, type CliOptions } from './options'
import { PASSWORD_VARIABLE } from './open'
import { printMessage } from './print'
import { runSync } from './sync'
import { checkFlags, isVerb, USAGE, verbHelp, verbUsage, type VerbName } from './verbs'
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

/** How a verb runs: the arguments after it (checked by the verb's runner), and the flags. */
type Runner = (rest: string[], options: CliOptions) => Promise<number>

/** A verb that takes its flags and no argument. */
function alone(run: (options: CliOptions) => Promise<number>): Runner {
  return (rest, options) => {
    expectPositionals(rest, 0)
    return run(options)
  }
}

/** A verb that takes one USERNAME. */
function ofUsername(run: (username: string, options: CliOptions) => Promise<number>): Runner {
  return (rest, options) => {
    expectPositionals(rest, 1)
    return run(rest[0]!, options)
  }
}

const RUNNERS: Record<VerbName, Runner> = {
  sync: alone(runSync),
  artists: alone(runArtists),
  artist: ofUsername(runArtist),
  levels: alone(runLevels),
  // Upload ids, or none with --artist: download checks its own.
  download: runDownload,
  downloads: alone(runDownloads),
  follow: ofUsername(runFollow),
  unfollow: ofUsername(runUnfollow),
  following: alone(runFollowing),
  'whats-new': alone(runWhatsNew),
}

async function run(argv: string[]): Promise<number> {
  let parsed
  try {
    parsed = parseCommandLine(argv)
  } catch (error) {
    return usage((error as Error).message, verbIn(argv))
  }
  const [verb, ...rest] = parsed.positionals
  // `help`, as many command lines take it, is --help; of one verb, that verb's help.
  if (parsed.values.help || verb === 'help') {
    const about = verb === 'help' ? rest[0] : verb
    cliIo().stdout.write(`${isVerb(about) ? verbHelp(about) : USAGE}\n`)
    return 0
  }
  if (!isVerb(verb)) return usage(verb === undefined ? 'no verb given' : `unknown verb: ${verb}`)
  try {
    checkFlags(verb, parsed.values)
    return await RUNNERS[verb](rest, parsed.values)
  } catch (error) {
    return fail(toTuneshelfError(error), verb)
  }
}

/** The exit code and message of a failure of verb, in the CLI's terms. */
function fail(error: TuneshelfError, verb: VerbName): number {
  if (error.code === 'invalid_argument') return usage(inFlagTerms(error), verb)
  if (error.code === 'cancelled') {
    printMessage('cancelled')
    return 130
  }
  printMessage(`${EXIT_2.has(error.code) ? '' : 'error: '}${error.message}`)
  return EXIT_2.has(error.code) ? 2 : 1
}

/** `perPage must be ...` as `--per-page must be ...`. */
function inFlagTerms(error: TuneshelfError): string {
  const field = error.field
  if (field === undefined) return error.message
  const top = field.split('.')[0]!
  const flag = FLAG_OF_FIELD[top]
  return flag !== undefined && error.message.startsWith(field) ? `${flag}${error.message.slice(field.length)}` : error.message
}

function expectPositionals(rest: string[], count: number): void {
  if (rest.length !== count) throw new InvalidArgumentError(count === 0 ? `unexpected argument: ${rest[0]}` : 'expected one USERNAME')
}

/** The verb of a command line whose flags do not parse, if its first argument names one. */
function verbIn(argv: string[]): VerbName | undefined {
  const [first] = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false }).positionals
  return isVerb(first) ? first : undefined
}

/**
 * A usage error: its message, then the usage of the verb it concerns (and where the rest is
 * told), or of every verb when no verb is known.
 */
function usage(message: string, verb?: VerbName): number {
  printMessage(message)
  cliIo().stderr.write(`${verb === undefined ? USAGE : verbUsage(verb)}\n`)
  return 2
}

/**
 * A password given in --base-url is in this process's command line, which every user of the computer
 * can read (ps, /proc/PID/cmdline) for as long as it runs. The title is set to the command line with
 * the password as ***: on Linux and macOS that rewrites what ps shows of this process (Node's
 * process.title writes over the arguments' memory, as libuv's uv_set_process_title does). npm's
 * own process, which started this one, still shows it: hence the warning, and TUNESHELF_PASSWORD.
 */
function hidePasswordInTitle(argv: string[]): void {
  // Read as the CLI reads its flags (leniently: a line with a mistake is still hidden before its usage error).
  const given = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false }).values['base-url']
  let password = ''
  try {
    password = typeof given === 'string' ? new URL(given).password : ''
  } catch {
    return
  }
  if (password === '') return
  process.title = ['tuneshelf-cli', ...argv].map((arg) => arg.split(`:${password}@`).join(':***@')).join(' ')
  printMessage(
    `note: the password in --base-url can be read by other users of this computer in the process list while this runs; ` +
      `give the address with its user alone (http://user@host/) and the password in the environment variable ${PASSWORD_VARIABLE}`,
  )
}

// Run when executed directly (npm run cli), not when imported by a test.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  hidePasswordInTitle(process.argv.slice(2))
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code
  })
}

/** The CLI's flags, parsed by node:util's parseArgs (the paths in them: pathFromUser, in ../command-line). */
import { parseArgs } from 'node:util'
import { plainArgsError } from '../core/shared/args-errors'

export const OPTIONS = {
  'base-url': { type: 'string' },
  'data-dir': { type: 'string' },
  concurrency: { type: 'string' },
  'no-avatars': { type: 'boolean' },
  quick: { type: 'boolean' },
  'no-download': { type: 'boolean' },
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
  'held-back': { type: 'boolean' },
  to: { type: 'string' },
  'auto-download': { type: 'boolean' },
  'no-auto-download': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

export function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    // parseArgs speaks of "<value>" and positionals after '--': the user mistyped or left out one flag.
    throw plainArgsError(error)
  }
}

export type CliOptions = ReturnType<typeof parseCommandLine>['values']

/** The flag a schema field comes from, for messages in the user's terms (`perPage` is `--per-page`). */
export const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  baseUrl: '--base-url',
  concurrency: '--concurrency',
  q: '--q',
  sort: '--sort',
  page: '--page',
  perPage: '--per-page',
  username: 'USERNAME',
  artist: '--artist',
  uploadIds: 'UPLOAD_ID',
  folder: '--to',
}

/** A number flag as the schema sees it: digits become a number, anything else a value the schema refuses. */
export function numberFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  return /^\d+$/.test(value) ? Number(value) : Number.NaN
}

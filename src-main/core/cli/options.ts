/** The CLI's flags, parsed by node:util's parseArgs, and where relative paths in them are taken from. */
import path from 'node:path'
import { parseArgs } from 'node:util'
import { InvalidArgumentError } from '../shared/errors'

export const OPTIONS = {
  'base-url': { type: 'string' },
  'data-dir': { type: 'string' },
  concurrency: { type: 'string' },
  'no-avatars': { type: 'boolean' },
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
  to: { type: 'string' },
  'auto-download': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

export function parseCommandLine(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
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

/**
 * A path from the command line, absolute. npm runs scripts in the package's
 * folder; INIT_CWD is where the user typed the command, so a relative
 * `--data-dir` means what the user meant.
 */
export function pathFromUser(value: string): string {
  return path.resolve(process.env['INIT_CWD'] ?? process.cwd(), value)
}

/**
 * Refuses a --base-url without its scheme, as a new user types it (`localhost:8787`,
 * `example.com`): the URL parser would call the first "not a valid address" and read
 * the second's host as a scheme ("must be http or https, not localhost:").
 */
export function checkBaseUrlFlag(value: string | undefined): void {
  if (value === undefined || value === '' || /^[a-z][a-z\d+.-]*:\/\//i.test(value)) return
  const meant = /^[\w.-]+(:\d+)?(\/\S*)?$/.test(value) ? `; did you mean http://${value}?` : ''
  throw new InvalidArgumentError(`--base-url must start with http:// or https://${meant}`, { field: 'baseUrl' })
}

/** A number flag as the schema sees it: digits become a number, anything else a value the schema refuses. */
export function numberFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  return /^\d+$/.test(value) ? Number(value) : Number.NaN
}

/**
 * What the two command lines share, the CLI (cli/) and `npm run web`
 * (web/main.ts): the exit codes of a failure, a path as the user typed it, and
 * the check of --base-url. Below both, so neither reaches into the other.
 *
 * Exit codes: 0 done, 1 failed, 2 refused (bad arguments, a folder that cannot
 * be used, nothing to answer from), 130 cancelled: the same failure exits the
 * same way from both.
 */
import path from 'node:path'
import { InvalidArgumentError, type ErrorCode } from '../shared/errors'

/**
 * Codes that mean "the command line is wrong", "the folder it names cannot be
 * used as it is" or "there is nothing to answer from": exit 2. Running the
 * same command again cannot help; the message says what to change.
 */
export const EXIT_2: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['invalid_argument', 'not_synced', 'folder_unusable', 'read_only'])

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

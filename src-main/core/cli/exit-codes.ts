/**
 * The exit codes of the CLI, which `npm run web` shares so the same failure
 * exits the same way from both: 0 done, 1 failed, 2 refused (bad arguments, a
 * folder that cannot be used, nothing to answer from), 130 cancelled.
 */
import type { ErrorCode } from '../shared/errors'

/**
 * Codes that mean "the command line is wrong", "the folder it names cannot be
 * used as it is" or "there is nothing to answer from": exit 2. Running the
 * same command again cannot help; the message says what to change.
 */
export const EXIT_2: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['invalid_argument', 'not_synced', 'folder_unusable', 'read_only'])

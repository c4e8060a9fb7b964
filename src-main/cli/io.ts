/**
 * Where a run of the CLI writes: the process's stdout and stderr, or, for a
 * run in a test's own process (`main(argv, io)`), the streams the test hands
 * in. Carried by AsyncLocalStorage, so everything a run does (its progress
 * lines, its messages) writes to its own streams without each function taking
 * them, and runs side by side in one process do not mix their output.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { LibraryOptions } from '../core/library/library'

export interface CliStream {
  write(text: string): unknown
  /** A terminal: progress lines are rewritten in place. */
  readonly isTTY?: boolean
}

export interface CliIo {
  stdout: CliStream
  stderr: CliStream
  /** Tests only: library options that are not the user's (quick retries), for runs in the test's process. */
  library?: Pick<LibraryOptions, 'client' | 'downloads' | 'syncSilenceLimitMs'>
}

const runs = new AsyncLocalStorage<CliIo>()

/** The streams of the run under way (the process's outside an in-process run). */
export function cliIo(): CliIo {
  return runs.getStore() ?? process
}

/** Runs work with io as its streams. */
export function withCliIo<T>(io: CliIo, work: () => T): T {
  return runs.run(io, work)
}

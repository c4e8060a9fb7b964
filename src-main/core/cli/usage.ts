/** Argument checks shared by the CLI's verbs. */

/** Bad arguments: the CLI prints the message with its usage and exits with 2. */
export class UsageError extends Error {}

/** Nothing to answer from: a clear message and exit code 2. */
export class NothingSyncedError extends Error {}

export function requireOption(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`)
  return value
}

export function integerOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`)
  }
  return Number(value)
}

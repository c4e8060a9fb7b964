/** Why a download stopped, each with a message a user can act on. */

/** Worth another try later: the network, the server being busy, a cut connection. */
export class TransientDownloadError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/** Trying again will not help: a 404, a refused address, a file of the wrong size. */
export class PermanentDownloadError extends Error {}

/** The disk is full: the queue pauses, and nothing written so far is lost. */
export class DiskFullError extends Error {}

/** Not enough free space to start: names what is needed and what is free. */
export class InsufficientSpaceError extends Error {
  constructor(
    readonly neededBytes: number,
    readonly freeBytes: number,
    folder: string,
  ) {
    super(`not enough free space in ${folder}: ${formatMiB(neededBytes)} needed, ${formatMiB(freeBytes)} free after the reserve`)
  }
}

function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

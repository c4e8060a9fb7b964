/**
 * The app's log: what it did (syncs, downloads, errors with their codes), one
 * JSON line per entry, in a file of the data folder that rotates at a size cap
 * (the current file plus `keep` older ones). Nothing secret is written: every
 * address has its password masked, and fields named like secrets are dropped.
 */
import fs from 'node:fs'
import { redactUrl } from '../shared/urls'

export type LogLevel = 'info' | 'warn' | 'error'

export interface Log {
  readonly file: string
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

export interface LogOptions {
  /** Rotate when the file reaches this size (default 1 MiB). */
  maxBytes?: number
  /** Older files kept: `<file>.1` (newest) to `<file>.<keep>` (default 3). */
  keep?: number
  now?: () => Date
}

const SECRET_FIELD = /password|token|secret|authorization|cookie/i

/** A log writing to file; a failure to write is never the app's failure (the entry is dropped). */
export function createLog(file: string, options: LogOptions = {}): Log {
  const maxBytes = options.maxBytes ?? 1024 * 1024
  const keep = options.keep ?? 3
  const now = options.now ?? (() => new Date())
  let size = sizeOf(file)

  const rotate = (): void => {
    fs.rmSync(`${file}.${keep}`, { force: true })
    for (let n = keep - 1; n >= 1; n--) {
      if (fs.existsSync(`${file}.${n}`)) fs.renameSync(`${file}.${n}`, `${file}.${n + 1}`)
    }
    if (fs.existsSync(file)) fs.renameSync(file, `${file}.1`)
    size = 0
  }
  const write = (level: LogLevel, message: string, fields: Record<string, unknown> = {}): void => {
    const line = `${JSON.stringify({ time: now().toISOString(), level, message: redactUrl(message), ...clean(fields) })}\n`
    // The cap is in bytes: a line of names in other scripts is longer in bytes than in characters.
    const bytes = Buffer.byteLength(line)
    try {
      if (size + bytes > maxBytes && size > 0) rotate()
      fs.appendFileSync(file, line, { mode: 0o600 })
      size += bytes
    } catch {
      // A log that cannot be written (full disk, read-only folder) must not stop the app.
    }
  }
  return {
    file,
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
  }
}

/** The size of the file now; 0 when it cannot be looked at (writing will fail the same way, and is dropped). */
function sizeOf(file: string): number {
  try {
    return fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0
  } catch {
    return 0
  }
}

/** Fields as they may be written: secrets dropped (at any depth), every string's URL passwords masked. */
function clean(fields: Record<string, unknown>): Record<string, unknown> {
  // Through JSON first, so what is cleaned is exactly what would be written (toJSON applied, functions gone).
  const plain = JSON.parse(JSON.stringify(fields) ?? '{}') as Record<string, unknown>
  return cleanValue(plain) as Record<string, unknown>
}

function cleanValue(value: unknown): unknown {
  if (typeof value === 'string') return redactUrl(value)
  if (Array.isArray(value)) return value.map(cleanValue)
  if (typeof value !== 'object' || value === null) return value
  const result: Record<string, unknown> = {}
  for (const [key, entry] of Object.entries(value)) {
    if (!SECRET_FIELD.test(key)) result[key] = cleanValue(entry)
  }
  return result
}

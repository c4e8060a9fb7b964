/** Reading a response body: JSON first, then the shape, each failure a BadResponseError naming the URL. */
import * as v from 'valibot'
import { BadResponseError } from '../shared/errors'
import { cleanText } from '../shared/text'
import { redactUrl } from '../shared/urls'

/** Deeper than any answer of the service (about five levels): beyond it JSON is an attack on the reader, not data. */
export const MAX_JSON_DEPTH = 64
/** The longest detail of a refusal kept in its message (a wrong value is quoted, and may be megabytes). */
const DETAIL_CHARS = 300

/**
 * Parses a JSON body. A failure here is usually a proxy's HTML page or a cut
 * body that still looked complete, so the caller treats it as worth a retry.
 */
export function parseJsonBody(body: Buffer, url: string): unknown {
  // Before any parsing: nesting costs the parser and every reader after it, and is refused for good (no retry).
  if (nestedTooDeep(body)) {
    throw new BadResponseError(`GET ${redactUrl(url)}: the answer is nested more than ${MAX_JSON_DEPTH} levels deep`, { url })
  }
  // A byte order mark is not JSON, but it is harmless and some servers send it.
  const text = body.toString('utf8').replace(/^\uFEFF/, '')
  try {
    return JSON.parse(text)
  } catch (error) {
    const detail = text.trim() === '' ? 'the body is empty, not JSON' : `the body is not valid JSON (${cleanText((error as Error).message, DETAIL_CHARS)})`
    // Retryable: the client retries it, and a later request may well get the whole JSON.
    throw new BadResponseError(`GET ${redactUrl(url)}: ${detail}`, { url, cause: error, retryable: true })
  }
}

/** Checks parsed JSON against a schema and returns its normalised output; the error names the first wrong member. */
export function validateBody<TSchema extends v.GenericSchema>(schema: TSchema, json: unknown, url: string): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, json, { abortEarly: true })
  if (result.success) return result.output
  const issue = result.issues[0]
  // Both may quote the answer (a key, a value): capped and cleaned like any text of the service.
  const path = fieldPath(issue.path)
  const field = path === undefined ? undefined : cleanText(path, DETAIL_CHARS)
  const message = cleanText(issue.message, DETAIL_CHARS)
  const detail = field === undefined ? `unexpected body: ${message}` : `unexpected value at ${field}: ${message}`
  throw new BadResponseError(`GET ${redactUrl(url)}: ${detail}`, { url, field })
}

/** `artists[3].artist.num_tracks` style: dots for names, brackets for indexes and for keys that are not names. */
export function fieldPath(path: readonly v.IssuePathItem[] | undefined): string | undefined {
  if (!path || path.length === 0) return undefined
  let result = ''
  for (const { key } of path) {
    if (typeof key === 'number') result += `[${key}]`
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) result += result === '' ? key : `.${key}`
    else result += `[${JSON.stringify(String(key))}]`
  }
  return result
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d

/**
 * Whether JSON opens more than MAX_JSON_DEPTH arrays and objects inside each
 * other: one pass over the bytes, brackets inside strings ignored, far cheaper
 * than parsing what it refuses. Malformed JSON is left to the parser.
 */
export function nestedTooDeep(body: Buffer): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < body.length; index++) {
    const byte = body[index]
    if (inString) {
      if (byte === BACKSLASH) index++
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) {
      inString = true
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > MAX_JSON_DEPTH) return true
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth--
    }
  }
  return false
}

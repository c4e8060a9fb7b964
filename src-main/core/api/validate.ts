/** Reading a response body: JSON first, then the shape, each failure a BadResponseError naming the URL. */
import * as v from 'valibot'
import { BadResponseError } from '../shared/errors'
import { redactUrl } from '../shared/urls'

/**
 * Parses a JSON body. A failure here is usually a proxy's HTML page or a cut
 * body that still looked complete, so the caller treats it as worth a retry.
 */
export function parseJsonBody(body: Buffer, url: string): unknown {
  // A byte order mark is not JSON, but it is harmless and some servers send it.
  const text = body.toString('utf8').replace(/^\uFEFF/, '')
  try {
    return JSON.parse(text)
  } catch (error) {
    const detail = text.trim() === '' ? 'the body is empty, not JSON' : `the body is not valid JSON (${(error as Error).message})`
    // Retryable: the client retries it, and a later request may well get the whole JSON.
    throw new BadResponseError(`GET ${redactUrl(url)}: ${detail}`, { url, cause: error, retryable: true })
  }
}

/** Checks parsed JSON against a schema and returns its normalised output; the error names the first wrong member. */
export function validateBody<TSchema extends v.GenericSchema>(schema: TSchema, json: unknown, url: string): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, json, { abortEarly: true })
  if (result.success) return result.output
  const issue = result.issues[0]
  const field = fieldPath(issue.path)
  const detail = field === undefined ? `unexpected body: ${issue.message}` : `unexpected value at ${field}: ${issue.message}`
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

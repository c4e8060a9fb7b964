/**
 * Arguments checked against their valibot schemas, the one way the core, the
 * CLI and the IPC layer validate input; a failure is an InvalidArgumentError
 * naming the field.
 */
import * as v from 'valibot'
import { InvalidArgumentError } from './errors'

/** The schema's output for input, or an InvalidArgumentError: `perPage must be an integer from 1 to 1000`. */
export function parseArguments<TSchema extends v.GenericSchema>(schema: TSchema, input: unknown): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input, { abortEarly: true })
  if (result.success) return result.output
  const issue = result.issues[0]
  const field = issue.path?.map((item) => String(item.key)).join('.')
  throw new InvalidArgumentError(field ? `${field} ${issue.message}` : issue.message, { field })
}

/** A whole number from min to max, with the message the CLI and the UI show. */
export function integerFrom(min: number, max: number) {
  const message = max === Number.MAX_SAFE_INTEGER ? `must be an integer of at least ${min}` : `must be an integer from ${min} to ${max}`
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message))
}

/** One of a closed list of words. */
export function oneOf<const TOptions extends readonly string[]>(options: TOptions) {
  return v.picklist(options, `must be one of ${options.join(', ')}`)
}

/** The object without its undefined members, so a partial update leaves what it does not name alone. */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>
}

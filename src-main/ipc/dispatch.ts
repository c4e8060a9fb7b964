/**
 * The one entrance of every call from a window, whatever the transport:
 * the channel must exist, its arguments must pass its schema, and whatever
 * happens comes back as a tagged result (a failure as the core error's JSON).
 */
import { InvalidArgumentError, serializeError, toTuneshelfError } from '../core/shared/errors'
import { parseArguments } from '../core/validation'
import { CHANNELS, type Channel } from './channels'
import { CONTRACT, type ResultOf, type Tagged, type ValidArgsOf } from './contract'

/** A handler for every channel: plain functions over the session, the same for every transport. */
export type Handlers = { [C in Channel]: (...args: ValidArgsOf<C>) => Promise<ResultOf<C>> | ResultOf<C> }

const known = new Set<string>(CHANNELS)

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && known.has(name)
}

/** Checks and runs one call; never throws. */
export async function dispatch(handlers: Handlers, channel: unknown, args: unknown): Promise<Tagged<unknown>> {
  try {
    if (!isChannel(channel)) throw new InvalidArgumentError(`there is no channel ${JSON.stringify(String(channel)).slice(0, 100)}`)
    if (!Array.isArray(args)) throw new InvalidArgumentError(`the arguments of ${channel} must be a list`)
    const valid = parseArguments(CONTRACT[channel], args) as unknown[]
    const handler = handlers[channel] as (...values: unknown[]) => unknown
    return { ok: true, value: await handler(...valid) }
  } catch (error) {
    return { ok: false, error: serializeError(toTuneshelfError(error)) }
  }
}

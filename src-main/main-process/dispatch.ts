/**
 * The one entrance of every call from a window, whatever the transport: the
 * channel must exist and its arguments must pass its schema (the contract's,
 * core/shared/contract.ts); then the main process answers it (a window
 * channel) or the core does. Whatever happens comes back as a tagged result,
 * a failure as the core error's JSON: the core's own answers pass through as
 * the host tagged them (serialised once, where they left the host).
 */
import type { CoreClient } from './core-client'
import type { CoreChannel } from '../core/host/messages'
import { answer } from '../core/shared/answer'
import { CHANNELS, CONTRACT, type Channel, type HandlersAt, type Tagged } from '../core/shared/contract'
import { InvalidArgumentError, serializeError, toTuneshelfError } from '../core/shared/errors'
import { parseArguments } from '../core/shared/validation'

/** Checks and runs one call; never throws. */
export type Dispatch = (channel: unknown, args: unknown) => Promise<Tagged<unknown>>

const known = new Set<string>(CHANNELS)

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && known.has(name)
}

export function createDispatch(core: Pick<CoreClient, 'invoke'>, windowHandlers: HandlersAt<'window'>): Dispatch {
  return async (channel, args) => {
    let valid: unknown[]
    try {
      if (!isChannel(channel)) throw new InvalidArgumentError(`there is no channel ${JSON.stringify(String(channel)).slice(0, 100)}`)
      if (!Array.isArray(args)) throw new InvalidArgumentError(`the arguments of ${channel} must be a list`)
      valid = parseArguments(CONTRACT[channel].args, args) as unknown[]
    } catch (error) {
      return { ok: false, error: serializeError(toTuneshelfError(error)) }
    }
    if (CONTRACT[channel].where !== 'window') return core.invoke(channel as CoreChannel, valid)
    const handler = windowHandlers[channel as keyof typeof windowHandlers] as (...values: unknown[]) => unknown
    return answer(() => handler(...valid))
  }
}

/** Runs one handler and turns whatever happens into a tagged result, never a throw: what crosses every boundary. */
import type { Tagged } from './contract'
import { serializeError, toTuneshelfError } from './errors'

export async function answer(work: () => unknown): Promise<Tagged<unknown>> {
  try {
    return { ok: true, value: await work() }
  } catch (error) {
    return { ok: false, error: serializeError(toTuneshelfError(error)) }
  }
}

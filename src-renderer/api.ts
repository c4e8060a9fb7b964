// The renderer's one way to reach the main process. Components and stores
// import from here, never from `window.api` directly, so a test replaces one module.
// In the app, the preload's bridge; served by `npm run web`, the same API over HTTP.
import { deserializeError } from '../src-main/core/shared/errors'
import type { ArgsOf, ResultOf, Tagged } from '../src-main/core/shared/contract'
import { buildBridgeApi, type BridgeApi, type ChannelOf, type Domain, type SessionListener, type VerbOf } from '../src-preload/api'
import { takeToken, webTransport } from './web-transport'

/** The API as components use it: every call resolves with its result or rejects with the core's error. */
export type Api = {
  [D in Domain]: { [V in VerbOf<D>]: (...args: ArgsOf<ChannelOf<D, V>>) => Promise<ResultOf<ChannelOf<D, V>>> }
} & {
  /** The session's snapshot, then its events (see SessionListener); returns the unsubscribe. */
  subscribe(listener: SessionListener): () => void
}

/** Turns failures back into errors with the core's name, code, message and retryable. */
function unwrap(bridge: BridgeApi): Api {
  const api: Record<string, unknown> = { subscribe: bridge.subscribe }
  for (const [domain, verbs] of Object.entries(bridge)) {
    if (typeof verbs !== 'object' || verbs === null) continue
    api[domain] = Object.fromEntries(
      Object.entries(verbs as Record<string, (...args: unknown[]) => Promise<Tagged<unknown>>>).map(([verb, call]) => [
        verb,
        async (...args: unknown[]) => {
          const result = await call(...args)
          if (result.ok) return result.value
          throw deserializeError(result.error)
        },
      ]),
    )
  }
  return api as Api
}

function bridge(): BridgeApi | undefined {
  if (window.api) return window.api
  let storage: Storage | undefined
  try {
    storage = window.sessionStorage
  } catch {
    // A page denied storage: the token lives as long as the page.
  }
  const token = takeToken(window.location, window.history, storage)
  return token ? buildBridgeApi(webTransport(token)) : undefined
}

const found = bridge()
/** The API, or undefined when the page is open without the app or the web bridge behind it. */
export const api: Api | undefined = found && unwrap(found)

// The renderer's one way to reach the main process. Components and stores
// import from here, never from `window.api` directly, so a test replaces one module.
// In the app, the preload's bridge; served by `npm run web`, the same API over HTTP.
import { deserializeError } from '@shared/errors'
import type { ArgsOf, ResultOf, Tagged } from '@shared/contract'
import type { Disposable } from '@shared/disposable'
import { buildBridgeApi, type BridgeApi, type ChannelOf, type Domain, type SessionListener, type VerbOf } from '../src-preload/api'
import { takeToken, webTransport } from './web-transport'

/** The API as components use it: every call resolves with its result or rejects with the core's error. */
export type Api = {
  [D in Domain]: { [V in VerbOf<D>]: (...args: ArgsOf<ChannelOf<D, V>>) => Promise<ResultOf<ChannelOf<D, V>>> }
} & {
  /** The session's snapshot, then its events (see SessionListener), until the returned Disposable is disposed. */
  subscribe(listener: SessionListener): Disposable
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

/**
 * Whether the page has the app behind it (the preload's bridge, or the web bridge's token): decided
 * once, at start. Without it main.ts mounts a page that says so, and nothing of the app runs.
 */
export const connected = found !== undefined

/** The API: every screen and store may count on it (see `connected`). */
export const api: Api = found ? unwrap(found) : notConnected()

/** What `api` is on a page without the app: any call rejects, saying why (nothing should make one). */
function notConnected(): Api {
  const refuse = (): Promise<never> => Promise.reject(new Error('Tuneshelf is not running behind this page'))
  const domain = new Proxy({}, { get: () => refuse })
  return new Proxy({} as Api, { get: (_target, key) => (key === 'subscribe' ? () => ({ dispose: () => {} }) : domain) })
}

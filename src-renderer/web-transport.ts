// The contract over `npm run web`: each call a POST to /api/<channel>, the session a
// server-sent stream. Kept apart from api.ts (which reads the window) so a test runs it in Node.
import type { Tagged } from '@shared/contract'
import type { SerializedError } from '@shared/errors'
import type { SessionEvent, SessionSnapshot } from '@shared/types'
import type { Transport } from '../src-preload/api'

/** How long a dropped event stream may take to come back before the page says the bridge stopped. */
export const LOST_AFTER_MS = 2500

/** Where a tab keeps the run's token: sessionStorage is this tab's and this origin's (port included), and goes with it. */
const TOKEN_KEY = 'tuneshelf-token'

/**
 * The run's token, as the page finds it: in the address `npm run web` printed (`?token=`), which it
 * then takes out of the address bar (so it is in no bookmark, no shared screenshot, no other history
 * entry) and keeps for this tab, where a reload finds it. Never a cookie: a browser sends cookies to
 * every server on the host, whatever its port. Call it before the router reads the address.
 */
export function takeToken(
  location: Pick<Location, 'href'>,
  history: Pick<History, 'state' | 'replaceState'>,
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined,
): string | undefined {
  const url = new URL(location.href)
  const fromAddress = url.searchParams.get('token')
  if (fromAddress !== null) {
    url.searchParams.delete('token')
    history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`)
    if (fromAddress !== '') {
      try {
        storage?.setItem(TOKEN_KEY, fromAddress)
      } catch {
        // Storage refused (a private window with no room): the token lives as long as this page.
      }
      return fromAddress
    }
  }
  try {
    return storage?.getItem(TOKEN_KEY) ?? undefined
  } catch {
    return undefined
  }
}

/**
 * The web bridge of `npm run web`: the page's own origin, with the run's token (takeToken) in a
 * header for calls and in the event stream's address; media addresses carry a media-only key of
 * their own, which the bridge puts in them (app:info's avatarBase, downloads:playbackAddress).
 * A bridge that cannot be reached, or answers without a result, is a tagged failure like any other.
 */
export function webTransport(token: string): Transport {
  const failure = (name: string, code: SerializedError['code'], message: string): SerializedError => ({ name, code, message, retryable: code === 'network' })
  return {
    invoke: async (channel, args) => {
      let response: Response
      try {
        response = await fetch(`/api/${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-tuneshelf-token': token },
          body: JSON.stringify(args),
        })
      } catch (error) {
        return { ok: false, error: failure('NetworkError', 'network', `the web bridge (npm run web) cannot be reached: ${(error as Error).message}`) }
      }
      try {
        return (await response.json()) as Tagged<unknown>
      } catch {
        return { ok: false, error: failure('BadResponseError', 'bad_response', `the web bridge answered ${channel} with HTTP ${response.status} and no result`) }
      }
    },
    subscribe: (listener) => {
      // Each time the stream opens (EventSource reconnects by itself when it drops), the bridge sends
      // the session's snapshot first, then the events: nothing falls between, nothing is missed.
      const source = new EventSource(`/events?token=${encodeURIComponent(token)}`)
      let lost: ReturnType<typeof setTimeout> | undefined
      source.onopen = () => {
        clearTimeout(lost)
        lost = undefined
      }
      source.onmessage = (message) => {
        const data = JSON.parse(message.data as string) as SessionEvent[] | { snapshot: SessionSnapshot }
        if (Array.isArray(data)) listener.events(data)
        else listener.snapshot(data.snapshot)
      }
      source.onerror = () => {
        // A stream the bridge refused (a wrong token: another run of the bridge) is closed for good.
        if (source.readyState === EventSource.CLOSED) {
          clearTimeout(lost)
          listener.failed(failure('NetworkError', 'network', 'the web bridge (npm run web) refused or lost the event stream'))
          return
        }
        // One that dropped tries again by itself, every second; not back within a few, the bridge has stopped.
        lost ??= setTimeout(() => listener.lost?.(failure('NetworkError', 'network', 'the web bridge (npm run web) does not answer')), LOST_AFTER_MS)
      }
      return {
        dispose: () => {
          clearTimeout(lost)
          source.close()
        },
      }
    },
  }
}

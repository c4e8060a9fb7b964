// The contract over `npm run web`: each call a POST to /api/<channel>, the session a
// server-sent stream. Kept apart from api.ts (which reads the window) so a test runs it in Node.
import type { Tagged } from '../src-main/core/shared/contract'
import type { SerializedError } from '../src-main/core/shared/errors'
import type { SessionEvent, SessionSnapshot } from '../src-main/core/shared/types'
import type { Transport } from '../src-preload/api'

/**
 * The web bridge of `npm run web`: the page's own origin, with the run's token from its address
 * (the bridge also set it as a cookie, which is what lets <img> and <audio> load /media/ addresses).
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
      source.onmessage = (message) => {
        const data = JSON.parse(message.data as string) as SessionEvent[] | { snapshot: SessionSnapshot }
        if (Array.isArray(data)) listener.events(data)
        else listener.snapshot(data.snapshot)
      }
      source.onerror = () => {
        // A stream the bridge refused (a wrong token) is closed for good; one that dropped tries again.
        if (source.readyState === EventSource.CLOSED) listener.failed(failure('NetworkError', 'network', 'the web bridge (npm run web) refused or lost the event stream'))
      }
      return () => source.close()
    },
  }
}

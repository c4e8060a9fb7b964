// The contract over `npm run web`: each call a POST to /api/<channel>, the events a
// server-sent stream. Kept apart from api.ts (which reads the window) so a test runs it in Node.
import type { SerializedError } from '../src-main/core/shared/errors'
import type { SessionEvent } from '../src-main/core/shared/types'
import type { Tagged } from '../src-preload/api-types'
import type { Transport } from '../src-preload/api'

/**
 * The web bridge of `npm run web`: the page's own origin, with the run's token from its address
 * (the bridge also set it as a cookie, which is what lets <img> and <audio> load /media/ addresses).
 * A bridge that cannot be reached, or answers without a result, is a tagged failure like any other.
 */
export function webTransport(token: string): Transport {
  const failure = (name: string, code: SerializedError['code'], message: string): Tagged<never> => ({
    ok: false,
    error: { name, code, message, retryable: code === 'network' },
  })
  // The stream's subscription must exist on the bridge before the snapshot is taken, or the
  // events in between (a short first sync's end) are lost and the window shows a stale state.
  let streamOpen: Promise<void> = Promise.resolve()
  return {
    invoke: async (channel, args) => {
      if (channel === 'events:subscribe') await streamOpen
      let response: Response
      try {
        response = await fetch(`/api/${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-tuneshelf-token': token },
          body: JSON.stringify(args),
        })
      } catch (error) {
        return failure('NetworkError', 'network', `the web bridge (npm run web) cannot be reached: ${(error as Error).message}`)
      }
      try {
        return (await response.json()) as Tagged<unknown>
      } catch {
        return failure('BadResponseError', 'bad_response', `the web bridge answered ${channel} with HTTP ${response.status} and no result`)
      }
    },
    listen: (listener) => {
      // EventSource reconnects by itself when the stream drops; each message is one batch of events.
      const source = new EventSource(`/events?token=${encodeURIComponent(token)}`)
      // The bridge subscribes the stream before it answers, so an open stream misses nothing from now on.
      // A stream that cannot open does not hold the snapshot back: its failure shows as the page's own.
      streamOpen = new Promise((resolve) => {
        source.addEventListener('open', () => resolve(), { once: true })
        source.addEventListener('error', () => resolve(), { once: true })
      })
      source.onmessage = (message) => listener(JSON.parse(message.data as string) as SessionEvent[])
      return () => source.close()
    },
  }
}

// The contract over `npm run web`: each call a POST to /api/<channel>, the session a
// server-sent stream. Kept apart from api.ts (which reads the window) so a test runs it in Node.
import type { Tagged } from '@shared/contract'
import type { SerializedError } from '@shared/errors'
import type { SessionEvent, SessionSnapshot } from '@shared/types'
import type { Transport } from '../src-preload/api'

/** How long a dropped event stream may take to come back before the page says the bridge stopped. */
export const LOST_AFTER_MS = 2500

/** How soon a stream closed for good is opened again while the bridge cannot be reached (it may be restarting). */
export const REOPEN_AFTER_MS = 1000

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
  const invoke: Transport['invoke'] = async (channel, args) => {
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
  }
  return {
    invoke,
    subscribe(listener) {
      let source: EventSource | undefined
      let lost: ReturnType<typeof setTimeout> | undefined
      let again: ReturnType<typeof setTimeout> | undefined
      let disposed = false
      const stillLost = (): void => {
        lost ??= setTimeout(() => listener.lost?.(failure('NetworkError', 'network', 'the web bridge (npm run web) does not answer')), LOST_AFTER_MS)
      }
      // Each time the stream opens (EventSource reconnects by itself when it drops), the bridge sends
      // the session's snapshot first, then the events: nothing falls between, nothing is missed.
      const open = (): void => {
        const stream = new EventSource(`/events?token=${encodeURIComponent(token)}`)
        source = stream
        stream.onopen = () => {
          clearTimeout(lost)
          lost = undefined
        }
        stream.onmessage = (message) => {
          const data = JSON.parse(message.data as string) as SessionEvent[] | { snapshot: SessionSnapshot }
          if (Array.isArray(data)) listener.events(data)
          else listener.snapshot(data.snapshot)
        }
        stream.onerror = () => {
          if (stream.readyState === EventSource.CLOSED) void closed()
          // One that dropped tries again by itself, every second; not back within a few, the bridge has stopped.
          else stillLost()
        }
      }
      /**
       * A stream closed for good. Either the bridge refused it (another run of the bridge: this token is not
       * its own), or the browser cut it (a request it aborted, on a loaded machine, as history moved): the
       * bridge says which. One that still knows the token gets the stream opened again.
       */
      const closed = async (): Promise<void> => {
        const answer = await invoke('app:info', [])
        if (disposed) return
        if (!answer.ok && answer.error.code !== 'network') {
          clearTimeout(lost)
          listener.failed(failure('NetworkError', 'network', 'the web bridge (npm run web) refused the event stream: it is another run, with another address'))
          return
        }
        if (!answer.ok) stillLost()
        again = setTimeout(open, answer.ok ? 0 : REOPEN_AFTER_MS)
      }
      open()
      return {
        dispose: () => {
          disposed = true
          clearTimeout(lost)
          clearTimeout(again)
          source?.close()
        },
      }
    },
  }
}

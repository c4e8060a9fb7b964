// The web bridge's transport: the session comes as one stream that starts with its snapshot (the
// bridge takes it once the stream is open, so nothing between the two is lost), then the events;
// a stream that reconnects starts with a snapshot again; one the bridge refused is a failure.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { webTransport } from '../../src-renderer/web-transport'

/** An EventSource whose messages and errors come when the test says. */
class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0
  static readonly OPEN = 1
  static readonly CLOSED = 2
  static last: FakeEventSource | undefined
  onmessage: ((message: { data: string }) => void) | null = null
  onerror: (() => void) | null = null
  readyState = FakeEventSource.CONNECTING
  constructor(readonly url: string) {
    super()
    FakeEventSource.last = this
  }
  close(): void {
    this.readyState = FakeEventSource.CLOSED
  }
}

function stubBrowser(): string[] {
  const fetched: string[] = []
  vi.stubGlobal('EventSource', FakeEventSource)
  vi.stubGlobal('fetch', async (url: string) => {
    fetched.push(url)
    return new Response(JSON.stringify({ ok: true, value: 'answer' }))
  })
  return fetched
}

afterEach(() => {
  vi.unstubAllGlobals()
})

function listen(transport: ReturnType<typeof webTransport>) {
  const heard: unknown[] = []
  const close = transport.subscribe({
    snapshot: (snapshot) => heard.push(['snapshot', snapshot]),
    events: (events) => heard.push(['events', events]),
    failed: (error) => heard.push(['failed', error.code]),
  })
  return { heard, close }
}

describe('the web transport', () => {
  it('hears the snapshot the stream starts with, then its events, and again a snapshot after a reconnect', () => {
    stubBrowser()
    const { heard, close } = listen(webTransport('t0ken'))
    const source = FakeEventSource.last!
    expect(source.url).toBe('/events?token=t0ken')
    source.onmessage!({ data: '{"snapshot":{"online":true}}' })
    source.onmessage!({ data: '[{"type":"online","online":false}]' })
    // The stream dropped and EventSource reconnects by itself: not a failure; the new stream starts with a snapshot.
    source.readyState = FakeEventSource.CONNECTING
    source.onerror!()
    source.onmessage!({ data: '{"snapshot":{"online":false}}' })
    expect(heard).toEqual([
      ['snapshot', { online: true }],
      ['events', [{ type: 'online', online: false }]],
      ['snapshot', { online: false }],
    ])
    close()
    expect(source.readyState).toBe(FakeEventSource.CLOSED)
  })

  it('says a stream the bridge refused has failed', () => {
    stubBrowser()
    const { heard } = listen(webTransport('wrong'))
    FakeEventSource.last!.readyState = FakeEventSource.CLOSED
    FakeEventSource.last!.onerror!()
    expect(heard).toEqual([['failed', 'network']])
  })

  it('posts each call to its channel with the token; a bridge that is gone is a network failure', async () => {
    const fetched = stubBrowser()
    const transport = webTransport('t0ken')
    await expect(transport.invoke('catalogue:levels', [])).resolves.toEqual({ ok: true, value: 'answer' })
    expect(fetched).toEqual(['/api/catalogue:levels'])
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(transport.invoke('catalogue:levels', [])).resolves.toMatchObject({ ok: false, error: { code: 'network', retryable: true } })
  })
})

// The web bridge's transport: the session comes as one stream that starts with its snapshot (the
// bridge takes it once the stream is open, so nothing between the two is lost), then the events;
// a stream that reconnects starts with a snapshot again; one the bridge refused is a failure.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LOST_AFTER_MS, takeToken, webTransport } from '../../src-renderer/web-transport'

/** An EventSource whose messages and errors come when the test says. */
class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0
  static readonly OPEN = 1
  static readonly CLOSED = 2
  static last: FakeEventSource | undefined
  onmessage: ((message: { data: string }) => void) | null = null
  onerror: (() => void) | null = null
  onopen: (() => void) | null = null
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
  const subscription = transport.subscribe({
    snapshot: (snapshot) => heard.push(['snapshot', snapshot]),
    events: (events) => heard.push(['events', events]),
    failed: (error) => heard.push(['failed', error.code]),
    lost: (error) => heard.push(['lost', error.message]),
  })
  return { heard, close: () => subscription.dispose() }
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

  it('says a stream the bridge refused has failed: the bridge no longer knows the token (another run of it)', async () => {
    stubBrowser()
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ ok: false, error: { name: 'RejectedError', code: 'rejected', message: 'the web bridge needs the token of this run' } }), { status: 401 }))
    const { heard } = listen(webTransport('wrong'))
    FakeEventSource.last!.readyState = FakeEventSource.CLOSED
    FakeEventSource.last!.onerror!()
    await vi.waitFor(() => expect(heard).toEqual([['failed', 'network']]))
  })

  it('opens a stream the browser cut (closed, the bridge still knowing the token) again, without a word', async () => {
    const fetched = stubBrowser()
    const { heard, close } = listen(webTransport('t0ken'))
    const cut = FakeEventSource.last!
    cut.onmessage!({ data: '{"snapshot":{"online":true}}' })
    cut.readyState = FakeEventSource.CLOSED
    cut.onerror!()
    await vi.waitFor(() => expect(FakeEventSource.last).not.toBe(cut))
    expect(fetched).toEqual(['/api/app:info'])
    // The new stream starts with the snapshot, as any does.
    FakeEventSource.last!.onmessage!({ data: '{"snapshot":{"online":false}}' })
    expect(heard).toEqual([
      ['snapshot', { online: true }],
      ['snapshot', { online: false }],
    ])
    close()
    expect(FakeEventSource.last!.readyState).toBe(FakeEventSource.CLOSED)
  })

  it('a stream closed while the bridge cannot be reached: lost after a while, tried again each second, open once it answers', async () => {
    vi.useFakeTimers()
    try {
      stubBrowser()
      let reachable = false
      vi.stubGlobal('fetch', async () => {
        if (!reachable) throw new TypeError('Failed to fetch')
        return new Response(JSON.stringify({ ok: true, value: {} }))
      })
      const { heard, close } = listen(webTransport('t0ken'))
      const closeStream = async (): Promise<void> => {
        FakeEventSource.last!.readyState = FakeEventSource.CLOSED
        FakeEventSource.last!.onerror!()
        await vi.advanceTimersByTimeAsync(0)
      }
      await closeStream()
      const tries = new Set([FakeEventSource.last])
      for (let second = 0; second < 4; second++) {
        await vi.advanceTimersByTimeAsync(1000)
        tries.add(FakeEventSource.last)
        await closeStream()
      }
      expect(tries.size).toBeGreaterThanOrEqual(4)
      expect(heard).toEqual([['lost', 'the web bridge (npm run web) does not answer']])
      // Back: the next try opens, and the stream is as before.
      reachable = true
      await vi.advanceTimersByTimeAsync(1000)
      FakeEventSource.last!.onopen!()
      FakeEventSource.last!.onmessage!({ data: '{"snapshot":{"online":true}}' })
      expect(heard.at(-1)).toEqual(['snapshot', { online: true }])
      close()
      expect(vi.getTimerCount()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('says the stream is lost once it has not come back for a while (the bridge stopped), once, and not when it comes back in time', () => {
    vi.useFakeTimers()
    try {
      stubBrowser()
      const { heard, close } = listen(webTransport('t0ken'))
      const source = FakeEventSource.last!
      source.onopen!()
      // A drop that comes back within the time: nothing to say.
      source.onerror!()
      vi.advanceTimersByTime(LOST_AFTER_MS - 1)
      source.onopen!()
      vi.advanceTimersByTime(LOST_AFTER_MS * 2)
      expect(heard).toEqual([])
      // Gone: EventSource tries every second, failing each time; said once.
      for (let second = 0; second < 5; second++) {
        source.onerror!()
        vi.advanceTimersByTime(1000)
      }
      expect(heard).toEqual([['lost', 'the web bridge (npm run web) does not answer']])
      close()
      expect(vi.getTimerCount()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
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

/** A tab: its address, its history and its session storage. */
function tab(href: string) {
  const location = { href }
  const stored = new Map<string, string>()
  const history = {
    state: { position: 1 } as unknown,
    replaceState: (state: unknown, _unused: string, url: string) => {
      history.state = state
      location.href = new URL(url, location.href).href
    },
  }
  const storage = { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => void stored.set(key, value) }
  return { location, history, storage, stored }
}

describe('the token of the page', () => {
  it('is taken from the address, which then no longer holds it, and kept for the tab (never a cookie)', () => {
    const page = tab('http://127.0.0.1:4000/?token=s3cret&view=x#/artists')
    expect(takeToken(page.location, page.history, page.storage)).toBe('s3cret')
    expect(page.location.href).toBe('http://127.0.0.1:4000/?view=x#/artists')
    expect(page.history.state).toEqual({ position: 1 })
    expect([...page.stored.values()]).toEqual(['s3cret'])
    // A reload: the address has no token, the tab has it.
    expect(takeToken(page.location, page.history, page.storage)).toBe('s3cret')
  })

  it('is none where neither the address nor the tab has one, and an empty one is no token', () => {
    const page = tab('http://127.0.0.1:4000/?token=#/')
    expect(takeToken(page.location, page.history, page.storage)).toBeUndefined()
    expect(page.location.href).toBe('http://127.0.0.1:4000/#/')
    expect(takeToken(tab('http://127.0.0.1:4000/').location, page.history, undefined)).toBeUndefined()
  })

  it('lives as long as the page where the tab keeps nothing', () => {
    const page = tab('http://127.0.0.1:4000/?token=t')
    const refusing = {
      getItem: (): string | null => {
        throw new Error('denied')
      },
      setItem: (): void => {
        throw new Error('denied')
      },
    }
    expect(takeToken(page.location, page.history, refusing)).toBe('t')
    expect(page.location.href).toBe('http://127.0.0.1:4000/')
  })
})

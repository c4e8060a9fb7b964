// The web bridge's transport: the snapshot is asked for only once the event stream is open,
// so nothing the session does between the two is lost (a short first sync's end was).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { webTransport } from '../../src-renderer/web-transport'

/** An EventSource that opens or fails when the test says. */
class FakeEventSource extends EventTarget {
  static last: FakeEventSource | undefined
  onmessage: ((message: { data: string }) => void) | null = null
  closed = false
  constructor(readonly url: string) {
    super()
    FakeEventSource.last = this
  }
  close(): void {
    this.closed = true
  }
}

function stubBrowser(): string[] {
  const fetched: string[] = []
  vi.stubGlobal('EventSource', FakeEventSource)
  vi.stubGlobal('fetch', async (url: string) => {
    fetched.push(url)
    return new Response(JSON.stringify({ ok: true, value: 'snapshot' }))
  })
  return fetched
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the web transport', () => {
  it('asks for the snapshot only after the event stream has opened', async () => {
    const fetched = stubBrowser()
    const transport = webTransport('t0ken')
    const batches: unknown[] = []
    transport.listen((events) => batches.push(events))
    expect(FakeEventSource.last!.url).toBe('/events?token=t0ken')
    const snapshot = transport.invoke('events:subscribe', [])
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(fetched).toEqual([])
    FakeEventSource.last!.dispatchEvent(new Event('open'))
    await expect(snapshot).resolves.toEqual({ ok: true, value: 'snapshot' })
    expect(fetched).toEqual(['/api/events:subscribe'])
    FakeEventSource.last!.onmessage!({ data: '[{"type":"online","online":false}]' })
    expect(batches).toEqual([[{ type: 'online', online: false }]])
  })

  it('does not hold the snapshot back when the stream cannot open, nor other calls ever', async () => {
    const fetched = stubBrowser()
    const transport = webTransport('t0ken')
    transport.listen(() => undefined)
    await expect(transport.invoke('catalogue:levels', [])).resolves.toMatchObject({ ok: true })
    const snapshot = transport.invoke('events:subscribe', [])
    FakeEventSource.last!.dispatchEvent(new Event('error'))
    await expect(snapshot).resolves.toMatchObject({ ok: true })
    expect(fetched).toEqual(['/api/catalogue:levels', '/api/events:subscribe'])
  })
})

/**
 * The bridge API, built from the contract's channel names with one generic
 * invoke: `api.catalogue.list(query)` calls the channel `catalogue:list`.
 * Free of Node and Electron, so the preload bundles it and the renderer can
 * build the same API over the web bridge. Every method resolves with the
 * tagged result: contextBridge copies only an Error's message across worlds,
 * so the renderer's api module (src-renderer/api.ts) turns a failure back into
 * an error with the core's name, code and message.
 */
import { CHANNELS, type ArgsOf, type Channel, type ResultOf, type Tagged } from '../src-main/core/shared/contract'
import type { Disposable } from '../src-main/core/shared/disposable'
import type { SerializedError } from '../src-main/core/shared/errors'
import type { SessionEvent, SessionSnapshot } from '../src-main/core/shared/types'

/** What a window hears of the session once subscribed: its state, then the events that change it, in order. */
export interface SessionListener {
  /** The session's state: first when the stream opens, and again whenever the transport had to reconnect. */
  snapshot(snapshot: SessionSnapshot): void
  /** Events newer than the last snapshot (a few older ones may repeat what it says), in order. */
  events(events: SessionEvent[]): void
  /** The subscription could not be made (the window is not the app's own, the bridge is gone). */
  failed(error: SerializedError): void
  /** The stream dropped and has not come back for a while (the web bridge stopped); it keeps trying, and a snapshot says it is back. */
  lost?(error: SerializedError): void
}

/** How calls reach main: ipcRenderer in the preload, HTTP and server-sent events in the web bridge. */
export interface Transport {
  invoke(channel: Channel, args: unknown[]): Promise<Tagged<unknown>>
  /**
   * Opens the event stream, then takes the session's snapshot, so no event falls between the two;
   * events may reach the listener before the snapshot does (buildBridgeApi holds them). Dispose to close it.
   */
  subscribe(listener: SessionListener): Disposable
}

type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never
/** The first half of the channel names: catalogue, sync, downloads, ... */
export type Domain = DomainOf<Channel>
/** The verbs of a domain: list, artist, ... for catalogue. */
export type VerbOf<D extends Domain> = Channel extends infer C ? (C extends `${D}:${infer V}` ? V : never) : never
/** The channel of a domain's verb. */
export type ChannelOf<D extends Domain, V extends string> = Extract<`${D}:${V}`, Channel>

/** What the preload exposes as `window.api`: one function per channel, and the session's subscription. */
export type BridgeApi = {
  [D in Domain]: { [V in VerbOf<D>]: (...args: ArgsOf<ChannelOf<D, V>>) => Promise<Tagged<ResultOf<ChannelOf<D, V>>>> }
} & {
  /** The session's snapshot, then its events, until the returned Disposable is disposed. */
  subscribe(listener: SessionListener): Disposable
}

export function buildBridgeApi(transport: Transport): BridgeApi {
  const api: Record<string, Record<string, (...args: unknown[]) => Promise<Tagged<unknown>>>> = {}
  for (const channel of CHANNELS) {
    const [domain, verb] = channel.split(':') as [string, string]
    ;(api[domain] ??= {})[verb] = (...args) => transport.invoke(channel, args)
  }
  return { ...api, subscribe: (listener: SessionListener) => transport.subscribe(inOrder(listener)) } as unknown as BridgeApi
}

/**
 * The listener as the window wants it: nothing before the first snapshot. Events that come
 * before it (in Electron the stream can overtake the snapshot's reply) wait and follow it.
 */
function inOrder(listener: SessionListener): SessionListener {
  let early: SessionEvent[] | undefined = []
  return {
    snapshot: (snapshot) => {
      listener.snapshot(snapshot)
      const held = early
      early = undefined
      if (held && held.length > 0) listener.events(held)
    },
    events: (events) => {
      if (early) early.push(...events)
      else listener.events(events)
    },
    failed: (error) => listener.failed(error),
    lost: (error) => listener.lost?.(error),
  }
}

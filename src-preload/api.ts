/**
 * The bridge API, built from the contract's channel names with one generic
 * invoke: `api.catalogue.list(query)` calls the channel `catalogue:list`.
 * Free of Node and Electron, so the preload bundles it and the renderer can
 * build the same API over the web bridge. Every method resolves with the
 * tagged result: contextBridge copies only an Error's message across worlds,
 * so the renderer's api module (src-renderer/api.ts) turns a failure back into
 * an error with the core's name, code and message.
 */
import type { SessionEvent } from '../src-main/core/shared/types'
import { CHANNELS, type Channel } from '../src-main/ipc/channels'
import type { ArgsOf, ResultOf, Tagged } from '../src-main/ipc/contract-types'

/** How calls reach main: ipcRenderer in the preload, HTTP and server-sent events in the web bridge. */
export interface Transport {
  invoke(channel: Channel, args: unknown[]): Promise<Tagged<unknown>>
  /** Subscribes to the event batches; returns the unsubscribe. */
  listen(listener: (events: SessionEvent[]) => void): () => void
}

type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never
/** The first half of the channel names: catalogue, sync, downloads, ... */
export type Domain = DomainOf<Channel>
/** The verbs of a domain: list, artist, ... for catalogue. */
export type VerbOf<D extends Domain> = Channel extends infer C ? (C extends `${D}:${infer V}` ? V : never) : never
/** The channel of a domain's verb. */
export type ChannelOf<D extends Domain, V extends string> = Extract<`${D}:${V}`, Channel>

/** What the preload exposes as `window.api`: one function per channel, and the event subscription. */
export type BridgeApi = {
  [D in Domain]: { [V in VerbOf<D>]: (...args: ArgsOf<ChannelOf<D, V>>) => Promise<Tagged<ResultOf<ChannelOf<D, V>>>> }
} & {
  /** Event batches, for as long as the returned function is not called. */
  onEvents(listener: (events: SessionEvent[]) => void): () => void
}

export function buildBridgeApi(transport: Transport): BridgeApi {
  const api: Record<string, Record<string, (...args: unknown[]) => Promise<Tagged<unknown>>>> = {}
  for (const channel of CHANNELS) {
    const [domain, verb] = channel.split(':') as [string, string]
    ;(api[domain] ??= {})[verb] = (...args) => transport.invoke(channel, args)
  }
  return { ...api, onEvents: (listener: (events: SessionEvent[]) => void) => transport.listen(listener) } as unknown as BridgeApi
}

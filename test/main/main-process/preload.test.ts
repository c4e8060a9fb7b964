/**
 * The sandboxed preload can load nothing but `electron`: the built file runs
 * in a bare VM context whose `require` offers only a stub of electron, and it
 * exposes exactly the contract's channels, each calling ipcRenderer.invoke.
 */
import fs from 'node:fs'
import vm from 'node:vm'
import { describe, expect, it, vi } from 'vitest'
import { CHANNELS, EVENTS_CHANNEL, SUBSCRIBE_CHANNEL } from '../../../src-main/core/shared/contract'
import { builtFile } from '../support/build'

interface Loaded {
  /** The subscription's reply waits for this (main's answer can come after events it sent). */
  snapshotGate: Promise<void>
  exposed: Map<string, unknown>
  invoked: { channel: string; args: unknown }[]
  listeners: Map<string, ((...args: unknown[]) => void)[]>
  required: string[]
}

function loadPreload(): Loaded {
  const loaded: Loaded = { snapshotGate: Promise.resolve(), exposed: new Map(), invoked: [], listeners: new Map(), required: [] }
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => loaded.exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (channel: string, args: unknown) => {
        loaded.invoked.push({ channel, args })
        if (channel === SUBSCRIBE_CHANNEL) await loaded.snapshotGate
        return { ok: true, value: channel }
      },
      on: (channel: string, listener: (...args: unknown[]) => void) => loaded.listeners.set(channel, [...(loaded.listeners.get(channel) ?? []), listener]),
      off: (channel: string, listener: (...args: unknown[]) => void) =>
        loaded.listeners.set(channel, (loaded.listeners.get(channel) ?? []).filter((candidate) => candidate !== listener)),
    },
  }
  const require = (name: string): unknown => {
    loaded.required.push(name)
    if (name === 'electron') return electron
    throw new Error(`the sandboxed preload cannot require ${JSON.stringify(name)}`)
  }
  const module = { exports: {} }
  // A bare context: no process, no Buffer, no globals of Node; only what a sandboxed preload gets from us.
  const context = vm.createContext({ require, module, exports: module.exports })
  vm.runInContext(fs.readFileSync(builtFile('preload/index.cjs'), 'utf8'), context, { filename: 'preload/index.cjs' })
  return loaded
}

describe('the built preload', () => {
  it('loads with only electron to require, and exposes window.api and nothing else', () => {
    const loaded = loadPreload()
    expect(loaded.required).toEqual(['electron'])
    expect([...loaded.exposed.keys()]).toEqual(['api'])
  })

  it('exposes exactly the contract: one function per channel, each invoking that channel with its arguments', async () => {
    const api = loadPreload().exposed.get('api') as Record<string, Record<string, (...args: unknown[]) => Promise<unknown>> | ((...args: unknown[]) => unknown)>
    const exposed = Object.entries(api).flatMap(([domain, verbs]) => (typeof verbs === 'function' ? [] : Object.keys(verbs).map((verb) => `${domain}:${verb}`)))
    expect(exposed.sort()).toEqual([...CHANNELS].sort())
    expect(Object.keys(api).filter((key) => typeof api[key] === 'function')).toEqual(['subscribe'])
    const loaded = loadPreload()
    const bridge = loaded.exposed.get('api') as { catalogue: { list(query: unknown): Promise<unknown> }; downloads: { pause(ids: number[]): Promise<unknown> } }
    expect(await bridge.catalogue.list({ q: 'x' })).toEqual({ ok: true, value: 'catalogue:list' })
    await bridge.downloads.pause([1, 2])
    expect(loaded.invoked).toEqual([
      { channel: 'catalogue:list', args: [{ q: 'x' }] },
      { channel: 'downloads:pause', args: [[1, 2]] },
    ])
  })

  it('subscribes: the stream first, then the snapshot; events that overtake the snapshot follow it; none after unsubscribing', async () => {
    const loaded = loadPreload()
    let release!: () => void
    loaded.snapshotGate = new Promise((resolve) => (release = resolve))
    const api = loaded.exposed.get('api') as { subscribe(listener: Record<string, (value: unknown) => void>): { dispose(): void } }
    const heard: unknown[] = []
    const subscription = api.subscribe({
      snapshot: (snapshot) => heard.push(['snapshot', snapshot]),
      events: (events) => heard.push(['events', events]),
      failed: (error) => heard.push(['failed', error]),
    })
    // Listening on the stream before asking for the snapshot.
    expect(loaded.listeners.get(EVENTS_CHANNEL)).toHaveLength(1)
    expect(loaded.invoked).toEqual([{ channel: SUBSCRIBE_CHANNEL, args: undefined }])
    const send = (events: unknown[]): void => {
      for (const listener of loaded.listeners.get(EVENTS_CHANNEL) ?? []) listener({ sender: 'main' }, events)
    }
    send([{ type: 'online', online: false }])
    release()
    // Once the snapshot is in, what overtook it follows at once, and what comes next after that.
    await vi.waitFor(() => expect(heard).toContainEqual(['snapshot', SUBSCRIBE_CHANNEL]))
    send([{ type: 'online', online: true }])
    subscription.dispose()
    send([{ type: 'notice', message: 'too late' }])
    expect(heard).toEqual([
      ['snapshot', SUBSCRIBE_CHANNEL],
      ['events', [{ type: 'online', online: false }]],
      ['events', [{ type: 'online', online: true }]],
    ])
    expect(loaded.listeners.get(EVENTS_CHANNEL)).toEqual([])
  })
})

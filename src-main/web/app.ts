/**
 * The app as `npm run web` runs it: the core's host in a process of its own
 * over the data folder (the service of baseUrl, else the one the settings
 * name, else the built-in demo catalogue, as the desktop app does), and the
 * web bridge in front of it on 127.0.0.1, in this process, which does nothing
 * else: the same split as the desktop app's main and utility processes.
 * web/main.ts adds the command line; the responsiveness benchmark runs this
 * to measure this process's main thread.
 */
import { CoreClient } from '../main-process/core-client'
import type { TestTiming } from '../core/host/messages'
import { forkedHost, type ForkOptions } from '../main-process/host-launch'
import { SettingsStore } from '../core/library/settings'
import { startWebBridge, type WebBridge } from './server'

export interface WebAppOptions {
  dataDir: string
  /** The catalogue service to show (saved in the settings); without it, the settings' one or the demo. */
  baseUrl?: string | undefined
  /** Port on 127.0.0.1; 0 picks a free one. */
  port?: number
  /** The built renderer to serve. */
  rendererDir: string
  /** Where notices, changes of service or network, and the core's own output go, a line at a time. */
  log: (line: string) => void
  /** How the core's process is started (tests and benchmarks run it from the sources under tsx). */
  host?: ForkOptions
  /** Tests only: shorter checks and retries (test-timing.ts). */
  testTiming?: TestTiming | undefined
}

export interface WebApp {
  /** The address that opens the app, token included. */
  url: string
  bridge: WebBridge
  core: CoreClient
  /** What it serves, for people: `the demo catalogue` or the service's address. */
  serving: string
  /** Stops the bridge, then closes the session gracefully (transfers paused, the cache closed) and ends the core's process. */
  close(): Promise<void>
}

export async function startWebApp(options: WebAppOptions): Promise<WebApp> {
  if (options.baseUrl !== undefined) {
    const settings = new SettingsStore(options.dataDir)
    try {
      settings.update({ baseUrl: options.baseUrl })
    } finally {
      settings.dispose()
    }
  }
  const { log } = options
  const core = await CoreClient.start({ launch: forkedHost({ dataDir: options.dataDir, demoPort: 0, testTiming: options.testTiming }, { output: log, ...options.host }) })
  try {
    const { snapshot: started } = await core.snapshot()
    for (const notice of started.notices) log(notice)
    core.onDidEmit((event) => {
      if (event.type === 'notice') log(event.message)
      else if (event.type === 'service') log(`now showing ${event.service.baseUrl}`)
      else if (event.type === 'online') log(event.online ? 'the service can be reached again' : 'the service cannot be reached: showing the cache')
    })
    const bridge = await startWebBridge({ core, dataDir: options.dataDir, rendererDir: options.rendererDir, port: options.port ?? 0, host: '127.0.0.1' })
    const { service } = started
    let closing: Promise<void> | undefined
    return {
      url: bridge.url,
      bridge,
      core,
      serving: service.demo ? 'the demo catalogue' : service.baseUrl,
      close: () =>
        (closing ??= (async () => {
          try {
            await bridge.close()
          } finally {
            await core.close()
          }
        })()),
    }
  } catch (error) {
    await core.close()
    throw error
  }
}

/**
 * The app as a window uses it, for bench:scale: main (app-process.ts: startWebApp, forked) with
 * the core's host beside it, reached as a window reaches it, over the web bridge: calls are
 * POST /api/<channel> with a JSON array of arguments, the session's events one stream
 * (events.ts). Settings are written into the data folder before the app opens it, as a user's
 * earlier choices would be.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { SettingsStore } from '../../../src-main/core/library/settings'
import { PROJECT_ROOT } from '../../../src-main/web/build'
import type { SettingsPatch } from '../../../src-main/core/shared/types'
import { within } from './stats'

const SCRIPT = fileURLToPath(new URL('./app-process.ts', import.meta.url))

/** What main measured between a 'measure' and a 'measured'. */
export interface MainFigures {
  seconds: number
  /** Main's processor time (process.cpuUsage(): user + system, every thread of the process). */
  cpuSeconds: number
  /** Events the core's host sent main (each one main forwards to every window's stream). */
  events: number
  /** Main's event-loop delay, ms. */
  loop: { mean: number; p99: number; max: number }
}

export type AppRequest = { type: 'measure' | 'measured' | 'close'; id: number }
export type AppReply =
  | { type: 'ready'; url: string; origin: string; token: string; hostPid: number }
  | { type: 'measuring' | 'closed'; id: number }
  | { type: 'measured'; id: number; figures: MainFigures }

export interface App {
  /** The address that opens the window (token included). */
  url: string
  origin: string
  token: string
  /** The core's host process (CoreClient.pid) and main's. */
  hostPid: number
  mainPid: number
  /** Calls a channel as the window does; rejects with the core's message. */
  call<T = unknown>(channel: string, ...args: unknown[]): Promise<T>
  /** Starts main's measures (processor time, event-loop delay, events received). */
  measure(): Promise<void>
  /** Main's measures since measure(). */
  measured(): Promise<MainFigures>
  close(): Promise<void>
}

/** Opens the app over dataDir, its settings first patched with settings (the service, the concurrency...). */
export async function startApp(dataDir: string, settings: SettingsPatch): Promise<App> {
  const store = new SettingsStore(dataDir)
  try {
    store.update(settings)
  } finally {
    store.dispose()
  }
  const child: ChildProcess = fork(SCRIPT, [JSON.stringify({ dataDir })], {
    cwd: PROJECT_ROOT,
    // BENCH_PROFILE_DIR: main writes a V8 processor profile there when it exits, and so does the
    // core's host (it is forked with main's execArgv), one file per thread.
    execArgv: ['--import', 'tsx', ...(process.env['BENCH_PROFILE_DIR'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_PROFILE_DIR']}`] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  let nextId = 1
  const waiting = new Map<number, (reply: AppReply) => void>()
  const ready = new Promise<Extract<AppReply, { type: 'ready' }>>((resolve, reject) => {
    child.on('message', (reply: AppReply) => {
      if (reply.type === 'ready') resolve(reply)
      else waiting.get(reply.id)?.(reply)
    })
    child.once('exit', (code) => reject(new Error(`the app's main process exited with ${code} before it was ready`)))
  })
  const { url, origin, token, hostPid } = await within(ready, 'the app starting', 120_000)
  const ask = (type: AppRequest['type']): Promise<AppReply> =>
    new Promise((resolve) => {
      const id = nextId++
      waiting.set(id, resolve)
      child.send({ type, id } satisfies AppRequest)
    })
  let closing: Promise<void> | undefined
  return {
    url,
    origin,
    token,
    hostPid,
    mainPid: child.pid!,
    call: async <T>(channel: string, ...args: unknown[]): Promise<T> => {
      const response = await fetch(`${origin}/api/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tuneshelf-token': token },
        body: JSON.stringify(args),
      })
      const result = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } }
      if (!result.ok) throw new Error(`${channel}: ${result.error!.message}`)
      return result.value as T
    },
    measure: async () => void (await ask('measure')),
    measured: async () => ((await ask('measured')) as Extract<AppReply, { type: 'measured' }>).figures,
    close: () =>
      (closing ??= (async () => {
        if (child.exitCode !== null) return
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
        await ask('close')
        await within(exited, "the app's main process exiting", 60_000)
      })()),
  }
}

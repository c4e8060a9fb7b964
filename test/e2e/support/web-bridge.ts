// `npm run web` as a user runs it, for the end-to-end tests: its own process over a
// data folder and a catalogue service, the address it prints, and a graceful stop.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ArgsOf, Channel, ResultOf, Tagged } from '../../../src-main/core/shared/contract'

const ROOT = join(import.meta.dirname, '../../..')
const WEB_MAIN = join(ROOT, 'src-main/web/main.ts')

/** tsx's loader by absolute address: `npm run web` is `tsx src-main/web/main.ts`, without npm in between. */
const TSX = (() => {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json')
  const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, string> }).exports
  return pathToFileURL(join(dirname(manifest), exports['.']!)).href
})()

export interface WebBridgeOptions {
  /** The catalogue service; without it the bridge starts the built-in demo catalogue itself. */
  baseUrl?: string
  dataDir: string
  /** How long the start (and a build, if the renderer is out of date) may take. */
  startTimeoutMs?: number
  /**
   * The session's timing: 'fast' (the default here) checks the service every 2 s and retries within
   * a fraction of a second (TUNESHELF_WEB_TEST_TIMING, src-main/web/test-timing.ts), so a test that
   * stops the service does not wait out the app's 30 s checks; 'app' is the app's own.
   */
  timing?: 'fast' | 'app'
}

export interface RunningWebBridge {
  /** The address that opens the app, token included, as printed. */
  url: string
  origin: string
  token: string
  /** What the process wrote to stderr so far (its build output and notices). */
  stderr(): string
  /** Calls one channel of the contract, as the window does, and resolves with the tagged result. */
  call<C extends Channel>(channel: C, ...args: ArgsOf<C>): Promise<Tagged<ResultOf<C>>>
  /** SIGTERM, as Ctrl-C in a terminal, and the exit code; SIGKILL if it does not stop in time. */
  stop(): Promise<number | null>
}

const LINE = /^listening on (http:\/\/127\.0\.0\.1:\d+)\/\?token=([A-Za-z0-9_-]+)$/

/** Starts `npm run web -- --data-dir DIR [--base-url URL] --port 0` and resolves once it printed its address. */
export async function startWebBridge(options: WebBridgeOptions): Promise<RunningWebBridge> {
  const args = ['--import', TSX, WEB_MAIN, '--data-dir', options.dataDir, '--port', '0']
  if (options.baseUrl !== undefined) args.push('--base-url', options.baseUrl)
  const env = { ...process.env, TUNESHELF_WEB_TEST_TIMING: options.timing === 'app' ? '' : 'fast' }
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))

  let line: string
  try {
    line = await firstLine(child, exited, () => stdout, () => stderr, options.startTimeoutMs ?? 120_000)
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  const match = LINE.exec(line)
  if (!match) {
    child.kill('SIGKILL')
    throw new Error(`npm run web printed ${JSON.stringify(line)}, not its address`)
  }
  const [url, origin, token] = [line.slice('listening on '.length), match[1]!, match[2]!]
  let stopping: Promise<number | null> | undefined
  return {
    url,
    origin,
    token,
    stderr: () => stderr,
    call: async (channel, ...callArgs) => {
      const response = await fetch(`${origin}/api/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tuneshelf-token': token },
        body: JSON.stringify(callArgs),
      })
      return (await response.json()) as Tagged<ResultOf<typeof channel>>
    },
    stop: () =>
      (stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
        try {
          return await exited
        } finally {
          clearTimeout(timer)
        }
      })()),
  }
}

function firstLine(child: ChildProcess, exited: Promise<number | null>, stdout: () => string, stderr: () => string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run web printed nothing in ${timeoutMs} ms; stderr:\n${stderr()}`)), timeoutMs)
    const check = (): void => {
      const end = stdout().indexOf('\n')
      if (end === -1) return
      clearTimeout(timer)
      resolve(stdout().slice(0, end))
    }
    child.stdout!.on('data', check)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`npm run web exited (${code}) before printing its address; stderr:\n${stderr()}`))
    })
  })
}

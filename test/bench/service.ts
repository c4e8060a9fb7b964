/** The demo catalogue service in its own process, as a remote service would be, for the benchmarks. */
import { spawn, type ChildProcess } from 'node:child_process'
import os from 'node:os'
import { fileURLToPath } from 'node:url'

const CLI = fileURLToPath(new URL('../../src-main/demo/cli.ts', import.meta.url))

export interface Service {
  baseUrl: string
  child: ChildProcess
  /** Stops the service and resolves with what it says it answered: `N requests: a list, b artist, ...`. */
  stop(): Promise<string>
}

/**
 * Starts `npm run catalogue` with `artists` (seed 1) on a free port, every answer `latencyMs` late.
 * `niceness` lowers its priority (a remote service does not compete for this machine's processors).
 */
export function startService(artists: number, latencyMs = 0, extra: string[] = [], niceness = 0): Promise<Service> {
  const args = ['--import', 'tsx', CLI, '--port', '0', '--artists', String(artists), '--seed', '1', '--latency-ms', String(latencyMs), ...extra]
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  if (niceness !== 0) os.setPriority(child.pid!, niceness)
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async (): Promise<string> => {
    child.kill('SIGTERM')
    await exited
    return /answered (.*)/.exec(stderr)?.[1] ?? `(no count: ${stderr.trim()})`
  }
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve({ baseUrl: /listening on (\S+)/.exec(chunk.toString())![1]!, child, stop }))
    child.once('exit', (code) => reject(new Error(`catalogue exited with ${code}: ${stderr}`)))
  })
}

/**
 * The CLI in tests: in this process (`main(argv, io)`, its output captured: no
 * process and no tsx start per call), or as a user runs it, in its own process,
 * for what only a process shows (signals, a relative path from its working
 * folder, the exit code a shell sees).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { LibraryOptions } from '../../../src-main/core/library/library'

export const CLI = fileURLToPath(new URL('../../../src-main/cli/main.ts', import.meta.url))

/** tsx's loader by absolute address, so the CLI runs from any working folder (as `npm run` lets a user). */
export const TSX = (() => {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json')
  const exports = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { exports: Record<string, string> }).exports
  return pathToFileURL(path.join(path.dirname(manifest), exports['.']!)).href
})()

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

export interface CliOptions {
  cwd?: string
  env?: NodeJS.ProcessEnv
  /** Kill the run after this long (default 60 s): a hang fails the test instead of stalling the suite. */
  timeoutMs?: number
}

/**
 * Runs `npm run cli -- ...args` in this process, with what it writes captured and
 * the library's retries quick (a service that cannot be reached fails at once).
 * Paths in args should be absolute: a relative one is taken from INIT_CWD (set under npm) or the working folder.
 */
export async function cliInProcess(args: string[], library: Pick<LibraryOptions, 'client' | 'syncSilenceLimitMs'> = {}): Promise<CliRun> {
  // Loaded here, so the tests that only spawn processes do not load the core.
  const [{ main }, { QUICK_RETRIES }] = await Promise.all([import('../../../src-main/cli/main'), import('./fixtures')])
  let stdout = ''
  let stderr = ''
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    library: { ...library, client: { ...QUICK_RETRIES, ...library.client }, downloads: { transferSettings: { backoffMs: 5, maxDelayMs: 20 } } },
  })
  return { code, stdout, stderr }
}

/** Runs `npm run cli -- ...args` as node does it, without npm (so INIT_CWD is only what env says), in a process of its own. */
export function cli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', TSX, CLI, ...args],
      { cwd: options.cwd, env: cliEnv(options.env), maxBuffer: 64 * 1024 * 1024, timeout: options.timeoutMs ?? 60_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : error.killed ? -1 : 1) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}

/** Starts the CLI and hands back the process, for tests that interrupt it. */
export function spawnCli(args: string[], options: CliOptions = {}): ChildProcess {
  return spawn(process.execPath, ['--import', TSX, CLI, ...args], { cwd: options.cwd, env: cliEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] })
}

/** The test runner may itself run under npm: its INIT_CWD must not leak into the CLI unless a test sets it. */
function cliEnv(extra: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra }
  if (extra?.['INIT_CWD'] === undefined) delete env['INIT_CWD']
  return env
}

/** The exit of a spawned process: its code, or the signal that ended it. */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
}

/** Whether a process of that id is still there. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * `npm test`: every check, as CI runs them, each started once what it needs is done rather than
 * all one after another. ESLint, vue-tsc and the build start together (the first two keep one
 * core each busy and need nothing); the unit tests follow the build (some of them read out/, and
 * would build it themselves if it were missing or older than the sources, racing the build) and
 * run beside ESLint; Playwright comes last, alone with Electronegativity's few seconds: with the
 * unit tests beside it on two busy cores, its five-second waits for the page ran out.
 *
 *   npm test                           # every check
 *   npx tsx test/checks.ts lint unit   # only these, and what they need
 *
 * Each check's output is printed whole when it ends, so that two never interleave; a line says
 * when each starts and ends, and a table at the end how long each took. The first check that
 * fails stops the others (as `a && b` did) and the run exits 1. Ctrl-C stops them all.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

interface Check {
  name: string
  /** The command, run in the project's folder. */
  command: string[]
  /** The checks it needs: they run too, and must have passed before it starts. */
  after?: string[]
  /** The checks it waits for when they are part of the run, so as not to run beside them. */
  waitsFor?: string[]
  /** Environment variables of its own. */
  env?: Record<string, string>
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** npm itself: the one that runs this script when there is one (npm_execpath), else the npm on the PATH. */
function npm(...args: string[]): string[] {
  const npmCli = process.env['npm_execpath']
  return npmCli && /\.[cm]?js$/.test(npmCli) ? [process.execPath, npmCli, ...args] : ['npm', ...args]
}

const CHECKS: readonly Check[] = [
  { name: 'lint', command: npm('run', '-s', 'lint') },
  { name: 'typecheck', command: npm('run', '-s', 'typecheck') },
  { name: 'build', command: npm('run', '-s', 'build') },
  { name: 'unit', command: npm('run', '-s', 'test:unit'), after: ['build'] },
  // Playwright on that build (test:e2e would build again), two spec files at a time, each worker
  // with its own demo service and web bridge.
  {
    name: 'e2e',
    command: npm('exec', '--no', '--', 'playwright', 'test'),
    after: ['build'],
    waitsFor: ['unit'],
    env: { PLAYWRIGHT_WORKERS: process.env['PLAYWRIGHT_WORKERS'] || '2' },
  },
  { name: 'security', command: npm('run', '-s', 'test:security'), after: ['build'] },
]

/** The checks named and those they need, in CHECKS' order; every check when none is named. */
function selected(names: string[]): Check[] {
  if (names.length === 0) return [...CHECKS]
  const wanted = new Set<string>()
  const add = (name: string): void => {
    const check = CHECKS.find((candidate) => candidate.name === name)
    if (!check) throw new Error(`no check named ${JSON.stringify(name)}; the checks are ${CHECKS.map((c) => c.name).join(', ')}`)
    wanted.add(name)
    for (const need of check.after ?? []) add(need)
  }
  names.forEach(add)
  return CHECKS.filter((check) => wanted.has(check.name))
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`

/** Stops a check and everything it started (its own process group; on Windows, its tree). */
function stop(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  try {
    if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore' })
    else process.kill(-child.pid, 'SIGTERM')
  } catch {
    // Ended meanwhile.
  }
}

async function main(names: string[]): Promise<number> {
  let checks: Check[]
  try {
    checks = selected(names)
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`)
    return 2
  }
  const started = performance.now()
  const running = new Map<string, ChildProcess>()
  const passed = new Set<string>()
  const times: { name: string; ms: number; ok: boolean }[] = []
  let failed: string | undefined

  const log = (line: string): void => void process.stdout.write(`── ${seconds(performance.now() - started).padStart(7)}  ${line}\n`)

  const run = (check: Check): Promise<void> =>
    new Promise((resolve) => {
      const [command, ...args] = check.command as [string, ...string[]]
      const child = spawn(command, args, {
        cwd: ROOT,
        env: { ...process.env, ...check.env },
        // Its own process group, so that stopping it stops what it started (Chromium, the web bridge).
        detached: process.platform !== 'win32',
        stdio: ['ignore', 'pipe', 'pipe'],
        shell: process.platform === 'win32' && command === 'npm',
      })
      running.set(check.name, child)
      const output: Buffer[] = []
      child.stdout!.on('data', (chunk: Buffer) => output.push(chunk))
      child.stderr!.on('data', (chunk: Buffer) => output.push(chunk))
      const from = performance.now()
      log(`${check.name} started: ${check.command.slice(check.command[0] === process.execPath ? 2 : 0).join(' ')}`)
      child.on('close', (code, signal) => {
        running.delete(check.name)
        const ms = performance.now() - from
        const ok = code === 0
        if (failed !== undefined && !ok) {
          log(`${check.name} stopped after ${seconds(ms)}`)
          return resolve()
        }
        process.stdout.write(Buffer.concat(output))
        times.push({ name: check.name, ms, ok })
        log(`${check.name} ${ok ? 'passed' : `FAILED (${signal ?? `exit code ${code}`})`} in ${seconds(ms)}`)
        if (ok) passed.add(check.name)
        else if (failed === undefined) {
          failed = check.name
          for (const other of running.values()) stop(other)
        }
        resolve()
      })
    })

  const interrupt = (): void => {
    failed ??= 'interrupted'
    for (const child of running.values()) stop(child)
  }
  process.on('SIGINT', interrupt)
  process.on('SIGTERM', interrupt)

  // Each check starts once all it needs have passed; nothing new starts after a failure.
  const waiting = [...checks]
  const underWay = new Set<Promise<void>>()
  for (;;) {
    for (const check of [...waiting]) {
      if (failed !== undefined) break
      const before = [...(check.after ?? []), ...(check.waitsFor ?? []).filter((name) => checks.some((other) => other.name === name))]
      if (!before.every((need) => passed.has(need))) continue
      waiting.splice(waiting.indexOf(check), 1)
      const promise = run(check).then(() => void underWay.delete(promise))
      underWay.add(promise)
    }
    if (underWay.size === 0) break
    await Promise.race(underWay)
  }

  const total = performance.now() - started
  process.stdout.write(`\n${times.map(({ name, ms, ok }) => `${name.padEnd(10)} ${seconds(ms).padStart(8)}${ok ? '' : '  FAILED'}`).join('\n')}\n`)
  process.stdout.write(`${'all'.padEnd(10)} ${seconds(total).padStart(8)}${failed === undefined ? '' : `  (${failed === 'interrupted' ? 'interrupted' : `${failed} failed`})`}\n`)
  if (failed === 'interrupted') return 130
  return failed === undefined ? 0 : 1
}

process.exitCode = await main(process.argv.slice(2))

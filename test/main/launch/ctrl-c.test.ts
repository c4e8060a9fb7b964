// One Ctrl-C in a real terminal closes `npm run web` and `npm start` in order, every time. The
// terminal sends SIGINT to every process of its foreground process group at once (npm, its shell,
// the launcher, the web bridge), so any of them that passed it on made a second SIGINT, which
// the bridge took for "exit without closing": about half the runs did that (tsx's CLI re-sent it,
// and so did the launcher). Here the commands run as a shell runs them, in a pseudo-terminal as
// its foreground job (support/terminal.py), and Ctrl-C is typed into it, several times over.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtFile, ROOT } from '../support/build'

const TERMINAL = path.join(ROOT, 'test/main/support/terminal.py')
const RUNS = 5

function python(): string | undefined {
  try {
    return execFileSync('python3', ['-c', 'import pty, sys; print(sys.executable)'], { encoding: 'utf8' }).trim()
  } catch {
    return undefined
  }
}
const PYTHON = process.platform === 'linux' ? python() : undefined

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true })
})

function temporary(prefix: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  folders.push(folder)
  return folder
}

/** The environment of the runs: this Node.js first on the PATH (npm's own scripts run `node`), no window, no Electron. */
function environment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env['PATH'] ?? ''}`,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    TUNESHELF_WEB_RENDERER_DIR: path.dirname(builtFile('renderer/index.html')),
    TUNESHELF_ELECTRON_PACKAGE: path.join(home, 'no-electron-package'),
    TUNESHELF_APP_WINDOW: '0',
  }
  for (const name of ['INIT_CWD', 'DISPLAY', 'WAYLAND_DISPLAY']) delete env[name]
  return env
}

/** Runs command in a terminal, types one Ctrl-C once it listens, and hands back all the terminal showed and the exit code. */
async function ctrlCOnce(command: string[], env: NodeJS.ProcessEnv): Promise<{ shown: string; code: number | null }> {
  const terminal = spawn(PYTHON!, [TERMINAL, ...command], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] })
  let shown = ''
  terminal.stdout.setEncoding('utf8').on('data', (chunk: string) => (shown += chunk))
  terminal.stderr.setEncoding('utf8').on('data', (chunk: string) => (shown += chunk))
  const exit = new Promise<number | null>((resolve) => terminal.once('exit', (code) => resolve(code)))
  try {
    await expect.poll(() => shown, { timeout: 60_000, interval: 50 }).toMatch(/^listening on http:/m)
    terminal.stdin.write('c')
    // The terminal's end: the job and everything it left behind ended (terminal.py waits for them all).
    const code = await Promise.race([exit, new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 30_000))])
    expect(code, `not closed 30 s after Ctrl-C:\n${shown}`).not.toBe('late')
    return { shown, code: code as number | null }
  } finally {
    terminal.kill('SIGTERM') // kills the job, if it is still there
  }
}

describe.skipIf(PYTHON === undefined)('one Ctrl-C in a terminal (python3 makes the pseudo-terminal; Linux only)', () => {
  const cases: [string, (data: string) => string[]][] = [
    ['npm run web', (data) => ['npm', 'run', 'web', '--', '--data-dir', data]],
    ['npm start, serving the app in the browser without Electron', () => ['npm', 'start']],
  ]
  it.each(cases)(`%s closes in order, ${RUNS} times out of ${RUNS}`, async (_name, command) => {
    for (let run = 1; run <= RUNS; run += 1) {
      const home = temporary('tuneshelf-ctrl-c-')
      const { shown } = await ctrlCOnce(command(path.join(home, 'data')), environment(home))
      expect(shown, `run ${run}`).not.toMatch(/again: exiting without closing/)
      expect(shown.match(/tuneshelf web: SIGINT: closing /g), `run ${run}:\n${shown}`).toHaveLength(1)
      expect(shown, `run ${run}`).toMatch(/^tuneshelf web: closed\r?$/m)
    }
  }, 300_000)
})

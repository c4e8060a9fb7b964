/**
 * `npm start` and `npm run dev`: the desktop app, with its Electron binary
 * fetched first when it is missing (see electron-binary.ts).
 *
 *   start   builds, then runs the app (`electron-vite preview`). Where the
 *           binary cannot be had (no network, as on the machines that build
 *           this project), it says why in one line and serves the same window
 *           in the browser instead (`npm run web` on the desktop app's data
 *           folder), printing `listening on http://127.0.0.1:PORT/?token=…`:
 *           in an app window of a Chromium-family browser when there is one
 *           (app-window.ts), else for the person to open; then, on a line of
 *           its own, how to get the desktop window.
 *   dev     runs the app with the renderer on Vite's dev server (hot reload);
 *           without a binary it says why and exits 1.
 *
 * Ctrl-C reaches what runs from the terminal itself; SIGTERM is passed on (see
 * supervise). Its exit code is this one's.
 */
// First: refuses an old Node.js with one line, before anything that would crash on it loads.
import '../core/startup/node-check'
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { desktopDataDir } from '../core/files/data-folders'
import { appWindowArgs, findAppBrowser } from './app-window'
import { electronPackage, ensureElectronBinary, FETCH_ADVICE, type ElectronBinary } from './electron-binary'

const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..')
const USAGE = 'usage: tsx src-main/launch/start.ts start|dev   (npm start, npm run dev)'

function say(line: string): void {
  process.stderr.write(`${line}\n`)
}

async function main(mode: string | undefined): Promise<number> {
  if (mode !== 'start' && mode !== 'dev') {
    say(USAGE)
    return 2
  }
  const electron = electronPackage()
  const binary: ElectronBinary = electron.missing !== undefined ? { missing: electron.missing } : await ensureElectronBinary(electron)
  if (binary.path !== undefined) {
    // electron-vite finds the binary by ELECTRON_EXEC_PATH first, so it runs the one found here.
    return run('npx', ['electron-vite', mode === 'start' ? 'preview' : 'dev'], { ...process.env, ELECTRON_EXEC_PATH: binary.path }, 'inherit')
  }
  if (mode === 'dev') {
    say(`tuneshelf: cannot run the desktop app: ${binary.missing}. To get it, ${FETCH_ADVICE}; meanwhile \`npm run web\` serves the same window in a browser.`)
    return 1
  }
  const dataDir = desktopDataDir()
  say(`tuneshelf: no desktop window: ${binary.missing}. Serving the app in your browser instead, on the desktop app's data folder ${dataDir}.`)
  return serveInBrowser(dataDir)
}

/**
 * `npm run web` on the desktop app's data folder, its address opened in an app window of a
 * Chromium-family browser when there is one (app-window.ts), else printed for the person to open.
 *
 * Closing the window stops nothing: the app stays served at its address until Ctrl-C, as `npm run
 * web` does. Closing could have ended `npm start`, as closing the desktop app's window quits it;
 * but a browser's process also ends at once, window or not, when it hands the address to a
 * browser already running on that profile (a window left open by an earlier `npm start`), and
 * the app would then stop before it was ever seen. Ctrl-C closes the window too; so does the
 * end of the app, whose window would have nothing left to show.
 */
async function serveInBrowser(dataDir: string): Promise<number> {
  const web = path.join(PROJECT_ROOT, 'src-main/web/main.ts')
  // This process runs under tsx's loader, so the same Node with the same loader runs the web bridge.
  const bridge = spawn(process.execPath, [...process.execArgv, web, '--data-dir', dataDir], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  let window: ChildProcess | undefined
  // Once Ctrl-C, SIGTERM or the app's end closes the window, its closing is no news.
  let stopping = false
  const onStop = (): void => void (stopping = true)
  process.on('SIGINT', onStop)
  process.on('SIGTERM', onStop)
  let pending = ''
  bridge.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end)
      pending = pending.slice(end + 1)
      process.stdout.write(`${line}\n`)
      if (line.startsWith('listening on ') && window === undefined) window = openWindow(line.slice('listening on '.length), dataDir, () => stopping)
    }
  })
  const code = await supervise(bridge, () => window)
  stopping = true
  if (window && window.exitCode === null && window.signalCode === null) window.kill('SIGTERM')
  return code
}

/** The app's window, where there is a browser to open it; otherwise, or when it cannot start, advice on its own line. */
function openWindow(url: string, dataDir: string, stopping: () => boolean): ChildProcess | undefined {
  const desktop = `For the desktop window instead, ${FETCH_ADVICE}, then npm start again.`
  const browser = findAppBrowser()
  if (browser === undefined) {
    say(`tuneshelf: open that address in your browser; Ctrl-C stops the app. ${desktop}`)
    return undefined
  }
  // Its output is the browser's own chatter (GPU, D-Bus, fonts), nothing the person can act on.
  const window = spawn(browser, appWindowArgs(url, dataDir), { stdio: 'ignore' })
  window.once('spawn', () => say(`tuneshelf: opened the app in a window of ${browser}; closing it leaves the app served at that address until Ctrl-C. ${desktop}`))
  window.once('error', (error) => say(`tuneshelf: could not open a window with ${browser} (${error.message}): open that address in your browser; Ctrl-C stops the app.`))
  window.once('exit', (code, signal) => {
    if (stopping()) return
    say(`tuneshelf: the app's window was closed${code ? ` (exit code ${code})` : signal ? ` (${signal})` : ''}; the app is still served at that address until Ctrl-C.`)
  })
  return window
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, stdio: 'inherit'): Promise<number> {
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env, stdio, shell: process.platform === 'win32' })
  return supervise(child)
}

/**
 * Passes SIGTERM on to child (and to the other processes started beside it) and resolves with the
 * child's exit code (128 + the signal's number when a signal ended it).
 *
 * SIGINT is not passed on. It comes from Ctrl-C, which the terminal sends to every process of its
 * foreground process group (on Windows the console sends it to every process attached to it): the
 * children, started in ours, have each had their own. Passing it on made a second SIGINT, which the
 * web bridge takes for "exit without closing" (and on Windows, kill('SIGINT') ends a process
 * outright). This process only waits for them to close. A SIGTERM comes from a program instead,
 * to this process alone, and is passed on.
 */
function supervise(child: ChildProcess, beside: () => ChildProcess | undefined = () => undefined): Promise<number> {
  const running = (each: ChildProcess | undefined): each is ChildProcess => each !== undefined && each.exitCode === null && each.signalCode === null
  // A listener, so that Ctrl-C does not end this process before the child has closed.
  process.on('SIGINT', () => {})
  process.on('SIGTERM', () => {
    for (const each of [child, beside()]) if (running(each)) each.kill('SIGTERM')
  })
  return new Promise((resolve) => {
    child.once('error', (error) => {
      say(`tuneshelf: could not run ${child.spawnfile}: ${error.message}`)
      resolve(1)
    })
    child.once('close', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1)))
  })
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(`tuneshelf: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    process.exit(1)
  },
)

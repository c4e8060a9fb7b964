/**
 * The Electron binary of the installed `electron` package: where it is, and
 * fetching it when it is not there. Electron 45's package has no install
 * script: it fetches its binary the first time `require('electron')` runs, or
 * through its own installer (`npx install-electron`, its install.js), and
 * electron-vite reads the package's path.txt and fails with "Electron
 * uninstall" when that file is missing. So every script that runs Electron
 * asks here first. The package is read, never required: requiring it without
 * its binary starts a download nobody asked for.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'

/** The installed `electron` package. */
export interface ElectronPackage {
  dir: string
  version: string
  missing?: undefined
}

/** The binary, or why there is none. */
export type ElectronBinary = { path: string; missing?: undefined } | { path?: undefined; missing: string }

/** How to get the binary by hand: what every message that says it is missing ends with. */
export const FETCH_ADVICE =
  'run `npx install-electron` where the network allows (behind a proxy, with ELECTRON_GET_USE_PROXY=1 and HTTPS_PROXY set; ' +
  'from a mirror, with ELECTRON_MIRROR set, as in ELECTRON_MIRROR=https://npmmirror.com/mirrors/electron/)'

/** The longest a fetch may take, slow connection and all (about 100 MB), before it counts as failed. */
const MAX_FETCH_MS = 15 * 60 * 1000

/**
 * The installed `electron` package (TUNESHELF_ELECTRON_PACKAGE names another
 * folder, for tests), or why it cannot be found.
 */
export function electronPackage(env: NodeJS.ProcessEnv = process.env): ElectronPackage | { missing: string } {
  let dir = env['TUNESHELF_ELECTRON_PACKAGE']
  try {
    dir ??= path.dirname(createRequire(import.meta.url).resolve('electron/package.json'))
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: unknown }
    if (typeof manifest.version !== 'string') return { missing: `${dir}/package.json names no version` }
    return { dir, version: manifest.version }
  } catch (error) {
    return { missing: `the electron package is not installed (${(error as Error).message.split('\n')[0]}): run npm install` }
  }
}

/** Looks for the package's binary as its own index.js does: path.txt names it inside dist/. */
export function findElectronBinary(electron: ElectronPackage, env: NodeJS.ProcessEnv = process.env): ElectronBinary {
  const pathFile = path.join(electron.dir, 'path.txt')
  if (!fs.existsSync(pathFile)) return { missing: `there is no Electron binary (no ${pathFile})` }
  const executable = fs.readFileSync(pathFile, 'utf8').trim()
  const override = env['ELECTRON_OVERRIDE_DIST_PATH']
  const binary = override ? path.join(override, executable || 'electron') : path.join(electron.dir, 'dist', executable)
  return fs.existsSync(binary) ? { path: binary } : { missing: `there is no Electron binary (no file at ${binary})` }
}

export interface FetchOptions {
  env?: NodeJS.ProcessEnv
  /** Where progress goes, a line at a time (default: stderr). */
  log?: (line: string) => void
  /** Gives up after this long (default 15 minutes: a slow connection still gets there). */
  maxMs?: number
  /** How often a fetch still under way says so (default 20 s). */
  reportEveryMs?: number
}

/**
 * Fetches the binary with Electron's own installer (its install.js, which
 * honours ELECTRON_MIRROR, ELECTRON_GET_USE_PROXY and the cache of earlier
 * fetches), unless ELECTRON_SKIP_BINARY_DOWNLOAD is set. Resolves with the
 * binary, or with why it could not be had, in a few words (the caller adds
 * FETCH_ADVICE): never throws, never hangs (the installer is stopped after maxMs).
 */
export async function ensureElectronBinary(electron: ElectronPackage, options: FetchOptions = {}): Promise<ElectronBinary> {
  const env = options.env ?? process.env
  const found = findElectronBinary(electron, env)
  if (found.path !== undefined) return found
  if (isSet(env['ELECTRON_SKIP_BINARY_DOWNLOAD'])) {
    return { missing: 'there is no Electron binary, and ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it was not fetched' }
  }
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const installer = path.join(electron.dir, 'install.js')
  if (!fs.existsSync(installer)) return { missing: `there is no Electron binary, and no installer at ${installer}: reinstall the electron package` }
  log(`tuneshelf: fetching the Electron ${electron.version} binary for ${os.platform()}-${os.arch()} (about 100 MB) with Electron's installer…`)
  const outcome = await runInstaller(installer, env, options.maxMs ?? MAX_FETCH_MS, options.reportEveryMs ?? 20_000, log)
  if (outcome !== undefined) return { missing: `the Electron binary could not be fetched (${outcome})` }
  const fetched = findElectronBinary(electron, env)
  if (fetched.missing !== undefined) return { missing: `Electron's installer ended, but ${fetched.missing}` }
  log(`tuneshelf: fetched the Electron binary: ${fetched.path}`)
  return fetched
}

/** Runs the installer; undefined when it succeeded, else why it did not, in a few words. */
function runInstaller(installer: string, env: NodeJS.ProcessEnv, maxMs: number, reportEveryMs: number, log: (line: string) => void): Promise<string | undefined> {
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(process.execPath, [installer], { env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true })
    let output = ''
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-8192)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    const report = setInterval(() => log(`tuneshelf: still fetching the Electron binary (${Math.round((Date.now() - started) / 1000)} s)…`), reportEveryMs)
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      finish(`no answer in ${Math.round(maxMs / 60_000)} minutes`)
    }, maxMs)
    let finished = false
    const finish = (why: string | undefined): void => {
      if (finished) return
      finished = true
      clearInterval(report)
      clearTimeout(timer)
      resolve(why)
    }
    child.once('error', (error) => finish(error.message))
    child.once('close', (code, signal) => finish(code === 0 ? undefined : installerFailure(output, signal ?? `exit code ${code}`)))
  })
}

/** The installer's own reason (its error's first line, as `TypeError: fetch failed`), else how it ended. */
export function installerFailure(output: string, ended: string): string {
  const lines = output.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('at '))
  const reason = lines.find((line) => /error|fail|ENOTFOUND|ECONN|ETIMEDOUT|EAI_AGAIN|certificate|status/i.test(line)) ?? lines.at(-1)
  return reason === undefined ? ended : `${reason.slice(0, 200)}; ${ended}`
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false'
}

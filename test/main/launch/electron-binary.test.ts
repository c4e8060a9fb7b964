// Fetching the Electron binary before anything runs Electron: with Electron's own installer,
// a clear reason when it cannot, never a hang; and the scripts that run Electron go through it.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ensureElectronBinary, findElectronBinary, installerFailure, type ElectronPackage } from '../../../src-main/launch/electron-binary'
import { ROOT } from '../support/build'
import { alive } from '../support/cli'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true })
})

/** A stand-in for the electron package whose install.js runs `installer` (plain Node). */
function fakePackage(installer: string): ElectronPackage {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-electron-package-'))
  folders.push(dir)
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'electron', version: '45.4.1' }))
  fs.writeFileSync(path.join(dir, 'install.js'), installer)
  return { dir, version: '45.4.1' }
}

/** What Electron's installer does when it succeeds: the binary in dist/ and its name in path.txt. */
const INSTALLS = `
const fs = require('fs'), path = require('path')
fs.mkdirSync(path.join(__dirname, 'dist'), { recursive: true })
fs.writeFileSync(path.join(__dirname, 'dist', 'electron'), '#!/bin/sh\\n', { mode: 0o755 })
fs.writeFileSync(path.join(__dirname, 'path.txt'), 'electron')
`
/** What Electron's installer prints with no network (its real output here, stack and all). */
const NO_NETWORK = `
console.error('TypeError: fetch failed\\n    at node:internal/deps/undici/undici:15270:13\\n    at async FetchDownloader.download (file:///x/FetchDownloader.js:46:30)')
process.exit(1)
`
const quiet = { log: () => undefined, env: { PATH: process.env['PATH'] } }

describe('the Electron binary', () => {
  it('is found where path.txt says, and the installer is not run when it is there', async () => {
    const electron = fakePackage(`require('fs').writeFileSync(require('path').join(__dirname, 'ran'), '')`)
    fs.mkdirSync(path.join(electron.dir, 'dist'))
    fs.writeFileSync(path.join(electron.dir, 'dist', 'electron'), '')
    fs.writeFileSync(path.join(electron.dir, 'path.txt'), 'electron')
    expect(findElectronBinary(electron, {}).path).toBe(path.join(electron.dir, 'dist', 'electron'))
    expect(await ensureElectronBinary(electron, quiet)).toEqual({ path: path.join(electron.dir, 'dist', 'electron') })
    expect(fs.existsSync(path.join(electron.dir, 'ran'))).toBe(false)
  })

  it('is fetched first with the package\'s own installer when it is missing', async () => {
    const electron = fakePackage(INSTALLS)
    expect(findElectronBinary(electron, {}).missing).toMatch(/no .*path\.txt/)
    const lines: string[] = []
    const binary = await ensureElectronBinary(electron, { ...quiet, log: (line) => lines.push(line) })
    expect(binary).toEqual({ path: path.join(electron.dir, 'dist', 'electron') })
    expect(lines[0]).toMatch(/^tuneshelf: fetching the Electron 45\.4\.1 binary for .* with Electron's installer/)
  })

  it('says in a few words why it could not be fetched, from the installer\'s own error', async () => {
    const binary = await ensureElectronBinary(fakePackage(NO_NETWORK), quiet)
    expect(binary.path).toBeUndefined()
    expect(binary.missing).toBe('the Electron binary could not be fetched (TypeError: fetch failed; exit code 1)')
    expect(binary.missing).not.toMatch(/uninstall/i)
  })

  it('is not fetched when ELECTRON_SKIP_BINARY_DOWNLOAD is set', async () => {
    const electron = fakePackage(INSTALLS)
    const binary = await ensureElectronBinary(electron, { ...quiet, env: { ...quiet.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } })
    expect(binary.missing).toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD is set/)
    expect(fs.existsSync(path.join(electron.dir, 'path.txt'))).toBe(false)
  })

  it('gives up on an installer that hangs, saying so, and stops it', async () => {
    const electron = fakePackage(`require('fs').writeFileSync(require('path').join(__dirname, 'pid'), String(process.pid)); setInterval(() => {}, 1000)`)
    const lines: string[] = []
    const started = Date.now()
    const binary = await ensureElectronBinary(electron, { ...quiet, log: (line) => lines.push(line), maxMs: 1500, reportEveryMs: 500 })
    expect(Date.now() - started).toBeLessThan(5000)
    expect(binary.missing).toMatch(/could not be fetched \(no answer in/)
    expect(lines.some((line) => line.includes('still fetching'))).toBe(true)
    const pid = Number(fs.readFileSync(path.join(electron.dir, 'pid'), 'utf8'))
    await expect.poll(() => alive(pid)).toBe(false)
  })

  it('reads the reason out of an installer\'s output', () => {
    expect(installerFailure('Error: getaddrinfo ENOTFOUND github.com\n    at x (y:1:2)\n', 'exit code 1')).toBe('Error: getaddrinfo ENOTFOUND github.com; exit code 1')
    expect(installerFailure('', 'SIGKILL')).toBe('SIGKILL')
  })
})

describe('the scripts that run Electron', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }

  it('go through the launcher, which fetches the binary first', () => {
    expect(manifest.scripts['start']).toBe('node src-main/launch/preflight.mjs && node --import tsx src-main/launch/start.ts start')
    expect(manifest.scripts['dev']).toBe('node src-main/launch/preflight.mjs && node --import tsx src-main/launch/start.ts dev')
    // No other script starts Electron by itself (dist packages an Electron of its own, fetched by electron-builder).
    for (const [name, script] of Object.entries(manifest.scripts)) {
      expect(`${name}: ${script}`).not.toMatch(/electron-vite (preview|dev)\b|electron-vite$|(^|\s)electron \./)
    }
    const suite = fs.readFileSync(path.join(ROOT, 'test/e2e-electron/app.spec.ts'), 'utf8')
    expect(suite).toMatch(/ensureElectronBinary\(/)
  })
})

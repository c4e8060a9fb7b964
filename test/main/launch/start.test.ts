// `npm start` on a machine where the Electron binary cannot be had: one clear line saying why
// (never "Electron uninstall", never a hang), then the same window served in the browser on the
// desktop app's data folder: its address on a short line, then on a line of its own how to get the desktop window.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { builtFile, ROOT } from '../support/build'
import { exited, TSX } from '../support/cli'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true })
})

function temporary(prefix: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  folders.push(folder)
  return folder
}

/** An electron package without its binary whose installer fails as Electron's does with no network. */
function packageWithoutNetwork(): string {
  const dir = temporary('tuneshelf-electron-package-')
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'electron', version: '45.4.1' }))
  fs.writeFileSync(path.join(dir, 'install.js'), `console.error('TypeError: fetch failed\\n    at node:internal/deps/undici/undici:15270:13'); process.exit(1)`)
  return dir
}

function launch(mode: string, home: string) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    TUNESHELF_ELECTRON_PACKAGE: packageWithoutNetwork(),
    TUNESHELF_WEB_RENDERER_DIR: path.dirname(builtFile('renderer/index.html')),
    // No app window: the address is printed, as where there is no Chromium-family browser (app-window.test.ts opens one).
    TUNESHELF_APP_WINDOW: '0',
  }
  delete env['ELECTRON_SKIP_BINARY_DOWNLOAD']
  const child = spawn(process.execPath, ['--import', TSX, path.join(ROOT, 'src-main/launch/start.ts'), mode], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  const output = { stdout: '', stderr: '' }
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk))
  return { child, output }
}

it('npm start without a binary says why in one line within a minute, then serves the app in the browser on the desktop data folder', async () => {
  const home = temporary('tuneshelf-home-')
  const { child, output } = launch('start', home)
  const started = Date.now()
  try {
    await expect.poll(() => output.stdout.includes('\n'), { timeout: 60_000, interval: 100 }).toBe(true)
    expect(Date.now() - started).toBeLessThan(60_000)
    const [line] = output.stdout.split('\n')
    // The address line is short; the advice is on a line of its own.
    const match = /^listening on (http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)$/.exec(line!)
    expect(match, line).not.toBeNull()
    await expect.poll(() => output.stderr, { timeout: 5_000 }).toMatch(
      /^tuneshelf: open that address in your browser; Ctrl-C stops the app\. For the desktop window instead, run `npx install-electron` where the network allows .*ELECTRON_MIRROR.*, then npm start again\.$/m,
    )
    const dataDir = path.join(home, 'config', 'Tuneshelf')
    expect(output.stderr).toContain(
      `tuneshelf: no desktop window: the Electron binary could not be fetched (TypeError: fetch failed; exit code 1). Serving the app in your browser instead, on the desktop app's data folder ${dataDir}.\n`,
    )
    expect(output.stderr).not.toMatch(/uninstall/i)
    const page = await fetch(match![1]!)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<div id="app"')
    expect(fs.existsSync(path.join(dataDir, 'catalogues'))).toBe(true)
  } finally {
    child.kill('SIGTERM')
  }
  expect(await exited(child)).toEqual({ code: 0, signal: null })
}, 90_000)

it('npm run dev without a binary says why and exits 1; a wrong mode is a usage line and exit 2', async () => {
  const home = temporary('tuneshelf-home-')
  const dev = launch('dev', home)
  expect((await exited(dev.child)).code).toBe(1)
  expect(dev.output.stderr).toMatch(/^tuneshelf: cannot run the desktop app: the Electron binary could not be fetched \(TypeError: fetch failed; exit code 1\)\. To get it, run `npx install-electron`/m)
  const wrong = launch('preview', home)
  expect((await exited(wrong.child)).code).toBe(2)
  expect(wrong.output.stderr).toMatch(/^usage: /)
}, 60_000)

/**
 * Attack 10: the window was a file:// page, and under file:// the CSP's 'self'
 * is every local file, the download folder included: a downloaded file (an
 * .html, a script) could be loaded by the page as its own. Now the page comes
 * from a privileged app:// scheme whose handler serves only the files of the
 * built renderer folder (no traversal, plain or encoded, no link out of it, no
 * other host), each with its content type and the app's CSP, and the window
 * loads app://tuneshelf/index.html, the one page the navigation and IPC guards
 * accept.
 *
 * Electron cannot run here: `electron` is the stand-in of test/main/support/fake-electron.ts.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { contentSecurityPolicy } from '../../../src-main/core/shared/content-security'
import { HOST_SCRIPT } from '../../../src-main/main-process/host-launch'

vi.mock('electron', async () => (await import('../support/fake-electron')).electron)
const { electron } = await import('../support/fake-electron')
const { bootstrap, createMainWindow } = await import('../../../src-main/electron/bootstrap')
const { APP_PAGE_URL, appUrlTest } = await import('../../../src-main/electron/security')

const tempDirs: string[] = []
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-app-scheme-'))
  tempDirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

/** A built renderer, a secret beside it, a sibling folder whose name starts like it, and links out of it. */
function renderer(): { root: string; secret: string } {
  const dir = tempDir()
  const root = path.join(dir, 'renderer')
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true })
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Tuneshelf</title><div id="app"></div>\n')
  fs.writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1)\n')
  fs.writeFileSync(path.join(root, 'assets', 'app.css'), 'body{}\n')
  fs.writeFileSync(path.join(root, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n')
  const secret = path.join(dir, 'secret.txt')
  fs.writeFileSync(secret, 'SECRET-OUTSIDE\n')
  fs.mkdirSync(path.join(dir, 'renderer-private'))
  fs.writeFileSync(path.join(dir, 'renderer-private', 'key.txt'), 'SECRET-SIBLING\n')
  fs.symlinkSync(secret, path.join(root, 'assets', 'link-out.txt'))
  fs.symlinkSync(path.join(dir, 'renderer-private'), path.join(root, 'assets', 'dir-out'))
  return { root, secret }
}

const windowOptions = { preloadPath: '/app/out/preload/index.cjs', hostScript: HOST_SCRIPT }

/**
 * Runs bootstrap as far as it goes with a data folder whose cache cannot be opened (it stops there,
 * saying why), and hands back the app:// handler it registered before the core was started.
 */
async function appHandler(rendererDir: string): Promise<(request: Request) => Promise<Response>> {
  const dataDir = tempDir()
  fs.writeFileSync(path.join(dataDir, 'catalogues'), 'not a folder')
  await bootstrap({ ...windowOptions, rendererFile: path.join(rendererDir, 'index.html'), dataDir })
  const handler = electron.protocol.handlers.get('app')
  expect(handler, 'protocol.handle("app", ...)').toBeDefined()
  return handler!
}

describe('the app:// scheme', () => {
  it('is registered privileged (standard, secure, fetch) before the app is ready, never bypassing the CSP or CORS', () => {
    const registered = electron.protocol.registerSchemesAsPrivileged.mock
    expect(registered.calls.length).toBe(1)
    const app = electron.protocol.privileged.find((scheme) => (scheme as { scheme: string }).scheme === 'app') as { privileges: Record<string, boolean> } | undefined
    expect(app).toBeDefined()
    expect(app!.privileges).toMatchObject({ standard: true, secure: true, supportFetchAPI: true })
    expect(app!.privileges['bypassCSP']).toBeFalsy()
    expect(app!.privileges['corsEnabled']).toBeFalsy()
    // At import, before bootstrap() ever waits for ready.
    expect(electron.app.whenReady.mock.invocationCallOrder.every((order) => order > registered.invocationCallOrder[0]!)).toBe(true)
  })

  it('the window loads app://tuneshelf/index.html, not a file:// page; the dev server still in development', () => {
    const { root } = renderer()
    createMainWindow({ ...windowOptions, rendererFile: path.join(root, 'index.html'), dataDir: tempDir(), isAppUrl: () => true })
    const window = electron.BrowserWindow.instances.at(-1)!
    expect(window.loadURL).toHaveBeenCalledWith('app://tuneshelf/index.html')
    expect(window.loadFile).not.toHaveBeenCalled()
    createMainWindow({ ...windowOptions, rendererFile: path.join(root, 'index.html'), rendererUrl: 'http://localhost:5173/', dataDir: tempDir(), isAppUrl: () => true })
    expect(electron.BrowserWindow.instances.at(-1)!.loadURL).toHaveBeenCalledWith('http://localhost:5173/')
  })

  it('the guards take app://tuneshelf/index.html as the app, and no file:// page', () => {
    const isApp = appUrlTest({})
    expect(APP_PAGE_URL).toBe('app://tuneshelf/index.html')
    expect(isApp('app://tuneshelf/index.html')).toBe(true)
    expect(isApp('app://tuneshelf/index.html#/artists')).toBe(true)
    for (const url of [
      'file:///app/out/renderer/index.html',
      'file:///home/me/Music/Tuneshelf/evil.html',
      'app://evil/index.html',
      'app://tuneshelf/assets/app.js',
      'app://tuneshelf.evil/index.html',
      'tuneshelf-media://app/downloads/1',
      'https://tuneshelf/index.html',
    ]) {
      expect(isApp(url), url).toBe(false)
    }
  })

  it('serves the renderer files with their types, and the page with the app CSP', async () => {
    const { root } = renderer()
    const handle = await appHandler(root)
    const page = await handle(new Request('app://tuneshelf/index.html'))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const policy = page.headers.get('content-security-policy')!
    expect(policy.startsWith(contentSecurityPolicy({ development: false }))).toBe(true)
    expect(policy).toContain("frame-ancestors 'none'")
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await page.text()).toContain('<div id="app">')
    expect((await handle(new Request('app://tuneshelf/'))).status).toBe(200)
    const script = await handle(new Request('app://tuneshelf/assets/app.js'))
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await script.text()).toBe('console.log(1)\n')
    expect((await handle(new Request('app://tuneshelf/assets/app.css'))).headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect((await handle(new Request('app://tuneshelf/assets/logo.svg'))).headers.get('content-type')).toBe('image/svg+xml')
    const head = await handle(new Request('app://tuneshelf/assets/app.js', { method: 'HEAD' }))
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    expect((await handle(new Request('app://tuneshelf/assets/app.js', { method: 'POST', body: 'x' }))).status).toBe(405)
  })

  it('refuses traversal, plain or encoded, links out of the folder, a sibling folder and other hosts', async () => {
    const { root } = renderer()
    const handle = await appHandler(root)
    for (const url of [
      'app://tuneshelf/../../etc/passwd',
      'app://tuneshelf/../secret.txt',
      'app://tuneshelf/%2e%2e/secret.txt',
      'app://tuneshelf/%2E%2E/%2E%2E/etc/passwd',
      'app://tuneshelf/assets/..%2f..%2fsecret.txt',
      'app://tuneshelf/assets/..%5c..%5csecret.txt',
      'app://tuneshelf/assets/%252e%252e/secret.txt',
      'app://tuneshelf/assets/link-out.txt',
      'app://tuneshelf/assets/dir-out/key.txt',
      'app://tuneshelf/../renderer-private/key.txt',
      'app://tuneshelf/assets/app.js%00.png',
      'app://tuneshelf/assets',
      'app://tuneshelf/assets/',
      'app://tuneshelf/missing.js',
      'app://tuneshelf/%E0%A4%A',
      'app://tuneshelf//etc/passwd',
      `app://tuneshelf/${'..%2f'.repeat(8)}etc/passwd`,
      'app://evil/index.html',
      'app://tuneshelf.evil/index.html',
      'app://tuneshelf:8080/index.html',
      'app://user@tuneshelf/index.html',
      'app:///index.html',
    ]) {
      let response: Response
      try {
        response = await handle(new Request(url))
      } catch {
        continue // A URL that cannot even be a request asks nothing.
      }
      expect([400, 403, 404], url).toContain(response.status)
      const text = await response.text()
      expect(text, url).not.toMatch(/SECRET|root:/)
    }
  })
})

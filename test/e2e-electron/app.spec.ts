// The app itself, driven through Playwright's Electron support: it starts on the built-in
// demo catalogue, syncs it, downloads a track through the preload's API, and quits. It needs
// the Electron binary (fetched first with Electron's own installer when it is missing, as
// `npm start` does, unless ELECTRON_SKIP_BINARY_DOWNLOAD is set) and a display; without
// them it skips and says why.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { _electron as electron, expect, test } from '@playwright/test'
import { electronPackage, ensureElectronBinary, FETCH_ADVICE, type ElectronBinary } from '../../src-main/launch/electron-binary'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
let binary: ElectronBinary = { missing: 'not looked for yet' }

test.beforeAll(async () => {
  test.setTimeout(16 * 60_000)
  const noDisplay =
    process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY']
      ? 'there is no display (DISPLAY is unset), so the Electron suite is skipped; run it under xvfb-run'
      : undefined
  if (noDisplay === undefined) {
    const electron = electronPackage()
    binary = electron.missing !== undefined ? { missing: electron.missing } : await ensureElectronBinary(electron)
  }
  const skipReason = noDisplay ?? (binary.missing === undefined ? undefined : `${binary.missing}, so the Electron suite is skipped; to run it, ${FETCH_ADVICE}`)
  if (skipReason !== undefined) console.warn(`[electron] skipped: ${skipReason}`)
  test.skip(skipReason !== undefined, skipReason)
})

test('starts on the demo catalogue, lists its artists, downloads a track and quits', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-electron-'))
  const runningAsRoot = process.getuid?.() === 0
  const app = await electron.launch({
    executablePath: binary.path,
    cwd: projectRoot,
    // Chromium refuses to start as root with its OS sandbox on (CI containers run as root).
    args: ['.', ...(runningAsRoot ? ['--no-sandbox'] : [])],
    env: { ...process.env, TUNESHELF_DATA_DIR: dataDir },
  })
  try {
    const page = await app.firstWindow()
    await expect(page.getByRole('heading', { level: 1, name: 'Tuneshelf' })).toBeVisible()
    // The first start syncs the demo catalogue in the background; the window then lists its artists.
    await expect(page.getByTestId('runtime-note')).toContainText(/Electron .* artists cached/, { timeout: 60_000 })
    // The renderer sees the bridge and nothing of Node.
    const exposed = await page.evaluate(() => {
      const scope = globalThis as { api?: { catalogue?: unknown }; require?: unknown; process?: unknown }
      return { catalogue: typeof scope.api?.catalogue, require: typeof scope.require, process: typeof scope.process }
    })
    expect(exposed).toEqual({ catalogue: 'object', require: 'undefined', process: 'undefined' })
    const downloaded = await page.evaluate(async () => {
      type Tagged<T> = { ok: true; value: T } | { ok: false; error: { message: string } }
      const api = (globalThis as unknown as { api: Record<string, Record<string, (...args: unknown[]) => Promise<Tagged<unknown>>>> }).api
      const page = (await api.catalogue!.list!({ perPage: 50 })) as Tagged<{ artists: { listedItems: { upload: { id: string } }[] }[] }>
      if (!page.ok) throw new Error(page.error.message)
      const uploadId = page.value.artists.flatMap((artist) => artist.listedItems)[0]!.upload.id
      const queued = (await api.downloads!.enqueue!({ uploadIds: [uploadId] })) as Tagged<{ downloads: { id: number }[] }>
      if (!queued.ok) throw new Error(queued.error.message)
      const id = queued.value.downloads[0]!.id
      for (let tries = 0; tries < 600; tries++) {
        const list = (await api.downloads!.list!()) as Tagged<{ id: number; state: string; targetPath: string }[]>
        const download = list.ok ? list.value.find((candidate) => candidate.id === id) : undefined
        if (download?.state === 'completed') return download.targetPath
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new Error('the download did not complete')
    })
    expect(fs.existsSync(downloaded)).toBe(true)
    await page.screenshot({ path: path.join(projectRoot, 'test-results/screenshots/electron-home.png') })
  } finally {
    await app.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})

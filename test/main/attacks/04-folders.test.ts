/**
 * Attack 4: any caller of the contract chose any folder. `downloads:enqueue`
 * took a `folder` of its own and `settings:set` any absolute `downloadFolder`,
 * so a hostile page (or a catalogue whose track is a `.desktop` file) could land
 * a file in ~/.config/autostart, run at the next login. Now a download goes to
 * the folder of the settings, and a folder is accepted (in the settings, from
 * the CLI's --to) only when it is none of the system's or the autostart places,
 * nor the app's data folder, after its links are followed; the reason is said.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect } from 'vitest'
import type { RunningCatalogueService } from '../../../src-main/demo/index'
import { checkDownloadFolder } from '../../../src-main/core/files/folders'
import type { CoreClient } from '../../../src-main/main-process/core-client'
import type { Channel, Tagged } from '../../../src-main/core/shared/contract'
import { createDispatch } from '../../../src-main/main-process/dispatch'
import { windowHandlers, type Platform } from '../../../src-main/main-process/window-handlers'
import { cli } from '../support/cli'
import { startInProcessCore, syncedDataDir } from '../support/core'
import { catalogueTest } from '../support/fixtures'

const test = catalogueTest({ artists: 12, seed: 4, maxFileMb: 1 })

/** A home folder of the test's own: the attack's target is made there, never in the real one. */
let home: string
let realHome: string | undefined
beforeEach(() => {
  realHome = process.env['HOME']
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-home-'))
  process.env['HOME'] = home
  fs.mkdirSync(path.join(home, '.config', 'autostart'), { recursive: true })
})
afterEach(() => {
  process.env['HOME'] = realHome
  fs.rmSync(home, { recursive: true, force: true })
})

const platform: Platform = {
  transport: 'web',
  versions: { electron: '45.4.1', chrome: '142.0.0.0', node: process.versions.node },
  avatarBase: 'tuneshelf-media://avatars/',
  logFile: null,
  playbackAddress: (id) => `tuneshelf-media://downloads/${id}`,
  openPath: async () => undefined,
  showInFolder: async () => undefined,
  openExternal: async () => true,
  pickFolder: async () => null,
  openLog: async () => undefined,
}

/** The app as a window reaches it: main's dispatch (the contract's validation) in front of the core's host. */
async function openApp(baseUrl: string, dataDir: string): Promise<{ core: CoreClient; call: (channel: Channel, ...args: unknown[]) => Promise<Tagged<unknown>> }> {
  const { core } = await startInProcessCore({ dataDir, baseUrl })
  const dispatch = createDispatch(core, windowHandlers(core, platform, dataDir))
  return { core, call: (channel, ...args) => dispatch(channel, args) as Promise<Tagged<unknown>> }
}

function smallestUpload(demo: RunningCatalogueService): string {
  return demo.catalogue.artists.flatMap((artist) => demo.catalogue.tracksOf(artist)).sort((a, b) => a.bytes - b.bytes)[0]!.uploadId
}

describe('a folder chosen through the contract', () => {
  test('downloads:enqueue takes no folder of its own: downloads go to the settings folder', async ({ demo, tempDir }) => {
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    const app = await openApp(demo.baseUrl, dataDir)
    try {
      const autostart = path.join(home, '.config', 'autostart')
      const uploadId = smallestUpload(demo)
      for (const folder of [autostart, 'relative', path.join(home, 'Music')]) {
        const refused = await app.call('downloads:enqueue', { uploadIds: [uploadId], folder })
        expect(refused, folder).toMatchObject({ ok: false, error: { code: 'invalid_argument', message: expect.stringContaining('download folder of the settings') } })
        const estimate = await app.call('downloads:estimate', { uploadIds: [uploadId], folder })
        expect(estimate, folder).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
      }
      expect(fs.readdirSync(autostart)).toEqual([])
      const queued = await app.call('downloads:enqueue', { uploadIds: [uploadId] })
      expect(queued).toMatchObject({ ok: true, value: { folder: path.join(dataDir, 'downloads') } })
    } finally {
      await app.core.close()
    }
  })

  test('settings:set refuses system, autostart and data folders, links to them, files and folders that cannot be made; the setting stays', async ({ demo, tempDir }) => {
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    const app = await openApp(demo.baseUrl, dataDir)
    try {
      const settingsFile = path.join(dataDir, 'settings.json')
      const autostart = path.join(home, '.config', 'autostart')
      const link = path.join(home, 'Music-link')
      fs.symlinkSync(autostart, link)
      const linkedParent = path.join(home, 'Config-link')
      fs.symlinkSync(path.join(home, '.config'), linkedParent)
      const file = path.join(home, 'notes.txt')
      fs.writeFileSync(file, 'not a folder')
      const saved = fs.readFileSync(settingsFile, 'utf8')
      const before = await app.call('settings:get')

      const cases: [string, RegExp][] = [
        ['relative/folder', /absolute/],
        [`${home}/Music\0/x`, /NUL|null/i],
        [autostart, /start|settings/],
        [link, /start|settings/],
        [path.join(linkedParent, 'autostart'), /start|settings/],
        [path.join(home, '.config'), /settings|start/],
        [path.join(home, '.local', 'share', 'applications'), /menu|applications|settings/],
        [path.join(home, '.local', 'share'), /settings|applications|start/],
        // On POSIX a backslash is a character of a name: this folder is inside ~/.config all the same.
        [path.join(home, '.config', 'auto\\start'), /settings|start/],
        [dataDir, /data folder/],
        [path.join(dataDir, 'catalogues'), /data folder/],
        ['/etc', /system/],
        ['/usr/local/share/music', /system/],
        ['/', /system|root/],
        [file, /is a file/],
        ['/proc/x', /system|cannot/],
      ]
      for (const [folder, reason] of cases) {
        const result = await app.call('settings:set', { downloadFolder: folder })
        expect(result, folder).toMatchObject({ ok: false })
        const error = (result as { error: { code: string; message: string } }).error
        expect(['folder_unusable', 'invalid_argument'], folder).toContain(error.code)
        expect(error.message, folder).toMatch(reason)
      }
      expect(fs.readFileSync(settingsFile, 'utf8')).toBe(saved)
      expect(await app.call('settings:get')).toEqual(before)
      expect(fs.readdirSync(autostart)).toEqual([])

      // A folder of the user's own is accepted, made when missing, and the downloads go there.
      const music = path.join(home, 'Music')
      expect(await app.call('settings:set', { downloadFolder: music })).toMatchObject({ ok: true, value: { downloadFolder: music } })
      expect(fs.statSync(music).isDirectory()).toBe(true)
      const queued = await app.call('downloads:enqueue', { uploadIds: [smallestUpload(demo)] })
      expect(queued).toMatchObject({ ok: true, value: { folder: music } })
    } finally {
      await app.core.close()
    }
  })

  test('a settings file that names a refused folder falls back to the default, saying why', async ({ demo, tempDir }) => {
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    const settingsFile = path.join(dataDir, 'settings.json')
    const autostart = path.join(home, '.config', 'autostart')
    fs.writeFileSync(settingsFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(settingsFile, 'utf8')), downloadFolder: autostart }))
    const app = await openApp(demo.baseUrl, dataDir)
    try {
      expect(await app.call('settings:get')).toMatchObject({ ok: true, value: { downloadFolder: null } })
      expect((await app.core.snapshot()).snapshot.notices.join('\n')).toMatch(/downloadFolder .*autostart/)
      const queued = await app.call('downloads:enqueue', { uploadIds: [smallestUpload(demo)] })
      expect(queued).toMatchObject({ ok: true, value: { folder: path.join(dataDir, 'downloads') } })
      expect(fs.readdirSync(autostart)).toEqual([])
    } finally {
      await app.core.close()
    }
  })
})

describe('a folder chosen on the command line', () => {
  test('download --to ~/.config/autostart exits non-zero with the reason and writes nothing there', async ({ demo, tempDir }) => {
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    const autostart = path.join(home, '.config', 'autostart')
    const uploadId = smallestUpload(demo)
    fs.symlinkSync(autostart, path.join(home, 'Downloads'))
    const [run, linked] = await Promise.all([
      cli(['download', uploadId, '--data-dir', dataDir, '--to', autostart], { env: { HOME: home } }),
      cli(['download', uploadId, '--data-dir', dataDir, '--to', path.join(home, 'Downloads')], { env: { HOME: home } }),
    ])
    expect(run.code, run.stderr).not.toBe(0)
    expect(run.stderr).toMatch(/autostart folder/)
    expect(linked.code).not.toBe(0)
    expect(linked.stderr).toMatch(/leads to .*autostart folder/)
    expect(fs.readdirSync(autostart)).toEqual([])
    // And the queue holds nothing of them.
    const listed = JSON.parse((await cli(['downloads', '--data-dir', dataDir, '--json'], { env: { HOME: home } })).stdout) as { downloads: unknown[] }
    expect(listed.downloads).toEqual([])
  }, 60_000)
})

describe('the rule on every system', () => {
  const refused = (folder: string, places: Parameters<typeof checkDownloadFolder>[1]): string => {
    try {
      checkDownloadFolder(folder, places)
    } catch (error) {
      expect(error, folder).toMatchObject({ code: 'folder_unusable' })
      return (error as Error).message
    }
    throw new Error(`${folder} was accepted`)
  }

  test('Windows: the Startup folders, the system and program folders, AppData, a drive root; case does not matter', () => {
    const places = { home: 'C:\\Users\\ann', dataDir: 'C:\\Users\\ann\\AppData\\Roaming\\Tuneshelf', platform: 'win32' as const, env: {} }
    expect(refused('C:\\Users\\ann\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup', places)).toMatch(/Startup folder/)
    expect(refused('c:\\users\\ANN\\appdata\\roaming\\microsoft\\windows\\start menu\\programs\\startup', places)).toMatch(/Startup folder/)
    expect(refused('C:\\ProgramData\\Microsoft\\Windows\\Start Menu\\Programs\\StartUp', places)).toMatch(/Startup folder of all users/)
    expect(refused('C:\\Users\\ann\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs', places)).toMatch(/settings and start-up/)
    expect(refused('C:\\Windows\\System32', places)).toMatch(/system folder/)
    expect(refused('C:\\Program Files\\Tuneshelf', places)).toMatch(/system folder/)
    expect(refused('C:\\', places)).toMatch(/root/)
    expect(refused('Music', places)).toMatch(/not an absolute path/)
    expect(checkDownloadFolder('C:\\Users\\ann\\Music', places)).toBe('C:\\Users\\ann\\Music')
    expect(checkDownloadFolder('D:\\Tuneshelf', places)).toBe('D:\\Tuneshelf')
    // The default download folder, inside the data folder, is the app's own choice.
    expect(checkDownloadFolder('C:\\Users\\ann\\AppData\\Roaming\\Tuneshelf\\downloads', places)).toMatch(/downloads$/)
  })

  test('macOS: LaunchAgents and LaunchDaemons, the Library above them, /System; a home under a system folder is the user\'s', () => {
    const places = { home: '/Users/ann', dataDir: '/Users/ann/Library/Application Support/Tuneshelf', platform: 'darwin' as const, env: {} }
    expect(refused('/Users/ann/Library/LaunchAgents', places)).toMatch(/LaunchAgents folder/)
    expect(refused('/Users/ann/Library', places)).toMatch(/above LaunchAgents/)
    expect(refused('/Library/LaunchDaemons/x', places)).toMatch(/LaunchDaemons/)
    expect(refused('/System/Library', places)).toMatch(/system folder/)
    expect(refused('/users/ann/library/launchagents', places)).toMatch(/LaunchAgents folder/)
    expect(checkDownloadFolder('/Users/ann/Music/Tuneshelf', places)).toBe('/Users/ann/Music/Tuneshelf')
    expect(checkDownloadFolder('/USERS/ANN/Music', places)).toBe('/USERS/ANN/Music')
    const bsd = { home: '/usr/home/ann', dataDir: '/usr/home/ann/.config/Tuneshelf', platform: 'freebsd' as const, env: {} }
    expect(checkDownloadFolder('/usr/home/ann/Music', bsd)).toBe('/usr/home/ann/Music')
    expect(refused('/usr/home/ann/.config/autostart', bsd)).toMatch(/autostart/)
    expect(refused('/usr/local/music', bsd)).toMatch(/system folder/)
  })

  test('Linux: the XDG folders where the environment moves them', () => {
    const places = { home: '/home/ann', dataDir: '/srv/tuneshelf', platform: 'linux' as const, env: { XDG_CONFIG_HOME: '/srv/config', XDG_DATA_HOME: '/srv/data' } }
    expect(refused('/srv/config/autostart', places)).toMatch(/autostart/)
    expect(refused('/srv/data/applications', places)).toMatch(/applications menu/)
    expect(refused('/srv/data', places)).toMatch(/above the applications menu/)
    expect(refused('/home/ann/.kde/Autostart', places)).toMatch(/hidden folder/)
    expect(checkDownloadFolder('/srv/music', places)).toBe('/srv/music')
  })
})

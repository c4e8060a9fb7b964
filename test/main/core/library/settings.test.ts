/**
 * The settings of a data folder: one file, one schema, and what happens when
 * the file is missing, damaged or half wrong.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect } from 'vitest'
import { InvalidArgumentError } from '../../../../src-main/core/shared/errors'
import { DEFAULT_SETTINGS, SettingsStore, redactedSettings, type Settings } from '../../../../src-main/core/library/settings'
import { catalogueTest, test } from '../../support/fixtures'

/** The demo catalogue starts only for the tests that use it. */
const withDemo = catalogueTest({ artists: 5, seed: 3, maxFileMb: 1 })
const settingsFile = (dataDir: string): string => path.join(dataDir, 'settings.json')

describe('a settings store', () => {
  test('starts from the defaults without writing anything', ({ tempDir }) => {
    const dataDir = tempDir()
    const store = new SettingsStore(dataDir)
    expect(store.get()).toEqual(DEFAULT_SETTINGS)
    expect(store.notices).toEqual([])
    expect(fs.existsSync(settingsFile(dataDir))).toBe(false)
  })

  test('keeps what is updated across stores on the same folder, and changes only what the patch names', ({ tempDir }) => {
    const dataDir = tempDir()
    const music = path.join(tempDir(), 'music')
    const first = new SettingsStore(dataDir)
    const after = first.update({ theme: 'dark', syncConcurrency: 8, downloadFolder: music })
    expect(after).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark', syncConcurrency: 8, downloadFolder: music })
    first.update({ downloadConcurrency: 2, baseUrl: 'http://127.0.0.1:8787' })
    const second = new SettingsStore(dataDir)
    expect(second.get()).toEqual({
      ...DEFAULT_SETTINGS,
      theme: 'dark',
      syncConcurrency: 8,
      downloadFolder: music,
      downloadConcurrency: 2,
      baseUrl: 'http://127.0.0.1:8787',
    })
    expect(second.notices).toEqual([])
    second.update({ baseUrl: null })
    expect(new SettingsStore(dataDir).get().baseUrl).toBeNull()
  })

  test('hands out copies: changing one changes nothing stored', ({ tempDir }) => {
    const store = new SettingsStore(tempDir())
    const copy = store.get() as { theme: string }
    copy.theme = 'dark'
    expect(store.get().theme).toBe('system')
  })

  test.for<[string, Record<string, unknown>, string]>([
    ['a number out of range', { syncConcurrency: 0 }, 'syncConcurrency'],
    ['a number that is not whole', { downloadConcurrency: 2.5 }, 'downloadConcurrency'],
    ['a word not in the list', { theme: 'sepia' }, 'theme'],
    ['a base URL that is not http', { baseUrl: 'ftp://example.com/' }, 'baseUrl'],
    ['a relative download folder', { downloadFolder: 'music' }, 'downloadFolder'],
    ['text for a boolean', { syncOnStart: 'yes' }, 'syncOnStart'],
    ['a schedule not in the list', { checkForNewTracks: 'weekly' }, 'checkForNewTracks'],
    ['a setting that does not exist', { colour: 'red' }, 'colour'],
  ])('refuses %s, naming the field, and writes nothing', ([, patch, field], { tempDir }) => {
    const dataDir = tempDir()
    const store = new SettingsStore(dataDir)
    store.update({ theme: 'light' })
    const before = fs.readFileSync(settingsFile(dataDir), 'utf8')
    const changes: Settings[] = []
    store.onDidChange((settings) => changes.push(settings))
    let failure: unknown
    try {
      store.update({ syncOnStart: false, ...patch } as never)
    } catch (error) {
      failure = error
    }
    expect(failure).toBeInstanceOf(InvalidArgumentError)
    expect(failure).toMatchObject({ code: 'invalid_argument', field })
    expect((failure as Error).message).toMatch(new RegExp(`^${field} `))
    expect(fs.readFileSync(settingsFile(dataDir), 'utf8')).toBe(before)
    expect(store.get()).toEqual({ ...DEFAULT_SETTINGS, theme: 'light' })
    expect(changes).toEqual([])
    expect(fs.readdirSync(dataDir)).toEqual(['settings.json'])
  })

  test('keeps the good values of a file with a bad one, and says which fell back', ({ tempDir }) => {
    const dataDir = tempDir()
    fs.writeFileSync(
      settingsFile(dataDir),
      JSON.stringify({ version: 1, theme: 'dark', syncConcurrency: 99, downloadConcurrency: 2, baseUrl: 'http://127.0.0.1:9000' }),
    )
    const store = new SettingsStore(dataDir)
    expect(store.get()).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark', downloadConcurrency: 2, baseUrl: 'http://127.0.0.1:9000' })
    expect(store.notices).toHaveLength(1)
    expect(store.notices[0]).toMatch(/syncConcurrency/)
    expect(store.notices[0]).toMatch(/default is used/)
    expect(store.notices[0]).toContain(settingsFile(dataDir))
  })

  test('uses the defaults for a file that is not JSON, and says so', ({ tempDir }) => {
    const dataDir = tempDir()
    fs.writeFileSync(settingsFile(dataDir), '{"theme": "dark",')
    const store = new SettingsStore(dataDir)
    expect(store.get()).toEqual(DEFAULT_SETTINGS)
    expect(store.notices).toEqual([expect.stringMatching(/not valid JSON.*default settings are used/)])
    // The next change writes a sound file again.
    store.update({ theme: 'light' })
    expect(new SettingsStore(dataDir)).toMatchObject({ notices: [] })
  })

  test.for(['[]', 'null', '42', '"dark"'])('uses the defaults for JSON that is not an object (%s), and says so', (text, { tempDir }) => {
    const dataDir = tempDir()
    fs.writeFileSync(settingsFile(dataDir), text)
    const store = new SettingsStore(dataDir)
    expect(store.get()).toEqual(DEFAULT_SETTINGS)
    expect(store.notices).toEqual([expect.stringMatching(/not an object.*default settings are used/)])
  })

  test('writes a file only its owner can read, even over one that others could', ({ tempDir }) => {
    const dataDir = tempDir()
    fs.writeFileSync(settingsFile(dataDir), JSON.stringify({ theme: 'dark' }), { mode: 0o644 })
    fs.chmodSync(settingsFile(dataDir), 0o644)
    new SettingsStore(dataDir).update({ baseUrl: 'http://user:secret@127.0.0.1:9000' })
    expect(fs.statSync(settingsFile(dataDir)).mode & 0o777).toBe(0o600)
    const other = tempDir()
    new SettingsStore(other).update({ theme: 'light' })
    expect(fs.statSync(settingsFile(other)).mode & 0o777).toBe(0o600)
    expect(fs.readdirSync(other)).toEqual(['settings.json'])
  })

  test('creates the data folder when it first writes', ({ tempDir }) => {
    const dataDir = path.join(tempDir(), 'new', 'folder')
    new SettingsStore(dataDir).update({ theme: 'dark' })
    expect(new SettingsStore(dataDir).get().theme).toBe('dark')
  })

  test('tells its listeners of each change with all the settings, until they let go', ({ tempDir }) => {
    const store = new SettingsStore(tempDir())
    const seen: Settings[] = []
    const subscription = store.onDidChange((settings) => seen.push(settings))
    store.update({ theme: 'dark' })
    subscription.dispose()
    store.update({ theme: 'light' })
    expect(seen).toEqual([{ ...DEFAULT_SETTINGS, theme: 'dark' }])
  })

  test('shows a base URL without its password', () => {
    expect(redactedSettings({ ...DEFAULT_SETTINGS, baseUrl: 'http://user:secret@127.0.0.1:9000' }).baseUrl).not.toContain('secret')
  })
})

describe('settings through the library', () => {
  withDemo('are read and written through library.settings, and name the service a library opens by default', async ({ demo, openLibrary, tempDir }) => {
    const dataDir = tempDir()
    const library = openLibrary({ dataDir })
    const changes: Settings[] = []
    library.settings.onDidChange((settings) => changes.push(settings))
    expect(library.settings.update({ baseUrl: demo.baseUrl, theme: 'dark' })).toMatchObject({ baseUrl: demo.baseUrl, theme: 'dark' })
    expect(changes).toEqual([expect.objectContaining({ theme: 'dark' })])
    expect(() => library.settings.update({ theme: 'sepia' } as never)).toThrow(expect.objectContaining({ code: 'invalid_argument', field: 'theme' }))
    // No base URL given: the library of the service the settings name.
    const again = openLibrary({ dataDir, baseUrl: undefined })
    expect(again.baseUrl).toBe(library.baseUrl)
    expect(again.settings.get()).toMatchObject({ baseUrl: demo.baseUrl, theme: 'dark' })
  })

  withDemo('pass on what was wrong with the file as notices of the library', ({ openLibrary, tempDir }) => {
    const dataDir = tempDir()
    fs.writeFileSync(settingsFile(dataDir), JSON.stringify({ downloadConcurrency: 'many' }))
    const library = openLibrary({ dataDir })
    expect(library.notices).toEqual([expect.stringMatching(/downloadConcurrency/)])
    expect(library.settings.get().downloadConcurrency).toBe(DEFAULT_SETTINGS.downloadConcurrency)
  })
})

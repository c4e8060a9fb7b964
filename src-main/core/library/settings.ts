/**
 * The user's settings, one file per data folder (`settings.json`), read and
 * written against one schema. A value that fails the schema falls back to its
 * default (and says so) instead of losing the others; a write is atomic and
 * readable by the user alone, since the base URL may carry a password.
 */
import fs from 'node:fs'
import path from 'node:path'
import * as v from 'valibot'
import { redactUrl } from '../shared/urls'
import { InvalidArgumentError, ReadOnlyError, toTuneshelfError } from '../shared/errors'
import { Emitter } from '../base/events'
import { ensureDataFolder } from '../files/data-folders'
import { checkDownloadFolder, ensureFolder } from '../files/folders'
import { keepPrivate, PRIVATE_FILE_MODE } from '../files/private-files'
import { settingsPatchSchema, settingsSchema } from '../shared/arguments'
import { definedOnly, parseArguments } from '../shared/validation'
import type { Settings, SettingsPatch } from '../shared/types'
export { THEMES, type Settings, type SettingsPatch, type Theme } from '../shared/types'


const FILE_NAME = 'settings.json'

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  baseUrl: null,
  downloadFolder: null,
  syncConcurrency: 4,
  downloadConcurrency: 3,
  downloadSpeedLimit: null,
  theme: 'system',
  syncOnStart: true,
  // A quick check costs one request when nothing changed (a few more for each artist that did), so
  // every 15 minutes finds new tracks soon without asking the service more than 100 times a day.
  checkForNewTracks: 'every-15-minutes',
  // Auto-download is for keeping up with an artist, not for mirroring one: a busy artist's week
  // (an album, a few episodes) is well under 50 tracks, and 2 GB holds a lossless album or two.
  // Beyond either, in one sync, something unusual happened (a back catalogue uploaded at once, a
  // flood): the rest waits for the user in What's new rather than filling a folder and a disk.
  autoDownloadMaxTracks: 50,
  autoDownloadMaxBytes: 2_000_000_000,
})

/** The settings of one data folder, kept in memory and on disk in step. */
export class SettingsStore {
  private current: Settings
  private readonly changes = new Emitter<Settings>()
  /** Settings written; the listener gets all of them. */
  readonly onDidChange = this.changes.event
  /** What was wrong with the file when it was read (values that fell back to their defaults). */
  readonly notices: string[] = []
  readonly file: string

  constructor(readonly dataDir: string) {
    this.file = path.join(path.resolve(dataDir), FILE_NAME)
    this.current = this.read()
  }

  /** A copy of the settings. */
  get(): Settings {
    return { ...this.current }
  }

  /** Validates patch, writes the settings, and tells the listeners; returns the settings now. */
  update(patch: SettingsPatch): Settings {
    const valid = parseArguments(settingsPatchSchema, patch)
    // The shared schema knows every platform's absolute paths; this one's own rule decides here.
    if (typeof valid.downloadFolder === 'string' && !path.isAbsolute(valid.downloadFolder)) {
      throw new InvalidArgumentError(`downloadFolder must be an absolute path on this system, not ${JSON.stringify(valid.downloadFolder)}`, { field: 'downloadFolder' })
    }
    // A folder the downloads may go to, and one that is there (made now if missing): a file, or /proc, is refused when saved, not at the first download.
    if (typeof valid.downloadFolder === 'string') ensureFolder(checkDownloadFolder(valid.downloadFolder, { dataDir: this.dataDir }), 'the download folder')
    const next: Settings = { ...this.current, ...definedOnly(valid) }
    this.write(next)
    this.current = next
    this.changes.fire({ ...next })
    return { ...next }
  }

  dispose(): void {
    this.changes.dispose()
  }

  private read(): Settings {
    let text: string
    try {
      text = fs.readFileSync(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...DEFAULT_SETTINGS }
      throw toTuneshelfError(error, `reading ${this.file}`)
    }
    // One an older version left readable by others is closed up now, not at the next change.
    keepPrivate(this.file)
    let saved: unknown
    try {
      saved = JSON.parse(text)
    } catch {
      this.notices.push(`${this.file} is not valid JSON; the default settings are used until they are changed`)
      return { ...DEFAULT_SETTINGS }
    }
    if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) {
      this.notices.push(`${this.file} is not an object of settings; the default settings are used until they are changed`)
      return { ...DEFAULT_SETTINGS }
    }
    const record = saved as Record<string, unknown>
    const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS }
    for (const [key, schema] of Object.entries(settingsSchema.entries)) {
      if (!(key in record)) continue
      const result = v.safeParse(schema as v.GenericSchema, record[key])
      const refused = result.success && key === 'downloadFolder' ? this.refusedFolder(result.output as string | null) : undefined
      if (refused !== undefined) this.notices.push(`the setting ${key} in ${this.file} cannot be used (${refused}); its default is used`)
      else if (result.success) settings[key] = result.output
      else this.notices.push(`the setting ${key} in ${this.file} ${result.issues[0].message}; its default is used`)
    }
    return settings as unknown as Settings
  }

  /** Why a saved download folder may not be used (written by hand, or by an older version that took any folder); undefined when it may. */
  private refusedFolder(folder: string | null): string | undefined {
    if (folder === null) return undefined
    if (!path.isAbsolute(folder)) return 'it is not an absolute path on this system'
    try {
      checkDownloadFolder(folder, { dataDir: this.dataDir })
      return undefined
    } catch (error) {
      return (error as Error).message
    }
  }

  private write(settings: Settings): void {
    try {
      ensureDataFolder(path.dirname(this.file))
      const temporary = `${this.file}.${process.pid}.tmp`
      // Readable by the user alone: the base URL may carry a password.
      fs.writeFileSync(temporary, `${JSON.stringify({ version: 1, ...settings }, null, 2)}\n`, { mode: PRIVATE_FILE_MODE })
      fs.renameSync(temporary, this.file)
    } catch (error) {
      const failure = toTuneshelfError(error, `saving the settings in ${this.file}`)
      if (failure.code === 'read_only') throw new ReadOnlyError(`the data folder ${this.dataDir} is read-only: the settings cannot be saved`, { cause: error })
      throw failure
    }
  }
}

/** The settings as they may be shown or logged: the base URL without its password. */
export function redactedSettings(settings: Settings): Settings {
  return { ...settings, baseUrl: settings.baseUrl === null ? null : redactUrl(settings.baseUrl) }
}

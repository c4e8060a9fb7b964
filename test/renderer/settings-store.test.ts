// The settings store: a change shows at once (the theme is drawn at once), is kept when the core
// accepts it, and goes back when the core refuses it, with the reason at the field that was changed;
// an earlier change that is answered late does not undo a later one. A download folder the core
// refuses (a file, a folder that cannot be made) leaves the folder shown as it was.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'
import { deserializeError } from '../../src-main/core/shared/errors'
import type { SessionEvent, SessionSnapshot, Settings, SettingsPatch } from '../../src-main/core/shared/types'
import type { MockApi } from './support/mock-api'

/** A call to the core that the test answers when it likes. */
interface Pending<T> {
  args: unknown[]
  resolve(value: T): void
  reject(error: unknown): void
}

const core = vi.hoisted(() => ({
  listener: undefined as { snapshot(snapshot: SessionSnapshot): void; events(events: SessionEvent[]): void } | undefined,
  sets: [] as Pending<Settings>[],
  folder: '/home/ann/Music',
}))

vi.mock('../../src-renderer/api', () => {
  const later = <T>(list: Pending<T>[]) => (...args: unknown[]) => new Promise<T>((resolve, reject) => list.push({ args, resolve, reject }))
  return {
    api: {
      subscribe: (listener: typeof core.listener) => {
        core.listener = listener
        return { dispose: () => undefined }
      },
      app: { info: async () => ({ transport: 'web' }), openLog: async () => undefined },
      settings: { set: later(core.sets), pickDownloadFolder: async () => null },
      downloads: { state: async () => ({ folder: core.folder }) },
    } satisfies MockApi,
  }
})

const { useSessionStore } = await import('../../src-renderer/stores/session')
const { useSettingsStore } = await import('../../src-renderer/stores/settings')

const SAVED: Settings = { baseUrl: 'http://127.0.0.1:1', downloadFolder: null, syncConcurrency: 4, downloadConcurrency: 3, downloadSpeedLimit: null, theme: 'system', syncOnStart: true, checkForNewTracks: 'every-6-hours', autoDownloadMaxTracks: 50, autoDownloadMaxBytes: 2_000_000_000 }

function snapshot(settings: Settings): SessionSnapshot {
  return {
    service: { baseUrl: 'http://127.0.0.1:1', demo: false, readOnly: false },
    settings,
    sync: { status: 'idle', progress: null, waitingFor: null, lastRun: null, lastFullSyncAt: 1, lastCheckAt: 1, hasArtists: true, lastError: null },
    downloads: { folder: core.folder } as SessionSnapshot['downloads'],
    online: true,
    notices: [],
  }
}

/** The core's answer to the nth change: its settings with the patch applied (and its event, as the core sends one). */
function accept(index: number, before: Settings = SAVED): Settings {
  const call = core.sets[index]!
  const saved = { ...before, ...(call.args[0] as SettingsPatch) } as Settings
  call.resolve(saved)
  return saved
}

function refuse(index: number, json: { code: 'invalid_argument' | 'folder_unusable' | 'read_only'; message: string; field?: string }): void {
  core.sets[index]!.reject(deserializeError({ name: 'Error', retryable: false, ...json }))
}

/** Lets the store's awaits run. */
const settled = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
  await nextTick()
}

let root: { dataset: Record<string, string> }

beforeEach(async () => {
  setActivePinia(createPinia())
  core.sets.length = 0
  core.folder = '/home/ann/Music'
  root = { dataset: {} }
  vi.stubGlobal('document', { documentElement: root })
  const session = useSessionStore()
  const started = session.start()
  core.listener!.snapshot(snapshot(SAVED))
  await started
})

afterEach(() => vi.unstubAllGlobals())

describe('the settings store', () => {
  it('shows a change at once, draws the theme at once, and keeps it when the core accepts it', async () => {
    const store = useSettingsStore()
    const saving = store.set({ theme: 'dark' })
    expect(store.settings?.theme).toBe('dark')
    expect(store.saving('theme')).toBe(true)
    await nextTick()
    expect(root.dataset['theme']).toBe('dark')

    accept(0)
    expect(await saving).toBe(true)
    // Kept before the core's event comes: no flicker back to the old theme.
    expect(store.settings?.theme).toBe('dark')
    expect(useSessionStore().settings?.theme).toBe('dark')
    expect(store.saving('theme')).toBe(false)
    await nextTick()
    expect(root.dataset['theme']).toBe('dark')
  })

  it('puts a refused change back and says why at its field, leaving the other fields alone', async () => {
    const store = useSettingsStore()
    const saving = store.set({ syncConcurrency: 12 })
    expect(store.settings?.syncConcurrency).toBe(12)
    refuse(0, { code: 'invalid_argument', message: 'syncConcurrency must be at most 8', field: 'syncConcurrency' })
    expect(await saving).toBe(false)
    expect(store.settings?.syncConcurrency).toBe(4)
    expect(store.problem('syncConcurrency')).toBe('Not accepted: syncConcurrency must be at most 8')
    expect(store.problem('downloadConcurrency')).toBeNull()

    // The next change of the field clears the reason.
    const again = store.set({ syncConcurrency: 6 })
    expect(store.problem('syncConcurrency')).toBeNull()
    accept(1)
    expect(await again).toBe(true)
    expect(store.settings?.syncConcurrency).toBe(6)
  })

  it('puts the theme back when the data folder cannot be written, naming the cause at the field', async () => {
    const store = useSettingsStore()
    const saving = store.set({ theme: 'light' })
    await nextTick()
    expect(root.dataset['theme']).toBe('light')
    refuse(0, { code: 'read_only', message: 'the data folder /data is read-only: the settings cannot be saved' })
    expect(await saving).toBe(false)
    await nextTick()
    expect(store.settings?.theme).toBe('system')
    expect(root.dataset['theme']).toBeUndefined()
    expect(store.problem('theme')).toBe('Read-only data folder: the data folder /data is read-only: the settings cannot be saved')
  })

  it('an earlier change answered late does not undo a later one', async () => {
    const store = useSettingsStore()
    const first = store.set({ downloadConcurrency: 5 })
    const second = store.set({ downloadConcurrency: 6 })
    expect(store.settings?.downloadConcurrency).toBe(6)
    refuse(0, { code: 'invalid_argument', message: 'no', field: 'downloadConcurrency' })
    await first
    expect(store.settings?.downloadConcurrency).toBe(6)
    expect(store.problem('downloadConcurrency')).toBeNull()
    accept(1)
    await second
    expect(store.settings?.downloadConcurrency).toBe(6)
  })

  it('a download folder the core refuses leaves the folder shown as it was, with the reason at the field', async () => {
    const store = useSettingsStore()
    expect(store.downloadFolder).toBe('/home/ann/Music')
    const saving = store.set({ downloadFolder: '/home/ann/notes.txt' })
    expect(store.downloadFolder).toBe('/home/ann/notes.txt')
    refuse(0, { code: 'folder_unusable', message: 'the download folder /home/ann/notes.txt is a file, not a folder' })
    expect(await saving).toBe(false)
    expect(store.downloadFolder).toBe('/home/ann/Music')
    expect(store.isDefaultFolder).toBe(true)
    expect(store.problem('downloadFolder')).toBe('Not accepted: the download folder /home/ann/notes.txt is a file, not a folder')

    // One it accepts is shown as the core resolves it, once it is saved.
    const chosen = store.set({ downloadFolder: '/home/ann/Tracks' })
    core.folder = '/home/ann/Tracks'
    accept(1)
    await chosen
    await settled()
    expect(store.downloadFolder).toBe('/home/ann/Tracks')
    expect(store.isDefaultFolder).toBe(false)
    expect(store.problem('downloadFolder')).toBeNull()
  })

  it('follows the settings changed elsewhere (another window), by their event', async () => {
    const store = useSettingsStore()
    core.listener!.events([{ type: 'settings', settings: { ...SAVED, theme: 'dark', syncOnStart: false } }])
    expect(store.settings).toMatchObject({ theme: 'dark', syncOnStart: false })
    await nextTick()
    expect(root.dataset['theme']).toBe('dark')
  })
})

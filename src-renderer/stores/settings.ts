/**
 * The settings as the Settings screen edits them: the session's (read once
 * with its snapshot, kept current by its events) with what the user just
 * chose laid over them until the core answers. A change shows at once; one
 * the core refuses goes back to what was saved, and the reason is kept for the
 * field that was changed (shown there, not in a corner). The chosen theme is
 * applied here, so choosing one shows it at once. Also the rest of the screen's
 * calls: where downloads land, the folder picker, and the log.
 */
import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import { errorCode, isError } from '@shared/errors'
import type { Settings, SettingsPatch } from '@shared/types'
import { api } from '../api'
import { useDownloadsStore } from './downloads'
import { titleOf, useNoticesStore } from './notices'
import { useSessionStore } from './session'

export type SettingKey = keyof Settings

/** The reason a change was refused, in words for the field: the core's own for a value it does not accept. */
export function refusalOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message
  const details = typeof message === 'string' ? message : String(error)
  const code = errorCode(error)
  return code === 'invalid_argument' || code === 'folder_unusable' ? `Not accepted: ${details}` : `${titleOf(error)}: ${details}`
}

export const useSettingsStore = defineStore('settings', () => {
  const downloads = useDownloadsStore()
  const session = useSessionStore()
  const notices = useNoticesStore()

  /** What the user chose and the core has not confirmed yet, shown meanwhile. */
  const pending = ref<Partial<Settings>>({})
  /** Why the core refused the last change of each field; cleared by the next change of it. */
  const problems = ref<Partial<Record<SettingKey, string>>>({})
  /** The latest change of each field: only its answer settles what the field shows. */
  const latest = new Map<SettingKey, number>()
  let changes = 0

  /** The settings as shown: the saved ones, with the changes under way over them. */
  const settings = computed<Settings | null>(() => (session.settings ? { ...session.settings, ...pending.value } : null))

  /** Whether a change of the field is under way. */
  function saving(key: SettingKey): boolean {
    return key in pending.value
  }

  function problem(key: SettingKey): string | null {
    return problems.value[key] ?? null
  }

  function clearProblem(key: SettingKey): void {
    if (key in problems.value) problems.value = withoutKeys(problems.value, [key])
  }

  /**
   * Saves a change: shown at once, kept when the core accepts it, and put back (with the reason at
   * the field: the one the core names, or each field changed) when it does not. True when saved.
   */
  async function set(patch: SettingsPatch): Promise<boolean> {
    const keys = (Object.keys(patch) as SettingKey[]).filter((key) => patch[key] !== undefined)
    if (keys.length === 0) return true
    const mine = ++changes
    for (const key of keys) latest.set(key, mine)
    problems.value = withoutKeys(problems.value, keys)
    pending.value = { ...pending.value, ...Object.fromEntries(keys.map((key) => [key, patch[key]])) }
    // Only the latest change of a field settles it: an earlier answer that comes late changes nothing.
    const settle = (): SettingKey[] => keys.filter((key) => latest.get(key) === mine)
    try {
      const saved = await api.settings.set(patch)
      // The core's settings now, before its event comes: the change does not flicker back meanwhile.
      if (session.snapshot) session.snapshot.settings = saved
      // Likewise the folder as the core resolves it (the queue's state), which its event brings too.
      if (keys.includes('downloadFolder')) await readQueueState()
      return true
    } catch (error) {
      const field = (error as { field?: unknown } | null)?.field
      const at = typeof field === 'string' && keys.includes(field as SettingKey) ? [field as SettingKey] : keys
      const reason = refusalOf(error)
      problems.value = { ...problems.value, ...Object.fromEntries(settle().filter((key) => at.includes(key)).map((key) => [key, reason])) }
      return false
    } finally {
      pending.value = withoutKeys(pending.value, settle())
    }
  }

  // ---- Where downloads land

  /** The folder downloads go to now (the setting, or the default inside the data folder), as the core resolves it: the queue's. */
  const effectiveFolder = computed(() => downloads.queue?.folder ?? '')
  /** The folder as shown: the one being saved, while it is. */
  const downloadFolder = computed(() => {
    const chosen = pending.value.downloadFolder
    return typeof chosen === 'string' ? chosen : effectiveFolder.value
  })
  const isDefaultFolder = computed(() => (settings.value?.downloadFolder ?? null) === null)
  /** The native folder picker: the desktop app's, until it says it is not available. */
  const noPicker = ref(false)
  const hasPicker = computed(() => session.info?.transport !== 'web' && !noPicker.value)

  /** The queue's state now, into the session's snapshot: right after a change of folder, before its event comes. */
  async function readQueueState(): Promise<void> {
    try {
      const state = await api.downloads.state()
      if (session.snapshot) session.snapshot.downloads = state
    } catch {
      // Its event brings it all the same.
    }
  }

  /** Asks the system for a folder and saves it; false when there is no picker here (the folder is then typed). */
  async function pickDownloadFolder(): Promise<boolean> {
    try {
      const chosen = await api.settings.pickDownloadFolder()
      if (chosen !== null) await set({ downloadFolder: chosen })
      return true
    } catch (error) {
      if (!isError(error, 'unsupported')) {
        notices.error(error, 'Choosing a folder')
        return true
      }
      noPicker.value = true
      return false
    }
  }

  // ---- The log

  async function openLog(): Promise<void> {
    try {
      await api.app.openLog()
    } catch (error) {
      notices.error(error, 'Opening the log')
    }
  }

  // ---- The theme: the system's, or the one chosen, applied as soon as it is chosen.

  watch(
    () => settings.value?.theme,
    (theme) => {
      if (theme === 'light' || theme === 'dark') document.documentElement.dataset['theme'] = theme
      else delete document.documentElement.dataset['theme']
    },
    { immediate: true },
  )

  return {
    settings, saving, problem, clearProblem, set,
    downloadFolder, isDefaultFolder, hasPicker, pickDownloadFolder,
    openLog,
  }
})

function withoutKeys<T extends object>(record: T, keys: readonly PropertyKey[]): T {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key))) as T
}

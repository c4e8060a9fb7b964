/**
 * Messages to the user: errors named by their cause (the core's error code),
 * and quieter notes ("updated", "queued"). Notes close by themselves after a
 * few seconds; errors stay until dismissed, but only the latest few are shown,
 * the older ones folded into "and K more". An error that comes again while it
 * is shown is counted, not repeated. While the user reads them (the pointer or
 * the focus on the messages) nothing closes by itself. A note may offer one
 * action, a screen to go to ("Open What's new"): it stays until used or
 * dismissed, and goes once that screen is shown, by it or otherwise.
 */
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { errorCode, isError } from '@shared/errors'

export interface Notice {
  id: number
  kind: 'error' | 'info'
  title: string
  message: string
  /** How many times it came (an error that came again while shown). */
  count: number
  /** A button that goes to a screen (a route of the window). */
  action?: NoticeAction
}

export interface NoticeAction {
  label: string
  to: string
}

/** What each failure is called on screen. */
const TITLES: Record<string, string> = {
  not_found: 'Not found',
  rate_limited: 'The service is busy',
  network: 'The service cannot be reached',
  server: 'The service has a problem',
  rejected: 'The service refused',
  bad_response: 'The service answered oddly',
  disk_full: 'The disk is full',
  insufficient_space: 'Not enough free space',
  unsafe_path: 'Unsafe file name',
  folder_unusable: 'Folder cannot be used',
  read_only: 'Read-only data folder',
  cancelled: 'Cancelled',
  busy: 'Busy elsewhere',
  schema_too_new: 'Made by a newer Tuneshelf',
  schema_mismatch: 'Cache from another version',
  corrupt_cache: 'Damaged cache',
  not_synced: 'Nothing synced yet',
  invalid_argument: 'Not accepted',
  unsupported: 'Not available here',
  io: 'File error',
  internal: 'Something went wrong',
}

/** The title of an error's cause. */
export function titleOf(error: unknown): string {
  return TITLES[errorCode(error) ?? 'internal'] ?? TITLES.internal!
}

/** The words of an error: its message (an Error, or a core error as it crossed from main as plain JSON), else itself. */
export function messageOf(error: unknown): string {
  const text = (error as { message?: unknown } | null)?.message
  if (typeof text === 'string') return text
  return typeof error === 'string' ? error : ''
}

/** How long a note stays, in ms. */
export const NOTE_MS = 6000
/** Errors shown at once; older ones are folded into "and K more". */
export const ERRORS_SHOWN = 3
/** Errors kept at all: beyond this the oldest go for good. */
const ERRORS_KEPT = 50

export const useNoticesStore = defineStore('notices', () => {
  const notices = ref<Notice[]>([])
  let next = 1
  /** The notes' timers: each one's deadline while running, its time left while held. */
  const timers = new Map<number, { timer: ReturnType<typeof setTimeout> | undefined; left: number; since: number }>()
  const held = ref(false)

  const errors = computed(() => notices.value.filter((notice) => notice.kind === 'error'))
  /** What the list shows: the notes, and the latest errors. */
  const shown = computed(() => {
    const latest = new Set(errors.value.slice(-ERRORS_SHOWN))
    return notices.value.filter((notice) => notice.kind === 'info' || latest.has(notice))
  })
  /** Errors not shown: the older ones. */
  const folded = computed(() => Math.max(0, errors.value.length - ERRORS_SHOWN))

  function dismiss(id: number): void {
    const timer = timers.get(id)
    if (timer) clearTimeout(timer.timer)
    timers.delete(id)
    notices.value = notices.value.filter((notice) => notice.id !== id)
  }

  /** Dismisses the errors folded away (the older ones). */
  function dismissFolded(): void {
    for (const notice of errors.value.slice(0, folded.value)) dismiss(notice.id)
  }

  /**
   * Shows an error by its cause; what the user was doing goes first (`Could not download "Song"`).
   * Returns the notice's id, for whoever knows when it no longer holds (none for a cancellation).
   * `replaces`: the id of a notice this one is the newer word of (one notice that grows, as the
   * player's skipped tracks): it takes that notice's id, as the latest, unless it was dismissed.
   */
  function error(error: unknown, doing?: string, replaces?: number): number | undefined {
    // A cancellation is the user's own doing: nothing to report.
    if (isError(error, 'cancelled')) return undefined
    const title = doing ? `${doing}: ${titleOf(error)}` : titleOf(error)
    const message = messageOf(error)
    const older = replaces === undefined ? undefined : errors.value.find((notice) => notice.id === replaces)
    if (older) {
      notices.value = [...notices.value.filter((notice) => notice !== older), { ...older, title, message, count: 1 }]
      return older.id
    }
    const same = errors.value.find((notice) => notice.title === title && notice.message === message)
    if (same) {
      // Moved to the end (the latest), counted.
      notices.value = [...notices.value.filter((notice) => notice !== same), { ...same, count: same.count + 1 }]
      return same.id
    }
    const kept = errors.value.length >= ERRORS_KEPT ? notices.value.filter((notice) => notice !== errors.value[0]) : notices.value
    const id = next++
    notices.value = [...kept, { id, kind: 'error', title, message, count: 1 }]
    return id
  }

  /** A quiet note that closes by itself; one with an action waits for the user instead. */
  function note(title: string, message = '', action?: NoticeAction): void {
    const id = next++
    notices.value = [...notices.value, { id, kind: 'info', title, message, count: 1, ...(action ? { action } : {}) }]
    if (action) return
    timers.set(id, { timer: undefined, left: NOTE_MS, since: Date.now() })
    if (!held.value) run(id)
  }

  /** The screen `to` is shown: the notes whose action goes there are done. */
  function reached(to: string): void {
    for (const notice of notices.value.filter((candidate) => candidate.action?.to === to)) dismiss(notice.id)
  }

  function run(id: number): void {
    const timer = timers.get(id)
    if (!timer) return
    timer.since = Date.now()
    timer.timer = setTimeout(() => dismiss(id), timer.left)
  }

  /** The user reads the messages (pointer over them, or focus in them): nothing closes meanwhile. */
  function hold(): void {
    if (held.value) return
    held.value = true
    for (const timer of timers.values()) {
      clearTimeout(timer.timer)
      timer.left = Math.max(0, timer.left - (Date.now() - timer.since))
    }
  }

  /** Done reading: the notes go on closing, each with the time it had left (at least a moment). */
  function release(): void {
    if (!held.value) return
    held.value = false
    for (const [id, timer] of timers) {
      timer.left = Math.max(timer.left, 1500)
      run(id)
    }
  }

  return { notices, shown, folded, held, dismiss, dismissFolded, error, note, reached, hold, release }
})

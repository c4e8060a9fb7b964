/**
 * Messages to the user: errors named by their cause (the core's error code),
 * and quieter notes ("updated", "queued"). Each can be dismissed; notes go by
 * themselves after a while, errors stay until dismissed.
 */
import { defineStore } from 'pinia'
import { ref } from 'vue'
import { errorCode, isError } from '@shared/errors'

export interface Notice {
  id: number
  kind: 'error' | 'info'
  title: string
  message: string
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

const NOTE_MS = 5000

export const useNoticesStore = defineStore('notices', () => {
  const notices = ref<Notice[]>([])
  let next = 1

  function dismiss(id: number): void {
    notices.value = notices.value.filter((notice) => notice.id !== id)
  }

  /** Shows an error by its cause; what the user was doing goes first (`Could not download "Song"`). */
  function error(error: unknown, doing?: string): void {
    // A cancellation is the user's own doing: nothing to report.
    if (isError(error, 'cancelled')) return
    // An Error, or a core error as it crossed from main (plain JSON: name, code, message).
    const text = (error as { message?: unknown } | null)?.message
    const message = typeof text === 'string' ? text : String(error)
    const id = next++
    notices.value = [...notices.value.slice(-4), { id, kind: 'error', title: doing ? `${doing}: ${titleOf(error)}` : titleOf(error), message }]
  }

  /** A quiet note that goes by itself. */
  function note(title: string, message = ''): void {
    const id = next++
    notices.value = [...notices.value.slice(-4), { id, kind: 'info', title, message }]
    setTimeout(() => dismiss(id), NOTE_MS)
  }

  return { notices, dismiss, error, note }
})

/** The core as the tests start it: a synced data folder, and the core's host in this thread with the session it runs. */
import { CoreClient } from '../../../src-main/main-process/core-client'
import { inProcessHost } from '../../../src-main/core/host/in-process'
import type { WriterOptions } from '../../../src-main/core/host/writer'
import { openLibrary } from '../../../src-main/core/library/library'
import type { AppSession, SessionEvent } from '../../../src-main/core/session/session'
import { SettingsStore } from '../../../src-main/core/library/settings'
import { QUICK_RETRIES } from './fixtures'

/** Names the service in dataDir's settings and syncs it there (no avatars), so a session opens a fresh cache and does not sync. */
export async function syncedDataDir(baseUrl: string, dataDir: string): Promise<string> {
  const settings = new SettingsStore(dataDir)
  settings.update({ baseUrl })
  settings.dispose()
  const library = openLibrary({ dataDir, client: QUICK_RETRIES })
  try {
    await library.sync.start({ skipAvatars: true })
  } finally {
    await library.dispose()
  }
  return dataDir
}

/** Downloads retry quickly and always find room. */
export const QUICK_DOWNLOADS = { transferSettings: { backoffMs: 5, maxDelayMs: 20 }, freeSpace: async () => 1024 ** 4 } as const

/**
 * The core's host with both its threads in this one (the same code as in its process, over in-memory
 * ports), its demo catalogue the service at baseUrl; the session is handed back to look inside.
 */
export async function startInProcessCore(options: { dataDir: string; baseUrl: string; session?: WriterOptions['session'] }): Promise<{ core: CoreClient; session: AppSession }> {
  let session!: AppSession
  const core = await CoreClient.start({
    launch: inProcessHost({
      dataDir: options.dataDir,
      startDemo: async () => ({ baseUrl: options.baseUrl, close: async () => undefined }),
      session: options.session ?? { library: { client: QUICK_RETRIES, downloads: QUICK_DOWNLOADS } },
      onSession: (opened) => (session = opened),
    }),
  })
  return { core, session }
}

/** The first event of this type (and predicate) from now on; rejects naming it after timeoutMs. */
export function nextEvent<T extends SessionEvent['type']>(
  session: AppSession,
  type: T,
  predicate: (event: Extract<SessionEvent, { type: T }>) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<Extract<SessionEvent, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose()
      reject(new Error(`timed out waiting for a ${type} event`))
    }, timeoutMs)
    const subscription = session.onDidEmit((event) => {
      if (event.type !== type || !predicate(event as Extract<SessionEvent, { type: T }>)) return
      clearTimeout(timer)
      subscription.dispose()
      resolve(event as Extract<SessionEvent, { type: T }>)
    })
  })
}

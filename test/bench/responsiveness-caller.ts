/**
 * The window's side of the responsiveness benchmark, on a thread of its own so
 * that its work never shows in the app's event loop: calls the contract over
 * the web bridge as the window does, one after another, and times each one.
 * A phase ends when its condition holds (the sync ended, the downloads are
 * complete, the time is up); it answers with every call's time, by channel.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { timedCalls } from './timed-calls'

export interface CallerPhase {
  origin: string
  token: string
  /** 'sync': until the first sync ends; 'downloads': until `downloads` files are complete; 'idle': for `seconds`. */
  until: { sync: true } | { downloads: number } | { seconds: number }
  /** Pause between two rounds of calls, as a person using the window leaves (ms). */
  pauseMs: number
}

export interface CallerResult {
  /** Milliseconds of each call, by channel. */
  times: Record<string, number[]>
  rounds: number
  failures: string[]
}

const phase = workerData as CallerPhase
const { times, failures, call } = timedCalls(phase.origin, phase.token)

async function run(): Promise<CallerResult> {
  const started = performance.now()
  const usernames: string[] = []
  let rounds = 0
  let lastCheck = 0
  for (;;) {
    // The list as the window asks for it while someone types "a"; then an artist from it; then the queue's state;
    // then What's new, the follows and the artists list's filter counts, as their screens read them.
    const page = (await call('catalogue:list', [{ q: 'a', perPage: 50, page: 1 + (rounds % 3) }])) as { artists: { username: string }[] } | undefined
    for (const artist of page?.artists ?? []) if (usernames.length < 500) usernames.push(artist.username)
    if (usernames.length > 0) await call('catalogue:artist', [usernames[rounds % usernames.length]])
    await call('downloads:state', [])
    await call('catalogue:whatsNew', [200])
    await call('follows:list', [])
    await call('catalogue:filterCounts', [{ q: 'a' }])
    rounds += 1
    const now = performance.now()
    if ('seconds' in phase.until && now - started >= phase.until.seconds * 1000) break
    if (now - lastCheck >= 250) {
      lastCheck = now
      if ('sync' in phase.until) {
        const state = (await call('sync:state', [], false)) as { status: string; lastFullSyncAt: number | null } | undefined
        if (state?.status === 'idle' && state.lastFullSyncAt !== null) break
      } else if ('downloads' in phase.until) {
        const completed = (await call('downloads:list', ['completed'], false)) as unknown[] | undefined
        if ((completed?.length ?? 0) >= phase.until.downloads) break
      }
    }
    await new Promise((resolve) => setTimeout(resolve, phase.pauseMs))
  }
  return { times, rounds, failures }
}

run().then(
  (result) => parentPort!.postMessage(result),
  (error: unknown) => parentPort!.postMessage({ times, rounds: 0, failures: [...failures, String(error)] }),
)

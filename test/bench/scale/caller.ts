/**
 * Part 6's window, on a worker thread (as bench:responsiveness's caller) so that its own work
 * never delays the calls it times: calls the contract over the web bridge as the window does,
 * one after another, one frame apart: a search for "a" (50 a page, its first three pages in
 * turn), an artist from it, the queue's state. It stops when the sync is done, or after the
 * given seconds, and answers with every call's time by channel.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { timedCalls } from '../timed-calls'

export interface CallerJob {
  origin: string
  token: string
  until: { sync: true } | { seconds: number }
}

export interface CallerResult {
  times: Record<string, number[]>
  failures: string[]
}

/** The calls' times, and main's event-loop delay meanwhile (ms). */
export interface CallsMeasure {
  calls: CallerResult
  loopMax: number
  loopP99: number
}

/** Between two rounds: one 60 Hz frame, as a window busy scrolling and typing asks at most. */
const PAUSE_MS = 16

const job = workerData as CallerJob
const { times, failures, call } = timedCalls(job.origin, job.token)

async function run(): Promise<CallerResult> {
  const started = performance.now()
  const usernames: string[] = []
  let lastCheck = 0
  for (let round = 0; ; round++) {
    const page = (await call('catalogue:list', [{ q: 'a', perPage: 50, page: 1 + (round % 3) }])) as { artists: { username: string }[] } | undefined
    for (const artist of page?.artists ?? []) if (usernames.length < 500) usernames.push(artist.username)
    if (usernames.length > 0) await call('catalogue:artist', [usernames[round % usernames.length]])
    await call('downloads:state', [])
    const now = performance.now()
    if ('seconds' in job.until && now - started >= job.until.seconds * 1000) break
    if ('sync' in job.until && now - lastCheck >= 250) {
      lastCheck = now
      const state = (await call('sync:state', [], false)) as { status: string; lastFullSyncAt: number | null } | undefined
      if (state?.status === 'idle' && state.lastFullSyncAt !== null) break
    }
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS))
  }
  return { times, failures }
}

run().then(
  (result) => parentPort!.postMessage(result),
  (error: unknown) => parentPort!.postMessage({ times, failures: [...failures, String(error)] }),
)

/**
 * Attack 30: a service that trickles one byte every 25 s is never silent long enough for a
 * request's idle timeout; each request ran to its deadline and was tried again, silently: `cli
 * sync` sat for about six minutes saying nothing. Now every retry is told (the CLI prints what,
 * why and when; the window's sync status shows it), and the run as a whole gives up when no usable
 * answer has come for its budget (2 minutes; shorter here), with "the service stopped answering",
 * resumable. The service here trickles a byte every 200 ms and each request's deadline is 600 ms,
 * the same race at a test's pace.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, onTestFinished } from 'vitest'
import type { SyncProgress } from '../../../src-main/core/shared/types'
import { cliInProcess } from '../support/cli'
import { catalogueTest } from '../support/fixtures'

// The demo is not asked: the fixture's library opener is, pointed at the trickling service.
const test = catalogueTest({ artists: 5, seed: 30, maxFileMb: 1 })

const CLIENT = { requestTimeoutMs: 600, retries: 100, backoffMs: 50, maxDelayMs: 100 }
const SILENCE_MS = 2_500

/** Answers every request with 200 and then one byte every 200 ms, never the end; each trickle stops after 5 s. */
async function tricklingService(): Promise<string> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    let sent = 0
    const timer = setInterval(() => {
      if (++sent > 25 || response.destroyed) return void (clearInterval(timer), response.destroy())
      response.write(' ')
    }, 200)
    response.once('close', () => clearInterval(timer))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => {
    server.closeAllConnections()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('attack 30: a service that trickles', () => {
  test('the sync tells each retry and stops once nothing usable has come for its budget', async ({ openLibrary }) => {
    const library = openLibrary({ baseUrl: await tricklingService(), client: CLIENT, syncSilenceLimitMs: SILENCE_MS })
    const retries: NonNullable<SyncProgress['retry']>[] = []
    library.sync.onDidProgress((progress) => progress.retry && retries.push(progress.retry))
    const startedAt = performance.now()
    const failure = await library.sync.start({ skipAvatars: true }).catch((error: unknown) => error)
    const tookMs = performance.now() - startedAt
    expect(failure).toMatchObject({ code: 'network', message: expect.stringMatching(/^the service stopped answering: nothing usable came back in \d+ s \(last: .*\); .* resumes/) })
    expect(tookMs).toBeGreaterThanOrEqual(SILENCE_MS)
    expect(tookMs).toBeLessThan(SILENCE_MS + 2_000)
    expect(retries.length).toBeGreaterThan(0)
    expect(retries[0]).toMatchObject({ what: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\//), attempt: 1, inMs: expect.any(Number) })
    expect(retries[0]!.why).toMatch(/no complete answer within 600 ms/)
    // Stopped, not lost: the run is left to resume.
    expect(library.sync.state).toMatchObject({ status: 'idle', lastError: { message: expect.stringMatching(/stopped answering/) } })
  })

  test('the CLI prints a line per retry and the reason it stopped', async ({ tempDir }) => {
    const run = await cliInProcess(['sync', '--base-url', await tricklingService(), '--data-dir', tempDir(), '--no-avatars'], {
      client: CLIENT,
      syncSilenceLimitMs: SILENCE_MS,
    })
    expect(run.code).toBe(1)
    const lines = run.stderr.split('\n')
    expect(lines.filter((line) => /^retrying http:\/\/127\.0\.0\.1:\d+\/api\/v1\/\S+ \(try \d+ in \d+ s\): /.test(line)).length).toBeGreaterThan(1)
    expect(run.stderr).toMatch(/the service stopped answering/)
  })
})

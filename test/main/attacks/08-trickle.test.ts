/**
 * Attack 8: a server that trickles its answer a byte at a time, each byte
 * sooner than the idle timeout, held a catalogue or avatar request (and with
 * it the sync and its cross-process lock) forever. Now every catalogue and
 * avatar request has an overall deadline: past it the request fails with a
 * retryable network error, is retried a bounded number of times, and the sync
 * ends.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createCatalogueClient } from '../../../src-main/core/api/index'
import { openLibrary } from '../../../src-main/core/library/library'
import { TuneshelfError } from '../../../src-main/core/shared/errors'
import { fetchAvatar } from '../../../src-main/core/sync/avatars'
import { test as withTempDir } from '../support/fixtures'

const DEADLINE_MS = 300
/** How long the test waits before calling the request hung. */
const HUNG_MS = 4_000

let baseUrl: string
let requests = 0
let server: http.Server

beforeAll(async () => {
  // Every answer: headers at once, then one byte every 50 ms (far inside any idle timeout), for at most a minute.
  server = http.createServer((_request, response) => {
    requests++
    response.writeHead(200, { 'content-type': 'application/json' })
    let sent = 0
    const timer = setInterval(() => {
      if (++sent > 1_200) {
        clearInterval(timer)
        response.end()
      } else response.write(' ')
    }, 50)
    response.on('close', () => clearInterval(timer))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
)

/** The outcome of work, or 'hung' when it has not settled within HUNG_MS; with the time it took. */
async function settledWithin<T>(work: Promise<T>): Promise<{ outcome: unknown; ms: number }> {
  const start = performance.now()
  let timer: NodeJS.Timeout | undefined
  const outcome = await Promise.race([
    work.then(
      (value) => ({ value }),
      (error: unknown) => error,
    ),
    new Promise((resolve) => (timer = setTimeout(() => resolve('hung'), HUNG_MS))),
  ])
  clearTimeout(timer)
  return { outcome, ms: performance.now() - start }
}

function expectDeadline(outcome: unknown): void {
  expect(outcome).toBeInstanceOf(TuneshelfError)
  expect(outcome).toMatchObject({ code: 'network', retryable: true })
  expect((outcome as Error).message).toMatch(new RegExp(`no complete answer within ${DEADLINE_MS} ms`))
}

describe('a server that trickles its answers', () => {
  test('fails a catalogue request at its deadline, after a bounded number of tries', async () => {
    requests = 0
    const client = createCatalogueClient({ baseUrl, requestTimeoutMs: DEADLINE_MS, retries: 2, backoffMs: 5 })
    const { outcome, ms } = await settledWithin(client.accessLevels())
    expectDeadline(outcome)
    expect(requests).toBe(3)
    expect(ms).toBeLessThan(3 * DEADLINE_MS + 1_000)
  })

  test('fails an avatar request at its deadline', async () => {
    requests = 0
    const client = createCatalogueClient({ baseUrl, requestTimeoutMs: DEADLINE_MS, retries: 0 })
    const { outcome, ms } = await settledWithin(fetchAvatar(client, '/avatars/slow.png', new AbortController().signal))
    expectDeadline(outcome)
    expect(requests).toBe(1)
    expect(ms).toBeLessThan(DEADLINE_MS + 1_000)
  })

  withTempDir('ends the sync, which lets go of its lock', async ({ tempDir }) => {
    const dataDir = tempDir()
    const library = openLibrary({ dataDir, baseUrl, client: { requestTimeoutMs: DEADLINE_MS, retries: 1, backoffMs: 5 } })
    try {
      const { outcome } = await settledWithin(library.sync.start({ skipAvatars: true }))
      expectDeadline(outcome)
      expect(library.sync.state).toMatchObject({ status: 'idle', lastError: { code: 'network' } })
      // The lock is free: a second sync starts (and ends the same way) instead of waiting or being refused as busy.
      const again = await settledWithin(library.sync.start({ skipAvatars: true }))
      expectDeadline(again.outcome)
    } finally {
      await library.dispose()
    }
  })
})

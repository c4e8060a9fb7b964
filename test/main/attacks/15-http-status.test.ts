/**
 * Attack 15 (part): the same HTTP status meant different things to the
 * catalogue client and to downloads (410 was "rejected" in one and "not found"
 * in the other). Now one table (core/api/status.ts) maps a status to an error
 * for both: here a real server answers each status, to a client's request and
 * to a download, and both failures must be of the same class and code.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createCatalogueClient } from '../../../src-main/core/api/index'
import { transfer } from '../../../src-main/core/downloads/transfer'
import { TuneshelfError } from '../../../src-main/core/shared/errors'
import { rejectionOf, startRawServer, type RawServer } from '../core/api/helpers'

/** What each status must mean, to both callers. */
const TABLE: [number, string, string, boolean][] = [
  [400, 'RejectedError', 'rejected', false],
  [401, 'RejectedError', 'rejected', false],
  [403, 'RejectedError', 'rejected', false],
  [404, 'NotFoundError', 'not_found', false],
  [410, 'NotFoundError', 'not_found', false],
  [429, 'RateLimitedError', 'rate_limited', true],
  [500, 'ServerError', 'server', true],
  [503, 'ServerError', 'server', true],
]

let server: RawServer
let folder: string

beforeAll(async () => {
  // Answers /status/NNN with that status and a JSON error body, as the service does.
  server = await startRawServer((request, response) => {
    const status = Number(/^\/status\/(\d+)/.exec(request.url ?? '')?.[1] ?? 500)
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `status ${status}` }))
  })
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-status-'))
})
afterAll(async () => {
  await server.close()
  fs.rmSync(folder, { recursive: true, force: true })
})

describe('an HTTP status means one error, to the catalogue client and to downloads alike', () => {
  test.for(TABLE)('%i is a %s (%s)', async ([status, name, code, retryable]) => {
    const url = `${server.url}/status/${status}`
    const client = createCatalogueClient({ baseUrl: server.url, retries: 0 })
    const fromClient = await rejectionOf(client.fetchBinary(url))
    const fromDownload = await rejectionOf(
      transfer({ url, target: path.join(folder, `${status}.mp3`), folder, expectedBytes: 10, validator: null, signal: new AbortController().signal, retries: 0 }),
    )
    for (const error of [fromClient, fromDownload]) {
      expect(error).toBeInstanceOf(TuneshelfError)
      expect(error).toMatchObject({ name, code, retryable, status })
      expect((error as Error).message).toContain(String(status))
    }
    expect((fromClient as Error).constructor).toBe((fromDownload as Error).constructor)
  })
})

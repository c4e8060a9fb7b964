/**
 * Attack 18: a service that claims 100,000 pages in each list (a count attack 1 lets through: it
 * is five million artists, the most a catalogue is believed to hold) and lists nobody on any of
 * them. Every page was asked for: 500,000 requests for an empty catalogue. Now a list ends at its
 * first empty page, the run completes, and the CLI says which list ended where.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, onTestFinished } from 'vitest'
import { cliInProcess } from '../support/cli'
import { catalogueTest } from '../support/fixtures'

// The demo is not asked: the fixture's library opener is, pointed at the hostile service.
const test = catalogueTest({ artists: 5, seed: 18, maxFileMb: 1 })

/** Lists nobody, on each of 100,000 claimed pages; answers at most 2,000 requests (a runaway sync cannot run the test forever). */
async function emptyPagesService(): Promise<{ baseUrl: string; listRequests: () => number }> {
  let lists = 0
  let answered = 0
  const server = http.createServer((request, response) => {
    if (++answered > 2_000) return void response.writeHead(400).end()
    const url = new URL(request.url ?? '/', 'http://localhost')
    const json = (body: string): void => void response.writeHead(200, { 'content-type': 'application/json' }).end(body)
    if (url.pathname === '/api/v1/artists') {
      lists++
      json('{"pages":100000,"artists":[]}')
    } else if (url.pathname === '/api/v1/access_levels') json('{}')
    else response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, listRequests: () => lists }
}

describe('attack 18: a service that claims 100,000 empty pages', () => {
  test('a sync ends each list at its first empty page and completes, in a handful of requests', async ({ openLibrary }) => {
    const service = await emptyPagesService()
    const library = openLibrary({ baseUrl: service.baseUrl })
    const concurrency = 4
    const report = await library.sync.start({ concurrency, skipAvatars: true })
    // Five lists, each its first page, and at most the pages already asked for beside it.
    expect(service.listRequests()).toBeLessThanOrEqual(5 * concurrency)
    expect(report.listsEndedEarly).toHaveLength(5)
    expect(report.listsEndedEarly[0]).toMatchObject({ page: 1, claimed: 100_000 })
  })

  test('the CLI says which list ended where, and exits 0', async ({ tempDir }) => {
    const service = await emptyPagesService()
    const run = await cliInProcess(['sync', '--base-url', service.baseUrl, '--data-dir', tempDir()])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout + run.stderr).toMatch(/the \w+ list ended at its empty page 1, though the service claimed 100000 pages/)
    expect(service.listRequests()).toBeLessThanOrEqual(20)
  })
})

/**
 * Attack 6: the service's error bodies and texts went whole into memory and
 * into the cache: a multi-megabyte JSON `error` became the error's message,
 * its `body`, the run's list of failures and the artist's `detail_error`
 * (150 such answers left a 3.1 GB cache), and a name or a bio of any size was
 * stored as it came. Now every service text that is kept or shown is cleaned
 * (no control characters) and capped where it is read: messages at a few
 * hundred characters, names, titles and bios at sizes a screen can use.
 */
import fs from 'node:fs'
import { describe, expect } from 'vitest'
import type { Library } from '../../../src-main/core/library/library'
import type { RejectedError } from '../../../src-main/core/shared/errors'
import { createCatalogueClient } from '../../../src-main/core/api/index'
import { QUICK_RETRIES, catalogueTest } from '../support/fixtures'
import { rejectionOf } from '../core/api/helpers'

const ARTISTS = 10
const test = catalogueTest({ artists: ARTISTS, seed: 61, maxFileMb: 1 })
test.afterEach(({ demo }) => demo.faults.clear())

/** The longest error message anything may keep: the service's words (300) with the request they came from. */
const MESSAGE_CAP = 1_000
/** Control characters (bidirectional marks are text: the screens isolate them). */
const CONTROL = /\p{Cc}/u

/**
 * A hostile explanation: megabytes, laced with terminal escapes and NULs (few enough
 * that the JSON escapes keep the answer under the client's cap, so it is read, not refused for its size).
 */
function hostileText(megabytes: number): string {
  const unit = 'Service says no. The request is not what this service wanted today.\u0000\u001b[2J\r\n'
  return unit.repeat(Math.ceil((megabytes * 1_000_000) / unit.length))
}

/** Bytes of the cache on disk, its write-ahead log included. */
function cacheBytes(library: Library): number {
  return [library.cacheFile, `${library.cacheFile}-wal`].reduce((sum, file) => sum + (fs.existsSync(file) ? fs.statSync(file).size : 0), 0)
}

function expectCleanMessage(message: string): void {
  expect(message.length).toBeLessThanOrEqual(MESSAGE_CAP)
  expect(message).not.toMatch(CONTROL)
}

describe('a service whose error answers are megabytes long', () => {
  test('leaves the sync finished, the cache small and every kept message short and clean', async ({ demo, openLibrary }) => {
    const body = JSON.stringify({ error: hostileText(2.5) })
    // Some details rejected (400, not retried), the rest failing with 500 (retried, then noted): all with the same body.
    demo.faults.add({ path: '/api/v1/artists/*', times: 5, fault: { kind: 'respond', status: 400, headers: { 'content-type': 'application/json' }, body } })
    demo.faults.add({ path: '/api/v1/artists/*', times: 1_000, fault: { kind: 'respond', status: 500, headers: { 'content-type': 'application/json' }, body } })
    // One retry is enough to show a retried failure keeps nothing more, and keeps the test quick.
    const library = openLibrary({ client: { ...QUICK_RETRIES, retries: 1 } })
    const report = await library.sync.start({ skipAvatars: true })

    expect(report.detailFailures.length).toBe(ARTISTS)
    const errors = library.catalogue.status().detailErrors
    expect(errors).toHaveLength(ARTISTS)
    for (const message of [...report.detailFailures.map((failure) => failure.message), ...errors.map((error) => error.error)]) {
      expectCleanMessage(message)
      // Still the service's own words, and the status: the user can tell what happened.
      expect(message).toMatch(/HTTP (400|500).*Service says no\./)
    }
    expect(cacheBytes(library)).toBeLessThan(2_000_000)
  })

  test('keeps a rejection short: its message and its body', async ({ demo }) => {
    const body = JSON.stringify({ error: hostileText(2) })
    demo.faults.add({ path: '/api/v1/access_levels', fault: { kind: 'respond', status: 403, headers: { 'content-type': 'application/json' }, body } })
    const error = (await rejectionOf(createCatalogueClient({ baseUrl: demo.baseUrl, retries: 0 }).accessLevels())) as RejectedError
    expect(error).toMatchObject({ code: 'rejected', status: 403 })
    expectCleanMessage(error.message)
    expect(error.message).toContain('Service says no.')
    expect(error.body!.length).toBeLessThanOrEqual(2_000)
  })

  test('stores a list answer with a 2.5 MB artist name and a long bio cut to size, without control characters', async ({ demo, openLibrary }) => {
    const artist = {
      username: 'hostile-name',
      num_tracks: 0,
      pf_name: `\u001b[31mA name${hostileText(2.5)}`,
      pf_bio: `First line\nsecond line\u0000${'b'.repeat(500_000)}`,
      location: { id: 7, name: hostileText(0.3) },
      items: [],
    }
    const page = JSON.stringify({ pages: 1, artists: [{ artist }] })
    demo.faults.add({ path: '/api/v1/artists', fault: { kind: 'respond', status: 200, headers: { 'content-type': 'application/json' }, body: page } })
    const library = openLibrary()
    await library.sync.start({ skipAvatars: true })
    const stored = library.catalogue.artist('hostile-name')
    expect(stored.name.startsWith('[31mA nameService says no. The request')).toBe(true)
    expect(stored.name.length).toBeLessThanOrEqual(200)
    expect(stored.name).not.toMatch(CONTROL)
    expect(stored.bio.startsWith('First line\nsecond line')).toBe(true)
    expect(stored.bio.length).toBeLessThanOrEqual(20_000)
    expect(stored.bio).not.toContain('\u0000')
    expect(stored.location!.name.length).toBeLessThanOrEqual(200)
    expect(cacheBytes(library)).toBeLessThan(2_000_000)
  })
})

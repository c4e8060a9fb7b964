/**
 * Attack 29: one artist the service describes badly (a username or an upload id over 200
 * characters) or one malformed access level failed every sync of that catalogue, for good: the
 * whole page (or all the levels) was refused. Now that entry is left out, counted and told at the
 * end (`skipped 2 entries the service described badly: ...`), and the run fails only when most of
 * a page is bad (then it is the service that is wrong, not one entry).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, onTestFinished } from 'vitest'
import { cliInProcess } from '../support/cli'
import { catalogueTest } from '../support/fixtures'

// The demo is not asked: the fixture's library opener is, pointed at the hostile service.
const test = catalogueTest({ artists: 5, seed: 29, maxFileMb: 1 })

const LONG = 'x'.repeat(300)

function listed(username: string, uploadId = `${username}-1`): object {
  return {
    artist: {
      username, num_tracks: 1, pf_name: username, pf_facebook: null, pf_twitter: null, pf_website: null, pf_bio: '',
      avatar: '', avatar_thumb: '', location: { id: 1, name: 'Here' }, user: { username }, items: [{ item: { subtype: 'track', upload: { id: uploadId } } }],
    },
  }
}

function detail(username: string): object {
  return {
    username, num_tracks: 1, pf_name: username, pf_facebook: null, pf_twitter: null, pf_website: null, pf_bio: '', avatar: '', avatar_thumb: '', '': null,
    items: [{ item: { id: 't', title: 'Track', subtype: 'track', artist: { username },
      upload: { id: `${username}-1`, created_at: '2026-01-01T00:00:00.000+00:00', bytes: 10, downloads: 0, hotlinks: 0, ext: 'mp3', hotlink_path: `/f/${username}.mp3` } } }],
  }
}

const LEVEL = { id: 1, name: 'Free', maxsize: 100, price: 0, bandwidth: 10, storage: 1 }

/** A catalogue of four good artists and `bad` bad ones on its one page, and a level with no price beside two good ones. */
async function hostileService(bad: number): Promise<string> {
  const good = ['ann', 'bob', 'cat', 'dan']
  const page = [...good.map((name) => listed(name)), listed(LONG), listed('eve', `u${LONG}`), ...Array.from({ length: bad - 2 }, (_, index) => listed(`${LONG}${index}`))]
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const json = (body: unknown): void => void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    const username = url.pathname.match(/^\/api\/v1\/artists\/([^/]+)$/)?.[1]
    if (url.pathname === '/api/v1/artists') json({ pages: 1, artists: url.searchParams.get('is_podcaster') === '1' ? [] : page })
    else if (username !== undefined && good.includes(username)) json(detail(username))
    else if (url.pathname === '/api/v1/access_levels') json({ 1: LEVEL, 2: { ...LEVEL, id: 2, name: 'Plus' }, 3: { id: 3, name: 'Broken' } })
    else response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('attack 29: entries the service describes badly', () => {
  test('are left out, each told once, and the rest of the catalogue syncs', async ({ openLibrary }) => {
    const library = openLibrary({ baseUrl: await hostileService(2) })
    const report = await library.sync.start({ skipAvatars: true })
    expect(report.skipped.map((entry) => entry.what).sort()).toEqual(['access level 3', 'eve', `${'x'.repeat(59)}…`])
    expect(report.skipped.find((entry) => entry.what === 'eve')?.message).toMatch(/upload\.id: Expected an upload id of at most 200 characters/)
    expect(report.skipped.find((entry) => entry.what === 'access level 3')?.message).toMatch(/maxsize/)
    expect(library.catalogue.list({ perPage: 50 }).artists.map((artist) => artist.username).sort()).toEqual(['ann', 'bob', 'cat', 'dan'])
    expect(library.catalogue.levels().map((level) => level.name)).toEqual(['Free', 'Plus'])
  })

  test('the CLI says what it skipped, and exits 0', async ({ tempDir }) => {
    const run = await cliInProcess(['sync', '--base-url', await hostileService(2), '--data-dir', tempDir(), '--no-avatars'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/skipped 3 entries the service described badly: .*access level 3 \(.*\)/)
  })

  test('a page that is mostly bad still fails the run: the service is wrong, not one entry', async ({ openLibrary }) => {
    const library = openLibrary({ baseUrl: await hostileService(6) })
    await expect(library.sync.start({ skipAvatars: true })).rejects.toMatchObject({ code: 'bad_response' })
  })
})

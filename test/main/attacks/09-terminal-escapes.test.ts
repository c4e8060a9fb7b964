/**
 * Attack 9: the catalogue's text reached the terminal as it came. Artist
 * names, bios, track titles and the service's error messages went raw into
 * what `sync`, `artist`, `download` and the web bridge print, so a service could
 * retitle the terminal, clear the screen and print a fake "sync finished OK",
 * write the clipboard (OSC 52), or overwrite a line with a carriage return.
 * Now every line printed is cleaned as the tables always were, and `--json`
 * escapes those characters (still valid JSON, the same strings once parsed).
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { describe, expect, onTestFinished, vi } from 'vitest'
import type { RunningCatalogueService } from '../../../src-main/demo/index'
import { cliInProcess as cli, type CliRun } from '../support/cli'
import { catalogueTest } from '../support/fixtures'
import { withCache } from '../core/sync/cache-file'
import { spawnWeb, writeRenderer } from '../web/support'

const test = catalogueTest({ artists: 8, seed: 9, maxFileMb: 1 })

/** What a hostile catalogue writes into its text. */
const HOSTILE = [
  '\u001b]0;owned\u0007', // the terminal's title
  '\u001b[2J\u001b[Hsync finished OK', // the screen cleared, a fake verdict
  '\u001b]52;c;cm0gLXJmIH4K\u0007', // the clipboard
  '\u009b31mred', // CSI as one C1 byte
  'real\rfake', // a line overwritten
].join(' ')

/** What must never reach a terminal. */
function expectClean(text: string, what: string): void {
  expect(text, what).not.toContain('\u001b')
  expect(text, what).not.toContain('\u009b')
  expect(text, what).not.toContain('\u0007')
  expect(text.replaceAll('\r\n', '\n'), what).not.toContain('\r')
}

function expectCleanRun(run: CliRun, what: string): void {
  expectClean(run.stdout, `${what}: stdout`)
  expectClean(run.stderr, `${what}: stderr`)
}

interface Hostile {
  baseUrl: string
  /** The artist whose username the lists make hostile, and whose detail the service refuses with a hostile message. */
  victim: string
  /** Its username as the lists give it. */
  victimName: string
  /** The upload whose file the service refuses, with a hostile message. */
  refusedUpload: string
  /** The list pages are refused too (a sync then fails with the hostile message). */
  refuseLists: boolean
}

/**
 * The demo catalogue behind a service of the test's own that puts HOSTILE into every name, bio,
 * location and title, and into the error messages of one artist's detail, one file and, when asked,
 * the lists. It answers a bounded number of requests.
 */
async function hostileService(demo: RunningCatalogueService): Promise<Hostile> {
  const victim = demo.catalogue.artists.find((artist) => artist.numTracks > 0)!.username
  const [, other] = demo.catalogue.artists.filter((artist) => artist.numTracks > 0 && artist.username !== victim)
  const refusedUpload = demo.catalogue.tracksOf(other!)[0]!.uploadId
  const state: Hostile = { baseUrl: '', victim, victimName: `${victim} ${HOSTILE}`, refusedUpload, refuseLists: false }
  let answered = 0
  const refuse = (response: http.ServerResponse): void => {
    response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: HOSTILE }))
  }
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    if (++answered > 2_000) return void response.writeHead(503).end()
    if (url.pathname === `/hotlink/${refusedUpload}.${demo.catalogue.findUpload(refusedUpload)!.track.ext}`) return refuse(response)
    const detail = /^\/api\/v1\/artists\/([^/]+)$/.exec(url.pathname)
    if (detail && decodeURIComponent(detail[1]!).startsWith(victim)) return refuse(response)
    if (url.pathname === '/api/v1/artists' && state.refuseLists) return refuse(response)
    http.get(`${demo.baseUrl}${request.url}`, (upstream) => {
      const chunks: Buffer[] = []
      upstream.on('data', (chunk: Buffer) => chunks.push(chunk))
      upstream.on('end', () => {
        let body = Buffer.concat(chunks)
        if (url.pathname.startsWith('/api/v1/artists') && upstream.statusCode === 200) body = Buffer.from(JSON.stringify(poison(JSON.parse(body.toString('utf8')))))
        const headers = { ...upstream.headers }
        delete headers['content-length']
        response.writeHead(upstream.statusCode ?? 502, headers).end(body)
      })
    })
  })
  /** HOSTILE in every profile and title, and in the victim's username; the files fetched through this service too. */
  const poison = (json: Record<string, unknown>): unknown => {
    const profile = (artist: Record<string, unknown>): void => {
      if (artist['username'] === victim) artist['username'] = state.victimName
      artist['pf_name'] = `${String(artist['pf_name'])} ${HOSTILE}`
      artist['pf_bio'] = HOSTILE
      artist['pf_website'] = `https://example.com/${HOSTILE}`
      artist['pf_twitter'] = HOSTILE
      if (artist['location']) (artist['location'] as Record<string, unknown>)['name'] = HOSTILE
      for (const { item } of (artist['items'] ?? []) as { item: Record<string, unknown> }[]) {
        if (typeof item['title'] === 'string') item['title'] = `${item['title']} ${HOSTILE}`
        const upload = item['upload'] as Record<string, unknown> | undefined
        if (upload && typeof upload['hotlink_path'] === 'string') upload['hotlink_path'] = upload['hotlink_path'].replace(demo.baseUrl, state.baseUrl)
      }
    }
    if (Array.isArray(json['artists'])) for (const entry of json['artists'] as { artist: Record<string, unknown> }[]) profile(entry.artist)
    else profile(json)
    return json
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return state
}

describe('a catalogue whose text holds terminal escapes', () => {
  test('the CLI prints none of them; --json escapes them and stays valid', async ({ demo, tempDir }) => {
    const hostile = await hostileService(demo)
    const dataDir = tempDir()
    const synced = await cli(['sync', '--base-url', hostile.baseUrl, '--data-dir', dataDir, '--no-avatars'])
    expect(synced.code, synced.stderr).toBe(0)
    expect(synced.stderr).toContain(`could not fetch ${hostile.victim}`)
    expect(synced.stderr).toContain('sync finished OK')
    expectCleanRun(synced, 'sync')

    const shown = demo.catalogue.artists.find((artist) => artist.numTracks > 0 && artist.username !== hostile.victim)!
    // And a cache as a version that stored the service's text as it came left it.
    const [cacheFile] = fs.readdirSync(path.join(dataDir, 'catalogues')).filter((file) => file.endsWith('.sqlite'))
    withCache(path.join(dataDir, 'catalogues', cacheFile!), (db) => {
      const { id } = db.prepare('SELECT id FROM artists WHERE username = ?').get(shown.username) as { id: number }
      db.prepare(`UPDATE artists SET pf_name = pf_name || ' ' || @text, pf_bio = @text, location_name = @text WHERE id = @id`).run({ id, text: HOSTILE })
      db.prepare(`UPDATE tracks SET title = title || ' ' || ? WHERE artist_id = ?`).run(HOSTILE, id)
    })
    // The reading verbs at once (each is a process of its own, over the same cache).
    const [artist, victim, artists, json] = await Promise.all([
      cli(['artist', shown.username, '--data-dir', dataDir]),
      cli(['artist', hostile.victimName, '--data-dir', dataDir]),
      cli(['artists', '--data-dir', dataDir]),
      cli(['artist', shown.username, '--data-dir', dataDir, '--json']),
    ])
    expect(artist.code, artist.stderr).toBe(0)
    expect(artist.stdout).toContain('sync finished OK')
    expectCleanRun(artist, 'artist')
    expect(victim.code, victim.stderr).toBe(0)
    expect(victim.stderr).toContain('the last refresh of this artist failed')
    expectCleanRun(victim, 'artist (failed detail)')
    expectCleanRun(artists, 'artists')

    // The verbs of followed artists and the news say the same names.
    const followed = await cli(['follow', shown.username, '--data-dir', dataDir])
    expect(followed.code, followed.stderr).toBe(0)
    expectCleanRun(followed, 'follow')
    for (const verb of ['following', 'whats-new']) {
      const [table, asJson] = await Promise.all([cli([verb, '--data-dir', dataDir]), cli([verb, '--data-dir', dataDir, '--json'])])
      expect(table.code, table.stderr).toBe(0)
      expectCleanRun(table, verb)
      expectClean(asJson.stdout, `${verb} --json`)
      JSON.parse(asJson.stdout)
    }
    const following = await cli(['following', '--data-dir', dataDir, '--json'])
    expect((JSON.parse(following.stdout) as { name: string }[])[0]!.name.endsWith(HOSTILE)).toBe(true)

    expect(json.code).toBe(0)
    expectClean(json.stdout, 'artist --json')
    const parsed = JSON.parse(json.stdout) as { pf_bio: string; items: { item: { title: string } }[] }
    expect(parsed.pf_bio).toBe(HOSTILE)
    expect(parsed.items[0]!.item.title.endsWith(HOSTILE)).toBe(true)

    // A file the service refuses, and one with a hostile title.
    const served = demo.catalogue.tracksOf(shown)[0]!.uploadId
    const to = tempDir()
    const download = await cli(['download', hostile.refusedUpload, served, '--data-dir', dataDir, '--to', to])
    expect(download.code).toBe(1)
    expect(download.stderr).toContain(`${hostile.refusedUpload} failed`)
    expectCleanRun(download, 'download')
    // A sync the service fails with a hostile message, while the queue is listed.
    hostile.refuseLists = true
    const [downloads, listed, failed] = await Promise.all([
      cli(['downloads', '--data-dir', dataDir]),
      cli(['downloads', '--data-dir', dataDir, '--json']),
      cli(['sync', '--base-url', hostile.baseUrl, '--data-dir', dataDir, '--no-avatars']),
    ])
    expect(downloads.code).toBe(0)
    expectCleanRun(downloads, 'downloads')
    expectClean(listed.stdout, 'downloads --json')
    const rows = (JSON.parse(listed.stdout) as { downloads: { uploadId: string; title: string; state: string }[] }).downloads
    expect(rows.find((row) => row.uploadId === hostile.refusedUpload)!.state).toBe('failed')
    expect(rows.find((row) => row.uploadId === served)!.title.endsWith(HOSTILE)).toBe(true)
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('sync failed')
    expect(failed.stderr).toContain('sync finished OK')
    expectCleanRun(failed, 'failed sync')
  }, 60_000)

  test("the web bridge's warnings print none of them", async ({ demo, tempDir }) => {
    const hostile = await hostileService(demo)
    hostile.refuseLists = true
    const renderer = writeRenderer(tempDir())
    // A download folder an older version took through the contract (any absolute path): refused now, and said.
    const dataDir = tempDir()
    fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ baseUrl: hostile.baseUrl, downloadFolder: `/etc/${HOSTILE}` }))
    // Fast retries: the refused lists fail the sync after a few quick retries instead of a person's back-off.
    const web = spawnWeb(['--data-dir', dataDir], { TUNESHELF_WEB_RENDERER_DIR: renderer.root, TUNESHELF_WEB_TEST_TIMING: 'fast' })
    onTestFinished(async () => {
      if (web.child.exitCode === null && web.child.signalCode === null) web.child.kill('SIGKILL')
      await web.exit
    })
    await web.firstLine()
    // The background sync of a first start fails; its notice is the bridge's warning.
    await vi.waitUntil(() => /sync of .* failed/.test(web.stderr()), { timeout: 20_000, interval: 50 })
    web.child.kill('SIGTERM')
    await web.exit
    expect(web.stderr()).toMatch(/sync of .* failed/)
    expect(web.stderr()).toMatch(/downloadFolder .* cannot be used .*sync finished OK/)
    expectClean(web.stderr(), 'web stderr')
    expectClean(web.stdout(), 'web stdout')
  }, 60_000)
})

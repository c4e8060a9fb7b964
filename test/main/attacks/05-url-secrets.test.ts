/**
 * Attack 5: a password in the base URL (`http://user:secret@host/`) was stored
 * in clear. Relative hotlinks were resolved against the base URL with its
 * user-info and kept so in `downloads.url`, in a cache file anyone on the
 * machine could read (0644), and every download list, event and `cli downloads
 * --json` carried it. Now addresses are stored without user-info and the
 * credentials are added at request time, only for the base URL's own origin;
 * every URL that leaves the core has no password; the data folder is the
 * user's alone (0700), and so are the caches and the settings (0600).
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, onTestFinished } from 'vitest'
import Database from 'better-sqlite3'
import { artistDetailJson } from '../../../src-main/demo/responses'
import { openReader } from '../../../src-main/core/host/reader'
import { openLibrary } from '../../../src-main/core/library/library'
import { cliInProcess as cli } from '../support/cli'
import { QUICK_DOWNLOADS } from '../support/core'
import { QUICK_RETRIES, test } from '../support/fixtures'
import { startRelativeCatalogue, type RelativeCatalogue } from './relative-catalogue'

const USER = 'user'
const PASSWORD = 'secret-7Hq2'
const AUTHORIZATION = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`
/** What must be found nowhere: the password, and the header that carries it. */
const SECRETS = [PASSWORD, Buffer.from(`${USER}:${PASSWORD}`).toString('base64')]

function expectNoSecret(what: string, text: string | Buffer): void {
  for (const secret of SECRETS) expect(text.includes(secret), `${what} holds ${secret}`).toBe(false)
}

function modeOf(file: string): number {
  return fs.statSync(file).mode & 0o777
}

interface Services {
  /** The catalogue, which asks for the password on every request, files included. */
  service: RelativeCatalogue
  /** Another origin, which one hotlink of the catalogue points at. */
  elsewhere: RelativeCatalogue
  /** The artist whose tracks are downloaded: its first track is on the other origin, its third answers 404, its fourth redirects there. */
  username: string
  uploads: { elsewhere: string; here: string; missing: string; redirected: string }
  /** Requests the catalogue refused for want of the password. */
  refused: string[]
}

async function startServices(): Promise<Services> {
  const elsewhere = await startRelativeCatalogue({ artists: 4, seed: 55, maxFileMb: 1 })
  onTestFinished(() => elsewhere.close())
  const { catalogue } = elsewhere
  const artist = catalogue.artists.find((candidate) => !candidate.removed && catalogue.tracksOf(candidate).length >= 4)!
  const [first, second, third, fourth] = catalogue.tracksOf(artist)
  const refused: string[] = []
  const detailPath = `/api/v1/artists/${encodeURIComponent(artist.username)}`
  const service = await startRelativeCatalogue(catalogue, (request, response) => {
    if (request.headers.authorization !== AUTHORIZATION) {
      refused.push(request.url ?? '/')
      response.writeHead(401, { 'www-authenticate': 'Basic realm="catalogue"' }).end()
      return true
    }
    if (request.url === `/hotlink/${third!.uploadId}.${third!.ext}`) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"gone"}')
      return true
    }
    if (request.url === `/hotlink/${fourth!.uploadId}.${fourth!.ext}`) {
      // A file of the catalogue's own origin that moved to another: the password must not follow it there.
      response.writeHead(302, { location: `${elsewhere.baseUrl}${request.url}` }).end()
      return true
    }
    if (request.url === detailPath || request.url === `${detailPath}.json`) {
      // One hotlink on another origin: it must be fetched without the catalogue's password.
      const body = artistDetailJson('', catalogue, artist).replace(
        `"hotlink_path":"/hotlink/${first!.uploadId}.`,
        `"hotlink_path":"${elsewhere.baseUrl}/hotlink/${first!.uploadId}.`,
      )
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body)
      return true
    }
    return false
  })
  onTestFinished(() => service.close())
  return {
    service,
    elsewhere,
    username: artist.username,
    uploads: { elsewhere: first!.uploadId, here: second!.uploadId, missing: third!.uploadId, redirected: fourth!.uploadId },
    refused,
  }
}

describe('a password in the base URL', () => {
  test('is sent to its own origin only, and stored, listed, announced and printed nowhere', async ({ tempDir }) => {
    const { service, elsewhere, uploads, refused } = await startServices()
    const baseUrl = service.baseUrl.replace('http://', `http://${USER}:${PASSWORD}@`)
    // A data folder the app creates itself.
    const dataDir = path.join(tempDir(), 'data')
    const library = openLibrary({ dataDir, baseUrl, client: QUICK_RETRIES, downloads: QUICK_DOWNLOADS })
    let disposed = false
    onTestFinished(async () => {
      if (!disposed) await library.dispose()
    })
    library.settings.update({ baseUrl })
    await library.sync.start()

    const events: unknown[] = []
    library.downloads.onDidChange((change) => events.push(change))
    library.downloads.onDidProgress((progress) => events.push(progress))
    library.downloads.onDidPauseQueue((message) => events.push(message))
    const folder = tempDir()
    const queued = await library.downloads.enqueue({ uploadIds: [uploads.elsewhere, uploads.here, uploads.missing, uploads.redirected], folder })
    expectNoSecret('the enqueued downloads', JSON.stringify(queued))
    library.downloads.start()
    await library.downloads.whenIdle()

    // The downloads worked: the catalogue's file with its password, the other origin's without.
    const byUpload = new Map(library.downloads.list().map((download) => [download.uploadId, download]))
    expect(byUpload.get(uploads.here)).toMatchObject({ state: 'completed' })
    expect(byUpload.get(uploads.elsewhere)).toMatchObject({ state: 'completed' })
    expect(byUpload.get(uploads.redirected)).toMatchObject({ state: 'completed' })
    expect(byUpload.get(uploads.missing)).toMatchObject({ state: 'failed', error: expect.stringContaining('404') })
    expect(service.requests.some((request) => request.path.startsWith(`/hotlink/${uploads.here}.`) && request.authorization === AUTHORIZATION)).toBe(true)
    expect(refused).toEqual([])
    const filesElsewhere = elsewhere.requests.filter((request) => request.path.startsWith('/hotlink/'))
    expect(new Set(filesElsewhere.map((request) => request.path.split('.')[0]))).toEqual(new Set([`/hotlink/${uploads.elsewhere}`, `/hotlink/${uploads.redirected}`]))
    expect(filesElsewhere.map((request) => request.authorization)).toEqual(filesElsewhere.map(() => undefined))

    // Nothing that leaves the core carries the password: the list, the events, the window's list.
    expectNoSecret('downloads.list()', JSON.stringify(library.downloads.list()))
    expectNoSecret('a download', JSON.stringify(library.downloads.get(byUpload.get(uploads.missing)!.id)))
    expect(events.length).toBeGreaterThan(0)
    expectNoSecret('the download events', JSON.stringify(events))
    const reader = openReader({ dataDir, cacheFile: library.cacheFile, readFile: library.readFile, displayUrl: library.displayUrl, readOnly: false }, { interrupted: () => [], now: Date.now })
    try {
      const listed = reader.downloads.list()
      expect(listed).toHaveLength(4)
      expectNoSecret('downloads:list', JSON.stringify(listed))
    } finally {
      reader.close()
    }

    // Nor the cache, in its file or its write-ahead log, which only the user may read.
    const cacheFiles = ['', '-wal', '-shm'].map((suffix) => library.cacheFile + suffix).filter((file) => fs.existsSync(file))
    expect(cacheFiles.length).toBeGreaterThan(1)
    for (const file of cacheFiles) expectNoSecret(file, fs.readFileSync(file))
    const settingsFile = path.join(dataDir, 'settings.json')
    if (process.platform !== 'win32') {
      expect(modeOf(dataDir)).toBe(0o700)
      for (const file of [...cacheFiles, settingsFile]) expect(modeOf(file), file).toBe(0o600)
    }
    await library.dispose()
    disposed = true
    expectNoSecret(library.cacheFile, fs.readFileSync(library.cacheFile))

    // The CLI's list; and files left readable by others (as an older version made them) are closed when opened.
    if (process.platform !== 'win32') for (const file of [library.cacheFile, settingsFile]) fs.chmodSync(file, 0o644)
    const run = await cli(['downloads', '--data-dir', dataDir, '--json'])
    expect(run.code, run.stderr).toBe(0)
    expect((JSON.parse(run.stdout) as { downloads: unknown[] }).downloads).toHaveLength(4)
    expectNoSecret('cli downloads --json', run.stdout + run.stderr)
    if (process.platform !== 'win32') for (const file of [library.cacheFile, settingsFile]) expect(modeOf(file), file).toBe(0o600)
  }, 30_000)

  test('stored by an older version, is taken out of the cache when it opens, and the file still works', async ({ tempDir }) => {
    const { service, uploads, refused } = await startServices()
    const baseUrl = service.baseUrl.replace('http://', `http://${USER}:${PASSWORD}@`)
    const dataDir = tempDir()
    const options = { dataDir, baseUrl, client: QUICK_RETRIES, downloads: QUICK_DOWNLOADS }
    const first = openLibrary(options)
    await first.sync.start({ skipAvatars: true })
    const [queued] = (await first.downloads.enqueue({ uploadIds: [uploads.here], folder: tempDir() })).downloads
    const cacheFile = first.cacheFile
    await first.dispose()
    // As an older version stored it: resolved against the base URL, password and all.
    const db = new Database(cacheFile)
    db.prepare('UPDATE downloads SET url = ? WHERE id = ?').run(queued!.url.replace(service.baseUrl, baseUrl), queued!.id)
    db.close()
    expect(fs.readFileSync(cacheFile).includes(PASSWORD)).toBe(true)

    const library = openLibrary(options)
    onTestFinished(() => library.dispose())
    expect(library.downloads.get(queued!.id).url).toBe(queued!.url)
    for (const file of ['', '-wal'].map((suffix) => cacheFile + suffix).filter((name) => fs.existsSync(name))) {
      expectNoSecret(file, fs.readFileSync(file))
    }
    // The download still gets the password from the base URL (the catalogue refuses any request without it).
    library.downloads.start()
    await library.downloads.whenIdle()
    expect(library.downloads.get(queued!.id)).toMatchObject({ state: 'completed' })
    expect(refused).toEqual([])
  })
})

describe('a redirect to another scheme on the same host and port', () => {
  // got drops credentials when the host or port changes, not the scheme: this hook does.
  test('loses the credentials (https to http would send them in clear)', async () => {
    const { Options } = await import('got')
    const { keepCredentialsToOrigin } = await import('../../../src-main/core/api/http')
    const options = new Options({ url: 'http://files.test:8443/a.mp3', username: 'user', password: 'secret', headers: { authorization: 'Basic dXNlcjpzZWNyZXQ=' } })
    ;(options.url as URL).username = 'user'
    ;(options.url as URL).password = 'secret'
    await keepCredentialsToOrigin(options as never, { url: 'https://files.test:8443/a' } as never)
    expect([options.username, options.password, options.headers.authorization]).toEqual(['', '', undefined])
    expect(String(options.url)).toBe('http://files.test:8443/a.mp3')

    const same = new Options({ url: 'https://files.test:8443/b.mp3', username: 'user', password: 'secret' })
    await keepCredentialsToOrigin(same as never, { url: 'https://files.test:8443/a' } as never)
    expect([same.username, same.password]).toEqual(['user', 'secret'])
  })
})

import { describe, expect } from 'vitest'
import { startCatalogueService, type RunningCatalogueService } from '../../../src-main/demo/index'
import { cli as spawnCli, cliInProcess, type CliRun } from '../support/cli'
import { catalogueTest } from '../support/fixtures'
import { withoutDirections } from '../core/api/helpers'

const test = catalogueTest({ artists: 150, seed: 55, maxFileMb: 8 })
const it = test

/** The CLI run in this process (its output captured); the exit codes as a shell sees them are checked in a process of its own below. */
function cli(...args: string[]): Promise<CliRun> {
  return cliInProcess(args)
}

let service: RunningCatalogueService
let dataDir: string
let tempDir: () => string
let synced: CliRun

test.beforeAll(async ({ demo, tempDir: makeTempDir }) => {
  service = demo
  tempDir = makeTempDir
  dataDir = tempDir()
  synced = await cli('sync', '--base-url', `${service.baseUrl}/`, '--data-dir', dataDir)
}, 60_000)

async function serviceJson(path: string): Promise<unknown> {
  // As the app keeps the service's texts: without direction controls (attack 21).
  return withoutDirections(await (await fetch(`${service.baseUrl}${path}`)).json())
}

describe('cli sync', () => {
  it('exits 0, with progress and a summary on stderr and nothing on stdout', () => {
    expect(synced.code).toBe(0)
    expect(synced.stdout).toBe('')
    expect(synced.stderr).toMatch(/^lists\s+\d+\/\d+/m)
    expect(synced.stderr).toMatch(/^details\s+150\/150 \(100%\)$/m)
    expect(synced.stderr).toMatch(/^finishing: updating the search index\nfinished\nsynced /m)
    expect(synced.stderr).toMatch(/synced http:\/\/127\.0\.0\.1:\d+ in [\d.]+ s: \d+ list pages, 150 artist details, 4 access levels, 150 avatar thumbnails/)
  })

  it('fails with a clear message and exit code 1 when the service is unreachable', async () => {
    // In this process its retries are quick: the same failure, without the real back-off.
    const run = await cli('sync', '--base-url', 'http://127.0.0.1:9', '--data-dir', tempDir())
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/sync failed: .*127\.0\.0\.1:9/)
  })
})

describe('cli as a process', () => {
  it('exits with the code of its answer: 0, 1 and 2 as a shell sees them, the answer on stdout', async () => {
    const answered = await spawnCli(['levels', '--data-dir', dataDir, '--json'])
    expect(answered.code).toBe(0)
    expect(JSON.parse(answered.stdout)).toEqual(await serviceJson('/api/v1/access_levels'))
    const failed = await spawnCli(['artist', 'no-such-artist', '--data-dir', dataDir])
    expect(failed).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/no artist named "no-such-artist"/) })
    const usage = await spawnCli(['frobnicate'])
    expect(usage).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/usage: npm run -s cli/) })
  }, 60_000)
})

describe('cli offline answers', () => {
  it('lists artists in the service shape and order, for each filter, sort and page', async () => {
    const cases: [string[], string][] = [
      [[], ''],
      [['--sort', 'top', '--reverse', '--page', '2', '--per-page', '20'], 'sort=top&sort_r=1&page=2&per_page=20'],
      [['--podcasts', '--include-blank', '--per-page', '50'], 'is_podcaster=1&include_blank=1&per_page=50'],
      [['--musicians', '--sort', 'recently_updated', '--page', '3'], 'is_podcaster=0&sort=recently_updated&page=3'],
      [['--sort', 'recently_created', '--page', '99'], 'sort=recently_created&page=99'],
    ]
    for (const [args, query] of cases) {
      const run = await cli('artists', '--data-dir', dataDir, '--json', ...args)
      expect(run.code, args.join(' ')).toBe(0)
      expect(JSON.parse(run.stdout), args.join(' ')).toEqual(await serviceJson(`/api/v1/artists?${query}`))
    }
  })

  it('searches offline', async () => {
    const run = await cli('artists', '--data-dir', dataDir, '--q', 'the', '--json', '--per-page', '50')
    const online = (await serviceJson('/api/v1/artists?q=the&per_page=50')) as { artists: { artist: { username: string } }[] }
    const offline = JSON.parse(run.stdout) as typeof online
    expect(new Set(offline.artists.map((a) => a.artist.username))).toEqual(new Set(online.artists.map((a) => a.artist.username)))
  })

  it('shows one artist in the single-artist shape, plus location and user, without regard to case', async () => {
    const artist = service.catalogue.artists.find((a) => a.numTracks > 2)!
    const run = await cli('artist', artist.username.toUpperCase(), '--data-dir', dataDir, '--json')
    expect(run.code).toBe(0)
    const detail = (await serviceJson(`/api/v1/artists/${artist.username}`)) as Record<string, unknown>
    delete detail['']
    const { location, user, ...rest } = JSON.parse(run.stdout) as Record<string, unknown>
    expect(rest).toEqual(detail)
    expect(user).toEqual({ username: artist.username })
    expect(location).toEqual(artist.location)
  })

  it('prints the access levels in the service shape', async () => {
    const run = await cli('levels', '--data-dir', dataDir, '--json')
    expect(JSON.parse(run.stdout)).toEqual(await serviceJson('/api/v1/access_levels'))
  })

  it('answers with the network gone, in readable tables without --json', async () => {
    const offlineDir = tempDir()
    const own = await startCatalogueService({ artists: 40, seed: 56, maxFileMb: 8 })
    expect((await cli('sync', '--base-url', own.baseUrl, '--data-dir', offlineDir, '--no-avatars')).code).toBe(0)
    await own.close()
    const artists = await cli('artists', '--data-dir', offlineDir, '--per-page', '5')
    expect(artists.code).toBe(0)
    expect(artists.stdout.split('\n')[0]).toMatch(/^#\s+username\s+name\s+tracks\s+kind\s+location$/)
    expect(artists.stdout.trim().split('\n')).toHaveLength(6)
    const first = own.catalogue.list({ page: 1, perPage: 5, sort: 'trending', reverse: false, includeBlank: false }).artists[0]!
    const artist = await cli('artist', first.username, '--data-dir', offlineDir)
    expect(artist.stdout).toContain(`(${first.username})`)
    expect(artist.stdout).toMatch(/upload\s+title\s+type\s+size\s+format\s+date\s+downloads\s+hotlinks/)
    // The ids that download takes are in the table.
    for (const track of own.catalogue.tracksOf(first)) expect(artist.stdout).toMatch(new RegExp(`^${track.uploadId}\\s`, 'm'))
    const levels = await cli('levels', '--data-dir', offlineDir)
    expect(levels.stdout).toMatch(/Platinum\s+4,096 MB\s+\$59\s+1 TB\s+250 GB/)
    // The other service stays reachable by naming it: never synced into this folder, so exit code 2.
    const other = await cli('levels', '--data-dir', offlineDir, '--base-url', service.baseUrl)
    expect(other.code).toBe(2)
    expect(other.stderr).toMatch(/nothing has been synced from/)
  }, 60_000)
})

describe('cli errors', () => {
  it('says nothing was synced, with exit code 2', async () => {
    const run = await cli('artists', '--data-dir', tempDir())
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/nothing has been synced into/)
    expect(run.stdout).toBe('')
  })

  it.each([
    [['frobnicate']],
    [[]],
    [['sync', '--data-dir', '/tmp/x', '--base-url', '']],
    [['artists', '--data-dir', '/tmp/x', '--sort', 'loudest']],
    [['artists', '--data-dir', '/tmp/x', '--page', '0']],
    [['artists', '--data-dir', '/tmp/x', '--podcasts', '--musicians']],
    [['artist', '--data-dir', '/tmp/x']],
    [['levels', '--data-dir', '/tmp/x', '--colour']],
    [['artists', '--data-dir', '/tmp/x', '--base-url', 'ftp://example.com']],
    [['artists', '--data-dir', '/tmp/x', '--base-url', 'not a url']],
    [['artists', '--data-dir', '/tmp/x', '--per-page', 'ten']],
  ])('gives usage and exit code 2 for %j', async (args) => {
    const run = await cli(...args)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/usage: npm run -s cli/)
  })

  it('reports an unknown artist with exit code 1', async () => {
    const run = await cli('artist', 'no-such-artist', '--data-dir', dataDir)
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/no artist named "no-such-artist"/)
  })
})

/**
 * The CLI as a new user meets it: odd folders, Ctrl-C, relative paths, read-only folders, passwords, odd scripts.
 * Run in this process (cli), but in a process of its own (cliProcess, spawnCli) where only a process shows it:
 * Ctrl-C, and paths taken from where the command was typed.
 */
import fs from 'node:fs'
import path from 'node:path'
import stringWidth from 'string-width'
import { describe, expect, vi } from 'vitest'
import { table } from '../../../src-main/cli/table'
import { startCatalogueService, type RunningCatalogueService } from '../../../src-main/demo/index'
import { cli as cliProcess, cliInProcess as cli, exited, spawnCli, type CliRun } from '../support/cli'
import { catalogueTest } from '../support/fixtures'
import { mountReadOnly, readOnlyMountRefusal, readOnlyMountSkipNote } from '../support/mounts'

// Large enough that every unkind name of the generator (fullwidth, Greek, CJK ...) is some artist's.
const test = catalogueTest({ artists: 1100, seed: 1, maxFileMb: 4 })
let service: RunningCatalogueService
let tempDir: () => string
let dataDir: string

test.beforeAll(async ({ demo, tempDir: makeTempDir }) => {
  service = demo
  tempDir = makeTempDir
  dataDir = tempDir()
  expect((await cli(['sync', '--base-url', demo.baseUrl, '--data-dir', dataDir, '--no-avatars'])).code).toBe(0)
}, 60_000)

/** Resolves with the first stderr text of child that matches pattern. */
function stderrMatching(child: ReturnType<typeof spawnCli>, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = ''
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      if (pattern.test(seen)) resolve()
    })
    child.once('exit', () => reject(new Error(`exited before printing ${pattern}: ${seen}`)))
  })
}

async function serviceUsernames(q: string): Promise<Set<string>> {
  const names = new Set<string>()
  for (let page = 1; ; page++) {
    const body = (await (await fetch(`${service.baseUrl}/api/v1/artists?q=${encodeURIComponent(q)}&include_blank=1&per_page=50&page=${page}`)).json()) as {
      artists: { artist: { username: string } }[]
    }
    if (body.artists.length === 0) return names
    for (const { artist } of body.artists) names.add(artist.username)
  }
}

describe('folders', () => {
  test('a data folder that cannot be created is a clear error at once, not a hang', async () => {
    const run = await cli(['sync', '--base-url', service.baseUrl, '--data-dir', '/proc/tuneshelf'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/cannot create the data folder \/proc\/tuneshelf: \/proc does not accept new folders/)
  })

  test('relative --data-dir and --to are taken from where the user ran the command (INIT_CWD), else the working folder', async () => {
    const userFolder = tempDir()
    const packageFolder = tempDir()
    // The sync (the long part) in this process, where npm's INIT_CWD is the user's folder; the rest as npm runs it.
    vi.stubEnv('INIT_CWD', userFolder)
    const synced = await cli(['sync', '--base-url', service.baseUrl, '--data-dir', 'my-data', '--no-avatars'])
    vi.unstubAllEnvs()
    expect(synced.code).toBe(0)
    expect(fs.existsSync(path.join(userFolder, 'my-data', 'settings.json'))).toBe(true)
    expect(fs.existsSync(path.join(packageFolder, 'my-data'))).toBe(false)
    const track = service.catalogue.artists.flatMap((a) => service.catalogue.tracksOf(a)).find((t) => t.bytes < 100_000)!
    const downloaded = await cliProcess(['download', track.uploadId, '--data-dir', 'my-data', '--to', 'music'], { cwd: packageFolder, env: { INIT_CWD: userFolder } })
    expect(downloaded.code).toBe(0)
    expect(downloaded.stderr).toContain(`verified in ${path.join(userFolder, 'music')}`)
    // Run directly with node (no npm, no INIT_CWD): the working folder.
    const listed = await cliProcess(['artists', '--data-dir', 'my-data', '--per-page', '1'], { cwd: userFolder })
    expect(listed.code).toBe(0)
  }, 60_000)

  test.skipIf(readOnlyMountRefusal() !== undefined)(`a read-only data folder can still be browsed; syncing says why it cannot${readOnlyMountSkipNote()}`, async ({ onTestFinished }) => {
    const readOnly = tempDir()
    onTestFinished(mountReadOnly(dataDir, readOnly))
    const listed = await cli(['artists', '--data-dir', readOnly, '--per-page', '3'])
    expect(listed.code).toBe(0)
    expect(listed.stdout.trim().split('\n')).toHaveLength(4)
    const synced = await cli(['sync', '--base-url', service.baseUrl, '--data-dir', readOnly])
    // Refused (exit 2), as running the same command again cannot help.
    expect(synced.code).toBe(2)
    expect(synced.stderr).toMatch(/read-only/)
    expect(synced.stderr).not.toMatch(/readonly database|SQLITE|run the same command again/)
  }, 60_000)
})

describe('interruptions', () => {
  test('a first sync stopped by Ctrl-C: the offline verbs say it has not finished and how to resume it; resuming works', async () => {
    const fresh = tempDir()
    service.faults.add({ path: '/api/v1/artists', times: 10_000, fault: { kind: 'slow', bytesPerSecond: 20_000 } })
    try {
      const child = spawnCli(['sync', '--base-url', service.baseUrl, '--data-dir', fresh, '--no-avatars'])
      await stderrMatching(child, /^lists\s+[1-9]\d*\//m)
      child.kill('SIGINT')
      const { code } = await exited(child)
      expect(code).toBe(130)
    } finally {
      service.faults.clear()
    }
    const artists = await cli(['artists', '--data-dir', fresh])
    expect(artists.code).toBe(2)
    expect(artists.stderr).toMatch(/the first sync of http:\/\/127\.0\.0\.1:\d+ into .* has not finished \(it was cancelled during its lists phase\)/)
    expect(artists.stderr).toContain(`npm run -s cli -- sync --base-url ${service.baseUrl} --data-dir ${fresh}`)
    const resumed = await cli(['sync', '--base-url', service.baseUrl, '--data-dir', fresh, '--no-avatars'])
    expect(resumed.code).toBe(0)
    expect(resumed.stderr).toMatch(/\(resumed\)/)
    expect((await cli(['artists', '--data-dir', fresh])).code).toBe(0)
  }, 60_000)

  test('a download from a service gone since the sync, with no Ctrl-C: not "interrupted", exit 1, and what to do', async () => {
    const gone = await startCatalogueService({ port: 0, artists: 5, seed: 3, maxFileMb: 4 })
    const fresh = tempDir()
    let uploadId: string
    try {
      expect((await cli(['sync', '--base-url', gone.baseUrl, '--data-dir', fresh, '--no-avatars'])).code).toBe(0)
      uploadId = gone.catalogue.artists.flatMap((a) => gone.catalogue.tracksOf(a))[0]!.uploadId
    } finally {
      await gone.close()
    }
    const run = await cli(['download', uploadId, '--data-dir', fresh, '--to', tempDir()])
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr).toMatch(new RegExp(`^${uploadId} not reached: `, 'm'))
    expect(run.stderr).toContain('the service did not answer: run the same command again once it does')
    expect(run.stderr).not.toMatch(/interrupted/)
  }, 60_000)

  test('a download stopped by Ctrl-C is listed as interrupted, and finishes when run again', async () => {
    const track = service.catalogue.artists.flatMap((a) => service.catalogue.tracksOf(a)).find((t) => t.bytes > 2_000_000)!
    const to = tempDir()
    service.faults.add({ path: '/hotlink/*', times: 10_000, fault: { kind: 'slow', bytesPerSecond: 400_000 } })
    try {
      const child = spawnCli(['download', track.uploadId, '--data-dir', dataDir, '--to', to])
      await stderrMatching(child, /0\/1 files, [1-9][\d.]* [KM]B of/)
      child.kill('SIGINT')
      const { code } = await exited(child)
      expect(code).toBe(130)
    } finally {
      service.faults.clear()
    }
    const listed = await cli(['downloads', '--data-dir', dataDir])
    expect(listed.stdout).toMatch(new RegExp(`^\\d+\\s+interrupted\\s+\\d+%.*${track.uploadId}`, 'm'))
    expect(listed.stdout).not.toMatch(new RegExp(`downloading.*${track.uploadId}`))
    const finished = await cli(['download', track.uploadId, '--data-dir', dataDir, '--to', to])
    expect(finished.code).toBe(0)
  }, 60_000)
})

describe('what the CLI shows', () => {
  test('a password in the base URL is never printed, and the cache does not store it', async () => {
    const fresh = tempDir()
    const withPassword = service.baseUrl.replace('http://', 'http://listener:s3cret@')
    const synced = await cli(['sync', '--base-url', withPassword, '--data-dir', fresh, '--no-avatars'])
    expect(synced.code).toBe(0)
    expect(synced.stderr).toContain('listener:***@127.0.0.1')
    expect(synced.stderr).not.toContain('s3cret')
    const catalogues = path.join(fresh, 'catalogues')
    for (const file of fs.readdirSync(catalogues)) expect(fs.readFileSync(path.join(catalogues, file)).includes('s3cret'), file).toBe(false)
    // The settings keep it (they are the user's), readable by the user alone.
    expect(fs.statSync(path.join(fresh, 'settings.json')).mode & 0o077).toBe(0)
    // A failure names the service too, still without the password.
    service.faults.add({ path: '/api/v1/access_levels', times: 100, fault: { kind: 'status', status: 400 } })
    try {
      const failed = await cli(['sync', '--base-url', withPassword, '--data-dir', fresh, '--no-avatars'])
      expect(failed.code).toBe(1)
      expect(failed.stderr).toContain('listener:***@127.0.0.1')
      expect(failed.stderr).not.toContain('s3cret')
    } finally {
      service.faults.clear()
    }
  }, 60_000)

  test('offline search folds text as the service does: fullwidth and Greek names are found', async () => {
    for (const q of ['aesthetic', 'ψυχη', 'Ψυχή', 'ＡＥＳ']) {
      const expected = await serviceUsernames(q)
      expect(expected.size, `the demo has artists matching ${q}`).toBeGreaterThan(0)
      const run = await cli(['artists', '--data-dir', dataDir, '--q', q, '--include-blank', '--per-page', '1000', '--json'])
      const found = new Set((JSON.parse(run.stdout) as { artists: { artist: { username: string } }[] }).artists.map((a) => a.artist.username))
      expect(found, q).toEqual(expected)
    }
  }, 60_000)

  test('an empty result says so instead of an empty table', async () => {
    const run = await cli(['artists', '--data-dir', dataDir, '--q', 'zzqqxxnothing'])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/no artists match "zzqqxxnothing"/)
    expect(run.stderr).not.toMatch(/page 1 of 0/)
  })

  test('tables line up by display width, for wide scripts too', () => {
    const rows = [
      ['1', 'Ａｅｓｔｈｅｔｉｃ', 'Malmö'],
      ['2', '東京の音', 'القاهرة'],
      ['3', 'plain', 'Berlin'],
      ['4', 'Ψυχή Band 🎧', 'Kraków'],
    ]
    const lines = table(['#', 'name', 'location'], rows).split('\n')
    const columnOf = (line: string, cell: string): number => stringWidth(line.slice(0, line.indexOf(cell)))
    const starts = rows.map((row, index) => columnOf(lines[index + 1]!, row[2]!))
    expect(new Set(starts).size).toBe(1)
    expect(columnOf(lines[0]!, 'location')).toBe(starts[0])
  })

  test('the track table shows the upload ids that download takes', async () => {
    const artist = service.catalogue.artists.find((a) => a.numTracks >= 2 && !a.removed)!
    const run: CliRun = await cli(['artist', artist.username, '--data-dir', dataDir])
    expect(run.code).toBe(0)
    for (const track of service.catalogue.tracksOf(artist)) expect(run.stdout).toMatch(new RegExp(`^${track.uploadId}\\s`, 'm'))
  })
})

/**
 * The CLI's rough edges, found trying it as a new user would (issue 18 §5): a data
 * folder that is a file, `npm run web` on one it cannot use, a read-only data folder,
 * an upload id the cache does not hold, the last progress line of a download, and
 * what a new user tries next (bad flags, `--help` of each verb).
 * In this process (cli), but `npm run web` in its own: its exit code is what a shell sees.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { describe, expect, onTestFinished, vi } from 'vitest'
import type { RunningCatalogueService } from '../../../src-main/demo/index'
import { cliInProcess as cli } from '../support/cli'
import { catalogueTest } from '../support/fixtures'
import { mountReadOnly, readOnlyMountRefusal, readOnlyMountSkipNote } from '../support/mounts'
import { spawnWeb } from '../web/support'

const test = catalogueTest({ artists: 30, seed: 18, maxFileMb: 3 })
let service: RunningCatalogueService
let tempDir: () => string
let dataDir: string

test.beforeAll(async ({ demo, tempDir: makeTempDir }) => {
  service = demo
  tempDir = makeTempDir
  dataDir = tempDir()
  const synced = await cli(['sync', '--base-url', demo.baseUrl, '--data-dir', dataDir, '--no-avatars'])
  expect(synced.code, synced.stderr).toBe(0)
}, 60_000)

/** A file where a folder is expected, in a folder of its own. */
function aFile(): string {
  const file = path.join(tempDir(), 'notes.txt')
  fs.writeFileSync(file, 'not a folder\n')
  return file
}

/** `npm run web` with a renderer that is never served (it stops before), so nothing is built. */
async function web(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const run = spawnWeb(args, { TUNESHELF_WEB_RENDERER_DIR: tempDir() })
  onTestFinished(async () => {
    if (run.child.exitCode === null && run.child.signalCode === null) {
      run.child.kill('SIGKILL')
      await run.exit
    }
  })
  const { code } = await run.exit
  return { code, stderr: run.stderr() }
}

describe('a data folder that cannot be used', () => {
  test('a file as the data folder: the reading verbs and sync say so, exit 2, no raw ENOTDIR', async () => {
    const file = aFile()
    for (const args of [
      ['artists', '--data-dir', file],
      ['downloads', '--data-dir', file],
      ['following', '--data-dir', file],
      ['sync', '--base-url', service.baseUrl, '--data-dir', file, '--no-avatars'],
    ]) {
      const run = await cli(args)
      expect(run.code, `${args[0]}: ${run.stderr}`).toBe(2)
      expect(run.stderr, args[0]).toContain(`the data folder ${file} is a file, not a folder`)
      expect(run.stderr, args[0]).not.toMatch(/ENOTDIR|error:/)
    }
    // A file above it: named too, as when a folder cannot be created.
    const below = await cli(['artists', '--data-dir', path.join(file, 'data')])
    expect(below.code).toBe(2)
    expect(below.stderr).toContain(`cannot create the data folder ${path.join(file, 'data')}: a file is in the way`)
    expect(fs.readFileSync(file, 'utf8')).toBe('not a folder\n')
  })

  test('npm run web refuses a data folder it cannot use as the CLI does: the same message, exit 2', async () => {
    const sync = await cli(['sync', '--base-url', service.baseUrl, '--data-dir', '/proc/tuneshelf-web'])
    expect(sync.code).toBe(2)
    const message = 'cannot create the data folder /proc/tuneshelf-web: /proc does not accept new folders'
    expect(sync.stderr).toContain(message)
    const proc = await web(['--data-dir', '/proc/tuneshelf-web', '--base-url', service.baseUrl])
    expect(proc.code, proc.stderr).toBe(2)
    expect(proc.stderr).toContain(`tuneshelf web: ${message}`)
    const file = aFile()
    const onFile = await web(['--data-dir', file])
    expect(onFile.code, onFile.stderr).toBe(2)
    expect(onFile.stderr).toContain(`tuneshelf web: the data folder ${file} is a file, not a folder`)
    expect(onFile.stderr).not.toMatch(/ENOTDIR|\n\s+at /)
  }, 60_000)

  test.skipIf(readOnlyMountRefusal() !== undefined)(
    `a read-only data folder: sync says it is read-only and what to do, not "run the same command again", exit 2${readOnlyMountSkipNote()}`,
    async () => {
      const readOnly = tempDir()
      onTestFinished(mountReadOnly(dataDir, readOnly))
      const synced = await cli(['sync', '--base-url', service.baseUrl, '--data-dir', readOnly, '--no-avatars'])
      expect(synced.code, synced.stderr).toBe(2)
      expect(synced.stderr).toContain(`the data folder ${readOnly} is read-only`)
      expect(synced.stderr).toMatch(/make it writable, or give --data-dir a folder you can write to/)
      expect(synced.stderr).not.toMatch(/run the same command again|sync failed|error:/)
      // Downloading refuses the same way; browsing still works.
      const track = service.catalogue.tracksOf(service.catalogue.artists[0]!)[0]!
      const downloaded = await cli(['download', track.uploadId, '--data-dir', readOnly, '--to', tempDir()])
      expect(downloaded.code, downloaded.stderr).toBe(2)
      expect(downloaded.stderr).toContain(`the data folder ${readOnly} is read-only`)
      expect((await cli(['artists', '--data-dir', readOnly, '--per-page', '1'])).code).toBe(0)
    },
    60_000,
  )
})

describe('download of an upload the cache does not hold', () => {
  test('a number: says there is no such upload in the synced cache, not "sync first"', async () => {
    const run = await cli(['download', '999999999', '--data-dir', dataDir, '--to', tempDir()])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      new RegExp(`^error: no upload 999999999 in the cache of ${service.baseUrl} as synced at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`, 'm'),
    )
    expect(run.stderr).not.toMatch(/sync first/)
  })

  test('among other ids: names the one the cache does not hold, found by the error\'s field', async () => {
    const artist = service.catalogue.artists.find((a) => a.numTracks > 0 && !a.removed)!
    const held = service.catalogue.tracksOf(artist)[0]!.uploadId
    // The first the cache does not hold, of two.
    const run = await cli(['download', held, '99999', '999999999', '--data-dir', dataDir, '--to', tempDir()])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(new RegExp(`^error: no upload 99999 in the cache of ${service.baseUrl} as synced at `, 'm'))
  })

  test("an artist's name: suggests --artist with that artist's username", async () => {
    const artist = service.catalogue.artists.find((a) => a.numTracks > 0 && !a.removed)!
    const run = await cli(['download', artist.username.toLowerCase(), '--data-dir', dataDir])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`no upload ${artist.username.toLowerCase()} in the cache of ${service.baseUrl}`)
    expect(run.stderr).toContain(`${artist.username} is an artist: to download their tracks, run: npm run -s cli -- download --artist ${artist.username} --data-dir ${dataDir}`)
    expect(run.stderr).not.toMatch(/sync first/)
  })

  test('a word that is no artist either: says how to download an artist\'s tracks', async () => {
    const run = await cli(['download', 'abc', '--data-dir', dataDir])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`no upload abc in the cache of ${service.baseUrl}`)
    expect(run.stderr).toMatch(/give --artist USERNAME/)
    expect(run.stderr).not.toMatch(/sync first/)
  })
})

describe('the progress line of download', () => {
  test('ends with the average speed of the transfer, not 0 B/s; with no speed when nothing was transferred', async () => {
    const track = service.catalogue.artists.flatMap((a) => service.catalogue.tracksOf(a)).find((t) => t.bytes > 500_000)!
    const to = tempDir()
    const run = await cli(['download', track.uploadId, '--data-dir', dataDir, '--to', to])
    expect(run.code, run.stderr).toBe(0)
    const progress = run.stderr.split('\n').filter((line) => /^\d+\/\d+ files, /.test(line))
    expect(progress.length, run.stderr).toBeGreaterThan(0)
    expect(progress.at(-1)).toMatch(/^1\/1 files, ([\d.]+ [kMG]?B) of \1, [\d.]+ [kMG]?B\/s on average$/)
    expect(progress.at(-1)).not.toMatch(/ 0 B\/s/)
    // Already complete there: nothing moves, so no progress line and no speed.
    const again = await cli(['download', track.uploadId, '--data-dir', dataDir, '--to', to])
    expect(again.code).toBe(0)
    expect(again.stderr).not.toMatch(/B\/s/)
  }, 60_000)
})

describe('what a new user tries next', () => {
  const verbs = ['sync', 'artists', 'artist', 'levels', 'download', 'downloads', 'follow', 'unfollow', 'following', 'whats-new']

  test("a usage error of one verb prints that verb's usage and where the help is; with no verb known, every verb's", async () => {
    for (const argv of [
      ['levels', '--data-dir', dataDir, '--colour'],
      ['--data-dir', dataDir, 'artists', '--per-page', 'ten'],
      ['follow', '--data-dir', dataDir],
      ['download', '--data-dir', dataDir],
      ['whats-new', '--data-dir', dataDir, '--q', 'x'],
    ]) {
      const verb = argv.find((arg) => verbs.includes(arg))!
      const run = await cli(argv)
      expect(run.code, argv.join(' ')).toBe(2)
      const lines = run.stderr.trimEnd().split('\n')
      expect(lines[1], argv.join(' ')).toMatch(new RegExp(`^usage: npm run -s cli -- ${verb} `))
      expect(lines.at(-1), argv.join(' ')).toBe(`(npm run -s cli -- ${verb} --help: what it does; npm run -s cli -- --help: every verb)`)
      for (const other of verbs.filter((v) => v !== verb)) expect(run.stderr, argv.join(' ')).not.toMatch(new RegExp(`^  ${other} `, 'm'))
    }
    // A mistyped flag is named, in one line, not parseArgs' paragraph about positionals.
    const mistyped = await cli(['levels', '--data-dir', dataDir, '--colour'])
    expect(mistyped.stderr.split('\n')[0]).toBe('unknown option --colour')
    // A flag without its value, a value on a flag that takes none, a value that looks like a flag: in the user's terms, exit 2.
    for (const [argv, said] of [
      [['artists', '--data-dir'], '--data-dir needs a value'],
      [['artists', '--data-dir', dataDir, '--json=yes'], '--json takes no value: write --json alone'],
      [['artists', '--data-dir', dataDir, '--per-page', '-5'], "--per-page needs a value; what follows it starts with '-' (write --per-page=VALUE to pass such a value)"],
    ] as const) {
      const run = await cli([...argv])
      expect(run.code, argv.join(' ')).toBe(2)
      expect(run.stderr.split('\n')[0], argv.join(' ')).toBe(said)
      expect(run.stderr, argv.join(' ')).not.toMatch(/<value>|argument missing|ambiguous/)
    }
    for (const argv of [[], ['frobnicate'], ['--colour']]) {
      const run = await cli(argv)
      expect(run.code, argv.join(' ')).toBe(2)
      for (const verb of verbs) expect(run.stderr, `${argv.join(' ')}: ${verb}`).toMatch(new RegExp(`^  ${verb} `, 'm'))
    }
  })

  test('VERB --help (and help VERB) gives that verb alone: its usage and what it does; --help alone lists them all', async () => {
    const all = await cli(['--help'])
    expect(all.code).toBe(0)
    for (const verb of verbs) {
      expect(all.stdout, verb).toMatch(new RegExp(`^  ${verb} +(USERNAME|UPLOAD_ID|\\(|--)`, 'm'))
      const help = await cli([verb, '--help'])
      expect(help.code, verb).toBe(0)
      expect(help.stdout, verb).toMatch(new RegExp(`^usage: npm run -s cli -- ${verb} `))
      // Its own usage and a sentence or two, not every verb's.
      for (const other of verbs.filter((v) => v !== verb)) expect(help.stdout, `${verb} --help`).not.toMatch(new RegExp(`^  ${other} `, 'm'))
      expect(help.stdout.trim().split('\n').length, verb).toBeLessThan(all.stdout.trim().split('\n').length)
      expect(await cli(['help', verb]), `help ${verb}`).toEqual(help)
    }
    // What each says, its lines wrapped anywhere.
    const says = async (verb: string, ...phrases: string[]): Promise<void> => {
      const text = (await cli([verb, '--help'])).stdout.replace(/\s+/g, ' ')
      for (const phrase of phrases) expect(text, verb).toContain(phrase)
    }
    await says('follow', '[--auto-download | --no-auto-download]', 'with --auto-download, their new tracks are downloaded by themselves after each sync')
    await says('sync', '[--to DIR | --no-download]', '--no-download leaves them for later', 'requests at once (1 to 16;')
    await says('download', 'files at once (1 to 8)', 'Run it again to resume an interrupted download')
    await says('following', 'Lists the artists followed')
    await says('whats-new', 'the artists followed first', 'by default, the one synced last into --data-dir')
    const help = await cli(['help'])
    expect(help).toEqual(all)
  })

  test('a flag the verb does not take is refused (exit 2), not silently ignored', async () => {
    const fresh = path.join(tempDir(), 'never-made')
    for (const [args, flag] of [
      [['artists', '--artist', 'anyone', '--data-dir', dataDir], 'artist'],
      [['downloads', '--to', tempDir(), '--data-dir', dataDir], 'to'],
      [['follow', 'anyone', '--json', '--data-dir', dataDir], 'json'],
      [['whats-new', '--q', 'text', '--data-dir', dataDir], 'q'],
      [['sync', '--base-url', service.baseUrl, '--data-dir', fresh, '--json'], 'json'],
    ] as const) {
      const run = await cli([...args])
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stdout, args.join(' ')).toBe('')
      expect(run.stderr, args.join(' ')).toContain(`${args[0]} takes no --${flag} (see: npm run -s cli -- ${args[0]} --help)`)
    }
    expect(fs.existsSync(fresh)).toBe(false)
    expect(JSON.parse((await cli(['following', '--data-dir', dataDir, '--json'])).stdout)).toEqual([])
  })
})

describe('what a new user types for the service', () => {
  test('a --base-url without http:// says so, with the address meant, from the CLI and npm run web alike', async () => {
    const port = new URL(service.baseUrl).port
    for (const args of [
      ['sync', '--base-url', `localhost:${port}`, '--data-dir', tempDir()],
      ['artists', '--base-url', `localhost:${port}`, '--data-dir', dataDir],
    ]) {
      const run = await cli(args)
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stderr, args.join(' ')).toMatch(new RegExp(`^--base-url must start with http:// or https://; did you mean http://localhost:${port}\\?$`, 'm'))
      expect(run.stderr).not.toMatch(/not localhost:/)
    }
    const fromWeb = await web(['--base-url', '127.0.0.1:8787', '--data-dir', tempDir()])
    expect(fromWeb.code, fromWeb.stderr).toBe(2)
    expect(fromWeb.stderr).toMatch(/^--base-url must start with http:\/\/ or https:\/\/; did you mean http:\/\/127\.0\.0\.1:8787\?$/m)
    // Something else than an address: no guess.
    const odd = await cli(['sync', '--base-url', 'two words', '--data-dir', tempDir()])
    expect(odd.code).toBe(2)
    expect(odd.stderr).toMatch(/^--base-url must start with http:\/\/ or https:\/\/$/m)
  }, 60_000)

  test('a --base-url never synced into the data folder: says how to sync it, its password hidden', async () => {
    const other = 'http://127.0.0.1:9'
    const run = await cli(['following', '--data-dir', dataDir, '--base-url', other])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(`nothing has been synced from ${other} into ${dataDir}; run: npm run -s cli -- sync --base-url ${other} --data-dir ${dataDir}\n`)
  })

  test('with a password, the command it suggests runs as printed: the password from TUNESHELF_PASSWORD, never shown', async () => {
    // A service that answers 503 to everything, and notes the credentials each request carried.
    const seen: (string | undefined)[] = []
    const server = http.createServer((request, response) => {
      seen.push(request.headers.authorization)
      response.writeHead(503, { 'retry-after': '0' }).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const address = `127.0.0.1:${(server.address() as AddressInfo).port}`
    const fresh = tempDir()
    const secret = await cli(['artists', '--data-dir', fresh, '--base-url', `http://ann:s3cret@${address}`])
    expect(secret.code).toBe(2)
    expect(secret.stderr).toBe(
      `nothing has been synced from http://ann:***@${address} into ${fresh}; ` +
        `run: npm run -s cli -- sync --base-url http://ann@${address} --data-dir ${fresh} (with the service's password in the environment variable TUNESHELF_PASSWORD)\n`,
    )
    expect(secret.stderr).not.toContain('s3cret')
    // Run as printed, with the variable set: the service gets the password.
    const printed = /run: npm run -s cli -- (.+?) \(/.exec(secret.stderr)![1]!.split(' ')
    vi.stubEnv('TUNESHELF_PASSWORD', 's3cret')
    onTestFinished(() => {
      vi.unstubAllEnvs()
    })
    const run = await cli([...printed, '--no-avatars'])
    expect(run.code).toBe(1)
    expect(run.stderr).not.toContain('s3cret')
    expect(seen.length).toBeGreaterThan(0)
    expect(new Set(seen)).toEqual(new Set([`Basic ${Buffer.from('ann:s3cret').toString('base64')}`]))
  })

  test("a first sync with a password that stopped: the command it suggests syncs the data folder's saved service, and resumes it", async () => {
    const fresh = tempDir()
    const withPassword = service.baseUrl.replace('http://', 'http://ann:s3cret@')
    service.faults.add({ path: '/api/v1/access_levels', times: 100, fault: { kind: 'status', status: 400 } })
    try {
      expect((await cli(['sync', '--base-url', withPassword, '--data-dir', fresh, '--no-avatars'])).code).toBe(1)
    } finally {
      service.faults.clear()
    }
    const artists = await cli(['artists', '--data-dir', fresh])
    expect(artists.code).toBe(2)
    expect(artists.stderr).toContain(`run the same command again to resume it: npm run -s cli -- sync --data-dir ${fresh} (it syncs the service saved there, password included)`)
    expect(artists.stderr).not.toContain('s3cret')
    const printed = /resume it: npm run -s cli -- (.+?) \(/.exec(artists.stderr)![1]!.split(' ')
    const resumed = await cli([...printed, '--no-avatars'])
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toContain(`synced ${service.baseUrl.replace('http://', 'http://ann:***@')}`)
    expect((await cli(['artists', '--data-dir', fresh])).code).toBe(0)
  }, 60_000)

  test('a first sync that failed: the offline verbs say it failed (not "it was failed") and how to resume', async () => {
    const fresh = tempDir()
    const unreachable = 'http://127.0.0.1:9'
    const failed = await cli(['sync', '--base-url', unreachable, '--data-dir', fresh, '--no-avatars'])
    expect(failed.code, failed.stderr).toBe(1)
    // Nothing started: there is nothing to resume, and the service's address is what to check.
    expect(failed.stderr).toContain(`nothing was fetched from ${unreachable}: check the address and that the service is running, then run the same command again`)
    expect(failed.stderr).not.toContain('resume where it stopped')
    const artists = await cli(['artists', '--data-dir', fresh])
    expect(artists.code).toBe(2)
    expect(artists.stderr).toContain(`the first sync of ${unreachable} into ${fresh} has not finished (it failed during its lists phase)`)
    expect(artists.stderr).toContain(`run the same command again to resume it: npm run -s cli -- sync --base-url ${unreachable} --data-dir ${fresh}`)
  }, 60_000)
})

/**
 * The follow verbs of the CLI, run in this process through main(argv) with
 * stdout and stderr captured (one CLI process, spawned, checks the exit code
 * as a shell sees it): follow, unfollow and following, their exit codes and
 * their output.
 */
import { describe, expect, vi } from 'vitest'
import { main } from '../../../src-main/cli/main'
import { cli as spawnCli } from '../support/cli'
import { catalogueTest } from '../support/fixtures'

const test = catalogueTest({ artists: 30, seed: 57, maxFileMb: 1 })

interface Run {
  code: number
  stdout: string
  stderr: string
}

/** main(argv) with what it writes captured. */
async function cli(...argv: string[]): Promise<Run> {
  let stdout = ''
  let stderr = ''
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true))
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true))
  try {
    return { code: await main(argv), stdout, stderr }
  } finally {
    out.mockRestore()
    err.mockRestore()
  }
}

let dataDir: string
let usernames: string[]

test.beforeAll(async ({ demo, tempDir }) => {
  dataDir = tempDir()
  const synced = await cli('sync', '--base-url', demo.baseUrl, '--data-dir', dataDir, '--no-avatars')
  expect(synced.code, synced.stderr).toBe(0)
  const listed = await cli('artists', '--data-dir', dataDir, '--json', '--per-page', '10')
  usernames = (JSON.parse(listed.stdout) as { artists: { artist: { username: string } }[] }).artists.map((entry) => entry.artist.username)
}, 60_000)

describe('cli follow, unfollow, following', () => {
  test('follows and unfollows artists, and lists them as a table and as JSON', async () => {
    const [first, second] = usernames as [string, string]
    expect(await cli('following', '--data-dir', dataDir)).toMatchObject({ code: 0, stdout: '', stderr: expect.stringMatching(/^no artist is followed; follow one with: /) })

    const followed = await cli('follow', first.toUpperCase(), '--data-dir', dataDir)
    expect(followed).toMatchObject({ code: 0, stdout: '' })
    expect(followed.stderr).toMatch(new RegExp(`^following .*${first}`))
    const auto = await cli('follow', second, '--auto-download', '--data-dir', dataDir)
    expect(auto.stderr).toMatch(/downloaded by themselves/)

    const listed = await cli('following', '--data-dir', dataDir)
    expect(listed.code).toBe(0)
    const lines = listed.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^username\s+name\s+auto-download\s+followed\s+status$/)
    const byUsername = new Map(lines.slice(1).map((line) => [line.split(/\s+/)[0], line]))
    expect(byUsername.size).toBe(2)
    expect(byUsername.get(first)).toMatch(/\sno\s+\d{4}-\d\d-\d\d\s+listed$/)
    expect(byUsername.get(second)).toMatch(/\syes\s+\d{4}-\d\d-\d\d\s+listed$/)
    const json = JSON.parse((await cli('following', '--data-dir', dataDir, '--json')).stdout) as { username: string; autoDownload: boolean }[]
    expect(json.map((artist) => [artist.username, artist.autoDownload]).sort()).toEqual([[first, false], [second, true]].sort())

    expect(await cli('unfollow', first, '--data-dir', dataDir)).toMatchObject({ code: 0, stdout: '', stderr: `no longer following ${first}\n` })
    const after = JSON.parse((await cli('following', '--data-dir', dataDir, '--json')).stdout) as { username: string }[]
    expect(after.map((artist) => artist.username)).toEqual([second])
    // Auto-download turned off again, the artist still followed; both flags at once are refused.
    const off = await cli('follow', second, '--no-auto-download', '--data-dir', dataDir)
    expect(off).toMatchObject({ code: 0, stdout: '' })
    expect(off.stderr).not.toMatch(/downloaded by themselves/)
    const offJson = JSON.parse((await cli('following', '--data-dir', dataDir, '--json')).stdout) as { username: string; autoDownload: boolean }[]
    expect(offJson.map((artist) => [artist.username, artist.autoDownload])).toEqual([[second, false]])
    const both = await cli('follow', second, '--auto-download', '--no-auto-download', '--data-dir', dataDir)
    expect(both.code).toBe(2)
    expect(both.stderr.split('\n')[0]).toBe('--auto-download and --no-auto-download: give one of them')
    await cli('unfollow', second, '--data-dir', dataDir)
  })

  test('an unknown artist, or one not followed, fails with exit code 1 as `artist USERNAME` does', async () => {
    const unknown = await cli('follow', 'no-such-artist', '--data-dir', dataDir)
    const artist = await cli('artist', 'no-such-artist', '--data-dir', dataDir)
    expect(unknown.code).toBe(1)
    expect(artist.code).toBe(1)
    expect(unknown.stderr).toBe(artist.stderr)
    expect(unknown.stderr).toMatch(/^error: no artist named "no-such-artist" in the cache of /)
    expect(await cli('unfollow', usernames[3]!, '--data-dir', dataDir)).toMatchObject({ code: 1, stderr: `error: "${usernames[3]!}" is not followed\n` })
  })

  test('bad arguments and nothing synced exit with code 2', async ({ tempDir }) => {
    for (const argv of [['follow', '--data-dir', dataDir], ['follow', 'a', 'b', '--data-dir', dataDir], ['unfollow', '--data-dir', dataDir], ['following', 'x', '--data-dir', dataDir], ['follow', usernames[0]!]]) {
      const run = await cli(...argv)
      expect(run.code, argv.join(' ')).toBe(2)
      // The usage of the verb at fault, not of every verb.
      expect(run.stderr, argv.join(' ')).toContain(`usage: npm run -s cli -- ${argv[0]!} `)
      expect(run.stderr, argv.join(' ')).not.toContain('<verb>')
    }
    const empty = await cli('following', '--data-dir', tempDir())
    expect(empty.code).toBe(2)
    expect(empty.stderr).toMatch(/nothing has been synced into/)
  })

  test('as a shell sees it: the exit code of its own process', async () => {
    const run = await spawnCli(['follow', usernames[4]!, '--data-dir', dataDir, '--auto-download'])
    expect(run.code).toBe(0)
    const listed = await spawnCli(['following', '--data-dir', dataDir, '--json'])
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ username: usernames[4], autoDownload: true, gone: false, inCache: true })])
    expect((await spawnCli(['follow', 'no-such-artist', '--data-dir', dataDir])).code).toBe(1)
  }, 60_000)
})

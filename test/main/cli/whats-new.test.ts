/**
 * `cli whats-new [--json]` against a real demo sync: after the first sync, the
 * newest uploads; after the demo publishes new uploads and a second sync, those
 * uploads as new, the followed artist's first; the exit codes of the offline verbs.
 */
import { expect } from 'vitest'
import type { WhatsNew } from '../../../src-main/core/shared/types'
import { cliInProcess as cli } from '../support/cli'
import { catalogueTest } from '../support/fixtures'

const test = catalogueTest({ artists: 40, seed: 73, maxFileMb: 2 })

test('what the last sync brought, the followed artist first, as a table and as JSON', async ({ demo, tempDir }) => {
  const dataDir = tempDir()
  const base = ['--data-dir', dataDir, '--base-url', demo.baseUrl]

  // Nothing synced: exit 2 and how to sync.
  const unsynced = await cli(['whats-new', ...base])
  expect(unsynced.code).toBe(2)
  expect(unsynced.stderr).toMatch(/nothing has been synced/)

  expect((await cli(['sync', ...base, '--no-avatars'])).code).toBe(0)
  // The first sync alone: its newest uploads, by the instant they were made.
  const first = await cli(['whats-new', ...base, '--json'])
  expect(first.code).toBe(0)
  const newest = JSON.parse(first.stdout) as WhatsNew
  expect(newest.mode).toBe('newest')
  const times = newest.tracks.map((entry) => Date.parse(entry.track.createdAt!))
  expect(times).toEqual([...times].sort((a, b) => b - a))
  const firstTable = await cli(['whats-new', ...base])
  expect(firstTable.stderr).toMatch(/only the first sync has completed.*newest uploads/)
  expect(firstTable.stdout.split('\n')[0]).toMatch(/^date\s+following\s+artist\s+upload\s+title/)

  // The service publishes new uploads for two artists; one of them is followed; a second sync.
  const [followed, other] = demo.catalogue.artists.filter((artist) => !artist.removed && artist.numTracks < 50).slice(0, 2)
  expect((await cli(['follow', followed!.username, ...base])).code).toBe(0)
  const added = demo.addUploads({ artists: [other!.username, followed!.username], perArtist: 2 })
  expect((await cli(['sync', ...base, '--no-avatars', '--no-download'])).code).toBe(0)

  const json = await cli(['whats-new', ...base, '--json'])
  expect(json.code).toBe(0)
  const news = JSON.parse(json.stdout) as WhatsNew
  expect(news.mode).toBe('changes')
  expect(news.runs).toHaveLength(1)
  const newUploads = news.tracks.filter((entry) => entry.change === 'new')
  expect(newUploads.map((entry) => [entry.artistUsername, entry.followed])).toEqual([
    [followed!.username, true],
    [followed!.username, true],
    [other!.username, false],
    [other!.username, false],
  ])
  expect(new Set(newUploads.map((entry) => entry.track.uploadId))).toEqual(new Set(added.flatMap((entry) => entry.uploadIds)))
  expect(news.artists[0]).toMatchObject({ artist: { username: followed!.username }, followed: true, change: 'changed' })

  // The table: artists, then tracks, the followed artist's rows first, marked.
  const human = await cli(['whats-new', ...base])
  expect(human.code).toBe(0)
  const lines = human.stdout.trimEnd().split('\n')
  expect(lines[0]).toMatch(/^sync \(UTC\)\s+change\s+following\s+username\s+name\s+tracks$/)
  expect(lines[1]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+changed\\s+yes\\s+${followed!.username}\\s`))
  const trackHeader = lines.findIndex((line) => /^sync \(UTC\)\s+change\s+following\s+artist\s+upload\s+title\s+size\s+format\s+download$/.test(line))
  expect(trackHeader).toBeGreaterThan(1)
  const trackRows = lines.slice(trackHeader + 1)
  expect(trackRows.slice(0, 2).every((line) => new RegExp(`\\snew\\s+yes\\s+${followed!.username}\\s`).test(line))).toBe(true)
  expect(trackRows.filter((line) => line.includes(` ${other!.username} `))).toHaveLength(2)
  expect(human.stderr).toMatch(/^\d+ artists? and 4 tracks appeared or changed in the last sync$/m)
})

test('refuses a stray argument or an unknown flag, exit 2', async ({ tempDir }) => {
  const stray = await cli(['whats-new', 'extra', '--data-dir', tempDir()])
  expect(stray.code).toBe(2)
  expect(stray.stderr).toMatch(/unexpected argument: extra/)
  const flag = await cli(['whats-new', '--data-dir', tempDir(), '--bogus'])
  expect(flag.code).toBe(2)
  const noDir = await cli(['whats-new'])
  expect(noDir.code).toBe(2)
  expect(noDir.stderr).toMatch(/--data-dir is required/)
})

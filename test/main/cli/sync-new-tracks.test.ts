/**
 * `cli sync` and new tracks, the CLI's main() in this process (the spawned CLI's exit codes
 * and signals are tested in cli.test.ts and new-user.test.ts), against a demo
 * service that changes between runs: it says what the sync brought followed artists, downloads
 * the new tracks of those followed with auto-download on (into the settings' folder, or --to),
 * one line a file, waits for them with the download verb's exit codes, never twice; and
 * --no-download leaves them.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect } from 'vitest'
import type { ArtistRecord } from '../../../src-main/demo/catalogue'
import type { RunningCatalogueService } from '../../../src-main/demo/index'
import { cliInProcess as cli, type CliRun } from '../support/cli'
import { catalogueTest } from '../support/fixtures'
import { sourceSha256 } from '../core/downloads/source'
import { formatBytes } from '../../../src-main/core/shared/format'

const test = catalogueTest({ artists: 40, seed: 83, maxFileMb: 2 })

interface Listed {
  downloads: { uploadId: string; state: string; targetPath: string }[]
}

async function sync(demo: RunningCatalogueService, dataDir: string, ...extra: string[]): Promise<CliRun> {
  return cli(['sync', '--base-url', demo.baseUrl, '--data-dir', dataDir, '--no-avatars', ...extra])
}

async function listed(dataDir: string): Promise<Listed['downloads']> {
  return (JSON.parse((await cli(['downloads', '--data-dir', dataDir, '--json'])).stdout) as Listed).downloads
}

function artists(demo: RunningCatalogueService, from: number, count: number): ArtistRecord[] {
  return demo.catalogue.artists.filter((artist) => !artist.removed && artist.numTracks >= 2 && artist.numTracks < 30).slice(from, from + count)
}

function sha256File(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex')
}

describe('cli sync with followed artists', () => {
  test('downloads the new tracks of artists followed with auto-download on, once, printing each', async ({ demo, tempDir }) => {
    const dataDir = tempDir()
    expect((await sync(demo, dataDir)).code).toBe(0)
    const [auto, manual] = artists(demo, 0, 2)
    expect((await cli(['follow', auto!.username, '--auto-download', '--data-dir', dataDir])).code).toBe(0)
    expect((await cli(['follow', manual!.username, '--data-dir', dataDir])).code).toBe(0)
    const [added] = demo.addUploads({ artists: [auto!.username], perArtist: 2 })
    demo.addUploads({ artists: [manual!.username] })

    const run = await sync(demo, dataDir)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/\n3 new tracks from .+ and .+\n/)
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('new track '))
    expect(lines.map((line) => line.split(' ')[2])).toEqual(added!.uploadIds)
    expect(lines.every((line) => line.includes(` of ${auto!.username}: `) && line.includes(` -> ${path.join(dataDir, 'downloads')}`))).toBe(true)
    expect(run.stderr).toMatch(/\n2 of 2 files complete and verified in /)
    const downloads = await listed(dataDir)
    expect(downloads.map((download) => [download.uploadId, download.state])).toEqual(added!.uploadIds.map((id) => [id, 'completed']))
    for (const download of downloads) expect(sha256File(download.targetPath)).toBe(sourceSha256(demo, download.uploadId))

    // Nothing new: no download line, nothing queued again.
    const again = await sync(demo, dataDir)
    expect(again.code).toBe(0)
    expect(again.stderr).not.toMatch(/new track|files complete/)
    expect(await listed(dataDir)).toHaveLength(2)
  }, 90_000)

  test('past the auto-download limit: queues the newest, prints what it held back and how to get it, exits 0; download --held-back gets the rest', async ({ demo, tempDir }) => {
    const dataDir = tempDir()
    expect((await sync(demo, dataDir)).code).toBe(0)
    // A limit of 2 tracks per artist per sync, as the Settings screen would save it.
    const settingsFile = path.join(dataDir, 'settings.json')
    fs.writeFileSync(settingsFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(settingsFile, 'utf8')), autoDownloadMaxTracks: 2 }))
    const [artist] = artists(demo, 10, 1)
    expect((await cli(['follow', artist!.username, '--auto-download', '--data-dir', dataDir])).code).toBe(0)
    const [added] = demo.addUploads({ artists: [artist!.username], perArtist: 5 })

    const run = await sync(demo, dataDir)
    expect(run.code, run.stderr).toBe(0)
    const heldIds = added!.uploadIds.slice(0, 3)
    const heldBytes = heldIds.reduce((sum, id) => sum + demo.catalogue.findUpload(id)!.track.bytes, 0)
    const line = run.stderr.split('\n').find((text) => text.startsWith('held back '))
    expect(line).toBe(
      `held back 3 new tracks of ${artist!.pfName.trim() || artist!.username} (${formatBytes(heldBytes)}) over the auto-download limit: ` +
        `npm run -s cli -- download --held-back --data-dir ${dataDir}, or What's new in the app, to get them`,
    )
    // The newest two were downloaded.
    const lines = run.stderr.split('\n').filter((text) => text.startsWith('new track '))
    expect(lines.map((text) => text.split(' ')[2])).toEqual(added!.uploadIds.slice(3))
    expect(run.stderr).toMatch(/\n2 of 2 files complete and verified in /)

    const rest = await cli(['download', '--held-back', '--data-dir', dataDir])
    expect(rest.code, rest.stderr).toBe(0)
    expect(rest.stderr).toMatch(/^queued 3 new tracks that auto-download held back\n/)
    expect(rest.stderr).toMatch(/\n3 of 3 files complete and verified in /)
    expect((await listed(dataDir)).map((download) => [download.uploadId, download.state]).sort()).toEqual(added!.uploadIds.map((id) => [id, 'completed']).sort())

    const none = await cli(['download', '--held-back', '--data-dir', dataDir])
    expect(none.code).toBe(0)
    expect(none.stderr).toBe('auto-download has held back no new tracks; nothing to download\n')
    expect((await cli(['download', '--held-back', '--artist', artist!.username, '--data-dir', dataDir])).code).toBe(2)
  }, 90_000)

  test('sync --quick: a few requests find the new tracks, downloaded as after a full refresh; --help says which sync is the default', async ({ demo, tempDir }) => {
    const dataDir = tempDir()
    // On a cache never synced, --quick is the full refresh, and says so.
    const first = await sync(demo, dataDir, '--quick')
    expect(first.code, first.stderr).toBe(0)
    expect(first.stderr).toMatch(/\nsynced .+ \(a full refresh: the cache needed one first\): \d+ list pages, 40 artist details/)
    const [auto] = artists(demo, 4, 1)
    expect((await cli(['follow', auto!.username, '--auto-download', '--data-dir', dataDir])).code).toBe(0)
    const [added] = demo.addUploads({ artists: [auto!.username] })
    demo.requests.reset()

    const run = await sync(demo, dataDir, '--quick')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/\nchecked .+ for new tracks in [\d.]+ s: 1 list pages, 1 changed artists \(database /)
    expect(run.stderr).toMatch(/\n1 new track from /)
    expect(run.stderr).toContain(`new track ${added!.uploadIds[0]} of ${auto!.username}: `)
    // The one list page (every artist fits on it), the changed artist, and the new file.
    expect([demo.requests.list, demo.requests.artist, demo.requests.levels, demo.requests.file]).toEqual([1, 1, 0, 1])
    expect((await listed(dataDir)).map((download) => [download.uploadId, download.state])).toEqual([[added!.uploadIds[0], 'completed']])

    const help = (await cli(['sync', '--help'])).stdout.replace(/\s+/g, ' ')
    expect(help).toMatch(/By default a full refresh \(every list in every sort order\); --quick is a quick check for new tracks/)
  }, 90_000)

  test('--to DIR takes them elsewhere, --no-download leaves them for a later sync', async ({ demo, tempDir }) => {
    const dataDir = tempDir()
    expect((await sync(demo, dataDir)).code).toBe(0)
    const [artist] = artists(demo, 4, 1)
    expect((await cli(['follow', artist!.username, '--auto-download', '--data-dir', dataDir])).code).toBe(0)
    const [first] = demo.addUploads({ artists: [artist!.username] })

    const skipped = await sync(demo, dataDir, '--no-download')
    expect(skipped.code).toBe(0)
    expect(skipped.stderr).toMatch(/\n1 new track from /)
    expect(skipped.stderr).not.toMatch(/new track \d/)
    expect(await listed(dataDir)).toEqual([])

    const to = tempDir()
    const [second] = demo.addUploads({ artists: [artist!.username] })
    const run = await sync(demo, dataDir, '--to', to)
    expect(run.code, run.stderr).toBe(0)
    // The one left by --no-download and the one this sync brought, into --to.
    const downloads = await listed(dataDir)
    expect(downloads.map((download) => download.uploadId)).toEqual([...first!.uploadIds, ...second!.uploadIds])
    expect(downloads.every((download) => download.state === 'completed' && download.targetPath.startsWith(fs.realpathSync(to)))).toBe(true)
  }, 90_000)

  test('a download that fails is exit 1; --to with --no-download is a usage error', async ({ demo, tempDir }) => {
    const dataDir = tempDir()
    expect((await sync(demo, dataDir)).code).toBe(0)
    const [artist] = artists(demo, 6, 1)
    expect((await cli(['follow', artist!.username, '--auto-download', '--data-dir', dataDir])).code).toBe(0)
    const [added] = demo.addUploads({ artists: [artist!.username] })
    demo.faults.add({ path: `/hotlink/${added!.uploadIds[0]}.*`, times: 1000, fault: { kind: 'respond', status: 404, body: '{"error":"gone"}' } })
    try {
      const run = await sync(demo, dataDir)
      expect(run.code, run.stderr).toBe(1)
      expect(run.stderr).toMatch(new RegExp(`\\n${added!.uploadIds[0]} failed: .*\\n0 of 1 files complete`))
    } finally {
      demo.faults.clear()
    }

    const both = await sync(demo, dataDir, '--no-download', '--to', tempDir())
    expect(both.code).toBe(2)
    expect(both.stderr).toMatch(/^give --to DIR or --no-download, not both\nusage: /)

    // A --to the downloads could never use: refused before the sync, not after a whole one.
    const inside = await sync(demo, dataDir, '--to', `${dataDir}/dl`)
    expect(inside.code).toBe(2)
    expect(inside.stderr).toContain(`cannot use ${dataDir}/dl as the download folder: it is inside ${dataDir}, the app's data folder`)
    expect(inside.stderr).not.toMatch(/synced|lists /)
  }, 90_000)

  test('without --base-url, syncs again the service synced last; with nothing synced, says how to start', async ({ demo, tempDir }) => {
    const dataDir = tempDir()
    const none = await cli(['sync', '--data-dir', dataDir, '--no-avatars'])
    expect(none.code).not.toBe(0)
    expect(none.stderr).toContain(`nothing has been synced into ${dataDir}; run: npm run -s cli -- sync --base-url URL --data-dir ${dataDir}`)
    expect(fs.readdirSync(dataDir)).toEqual([])
    expect((await cli(['sync', '--base-url', '', '--data-dir', dataDir])).stderr).toMatch(/^--base-url must not be empty\n/)

    expect((await sync(demo, dataDir)).code).toBe(0)
    const [artist] = artists(demo, 8, 1)
    expect((await cli(['follow', artist!.username, '--data-dir', dataDir])).code).toBe(0)
    demo.addUploads({ artists: [artist!.username] })
    const again = await cli(['sync', '--data-dir', dataDir, '--no-avatars'])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain(`synced ${demo.baseUrl} in `)
    expect(again.stderr).toMatch(/\n1 new track from /)
  }, 90_000)
})

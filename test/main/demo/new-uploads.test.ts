import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { Catalogue } from '../../../src-main/demo/catalogue'
import { startCatalogueService, type RunningCatalogueService } from '../../../src-main/demo/index'
import { NewUploads, describeAdded } from '../../../src-main/demo/new-uploads'
import { artistDetailJson } from '../../../src-main/demo/responses'
import { getJson } from './http-helpers'

const CLI = fileURLToPath(new URL('../../../src-main/demo/cli.ts', import.meta.url))
const NOW = Date.UTC(2026, 10, 26, 12)

interface ListBody {
  pages: number
  artists: { artist: { username: string; num_tracks: number; items: { item: { upload: { id: string } } }[] } }[]
}
interface DetailBody {
  num_tracks: number
  items: { item: { id: string; title: string; upload: { id: string; created_at: string; bytes: number; ext: string; hotlink_path: string } } }[]
}

describe('new uploads of the demo catalogue', () => {
  let service: RunningCatalogueService | undefined
  afterEach(async () => {
    await service?.close()
    service = undefined
  })

  it('are the same for the same seed and batches, and leave the generated tracks as they were', () => {
    const a = new Catalogue({ artists: 120, seed: 5, maxFileMb: 64 })
    const b = new Catalogue({ artists: 120, seed: 5, maxFileMb: 64 })
    const before = a.artists.map((artist) => artistDetailJson('', a, artist))
    const addedA = [new NewUploads(a).add({ now: NOW }), new NewUploads(a).add({ now: NOW })]
    const uploadsB = new NewUploads(b)
    const addedB = [uploadsB.add({ now: NOW }), uploadsB.add({ now: NOW })]
    expect(addedA[0]).toEqual(addedB[0])
    expect(addedA[0]).toHaveLength(3)
    // A second batch of the same NewUploads picks anew; a fresh one starts again from batch 0.
    expect(addedA[1]).toEqual(addedA[0].map((x) => ({ ...x, uploadIds: x.uploadIds.map((id) => String(Number(id) + 1)) })))
    expect(addedB[1]).not.toEqual(addedB[0])
    for (const artist of a.artists) {
      const now = JSON.parse(artistDetailJson('', a, artist)) as DetailBody
      const was = JSON.parse(before[artist.index]!) as DetailBody
      // The old items are the tail of the new list, unchanged (newest first).
      expect(now.items.slice(now.items.length - was.items.length)).toEqual(was.items)
    }
  })

  it('change what the list and detail endpoints answer, so a sync sees them', async () => {
    service = await startCatalogueService({ artists: 150, seed: 3, maxFileMb: 16 })
    const artist = service.catalogue.artists.find((x) => x.numTracks > 2 && !x.isPodcaster)!
    const base = `${service.baseUrl}/api/v1/artists`
    const detailBefore = (await getJson<DetailBody>(`${base}/${encodeURIComponent(artist.username)}`)).body
    const listBefore = (await getJson<ListBody>(`${base}?sort=recently_updated&include_blank=1&per_page=50`)).text

    const added = service.addUploads({ artists: [artist.username.toUpperCase()], perArtist: 2, now: NOW })
    expect(added).toEqual([{ username: artist.username, uploadIds: [expect.any(String), expect.any(String)] }])
    const [first, second] = added[0]!.uploadIds

    const detail = (await getJson<DetailBody>(`${base}/${encodeURIComponent(artist.username)}`)).body
    expect(detail.num_tracks).toBe(detailBefore.num_tracks + 2)
    expect(detail.items.map((x) => x.item.upload.id).slice(0, 2)).toEqual([second, first])
    expect(detail.items.slice(2)).toEqual(detailBefore.items)
    const upload = detail.items[0]!.item.upload
    expect(Date.parse(upload.created_at)).toBeGreaterThanOrEqual(NOW)
    expect(upload.hotlink_path).toBe(`${service.baseUrl}/hotlink/${second}.${upload.ext}`)

    // The list entry changes (its signature, so a sync fetches the detail again) and tops recently_updated.
    const list = await getJson<ListBody>(`${base}?sort=recently_updated&include_blank=1&per_page=50`)
    expect(list.text).not.toBe(listBefore)
    const top = list.body.artists[0]!.artist
    expect(top.username).toBe(artist.username)
    expect(top.num_tracks).toBe(detail.num_tracks)
    expect(top.items[0]!.item.upload.id).toBe(second)

    // The files are served, at their size.
    const file = await fetch(upload.hotlink_path)
    expect(file.status).toBe(200)
    expect((await file.arrayBuffer()).byteLength).toBe(upload.bytes)
  })

  it('can give an artist without tracks its first one: it joins the lists that leave out blank artists', async () => {
    service = await startCatalogueService({ artists: 150, seed: 3, maxFileMb: 16 })
    const blank = service.catalogue.artists.find((x) => x.numTracks === 0)!
    const inList = async (): Promise<boolean> => {
      const { body } = await getJson<ListBody>(`${service!.baseUrl}/api/v1/artists?sort=recently_updated&per_page=50`)
      return body.artists.some((x) => x.artist.username === blank.username)
    }
    expect(await inList()).toBe(false)
    service.addUploads({ artists: [blank.username] })
    expect(await inList()).toBe(true)
  })

  it('are kept by a restart that resumes the service, and the next batch goes on from them', async () => {
    const first = await startCatalogueService({ artists: 60, seed: 5, maxFileMb: 16 })
    const [added] = first.addUploads()
    const renamed = first.catalogue.artists.find((x) => x.numTracks > 0 && x.username !== added!.username)!
    first.catalogue.editArtist(renamed.username, { pfName: 'Renamed before the restart' })
    await first.close()
    const fresh = await startCatalogueService({ artists: 60, seed: 5, maxFileMb: 16 })
    const [freshBatch] = fresh.addUploads()
    await fresh.close()
    service = await startCatalogueService({ resume: first })
    const { body } = await getJson<DetailBody>(`${service.baseUrl}/api/v1/artists/${encodeURIComponent(added!.username)}`)
    expect(body.items.map((entry) => entry.item.upload.id)).toContain(added!.uploadIds[0])
    const edited = await getJson<{ pf_name: string }>(`${service.baseUrl}/api/v1/artists/${encodeURIComponent(renamed.username)}`)
    expect(edited.body.pf_name).toBe('Renamed before the restart')
    // The second batch, not the first again (a new service's first batch is the first one's).
    expect(freshBatch).toEqual(added)
    expect(service.addUploads()).not.toEqual([added])
  })

  it('refuse an unknown or removed artist and bad counts, and publish nothing then', async () => {
    service = await startCatalogueService({ artists: 40, seed: 3, maxFileMb: 16 })
    const [a, b] = service.catalogue.artists.filter((x) => x.numTracks > 0)
    service.catalogue.removeArtist(b!.username)
    const tracks = a!.numTracks
    expect(() => service!.addUploads({ artists: [a!.username, 'nobody-at-all'] })).toThrow('no artist nobody-at-all')
    expect(() => service!.addUploads({ artists: [b!.username] })).toThrow(`no artist ${b!.username}`)
    expect(() => service!.addUploads({ perArtist: 0 })).toThrow('perArtist')
    expect(() => service!.addUploads({ artists: [] })).toThrow('name at least one artist')
    expect(a!.numTracks).toBe(tracks)
  })

  it('are described one artist a line', () => {
    expect(describeAdded([{ username: 'Hungry_Lucy', uploadIds: ['1042017', '1042018'] }, { username: 'dj', uploadIds: ['1003004'] }])).toBe(
      'new uploads: Hungry_Lucy 1042017, 1042018\nnew uploads: dj 1003004\n',
    )
    expect(describeAdded([])).toBe('new uploads: none (no artist has room for more)\n')
  })
})

describe('npm run catalogue changing while it runs', () => {
  function run(args: string[]) {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--artists', '60', '--seed', '9', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    return {
      child,
      exited,
      stderr: () => stderr,
      baseUrl: async () => {
        await expect.poll(() => stdout, { timeout: 15_000 }).toMatch(/^listening on /)
        return /listening on (\S+)/.exec(stdout)![1]!
      },
    }
  }

  it('publishes a batch on each SIGUSR2, names it on stderr, and the detail endpoint shows it', async () => {
    const cli = run([])
    try {
      const baseUrl = await cli.baseUrl()
      // The pid to signal is named, since npm and tsx stand between a shell and the service.
      await expect.poll(cli.stderr).toContain(`pid ${cli.child.pid}: kill -USR2 ${cli.child.pid} publishes new uploads\n`)
      cli.child.kill('SIGUSR2')
      await expect.poll(cli.stderr, { timeout: 10_000 }).toMatch(/(new uploads: \S+ \d+\n){3}/)
      const [, username, id] = /new uploads: (\S+) (\d+)/.exec(cli.stderr())!
      const { body } = await getJson<DetailBody>(`${baseUrl}/api/v1/artists/${encodeURIComponent(username!)}`)
      expect(body.items[0]!.item.upload.id).toBe(id)
      // The same seed's first batch, in-process, is the same.
      const catalogue = new Catalogue({ artists: 60, seed: 9, maxFileMb: 4096 })
      expect(describeAdded(new NewUploads(catalogue).add())).toBe(cli.stderr().match(/(new uploads: \S+ \d+\n){3}/)![0])
    } finally {
      cli.child.kill('SIGTERM')
      expect(await cli.exited).toBe(0)
    }
  })

  it('publishes a batch every --new-uploads-every seconds', async () => {
    const cli = run(['--new-uploads-every', '1'])
    try {
      await cli.baseUrl()
      await expect.poll(() => cli.stderr().match(/new uploads: /g)?.length ?? 0, { timeout: 10_000 }).toBeGreaterThanOrEqual(6)
    } finally {
      cli.child.kill('SIGTERM')
      await cli.exited
    }
  })

  it('gives each batch to the artists of --new-uploads-for, and refuses one the catalogue does not have', async () => {
    const catalogue = new Catalogue({ artists: 60, seed: 9, maxFileMb: 4096 })
    const [one, two] = catalogue.artists.filter((artist) => !artist.removed && artist.numTracks > 0 && artist.numTracks < 30)
    const cli = run(['--new-uploads-for', `${one!.username.toUpperCase()},${two!.username}`])
    try {
      await cli.baseUrl()
      await expect.poll(cli.stderr).toMatch(/^pid \d+: /)
      cli.child.kill('SIGUSR2')
      await expect.poll(cli.stderr, { timeout: 10_000 }).toMatch(/(new uploads: \S+ \d+\n){2}/)
      expect([...cli.stderr().matchAll(/new uploads: (\S+) /g)].map((match) => match[1])).toEqual([one!.username, two!.username])
    } finally {
      cli.child.kill('SIGTERM')
      await cli.exited
    }
    const unknown = run(['--new-uploads-for', 'nobody-at-all'])
    expect(await unknown.exited).toBe(2)
    expect(unknown.stderr()).toMatch(/^--new-uploads-for: no artist nobody-at-all in this catalogue\nusage: catalogue /)
  })

  it.each([['0'], ['x'], ['90000']])('refuses --new-uploads-every %s with the usage', async (value) => {
    const cli = run(['--new-uploads-every', value])
    expect(await cli.exited).toBe(2)
    expect(cli.stderr()).toMatch(/--new-uploads-every must be .*\nusage: catalogue .*--new-uploads-every SECONDS/)
  })
})

/**
 * The core's host as the app runs it: a process of its own (forked, as under
 * `npm run web`), its host thread answering queries from its own connection,
 * its writer thread running the session. Killed, it is started again and
 * nothing is lost; killed again and again, it stays down and says why.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, onTestFinished, vi } from 'vitest'
import { CoreClient } from '../../../../src-main/main-process/core-client'
import { runHost } from '../../../../src-main/core/host/host'
import { forkedHost } from '../../../../src-main/main-process/host-launch'
import type { HostMessage, HostRequest, WriterMessage, WriterRequest } from '../../../../src-main/core/host/messages'
import { portPair } from '../../../../src-main/core/host/port'
import type { SessionEvent, SessionSnapshot } from '../../../../src-main/core/shared/types'
import type { SyncState } from '../../../../src-main/core/shared/types-sync'
import { bumpCatalogueVersion } from '../../../../src-main/core/db/query-cache'
import { alive, TSX } from '../../support/cli'
import { syncedDataDir } from '../../support/core'
import { catalogueTest } from '../../support/fixtures'
import { withCache } from '../sync/cache-file'

const test = catalogueTest({ artists: 20, seed: 41, maxFileMb: 2 })

const idleSync: SyncState = { status: 'idle', progress: null, waitingFor: null, lastRun: null, lastFullSyncAt: null, lastCheckAt: null, hasArtists: true, lastError: null }

/** The core in a forked process over dataDir, closed after the test. */
async function startCore(dataDir: string, options: { maxRestarts?: number } = {}): Promise<{ core: CoreClient; output: string[]; events: SessionEvent[] }> {
  const output: string[] = []
  const core = await CoreClient.start({
    launch: forkedHost({ dataDir, demoPort: 0 }, { execArgv: ['--import', TSX], output: (line) => output.push(line) }),
    maxRestarts: options.maxRestarts,
  })
  onTestFinished(() => core.close())
  const events: SessionEvent[] = []
  core.onDidEmit((event) => events.push(event))
  return { core, output, events }
}

describe('the core host', () => {
  test('runs the session in a process of its own: queries, commands and events; closing ends it and folds the log into the cache', async ({ demo, tempDir }) => {
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    const { core, events } = await startCore(dataDir)
    const pid = core.pid!
    expect(pid).not.toBe(process.pid)
    expect(alive(pid)).toBe(true)
    expect((await core.snapshot()).snapshot.service).toMatchObject({ baseUrl: demo.baseUrl, demo: false })

    const page = await core.call('catalogue:list', [{ perPage: 5 }])
    expect(page.artists).toHaveLength(5)
    const settings = await core.call('settings:set', [{ theme: 'dark' }])
    expect(settings.theme).toBe('dark')
    // The state the host answers from already holds what the command did when its answer comes.
    expect((await core.call('settings:get', [])).theme).toBe('dark')
    expect((await core.snapshot()).snapshot.settings.theme).toBe('dark')
    await vi.waitFor(() => expect(events).toContainEqual(expect.objectContaining({ type: 'settings' })))
    await expect(core.call('catalogue:artist', ['nobody at all'])).rejects.toMatchObject({ code: 'not_found' })

    await core.close()
    expect(alive(pid)).toBe(false)
    const files = fs.readdirSync(path.join(dataDir, 'catalogues'))
    expect(files.filter((file) => file.endsWith('.sqlite'))).toHaveLength(1)
    // The reader let go first, so the writer's close checkpointed and removed the write-ahead log.
    expect(files.filter((file) => file.endsWith('-wal'))).toEqual([])
  })

  test('a host killed mid-download is started again: one notice, the window told to read everything again, and the download finishes whole', async ({ demo, tempDir }) => {
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    const { core, events } = await startCore(dataDir)
    // A file of about a megabyte, served slowly, so the kill comes in the middle of it.
    const tracks = await Promise.all(demo.catalogue.artists.slice(0, 10).map((artist) => core.call('catalogue:artist', [artist.username])))
    const track = tracks.flatMap((artist) => artist.tracks).find((candidate) => (candidate.bytes ?? 0) > 800_000 && candidate.hotlinkPath !== null)!
    demo.faults.add({ path: '/hotlink/*', times: 1, fault: { kind: 'slow', bytesPerSecond: 400_000 } })
    onTestFinished(() => demo.faults.clear())
    const { downloads } = await core.call('downloads:enqueue', [{ uploadIds: [track.uploadId] }])
    const id = downloads[0]!.id
    await vi.waitFor(async () => {
      const [row] = (await core.call('downloads:list', [])).filter((download) => download.id === id)
      expect(row!.bytesDone).toBeGreaterThan(100_000)
    }, { timeout: 10_000 })

    const first = core.pid!
    const before = events.length
    process.kill(first, 'SIGKILL')
    // A query made as it dies, or while it restarts, is answered by the new host.
    const answered = await core.call('catalogue:levels', [])
    expect(answered).toHaveLength(4)
    expect(core.pid).not.toBe(first)
    expect(alive(first)).toBe(false)

    const after = events.slice(before)
    const notices = after.filter((event) => event.type === 'notice')
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatchObject({ message: expect.stringMatching(/core stopped unexpectedly \(signal SIGKILL\).*restarted, and nothing was lost/) })
    expect(after.map((event) => event.type)).toEqual(expect.arrayContaining(['notice', 'service', 'settings', 'sync-state']))
    // The new host's state is the session's as it opened again.
    expect((await core.snapshot()).snapshot.service.baseUrl).toBe(demo.baseUrl)

    // The new host's queue took the download up again from its partial file.
    await vi.waitFor(async () => {
      const [row] = (await core.call('downloads:list', ['completed'])).filter((download) => download.id === id)
      expect(row).toBeDefined()
    }, { timeout: 20_000 })
    const [done] = (await core.call('downloads:list', ['completed'])).filter((download) => download.id === id)
    const bytes = fs.readFileSync(done!.targetPath)
    expect(bytes.length).toBe(track.bytes)
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(done!.sha256)
    const source = Buffer.from(await (await fetch(track.hotlinkPath!)).arrayBuffer())
    expect(bytes.equals(source)).toBe(true)
  }, 60_000)

  test('a host that keeps dying is not started again and again: it stays down, says why once, and calls say so', async ({ demo, tempDir }) => {
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    const { core, events } = await startCore(dataDir, { maxRestarts: 1 })
    process.kill(core.pid!, 'SIGKILL')
    await core.call('catalogue:levels', [])
    process.kill(core.pid!, 'SIGKILL')
    await vi.waitFor(() => expect(events.filter((event) => event.type === 'notice')).toHaveLength(2))
    expect(events.filter((event) => event.type === 'notice').at(-1)).toMatchObject({ message: expect.stringMatching(/again and again, so it was not restarted/) })
    await expect(core.call('catalogue:levels', [])).rejects.toMatchObject({ code: 'internal', message: expect.stringMatching(/not restarted/) })
    // The state is the host's: with none, the state channels say why too (the window keeps the state it has).
    await expect(core.call('sync:state', [])).rejects.toMatchObject({ code: 'internal', message: expect.stringMatching(/not restarted/) })
  }, 60_000)

  test('a session that cannot open is a clear error, and no host is left behind', async ({ tempDir }) => {
    const dataDir = tempDir()
    fs.writeFileSync(path.join(dataDir, 'catalogues'), 'a file where the caches go')
    fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ baseUrl: 'http://127.0.0.1:9' }))
    await expect(
      CoreClient.start({ launch: forkedHost({ dataDir, demoPort: 0 }, { execArgv: ['--import', TSX], output: () => undefined }) }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/is a file, not a folder/) })
  })
})

describe('the host thread', () => {
  test('answers queries from its own connection without the writer, and passes commands to it', async ({ demo, tempDir }) => {
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    const [mainEnd, hostEnd] = portPair<HostMessage, HostRequest>()
    const [hostWriterEnd, writerEnd] = portPair<WriterMessage, WriterRequest>()
    // A writer that is busy for good: it never answers anything.
    const toWriter: WriterRequest[] = []
    writerEnd.onDidReceiveMessage((request) => toWriter.push(request))
    const host = runHost(hostEnd, hostWriterEnd)
    const cacheFile = path.join(dataDir, 'catalogues', fs.readdirSync(path.join(dataDir, 'catalogues')).find((file) => file.endsWith('.sqlite'))!)
    writerEnd.post({ type: 'opened', library: { dataDir, cacheFile, readFile: cacheFile, displayUrl: demo.baseUrl, readOnly: false } })

    const replies: HostMessage[] = []
    mainEnd.onDidReceiveMessage((message) => replies.push(message))
    mainEnd.post({ type: 'call', id: 1, channel: 'catalogue:list', args: [{ perPage: 3 }] })
    mainEnd.post({ type: 'call', id: 2, channel: 'caches:list', args: [] })
    mainEnd.post({ type: 'call', id: 3, channel: 'settings:set', args: [{ theme: 'dark' }] })
    mainEnd.post({ type: 'ask', id: 4, ask: { what: 'downloadedFile', id: 99 } })
    await vi.waitFor(() => expect(replies).toHaveLength(3))
    expect(replies).toEqual([
      { type: 'reply', id: 1, result: { ok: true, value: expect.objectContaining({ artists: expect.any(Array) }) } },
      { type: 'reply', id: 2, result: { ok: true, value: [expect.objectContaining({ file: cacheFile, current: true })] } },
      { type: 'reply', id: 4, result: { ok: true, value: undefined } },
    ])
    expect(toWriter).toEqual([{ type: 'call', id: 3, channel: 'settings:set', args: [{ theme: 'dark' }] }])

    // Closing: the reader lets go, the writer is asked, and the host ends when the writer says it closed.
    mainEnd.post({ type: 'close' })
    await vi.waitFor(() => expect(toWriter.at(-1)).toEqual({ type: 'close' }))
    writerEnd.post({ type: 'closed' })
    await host
    await vi.waitFor(() => expect(replies.at(-1)).toEqual({ type: 'closed' }))
  })

  test('tells the writer which avatars the window was given, in one note (the reader cannot write), at the latest on closing', async ({ demo, tempDir }) => {
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    const [mainEnd, hostEnd] = portPair<HostMessage, HostRequest>()
    const [hostWriterEnd, writerEnd] = portPair<WriterMessage, WriterRequest>()
    const toWriter: WriterRequest[] = []
    writerEnd.onDidReceiveMessage((request) => toWriter.push(request))
    const host = runHost(hostEnd, hostWriterEnd)
    const cacheFile = path.join(dataDir, 'catalogues', fs.readdirSync(path.join(dataDir, 'catalogues')).find((file) => file.endsWith('.sqlite'))!)
    // One image in the store (the data folder was synced without avatars).
    const address = `${demo.baseUrl}/avatars/a0-thumb.svg`
    withCache(cacheFile, (db) => db.prepare('INSERT INTO avatars (url, content_type, body, fetched_at) VALUES (?, ?, ?, 0)').run(address, 'image/svg+xml', Buffer.from('<svg/>')))
    writerEnd.post({ type: 'opened', library: { dataDir, cacheFile, readFile: cacheFile, displayUrl: demo.baseUrl, readOnly: false } })

    const replies: HostMessage[] = []
    mainEnd.onDidReceiveMessage((message) => replies.push(message))
    for (const id of [1, 2]) mainEnd.post({ type: 'ask', id, ask: { what: 'avatar', address } })
    mainEnd.post({ type: 'ask', id: 3, ask: { what: 'avatar', address: 'https://nowhere.example/none.png' } })
    await vi.waitFor(() => expect(replies).toHaveLength(3))
    expect(toWriter).toEqual([])

    mainEnd.post({ type: 'close' })
    await vi.waitFor(() => expect(toWriter.at(-1)).toEqual({ type: 'close' }))
    expect(toWriter).toEqual([{ type: 'avatarsShown', urls: [address] }, { type: 'close' }])
    writerEnd.post({ type: 'closed' })
    await host
  })

  test("while the session's sync runs, a list's count may lag its commits by half a second; once it ends, never", async ({ demo, tempDir }) => {
    const dataDir = await syncedDataDir(demo.baseUrl, tempDir())
    const [mainEnd, hostEnd] = portPair<HostMessage, HostRequest>()
    const [hostWriterEnd, writerEnd] = portPair<WriterMessage, WriterRequest>()
    const host = runHost(hostEnd, hostWriterEnd)
    const cacheFile = path.join(dataDir, 'catalogues', fs.readdirSync(path.join(dataDir, 'catalogues')).find((file) => file.endsWith('.sqlite'))!)
    writerEnd.post({ type: 'opened', library: { dataDir, cacheFile, readFile: cacheFile, displayUrl: demo.baseUrl, readOnly: false } })
    const replies = new Map<number, unknown>()
    mainEnd.onDidReceiveMessage((message) => {
      if (message.type === 'reply') replies.set(message.id, message.result)
    })
    let id = 0
    const total = async (): Promise<number> => {
      const asked = ++id
      mainEnd.post({ type: 'call', id: asked, channel: 'catalogue:list', args: [{ perPage: 1, includeBlank: true }] })
      await vi.waitFor(() => expect(replies.has(asked)).toBe(true))
      return (replies.get(asked) as { ok: true; value: { total: number } }).value.total
    }
    // A commit of the sync, as the writer makes it: one artist fewer in the list, the catalogue's version raised.
    const commit = (): void =>
      withCache(cacheFile, (db) => {
        db.prepare('UPDATE artists SET rank_trending = NULL WHERE id = (SELECT min(id) FROM artists WHERE rank_trending IS NOT NULL)').run()
        bumpCatalogueVersion(db)
      })
    const syncState = (status: 'running' | 'idle'): void =>
      writerEnd.post({ type: 'event', event: { type: 'sync-state', state: { ...idleSync, status } } })

    const all = await total()
    let commits = 0
    writerEnd.post({ type: 'ready', snapshot: { sync: idleSync } as SessionSnapshot })
    syncState('running')
    await vi.waitFor(async () => {
      const before = await total()
      commit()
      commits++
      // The count of the last half second stands for the commits since (a sync moves the version many times a second).
      expect(await total()).toBe(before)
    })
    syncState('idle')
    // The sync ended: the next call sees its last commit, and every one after it.
    expect(await total()).toBe(all - commits)
    commit()
    expect(await total()).toBe(all - commits - 1)

    mainEnd.post({ type: 'close' })
    writerEnd.post({ type: 'closed' })
    await host
  })
})

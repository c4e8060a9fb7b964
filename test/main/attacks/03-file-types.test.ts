/**
 * Attack 3: the catalogue chose the file extension, and "Open" ran the file.
 * A hostile service said its uploads were `.desktop`, `.exe`, `.sh`, `.js`,
 * `.bat` files: they were saved under those names, and `downloads:open`
 * handed them to the system (shell.openPath), which runs a program or a
 * launcher. Now a file keeps its extension only if it is one of the audio and
 * video types the app plays (else it is a `.bin`), and main refuses to open
 * anything else, before the platform is asked.
 *
 * The hostile service is a small proxy in front of the demo catalogue that
 * rewrites the `ext` of chosen uploads; the core syncs and downloads for real.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect } from 'vitest'
import type { Tagged } from '../../../src-main/core/shared/contract'
import { createDispatch } from '../../../src-main/main-process/dispatch'
import { windowHandlers, type Platform } from '../../../src-main/main-process/window-handlers'
import { startInProcessCore } from '../support/core'
import { catalogueTest } from '../support/fixtures'

/** What the hostile service says each of one artist's uploads is, in order; the last is a real audio file. */
const HOSTILE_EXTENSIONS = ['desktop', 'exe', 'sh', 'js', 'bat', 'MP3.exe', 'mp3'] as const
const MAX_REQUESTS = 2_000

const test = catalogueTest({ artists: 12, seed: 33, maxFileMb: 1 }).extend('hostile', { scope: 'file' }, async ({ demo }, { onCleanup }) => {
  const artist = demo.catalogue.artists.find((candidate) => demo.catalogue.tracksOf(candidate).length >= HOSTILE_EXTENSIONS.length)!
  const tracks = demo.catalogue.tracksOf(artist).slice(0, HOSTILE_EXTENSIONS.length)
  const extensionOf = new Map(tracks.map((track, index) => [track.uploadId, HOSTILE_EXTENSIONS[index]!]))
  const upstream = new URL(demo.baseUrl)
  let requests = 0
  const server = http.createServer((incoming, outgoing) => {
    if (++requests > MAX_REQUESTS) return void outgoing.writeHead(503).end()
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, host: upstream.host, 'accept-encoding': 'identity' },
      },
      (answer) => {
        if (!String(answer.headers['content-type'] ?? '').includes('json')) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(outgoing)
          return
        }
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.once('end', () => {
          const body = Buffer.from(JSON.stringify(rewrite(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown, extensionOf)))
          const headers = { ...answer.headers, 'content-length': String(body.length) }
          delete headers.etag
          outgoing.writeHead(answer.statusCode ?? 502, headers).end(body)
        })
      },
    )
    forward.once('error', () => outgoing.destroy())
    incoming.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, artist: artist.username, uploadIds: tracks.map((track) => track.uploadId) }
})

/** Every upload object the service describes, with the extension the hostile service gives it. */
function rewrite(value: unknown, extensionOf: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, extensionOf))
  if (typeof value !== 'object' || value === null) return value
  const object = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewrite(item, extensionOf)]))
  const hostile = extensionOf.get(String(object['id']))
  if (hostile !== undefined && 'ext' in object) object['ext'] = hostile
  return object
}

describe('a hostile catalogue picks the file types', () => {
  test('files land as .bin unless they are a type the app plays, and Open refuses them without asking the system', async ({ hostile, tempDir }) => {
    const dataDir = tempDir()
    const { core, session } = await startInProcessCore({ dataDir, baseUrl: hostile.baseUrl })
    try {
      await session.library.sync.start({ skipAvatars: true })
      const cached = session.library.catalogue.artist(hostile.artist).tracks
      const offered = hostile.uploadIds.map((uploadId) => cached.find((track) => track.uploadId === uploadId)?.ext ?? null)
      // The cache holds what the service said: the attack reached the app.
      expect(offered).toEqual([...HOSTILE_EXTENSIONS])

      const { downloads } = await session.library.downloads.enqueue({ uploadIds: hostile.uploadIds })
      await session.library.downloads.whenIdle()
      const landed = downloads.map((download) => session.library.downloads.get(download.id))
      expect(landed.map((download) => download.state)).toEqual(HOSTILE_EXTENSIONS.map(() => 'completed'))
      expect(landed.map((download) => path.extname(download.targetPath))).toEqual(['.bin', '.bin', '.bin', '.bin', '.bin', '.bin', '.mp3'])
      for (const download of landed) expect(fs.existsSync(download.targetPath), download.targetPath).toBe(true)
      // Nothing on disk but those names and their folder.
      const names = fs.readdirSync(path.dirname(landed[0]!.targetPath))
      expect(names.filter((name) => !/\.(bin|mp3)$/.test(name))).toEqual([])

      const opened: string[] = []
      const platform: Platform = {
        transport: 'electron',
        versions: { electron: '', chrome: '', node: process.versions.node },
        avatarBase: 'tuneshelf-media://app/avatars/',
        logFile: null,
        playbackAddress: (id) => `tuneshelf-media://app/downloads/${id}`,
        openPath: async (file) => void opened.push(file),
        showInFolder: async () => undefined,
        openExternal: async () => false,
        pickFolder: async () => null,
        openLog: async () => undefined,
      }
      const dispatch = createDispatch(core, windowHandlers(core, platform, dataDir))
      for (const download of landed.slice(0, -1)) {
        const result = (await dispatch('downloads:open', [download.id])) as Tagged<unknown>
        expect(result, download.targetPath).toMatchObject({ ok: false, error: { code: 'unsafe_path', message: expect.stringMatching(/plays/) } })
      }
      expect(opened).toEqual([])
      // The real audio file opens.
      expect(await dispatch('downloads:open', [landed.at(-1)!.id])).toEqual({ ok: true, value: undefined })
      expect(opened).toEqual([landed.at(-1)!.targetPath])
    } finally {
      await core.close()
    }
  })

  test('a file saved under another name before this fix is refused too', async ({ demo, tempDir }) => {
    // A completed download whose file has a program's extension (an older version saved it so).
    const dataDir = tempDir()
    const { core, session } = await startInProcessCore({ dataDir, baseUrl: demo.baseUrl })
    try {
      await session.library.sync.start({ skipAvatars: true })
      const [artist] = session.library.catalogue.list({ offset: 0, limit: 1, includeBlank: true }).artists
      const track = session.library.catalogue.artist(artist!.username).tracks[0]!
      const { downloads } = await session.library.downloads.enqueue({ uploadIds: [track.uploadId] })
      await session.library.downloads.whenIdle()
      const file = session.library.downloads.get(downloads[0]!.id).targetPath
      const renamed = `${file}.desktop`
      fs.renameSync(file, renamed)
      const db = new Database(session.library.cacheFile)
      try {
        db.prepare('UPDATE downloads SET target_path = ? WHERE id = ?').run(renamed, downloads[0]!.id)
      } finally {
        db.close()
      }
      const opened: string[] = []
      const platform = { openPath: async (file: string) => void opened.push(file) } as Platform
      const dispatch = createDispatch(core, windowHandlers(core, platform, dataDir))
      expect(await dispatch('downloads:open', [downloads[0]!.id])).toMatchObject({ ok: false, error: { code: 'unsafe_path' } })
      expect(opened).toEqual([])
    } finally {
      await core.close()
    }
  })
})

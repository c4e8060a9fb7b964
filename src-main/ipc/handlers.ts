/**
 * The handler of every channel: plain functions over the app session, so the
 * Electron main process and the web bridge (and the renderer's end-to-end
 * tests) run the very same code. What differs between them (opening a file,
 * a native folder picker, the address of a downloaded file) is the Platform.
 */
import fs from 'node:fs'
import path from 'node:path'
import { listCaches } from '../core/db/connection'
import { InvalidArgumentError, NotFoundError } from '../core/shared/errors'
import type { AppSession } from '../core/session'
import { linkAddress } from '../core/shared/links'
import { APP_VERSION } from '../core/version'
import type { AppInfo } from './contract-types'
import type { Handlers } from './dispatch'

/** What only the host can do; the web bridge says "not available here" where it cannot. */
export interface Platform {
  transport: AppInfo['transport']
  versions: AppInfo['versions']
  /** The prefix that makes an avatar address a local one (see AppInfo). */
  avatarBase: string
  logFile: string | null
  /** Where a completed download is played from. */
  playbackAddress(downloadId: number): string
  /** Opens a file with the system's default application. */
  openPath(file: string): Promise<void>
  /** Shows a file in its folder (Finder, Explorer, the file manager). */
  showInFolder(file: string): Promise<void>
  /** Opens an http(s) address in the user's browser; false when the window must open it itself. */
  openExternal(address: string): Promise<boolean>
  /** A folder chosen by the user, or null when they cancelled. */
  pickFolder(startIn: string): Promise<string | null>
  openLog(): Promise<void>
}

export function createHandlers(session: AppSession, platform: Platform): Handlers {
  const library = () => session.library
  /** A completed download whose file is still there: what open, reveal and play work on. */
  const completedFile = (id: number): string => {
    const download = library().downloads.get(id)
    if (download.state !== 'completed') throw new InvalidArgumentError(`download ${id} is ${download.state}, not completed`, { field: 'id' })
    if (!fs.existsSync(download.targetPath)) throw new NotFoundError(`the file of download ${id} is no longer at ${download.targetPath}`)
    return download.targetPath
  }

  const handlers: Handlers = {
    'catalogue:list': (query) => library().catalogue.listArtists(query),
    'catalogue:artist': (username) => library().catalogue.getArtist(username),
    'catalogue:refreshArtist': (username) => library().catalogue.refreshArtist(username),
    'catalogue:levels': () => library().catalogue.accessLevels(),
    'catalogue:tierFit': (username) => library().catalogue.tierFit(username),
    'catalogue:status': () => library().catalogue.status(),
    'catalogue:whatsNew': (limit) => library().catalogue.whatsNew(limit),

    'sync:start': (options) => library().sync.start(options),
    'sync:cancel': () => library().sync.cancel(),
    'sync:state': () => library().sync.state,

    'downloads:enqueue': (request) => library().downloads.enqueue(request),
    'downloads:estimate': (request) => library().downloads.estimate(request),
    'downloads:pause': (ids) => library().downloads.pause(ids),
    'downloads:resume': (ids) => library().downloads.resume(ids),
    'downloads:cancel': (ids) => library().downloads.cancel(ids),
    'downloads:retry': (ids) => library().downloads.retry(ids),
    'downloads:remove': (ids) => library().downloads.remove(ids),
    'downloads:list': (state) => {
      const interrupted = new Set(library().downloads.interruptedIds())
      return library()
        .downloads.list(state)
        .map((download) => ({ ...download, interrupted: interrupted.has(download.id) }))
    },
    'downloads:state': () => library().downloads.state,
    'downloads:resumeQueue': () => library().downloads.resumeQueue(),
    'downloads:monthlyBytes': () => {
      const months = library().downloads.monthlyBytes()
      // By the session's clock, as the library counts the bytes (UTC months).
      const month = new Date(session.now()).toISOString().slice(0, 7)
      return { month, bytes: months.find((entry) => entry.month === month)?.bytes ?? 0, months }
    },
    'downloads:open': (id) => platform.openPath(completedFile(id)),
    'downloads:reveal': (id) => platform.showInFolder(completedFile(id)),
    'downloads:playbackAddress': (id) => {
      completedFile(id)
      return platform.playbackAddress(id)
    },

    'settings:get': () => session.snapshot().settings,
    'settings:set': (patch) => session.updateSettings(patch),
    'settings:pickDownloadFolder': () => platform.pickFolder(library().downloads.state.folder),

    'caches:list': () =>
      listCaches(session.library.dataDir).map((cache) => ({ ...cache, current: cache.file === library().cacheFile })),
    'caches:clear': async (file) => {
      if (file === undefined || file === library().cacheFile) return library().catalogue.clear()
      const cache = listCaches(library().dataDir).find((candidate) => candidate.file === file)
      if (!cache) throw new NotFoundError(`there is no cache ${JSON.stringify(file)} in ${library().dataDir}`)
      // Another service's cache is not open here: its files go (it is made afresh if that service is chosen again).
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(cache.file + suffix, { force: true })
    },

    'app:info': () => ({
      name: 'Tuneshelf',
      version: APP_VERSION,
      platform: process.platform,
      versions: platform.versions,
      transport: platform.transport,
      avatarBase: platform.avatarBase,
      dataDir: library().dataDir,
      logFile: platform.logFile,
    }),
    'app:online': () => session.snapshot().online,
    'app:openLink': async ({ kind, value }) => {
      const address = linkAddress(kind, value)
      if (address === undefined) throw new InvalidArgumentError(`${JSON.stringify(value.slice(0, 100))} does not make a safe ${kind} link`, { field: 'value' })
      return { address, opened: await platform.openExternal(address) } // eng-disable OPEN_EXTERNAL_JS_CHECK -- the address is built by linkAddress (http or https only) just above
    },
    'app:openLog': () => platform.openLog(),
    'events:subscribe': () => session.snapshot(),
  }
  // A call that comes while the service switches (the old library closed, the new one not open yet) waits for the new one.
  const waiting = Object.entries(handlers).map(([channel, handler]) => [
    channel,
    async (...args: unknown[]) => {
      await session.whenReady()
      return (handler as (...values: unknown[]) => unknown)(...args)
    },
  ])
  return Object.fromEntries(waiting) as Handlers
}

/** The folder a download was queued into: its file is `<folder>/<artist>/<file>`. */
export function downloadRoot(targetPath: string): string {
  return path.dirname(path.dirname(targetPath))
}

/**
 * The channels the main process answers itself: what only the host of the
 * window can do, through its Platform (Electron's shell and dialogs, or the
 * web bridge's stand-ins), and what the app is. The session's state is the
 * core's: its host answers those channels.
 */
import type { CoreClient } from './core-client'
import type { HandlersAt } from '../core/shared/contract'
import type { AppInfo } from '../core/shared/types'
import { InvalidArgumentError, UnsafePathError } from '../core/shared/errors'
import { linkAddress } from '../core/shared/links'
import { createAddressGuard, systemResolver, type Resolver } from '../core/api/address-guard'
import { isPlayable } from '../core/shared/media-types'
import { APP_VERSION } from '../core/base/version'

/** What only the host can do; the web bridge says "not available here" where it cannot. */
export interface Platform {
  transport: AppInfo['transport']
  versions: AppInfo['versions']
  /** The prefix that makes an avatar address a local one (see AppInfo). */
  avatarBase: string
  logFile: string | null
  /** Where a completed download is played from. */
  playbackAddress(downloadId: number): string
  /** Opens a file with the system's default application (the handler passes only files the app plays). */
  openPath(file: string): Promise<void>
  /** Shows a file in its folder (Finder, Explorer, the file manager). */
  showInFolder(file: string): Promise<void>
  /** Opens an http(s) address in the user's browser; false when the window must open it itself. */
  openExternal(address: string): Promise<boolean>
  /** A folder chosen by the user, or null when they cancelled. */
  pickFolder(startIn: string): Promise<string | null>
  openLog(): Promise<void>
}

/** With no service set, links are judged as for a catalogue on the internet (a documentation address, never asked). */
const PUBLIC_PLACEHOLDER = 'https://192.0.2.1/'

export function windowHandlers(core: CoreClient, platform: Platform, dataDir: string, resolveLink: Resolver = systemResolver): HandlersAt<'window'> {
  const completedFile = (id: number): Promise<string> => core.ask({ what: 'completedFile', id })
  return {
    'downloads:open': async (id) => {
      const file = await completedFile(id)
      // The system opens a file with whatever runs it: a program, a launcher, a script. Only what the app
      // plays is handed over, whatever name the catalogue gave it (or an older version saved it under).
      if (!isPlayable(file)) {
        throw new UnsafePathError(`Tuneshelf opens only the audio and video files it plays; ${file} is not one of them, so it is not opened (Show in folder finds it)`)
      }
      return platform.openPath(file)
    },
    'downloads:reveal': async (id) => platform.showInFolder(await completedFile(id)),
    'downloads:playbackAddress': async (id) => {
      await completedFile(id)
      return platform.playbackAddress(id)
    },
    'settings:pickDownloadFolder': async () => platform.pickFolder((await core.call('downloads:state', [])).folder),
    'app:info': () => ({
      name: 'Tuneshelf',
      version: APP_VERSION,
      platform: process.platform,
      versions: platform.versions,
      transport: platform.transport,
      avatarBase: platform.avatarBase,
      dataDir,
      logFile: platform.logFile,
    }),
    'app:openLink': async ({ kind, value }) => {
      const address = linkAddress(kind, value)
      if (address === undefined) throw new InvalidArgumentError(`${JSON.stringify(value.slice(0, 100))} does not make a safe ${kind} link`, { field: 'value' })
      // A catalogue on the internet has no business sending the user's browser to their router or this
      // computer (the same rule as the app's own requests: core/api/address-guard.ts).
      const { baseUrl } = await core.call('settings:get', [])
      await createAddressGuard(baseUrl ?? PUBLIC_PLACEHOLDER, resolveLink).checkLink(new URL(address)).catch((error: unknown) => {
        throw new InvalidArgumentError(`Tuneshelf does not open ${address}: ${(error as Error).message.replace(/^refused to connect to /, '')}`, { field: 'value' })
      })
      return { address, opened: await platform.openExternal(address) } // eng-disable OPEN_EXTERNAL_JS_CHECK -- the address is built by linkAddress (http or https only) just above
    },
    'app:openLog': () => platform.openLog(),
  }
}

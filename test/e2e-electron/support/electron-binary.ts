// Finds the Electron binary that `npm install` downloads. CI installs with
// ELECTRON_SKIP_BINARY_DOWNLOAD=1, so there is none and the Electron suite skips.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'

/** The Electron binary, or why there is none. */
export type ElectronBinary = { path: string; missing?: undefined } | { path?: undefined; missing: string }

/** Looks for the binary of the installed 'electron' package. */
export function findElectronBinary(): ElectronBinary {
  const hint =
    'the Electron binary is not installed (as with ELECTRON_SKIP_BINARY_DOWNLOAD=1), so the ' +
    'Electron suite is skipped; run `npm install` with the download allowed to run it'
  try {
    const path: unknown = createRequire(import.meta.url)('electron')
    if (typeof path === 'string' && existsSync(path)) return { path }
    return { missing: `${hint} (no file at ${String(path)})` }
  } catch (error) {
    return { missing: `${hint} (${error instanceof Error ? error.message : String(error)})` }
  }
}

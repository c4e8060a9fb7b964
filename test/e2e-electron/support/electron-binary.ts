// Finds the Electron binary that `npm install` downloads. CI installs with
// ELECTRON_SKIP_BINARY_DOWNLOAD=1, so there is none and the Electron suite skips.
// The package is read, not required: requiring 'electron' without its binary starts a
// download from the network, which a test run must never do.
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** The Electron binary, or why there is none. */
export type ElectronBinary = { path: string; missing?: undefined } | { path?: undefined; missing: string }

/** Looks for the binary of the installed 'electron' package, as its own index.js does. */
export function findElectronBinary(): ElectronBinary {
  const hint =
    'the Electron binary is not installed (as with ELECTRON_SKIP_BINARY_DOWNLOAD=1), so the ' +
    'Electron suite is skipped; run `npm install` with the download allowed to run it'
  let packageDir: string
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'))
  } catch (error) {
    return { missing: `${hint} (${error instanceof Error ? error.message : String(error)})` }
  }
  const pathFile = join(packageDir, 'path.txt')
  if (!existsSync(pathFile)) return { missing: `${hint} (no ${pathFile})` }
  const executable = readFileSync(pathFile, 'utf8')
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH']
  const path = override ? join(override, executable || 'electron') : join(packageDir, 'dist', executable)
  return existsSync(path) ? { path } : { missing: `${hint} (no file at ${path})` }
}

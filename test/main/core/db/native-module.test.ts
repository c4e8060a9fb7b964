/**
 * better-sqlite3 is a Node-API module: the binary the process loaded is the
 * prebuilt one shipped in the package, ABI-stable, so the same file loads in
 * Node and in every Electron without a rebuild step.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'

const packageFolder = path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'))
const prebuilt = path.join(packageFolder, 'prebuilds', `${process.platform}-${process.arch}.node`)
/** The files this process has mapped, which Linux lists in /proc; macOS and Windows have no such file. */
const MAPS = '/proc/self/maps'
const noMaps = !fs.existsSync(MAPS)

describe('the SQLite native module', () => {
  it.skipIf(noMaps)(
    `is the package's prebuilt binary, loaded as it is${noMaps ? ` (skipped: it reads ${MAPS}, which ${process.platform} does not have)` : ''}`,
    () => {
      new Database(':memory:').close()
      const loaded = fs
        .readFileSync(MAPS, 'utf8')
        .split('\n')
        .map((line) => line.split(/\s+/).slice(5).join(' '))
        .filter((file) => file.startsWith(packageFolder) && file.endsWith('.node'))
      expect(new Set(loaded)).toEqual(new Set([prebuilt]))
    },
  )

  it('is a Node-API module, nothing compiled on install', () => {
    const binary = fs.readFileSync(prebuilt)
    // A Node-API module registers through napi_register_module_v1; one built on V8's own API
    // exports node_register_module_v<ABI> and must be rebuilt for every Node and Electron.
    expect(binary.includes('napi_register_module_v1')).toBe(true)
    expect(binary.includes('node_register_module_v')).toBe(false)
    // Nothing was compiled on install: no build folder beside the prebuilds.
    expect(fs.existsSync(path.join(packageFolder, 'build'))).toBe(false)
  })

  it('has SQLite with FTS5 and contentless deletes, as the cache needs', () => {
    const db = new Database(':memory:')
    expect(db.prepare('SELECT sqlite_version()').pluck().get()).toMatch(/^3\.(4[3-9]|[5-9]\d)\./)
    db.exec(`CREATE VIRTUAL TABLE t USING fts5 (a, content = '', contentless_delete = 1)`)
    db.close()
  })
})

/**
 * The packaging configuration (electron-builder.yml), read as electron-builder reads it: valid
 * against its schema, every target of the app, the native module outside the asar, the fuses,
 * icons big enough, only the build in the app. Last, a real `electron-builder --dir` run with a
 * stand-in for the Electron binary (which cannot be downloaded here): the app it packs holds
 * what it should, and the fuses are flipped in the binary.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { listPackage } from '@electron/asar'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import type { Configuration, FileSet } from 'app-builder-lib'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config'
import { FileMatcher } from 'app-builder-lib/out/fileMatcher'
import { DebugLogger } from 'builder-util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CONFIG_FILE = 'electron-builder.yml'

let config: Configuration

beforeAll(async () => {
  config = await getConfig(ROOT, path.join(ROOT, CONFIG_FILE), null)
})

/** The string patterns of a `files`-like option (electron-builder turns the list into one FileSet). */
function patterns(option: Configuration['files']): string[] {
  const entries = option == null ? [] : Array.isArray(option) ? option : [option]
  return entries.flatMap((entry: string | FileSet) => {
    if (typeof entry === 'string') return [entry]
    if (entry.from != null && entry.from !== '.') throw new Error(`unexpected file set from ${entry.from}`)
    const filter = entry.filter ?? []
    return Array.isArray(filter) ? filter : [filter]
  })
}

/** electron-builder's own matching of a list of patterns, as it applies them under the project. */
function matcher(list: string[], macros: Record<string, string> = {}): (relative: string) => boolean {
  const expand = (pattern: string): string => pattern.replace(/\$\{(\w+)\}/g, (whole, name: string) => macros[name] ?? whole)
  const filter = new FileMatcher(ROOT, '/app', expand, list).createFilter()
  const file = { isDirectory: () => false } as unknown as Parameters<typeof filter>[1]
  return (relative) => filter(path.join(ROOT, relative), file)
}

/** What is kept of a dependency: electron-builder applies only the `!` patterns to node_modules. */
function nodeModulesMatcher(macros: Record<string, string>): (relative: string) => boolean {
  return matcher(['**/*', ...patterns(config.files).filter((pattern) => pattern.startsWith('!'))], macros)
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const header = Buffer.alloc(24)
  const fd = fs.openSync(file, 'r')
  try {
    fs.readSync(fd, header, 0, 24, 0)
  } finally {
    fs.closeSync(fd)
  }
  expect(header.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), `${file} is a PNG`).toBe(true)
  expect(header.toString('latin1', 12, 16), `${file} starts with IHDR`).toBe('IHDR')
  return { width: header.readUInt32BE(16), height: header.readUInt32BE(20) }
}

function targets(option: unknown): string[] {
  const list = option == null ? [] : Array.isArray(option) ? option : [option]
  return list.map((entry: string | { target: string }) => (typeof entry === 'string' ? entry : entry.target))
}

/** The fuses of the issue, as electron-builder's `electronFuses` names them. */
const FUSES = {
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  enableCookieEncryption: true,
  grantFileProtocolExtraPrivileges: false,
}

/** How the fuse wire writes a fuse: the characters '1' and '0'. */
const FUSE_ON = 0x31
const FUSE_OFF = 0x30

const BETTER_SQLITE3 = path.join(ROOT, 'node_modules', 'better-sqlite3')

/** Files of better-sqlite3 under a folder, relative to the project. */
function betterSqliteFiles(folder: string): string[] {
  return (fs.readdirSync(path.join(BETTER_SQLITE3, folder), { recursive: true }) as string[])
    .filter((name) => fs.statSync(path.join(BETTER_SQLITE3, folder, name)).isFile())
    .map((name) => path.posix.join('node_modules/better-sqlite3', folder, name.split(path.sep).join('/')))
}

describe('electron-builder.yml', () => {
  test('is valid against electron-builder’s schema (a misspelt option fails here)', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined()
    // The check does catch a misspelt option.
    await expect(validateConfiguration({ ...config, electronFuses: { ...FUSES, runAsnode: false } } as Configuration, new DebugLogger(false))).rejects.toThrow(
      /electronFuses/,
    )
  })

  test('names the app', () => {
    expect(config.appId).toBe('app.tuneshelf.desktop')
    expect(config.productName).toBe('Tuneshelf')
    expect(config.directories?.output).toBe('dist')
    expect(config.publish).toBeNull()
  })

  test('builds every target of the app: AppImage and deb, dmg, nsis', () => {
    expect(targets(config.linux?.target).sort()).toEqual(['AppImage', 'deb'])
    expect(targets(config.mac?.target)).toEqual(['dmg'])
    expect(targets(config.win?.target)).toEqual(['nsis'])
  })

  test('gives the deb a maintainer and a description', () => {
    const maintainer = config.deb?.maintainer ?? config.linux?.maintainer
    expect(maintainer).toMatch(/^[^<>]+ <[^\s@<>]+@[^\s@<>]+\.[a-z]+>$/)
    expect((config.deb?.description ?? config.linux?.description ?? '').length).toBeGreaterThan(20)
    expect((config.deb?.synopsis ?? config.linux?.synopsis ?? '').length).toBeGreaterThan(10)
  })

  test('installs on Windows per user, with a choice of folder, not in one click', () => {
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true })
    expect(config.nsis?.selectPerMachineByDefault ?? false).toBe(false)
  })

  test('sets the fuses', () => {
    expect(config.electronFuses).toEqual(FUSES)
  })

  test('keeps the native module outside the asar and never rebuilds it', () => {
    expect(config.npmRebuild).toBe(false)
    expect(config.buildDependenciesFromSource ?? false).toBe(false)
    const unpacked = matcher(patterns(config.asarUnpack))
    const binaries = betterSqliteFiles('prebuilds').filter((file) => file.endsWith('.node'))
    const loader = betterSqliteFiles('lib')
    expect(binaries.length).toBeGreaterThanOrEqual(6)
    expect(loader).toContain('node_modules/better-sqlite3/lib/binding.js')
    for (const file of [...binaries, ...loader]) expect(unpacked(file), `${file} is unpacked`).toBe(true)
    expect(unpacked('out/main/index.js'), 'the app itself stays in the asar').toBe(false)
  })

  test('packs the binary of the platform being packaged, and none of the module’s sources', () => {
    for (const [platform, arch] of [['linux', 'x64'], ['linux', 'arm64'], ['darwin', 'x64'], ['darwin', 'arm64'], ['win32', 'x64'], ['win32', 'arm64']] as const) {
      const kept = nodeModulesMatcher({ platform, arch })
      const binaries = betterSqliteFiles('prebuilds').filter(kept)
      expect(binaries, `${platform}-${arch}`).toEqual([`node_modules/better-sqlite3/prebuilds/${platform}-${arch}.node`])
      expect(kept('node_modules/better-sqlite3/lib/index.js')).toBe(true)
      expect(kept('node_modules/better-sqlite3/package.json')).toBe(true)
      expect(kept('node_modules/better-sqlite3/deps/sqlite3/sqlite3.c')).toBe(false)
      expect(kept('node_modules/better-sqlite3/src/better_sqlite3.cpp')).toBe(false)
      expect(kept('node_modules/got/package.json')).toBe(true)
    }
  })

  test('packs the build and package.json, never sources, tests or tool files', () => {
    const files = patterns(config.files)
    expect(files).toContain('out/**')
    expect(files).toContain('package.json')
    const packed = matcher(files, { platform: 'linux', arch: 'x64' })
    for (const file of ['package.json', 'out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'out/renderer/assets/index-abc.js', 'resources/icon.png']) {
      expect(packed(file), `${file} is packed`).toBe(true)
    }
    for (const file of [
      'src-main/index.ts',
      'src-main/core/library/library.ts',
      'src-preload/index.ts',
      'src-renderer/App.vue',
      'src-renderer/index.html',
      'test/main/packaging.test.ts',
      'out/main/index.js.map',
      'README.md',
      'package-lock.json',
      'electron.vite.config.ts',
      'electron-builder.yml',
      'tsconfig.json',
      'eslint.config.js',
      'vitest.config.ts',
      'playwright.config.ts',
      '.ci/run',
      '.gitignore',
      'resources/icon.svg',
    ]) {
      expect(packed(file), `${file} stays out`).toBe(false)
    }
  })

  test('names icons that exist and are big enough (512×512 at least, square)', () => {
    const named = [config.icon, config.mac?.icon, config.win?.icon, config.linux?.icon, config.dmg?.icon, config.nsis?.installerIcon].filter(
      (icon): icon is string => typeof icon === 'string',
    )
    expect(named).toContain('resources/icon.png')
    const roots = [path.join(ROOT, config.directories?.buildResources ?? 'build'), ROOT]
    for (const icon of named) {
      const file = roots.map((root) => path.join(root, icon)).find((candidate) => fs.existsSync(candidate))
      expect(file, `${icon} exists`).toBeDefined()
      if (!file!.endsWith('.png')) continue
      const { width, height } = pngSize(file!)
      expect(width, `${icon} is ${width}×${height}`).toBeGreaterThanOrEqual(512)
      expect(height).toBe(width)
    }
  })
})

describe('electron-builder --dir with a stand-in Electron', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-pack-'))
  const project = path.join(work, 'project')
  const standIn = path.join(work, 'electron')
  const output = path.join(work, 'dist')
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }))

  // Each configured fuse starts the other way round, so the test sees every one flipped.
  const initial = [FUSE_ON, FUSE_OFF, FUSE_ON, FUSE_ON, FUSE_OFF, FUSE_OFF, FUSE_OFF, FUSE_ON]

  beforeAll(() => {
    // The project as electron-builder sees it: its configuration, a small build, the real dependencies.
    for (const file of ['package.json', 'package-lock.json', CONFIG_FILE]) fs.cpSync(path.join(ROOT, file), path.join(project, file))
    fs.cpSync(path.join(ROOT, 'resources'), path.join(project, 'resources'), { recursive: true })
    const stub: Record<string, string> = {
      'out/main/index.js': 'export {}\n',
      'out/main/index.js.map': '{}\n',
      'out/preload/index.cjs': '\n',
      'out/renderer/index.html': '<!doctype html>\n',
      'src-main/index.ts': 'export {}\n',
    }
    for (const [file, content] of Object.entries(stub)) {
      fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true })
      fs.writeFileSync(path.join(project, file), content)
    }
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir')
    // The stand-in: a script carrying Electron's fuse wire (sentinel, version 1, eight fuses).
    fs.mkdirSync(standIn)
    const wire = Buffer.concat([Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'), Buffer.from([1, initial.length, ...initial])])
    fs.writeFileSync(path.join(standIn, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\n# stand-in for Electron\n'), wire, Buffer.from('\n')]), { mode: 0o755 })
    fs.writeFileSync(path.join(standIn, 'LICENSE'), 'stand-in\n')
  })

  test('packs the app, unpacks the native module and flips the fuses', async () => {
    execFileSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules', 'electron-builder', 'cli.js'),
        '--config',
        CONFIG_FILE,
        '--dir',
        '--linux',
        '--x64',
        `-c.directories.output=${output}`,
        `-c.electronDist=${standIn}`,
      ],
      { cwd: project, stdio: 'pipe', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } },
    )
    const app = path.join(output, 'linux-unpacked')
    const resources = path.join(app, 'resources')
    const archived = listPackage(path.join(resources, 'app.asar'), { isPack: false }).map((file) => file.split(path.sep).join('/'))

    expect(archived.filter((file) => !file.startsWith('/node_modules')).sort()).toEqual(
      ['/out', '/out/main', '/out/main/index.js', '/out/preload', '/out/preload/index.cjs', '/out/renderer', '/out/renderer/index.html', '/package.json', '/resources', '/resources/icon.png'].sort(),
    )
    for (const dependency of ['better-sqlite3', 'got', 'p-queue', 'valibot']) expect(archived).toContain(`/node_modules/${dependency}/package.json`)
    expect(archived.filter((file) => /better-sqlite3\/(deps|src)\//.test(file))).toEqual([])

    const unpacked = path.join(resources, 'app.asar.unpacked', 'node_modules', 'better-sqlite3')
    expect(fs.readdirSync(path.join(unpacked, 'prebuilds'))).toEqual(['linux-x64.node'])
    expect(fs.existsSync(path.join(unpacked, 'lib', 'binding.js'))).toBe(true)
    expect(fs.existsSync(path.join(resources, 'app.asar.unpacked', 'out')), 'the app stays in the asar').toBe(false)

    const fuses = await getCurrentFuseWire(path.join(app, 'tuneshelf'))
    expect({
      runAsNode: fuses[FuseV1Options.RunAsNode],
      enableCookieEncryption: fuses[FuseV1Options.EnableCookieEncryption],
      enableNodeOptionsEnvironmentVariable: fuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable],
      enableNodeCliInspectArguments: fuses[FuseV1Options.EnableNodeCliInspectArguments],
      enableEmbeddedAsarIntegrityValidation: fuses[FuseV1Options.EnableEmbeddedAsarIntegrityValidation],
      onlyLoadAppFromAsar: fuses[FuseV1Options.OnlyLoadAppFromAsar],
      grantFileProtocolExtraPrivileges: fuses[FuseV1Options.GrantFileProtocolExtraPrivileges],
    }).toEqual(Object.fromEntries(Object.entries(FUSES).map(([name, on]) => [name, on ? FUSE_ON : FUSE_OFF])))
  }, 180_000)
})

/**
 * The packaging configuration (electron-builder.yml), read as electron-builder reads it: valid
 * against its schema, every target of the app, the native module outside the asar, the fuses,
 * icons big enough, only the build in the app. Last, `npm run dist` as a checkout runs it, short of
 * the Electron binary (which cannot be downloaded here): the real build, the production
 * dependencies installed by `npm ci --omit=dev`, a real `electron-builder --dir` with a stand-in
 * for the binary. The package holds the build and every production dependency with theirs, the
 * core host runs from it, and the fuses are flipped in the binary.
 */
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { extractAll, listPackage } from '@electron/asar'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import type { Configuration, FileSet } from 'app-builder-lib'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config'
import { FileMatcher } from 'app-builder-lib/out/fileMatcher'
import { Arch, DebugLogger } from 'builder-util'
import { getArtifactArchName } from 'builder-util/out/arch'
import { sanitizeFileName } from 'builder-util/out/filename'
import AppImageTarget from 'app-builder-lib/out/targets/appimage/AppImageTarget'
import { generateAppRunScript } from 'app-builder-lib/out/targets/appimage/appImageUtil'
import { expandMacro } from 'app-builder-lib/out/util/macroExpander'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { CoreClient } from '../../src-main/main-process/core-client'
import { forkedHost } from '../../src-main/main-process/host-launch'
import { builtFile } from './support/build'

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

  test('builds every target of the app: the deb first and the AppImage, dmg, nsis', () => {
    expect(targets(config.linux?.target)).toEqual(['deb', 'AppImage'])
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


const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
const APPIMAGE_PROFILE = 'resources/linux/tuneshelf-appimage.apparmor'

/** A template of electron-builder's Linux targets (app-builder-lib/templates/linux), its macros filled in. */
function linuxTemplate(name: string, macros: Record<string, string>): string {
  const template = fs.readFileSync(path.join(ROOT, 'node_modules', 'app-builder-lib', 'templates', 'linux', name), 'utf8')
  return template.replace(/\$\{(\w+)\}/g, (whole, macro: string) => macros[macro] ?? whole)
}

/** The path an AppArmor profile attaches to, as a pattern (AppArmor's `*` does not cross a `/`). */
function attachment(profile: string): { name: string; matches: (file: string) => boolean; flags: string } {
  const [, name, glob, flags] = /^profile\s+(\S+)\s+"([^"]+)"\s+flags=\(([^)]*)\)\s*\{/m.exec(profile) ?? []
  expect(glob, 'the profile attaches to a path').toBeDefined()
  const pattern = new RegExp(`^${glob!.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`)
  return { name: name!.replace(/^"|"$/g, ''), matches: (file) => pattern.test(file), flags: flags! }
}

/** The README's Packaging section. */
function packagingSection(): string {
  const start = README.indexOf('\n## Packaging\n')
  return README.slice(start, README.indexOf('\n## ', start + 1))
}

describe('Linux: the deb first; the AppImage where user namespaces are restricted (Ubuntu 24.04 and later)', () => {
  const executable = () => config.linux?.executableName ?? config.executableName ?? 'tuneshelf'
  const sanitizedProductName = () => sanitizeFileName(config.productName!)

  test('the deb installs an AppArmor profile for the binary it installs, so Chromium’s sandbox starts', () => {
    expect(targets(config.linux?.target)[0]).toBe('deb')
    expect(config.deb?.appArmorProfile, 'electron-builder’s own profile').toBeUndefined()
    const macros = { executable: executable(), sanitizedProductName: sanitizedProductName() }
    const profile = attachment(linuxTemplate('apparmor-profile.tpl', macros))
    expect(profile.matches('/opt/Tuneshelf/tuneshelf')).toBe(true)
    expect(profile.flags).toBe('unconfined')
    expect(linuxTemplate('apparmor-profile.tpl', macros)).toMatch(/^\s*userns,$/m)
    const afterInstall = linuxTemplate('after-install.tpl', macros)
    expect(afterInstall).toContain("APPARMOR_PROFILE_TARGET='/etc/apparmor.d/tuneshelf'")
    expect(afterInstall).toContain("APPARMOR_PROFILE_SOURCE='/opt/Tuneshelf/resources/apparmor-profile'")
    // The README names what the deb installs, as electron-builder installs it.
    expect(packagingSection()).toContain('`/etc/apparmor.d/tuneshelf`')
    expect(packagingSection()).toContain('`/opt/Tuneshelf/tuneshelf`')
  })

  test('the AppImage’s desktop entry turns no sandbox off (electron-builder’s default entry would, everywhere)', async () => {
    const entryOf = async (configuration: Configuration): Promise<string> => {
      const packager = { platformSpecificBuildOptions: configuration.linux ?? {}, config: configuration, appInfo: { buildVersion: '0.1.0' } }
      const helper = { computeDesktopEntry: (_options: unknown, exec: string) => Promise.resolve(exec) }
      const target = new AppImageTarget('', packager as never, helper as never, os.tmpdir())
      // electron-builder's own Exec= line of the AppImage's desktop entry (a private member, read for the test).
      return (target as unknown as { desktopEntry: { value: Promise<string> } }).desktopEntry.value
    }
    expect(await entryOf(config)).toBe('AppRun %U')
    expect(await entryOf({ ...config, appImage: { ...config.appImage, executableArgs: undefined } }), 'electron-builder’s default').toBe('AppRun --no-sandbox %U')
  })

  test.skipIf(process.platform === 'win32')(
    'electron-builder’s AppImage launcher starts the app with --no-sandbox exactly where user namespaces cannot be made',
    () => {
      const appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-apprun-'))
      try {
        fs.writeFileSync(path.join(appDir, 'AppRun'), generateAppRunScript({ DesktopFileName: 'tuneshelf.desktop', ExecutableName: executable(), ProductName: 'Tuneshelf', ProductFilename: 'Tuneshelf', ResourceName: 'appimagekit-tuneshelf' }), { mode: 0o755 })
        // The app: says how it was started.
        fs.writeFileSync(path.join(appDir, executable()), '#!/bin/sh\necho "$@"\n', { mode: 0o755 })
        // AppRun puts its own folder first on the PATH: a stand-in for `unshare` answers its probe.
        const launch = (userNamespaces: boolean, args: string[] = []): string => {
          fs.writeFileSync(path.join(appDir, 'unshare'), `#!/bin/sh\nexit ${userNamespaces ? 0 : 1}\n`, { mode: 0o755 })
          return execFileSync('bash', [path.join(appDir, 'AppRun'), ...args], { env: { ...process.env, APPDIR: appDir, APPIMAGE: path.join(appDir, 'Tuneshelf.AppImage') }, encoding: 'utf8' }).trim()
        }
        expect(launch(true), 'user namespaces allowed: the sandbox stays').toBe('')
        expect(launch(false), 'restricted, as on Ubuntu 24.04: no sandbox').toBe('--no-sandbox')
        expect(launch(false, ['--no-sandbox']), 'said once when the user says it').toBe('--no-sandbox')
      } finally {
        fs.rmSync(appDir, { recursive: true, force: true })
      }
    },
  )

  test('the AppImage’s AppArmor profile names the AppImage electron-builder makes, kept in ~/Applications, and nothing else', () => {
    const text = fs.readFileSync(path.join(ROOT, APPIMAGE_PROFILE), 'utf8')
    const profile = attachment(text)
    expect(profile.name).toBe('tuneshelf-appimage')
    expect(profile.flags).toBe('unconfined')
    expect(text).toMatch(/^\s*userns,$/m)
    expect(text).toContain('include if exists <local/tuneshelf-appimage>')
    const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
    const pattern = config.appImage?.artifactName ?? config.linux?.artifactName ?? config.artifactName ?? '${productName}-${version}-${arch}.${ext}'
    const appInfo = { sanitizedProductName: sanitizedProductName(), productName: config.productName, version }
    // x64 is electron-builder's default architecture, left out of the name; arm64 is named.
    const names = [expandMacro(pattern, null, appInfo as never, { ext: 'AppImage' }), expandMacro(pattern, getArtifactArchName(Arch.arm64, 'AppImage'), appInfo as never, { ext: 'AppImage' })]
    expect(names).toEqual([`Tuneshelf-${version}.AppImage`, `Tuneshelf-${version}-arm64.AppImage`])
    for (const name of names) expect(profile.matches(`/home/ada/Applications/${name}`), name).toBe(true)
    for (const other of [`/home/ada/Downloads/${names[0]}`, `/tmp/.mount_TuneshAbCdEf/${executable()}`, '/home/ada/Applications/Other-1.0.AppImage', `/home/ada/Applications/x/${names[0]}`]) {
      expect(profile.matches(other), other).toBe(false)
    }
    // It is for the user to install, not part of the app.
    expect(matcher(patterns(config.files), { platform: 'linux', arch: 'x64' })(APPIMAGE_PROFILE)).toBe(false)
  })

  test('the README says which Linux package to install, and what to do for the AppImage on Ubuntu 24.04 and later', () => {
    const section = packagingSection()
    expect(section).toMatch(/install the deb/i)
    expect(section).toContain('Ubuntu 24.04')
    expect(section).toContain('--no-sandbox')
    expect(section).toContain('kernel.apparmor_restrict_unprivileged_userns')
    expect(section).toContain('electron/electron#42510')
    expect(section).toContain('electron-userland/electron-builder#8440')
    // Its commands install the profile that is there, under the name the profile gives itself.
    const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) => block[1]!.split('\n')).map((line) => line.replace(/\s+#.*$/, '').trim())
    expect(commands).toContain(`sudo cp ${APPIMAGE_PROFILE} /etc/apparmor.d/tuneshelf-appimage`)
    expect(commands).toContain('sudo apparmor_parser -r /etc/apparmor.d/tuneshelf-appimage')
    expect(section).toContain('~/Applications')
  })
})

/** npm's own script, to run with this Node: the npm running the tests (npm_execpath, npx's sibling), else the one installed beside this Node. */
function npmCli(): string {
  const beside = path.dirname(process.execPath)
  const candidates = [
    process.env['npm_execpath']?.replace(/npx-cli\.js$/, 'npm-cli.js'),
    path.join(beside, '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    path.join(beside, 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ]
  const found = candidates.find((file): file is string => file !== undefined && path.basename(file) === 'npm-cli.js' && fs.existsSync(file))
  if (found === undefined) throw new Error(`npm not found (looked for ${candidates.filter(Boolean).join(', ')})`)
  return found
}

interface LockedPackage {
  name?: string
  version?: string
  dev?: boolean
  devOptional?: boolean
}

/** name@version of every package the lockfile installs for production: neither `dev` nor `devOptional` (an optional peer the tools also use, such as valibot's typescript). */
function productionPackages(): string[] {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> }
  const names = Object.entries(lock.packages)
    .filter(([where, entry]) => where !== '' && entry.dev !== true && entry.devOptional !== true)
    .map(([where, entry]) => `${entry.name ?? where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`)
  return [...new Set(names)].sort()
}

/** name@version of every package in a folder's node_modules, nested ones too. */
function installedPackages(folder: string): string[] {
  const found = new Set<string>()
  const walk = (modules: string): void => {
    if (!fs.existsSync(modules)) return
    for (const entry of fs.readdirSync(modules).filter((name) => !name.startsWith('.'))) {
      const packages = entry.startsWith('@') ? fs.readdirSync(path.join(modules, entry)).map((name) => path.join(entry, name)) : [entry]
      for (const relative of packages) {
        const { name, version } = JSON.parse(fs.readFileSync(path.join(modules, relative, 'package.json'), 'utf8')) as { name: string; version: string }
        found.add(`${name}@${version}`)
        walk(path.join(modules, relative, 'node_modules'))
      }
    }
  }
  walk(path.join(folder, 'node_modules'))
  return [...found].sort()
}

/** The files under a folder, relative and with forward slashes, leaving out some top-level folders. */
function filesUnder(folder: string, leaveOut: string[] = []): string[] {
  return (fs.readdirSync(folder, { recursive: true }) as string[])
    .map((name) => name.split(path.sep).join('/'))
    .filter((name) => !leaveOut.includes(name.split('/')[0]!) && fs.statSync(path.join(folder, name)).isFile())
    .sort()
}

/**
 * `npm run dist` as it runs in a checkout, short of the Electron binary: the real build (out/), the
 * production dependencies installed for real by `npm ci --omit=dev` from the lockfile (not a link to
 * a node_modules elsewhere, through which electron-builder finds only the direct dependencies and
 * leaves out theirs), electron-builder --dir with a stand-in for the Electron binary. Then the packed
 * app is taken out of its asar and its core host started from it, as the app starts it.
 */
describe('electron-builder --dir on the build and a real install of the dependencies', () => {
  // Made when the tests run, not when they are collected (a run that leaves them out by name leaves no folder).
  const work = path.join(os.tmpdir(), `tuneshelf-pack-${process.pid}-${randomUUID()}`)
  const project = path.join(work, 'project')
  const standIn = path.join(work, 'electron')
  const output = path.join(work, 'dist')
  const extracted = path.join(work, 'packed-app')
  const app = path.join(output, 'linux-unpacked')
  const resources = path.join(app, 'resources')
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }))

  // Each configured fuse starts the other way round, so the test sees every one flipped.
  const initial = [FUSE_ON, FUSE_OFF, FUSE_ON, FUSE_ON, FUSE_OFF, FUSE_OFF, FUSE_OFF, FUSE_ON]

  beforeAll(() => {
    fs.mkdirSync(work)
    // The project as a checkout has it: its configuration, the build, sources (which must stay out).
    for (const file of ['package.json', 'package-lock.json', '.npmrc', CONFIG_FILE]) fs.cpSync(path.join(ROOT, file), path.join(project, file))
    fs.cpSync(path.join(ROOT, 'resources'), path.join(project, 'resources'), { recursive: true })
    fs.cpSync(path.dirname(path.dirname(builtFile('main/index.js'))), path.join(project, 'out'), { recursive: true })
    for (const [file, content] of Object.entries({ 'src-main/index.ts': 'export {}\n', 'out/main/index.js.map': '{}\n' })) {
      fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true })
      fs.writeFileSync(path.join(project, file), content)
    }
    // The production dependencies, installed from the lockfile: from npm's cache when it has them
    // (`npm ci` filled it), else from the registry. No install scripts: better-sqlite3 ships its binaries.
    execFileSync(process.execPath, [npmCli(), 'ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: project,
      stdio: 'pipe',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    })
    expect(fs.lstatSync(path.join(project, 'node_modules')).isSymbolicLink()).toBe(false)
    // The stand-in: a script carrying Electron's fuse wire (sentinel, version 1, eight fuses).
    fs.mkdirSync(standIn)
    const wire = Buffer.concat([Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'), Buffer.from([1, initial.length, ...initial])])
    fs.writeFileSync(path.join(standIn, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\n# stand-in for Electron\n'), wire, Buffer.from('\n')]), { mode: 0o755 })
    fs.writeFileSync(path.join(standIn, 'LICENSE'), 'stand-in\n')

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
        // A checkout has Electron in node_modules (a development dependency) to read its version from; this project has only production ones.
        `-c.electronVersion=${(JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version}`,
      ],
      { cwd: project, stdio: 'pipe', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } },
    )
    extractAll(path.join(resources, 'app.asar'), extracted)
  }, 240_000)

  test('packs the build and package.json, and none of the sources', () => {
    const archived = listPackage(path.join(resources, 'app.asar'), { isPack: false }).map((file) => file.split(path.sep).join('/'))
    expect(archived).toContain('/out/main/index.js')
    expect(archived).toContain('/out/main/core-host.js')
    expect(filesUnder(extracted, ['node_modules'])).toEqual(
      ['package.json', 'resources/icon.png', ...filesUnder(path.join(project, 'out')).filter((file) => !file.endsWith('.map')).map((file) => `out/${file}`)].sort(),
    )
  })

  test('packs every production dependency, the dependencies of dependencies too, and nothing else', () => {
    const packed = installedPackages(extracted)
    const names = packed.map((id) => id.slice(0, id.lastIndexOf('@')))
    // What got and better-sqlite3 need in turn: through a linked node_modules, electron-builder left these out.
    for (const transitive of ['@sindresorhus/is', 'cacheable-request', 'http2-wrapper', '@keyv/serialize', 'node-addon-api']) expect(names, transitive).toContain(transitive)
    expect(names, 'typescript, an optional peer of valibot, is for the tools').not.toContain('typescript')
    expect(packed).toEqual(productionPackages())
  })

  test('unpacks better-sqlite3’s loader and the binary of the platform packaged, and nothing of the app', () => {
    const archived = listPackage(path.join(resources, 'app.asar'), { isPack: false }).map((file) => file.split(path.sep).join('/'))
    expect(archived.filter((file) => /better-sqlite3\/(deps|src)\//.test(file))).toEqual([])
    const unpacked = path.join(resources, 'app.asar.unpacked', 'node_modules', 'better-sqlite3')
    expect(fs.readdirSync(path.join(unpacked, 'prebuilds'))).toEqual(['linux-x64.node'])
    expect(fs.existsSync(path.join(unpacked, 'lib', 'binding.js'))).toBe(true)
    expect(fs.existsSync(path.join(resources, 'app.asar.unpacked', 'out')), 'the app stays in the asar').toBe(false)
  })

  test('the packed core host runs from the package: it opens its cache and syncs the demo catalogue', async () => {
    const lines: string[] = []
    const core = await CoreClient.start({
      launch: forkedHost(
        { dataDir: path.join(work, 'data'), demoPort: 0, demo: { artists: 20, seed: 27, maxFileMb: 1 } },
        { script: path.join(extracted, 'out', 'main', 'core-host.js'), execArgv: [], output: (line) => lines.push(line) },
      ),
    })
    try {
      // better-sqlite3's binary, got and its dependencies, valibot: each loaded from the packed app.
      await vi.waitFor(async () => expect((await core.call('catalogue:list', [{ perPage: 5 }])).artists).toHaveLength(5), { timeout: 30_000, interval: 200 })
    } finally {
      await core.close()
    }
    expect(lines.join('\n')).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (module|package)/)
  }, 60_000)

  test('flips the fuses', async () => {
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
  })
})

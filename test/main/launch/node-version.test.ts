// On a Node.js older than the tools need, npm install refuses and every entry point says so in
// one line (the version it needs and the one it found) and exits 2, instead of crashing later
// (better-sqlite3 13 on Node 20 ends the process with SIGSEGV).
import { execFile, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { compareVersions, MIN_NODE, nodeVersionProblem } from '../../../src-main/core/startup/node-version'
import { builtFile, ROOT } from '../support/build'
import { TSX } from '../support/cli'

const OLD = '20.20.2'
/** Makes the process report an old Node.js before anything else runs (process.versions can be redefined). */
const PRETEND_OLD = `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'${OLD}'})`
const ONE_LINE = `Tuneshelf needs Node.js 22.12 or newer and this is Node.js ${OLD}: install Node.js 22 LTS (https://nodejs.org), then run npm install again.\n`

function run(node: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(node, args, { cwd: ROOT, timeout: 60_000, env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr })
    })
  })
}

describe('the Node.js version', () => {
  it('is checked against the same minimum as package.json engines, and npm install refuses an older one', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
    expect(manifest.engines.node).toBe(`>=${MIN_NODE.replace(/\.0$/, '')}`)
    expect(fs.readFileSync(path.join(ROOT, '.npmrc'), 'utf8')).toMatch(/^engine-strict=true$/m)
  })

  it('names what is needed and what was found', () => {
    expect(nodeVersionProblem('v20.20.2')).toBe(ONE_LINE.trimEnd())
    expect(nodeVersionProblem('22.11.9')).toMatch(/needs Node\.js 22\.12 or newer and this is Node\.js 22\.11\.9/)
    for (const fine of ['22.12.0', '22.23.3', '24.1.0', 'v23.0.0-pre']) expect(nodeVersionProblem(fine)).toBeUndefined()
    expect(compareVersions('22.12.0', '22.9.9')).toBe(1)
  })

  const entries: [string, string[]][] = [
    ['the CLI', ['src-main/cli/main.ts', 'sync', '--base-url', 'http://127.0.0.1:9', '--data-dir', '/tmp/never']],
    ['npm run web', ['src-main/web/main.ts', '--port', '0']],
    ['the demo catalogue', ['src-main/demo/cli.ts', '--port', '0']],
    ['npm start', ['src-main/launch/start.ts', 'start']],
    ['bench:sync', ['test/bench/sync.bench.ts']],
    ['bench:download', ['test/bench/download.bench.ts']],
    ['bench:catalogue', ['test/bench/catalogue.bench.ts']],
    ['bench:ui', ['test/bench/ui.bench.ts']],
    ['bench:responsiveness', ['test/bench/responsiveness.bench.ts']],
    ["the core's host", ['src-main/core-host.ts', '{}']],
  ]
  it.each(entries)('%s prints the one line and exits 2', async (_name, args) => {
    const result = await run(process.execPath, ['--import', PRETEND_OLD, '--import', TSX, ...args])
    expect(result).toEqual({ code: 2, stdout: '', stderr: ONE_LINE })
  })

  it('the Electron main process, as built, checks before it runs anything else', async () => {
    // Plain Node has no 'electron' module: a stand-in with the names the bundle imports (empty, so any
    // use of them before the check would throw), given by a resolve hook.
    const bundle = builtFile('main/index.js')
    const names = [...fs.readFileSync(bundle, 'utf8').matchAll(/^import \{([^}]*)\} from "electron";$/gm)].flatMap((match) => match[1]!.split(',').map((name) => name.trim().split(/\s+as\s+/)[0]!))
    expect(names).toContain('app')
    const stub = `data:text/javascript,${encodeURIComponent(names.map((name) => `export const ${name} = undefined;`).join('') + 'export default undefined;')}`
    const hook = `data:text/javascript,${encodeURIComponent(
      `import { registerHooks } from 'node:module'; registerHooks({ resolve: (specifier, context, next) => specifier === 'electron' ? { url: ${JSON.stringify(stub)}, shortCircuit: true } : next(specifier, context) })`,
    )}`
    const result = await run(process.execPath, ['--import', PRETEND_OLD, '--import', hook, bundle])
    expect(result).toEqual({ code: 2, stdout: '', stderr: ONE_LINE })
  })

  // Where the machine's own Node.js is older (Node 20 on the machines that build this project), the real thing.
  const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find((candidate) => fs.existsSync(candidate))
  it.runIf(systemNode !== undefined)('on the machine\'s own Node.js, if it is older, the CLI says so instead of crashing', async () => {
    const version = (await run(systemNode!, ['--version'])).stdout.trim()
    if (nodeVersionProblem(version) === undefined) return
    const result = await run(systemNode!, ['--import', TSX, 'src-main/cli/main.ts', 'levels', '--data-dir', '/tmp/never'])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`${nodeVersionProblem(version)}\n`)
  })
})

// Every npm script runs preflight.mjs first, in plain JavaScript: with an old Node.js and no
// node_modules (npm install refused), the shell would say only "tsx: not found" (exit 127).
describe('the npm scripts\' preflight', () => {
  const PREFLIGHT = path.join(ROOT, 'src-main/launch/preflight.mjs')

  it('says what nodeVersionProblem says, at the same minimum, and names a missing npm install', async () => {
    const { MIN_NODE: preflightMin, preflightProblem } = (await import(PREFLIGHT)) as { MIN_NODE: string; preflightProblem: (version: string, installed: boolean) => string | undefined }
    expect(preflightMin).toBe(MIN_NODE)
    for (const version of ['v20.20.2', '22.11.9', '21.99.0', '18.0.0']) expect(preflightProblem(version, true), version).toBe(nodeVersionProblem(version))
    for (const version of ['22.12.0', '22.23.3', '24.1.0', 'v23.0.0-pre']) expect(preflightProblem(version, true), version).toBeUndefined()
    expect(preflightProblem('22.12.0', false)).toBe("Tuneshelf's dependencies are not installed (node_modules has no tsx): run npm install in the project's folder first.")
  })

  it('says in words when the SQLite module crashes or fails to load, and nothing when it loads', async () => {
    const { nativeModuleProblem } = (await import(PREFLIGHT)) as {
      nativeModuleProblem: (version: string, result: { status: number | null; signal: string | null; stderr: string }) => string | undefined
    }
    expect(nativeModuleProblem('v22.23.2', { status: 0, signal: null, stderr: '' })).toBeUndefined()
    expect(nativeModuleProblem('v22.23.3', { status: null, signal: 'SIGSEGV', stderr: '' })).toBe(
      'The SQLite module (better-sqlite3) crashed (SIGSEGV) when Node.js 22.23.3 loaded it: ' +
        'reinstall Node.js 22 LTS (https://nodejs.org), delete node_modules and run npm install again.',
    )
    expect(nativeModuleProblem('22.12.0', { status: 1, signal: null, stderr: "node:internal\nError: Cannot find module 'better-sqlite3'\n  at x" })).toMatch(
      /^The SQLite module \(better-sqlite3\) failed \(Error: Cannot find module 'better-sqlite3'\) when Node\.js 22\.12\.0 loaded it: /,
    )
  })

  // Every script runs a tool of node_modules (tsx, eslint, vitest, electron-vite, install-electron…).
  it('comes first in every npm script; the programs run on tsx\'s loader, not its CLI', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    for (const [name, script] of Object.entries(scripts)) expect(script, name).toMatch(/^node src-main\/launch\/preflight\.mjs && /)
    for (const name of ['start', 'dev', 'web', 'cli', 'catalogue']) expect(scripts[name], name).toMatch(/^node src-main\/launch\/preflight\.mjs && node --import tsx /)
  })

  // The README's commands as a person runs them where the machine's Node.js is older (Node 20 on the machines
  // that build this project) and npm install refused: npm of that Node.js, in a copy of the project without node_modules.
  const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find((candidate) => {
    if (!fs.existsSync(candidate) || !fs.existsSync(path.join(path.dirname(candidate), 'npm'))) return false
    return nodeVersionProblem(execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim()) !== undefined
  })
  it.runIf(oldNode !== undefined)('on an older Node.js without node_modules, every npm script prints the one line and exits non-zero (no "tsx: not found")', async () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-no-modules-'))
    try {
      fs.mkdirSync(path.join(copy, 'src-main/launch'), { recursive: true })
      for (const file of ['package.json', '.npmrc', 'src-main/launch/preflight.mjs']) fs.copyFileSync(path.join(ROOT, file), path.join(copy, file))
      const version = execFileSync(oldNode!, ['--version'], { encoding: 'utf8' }).trim()
      const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
      const commands = Object.keys(scripts).map((name) => (name === 'start' || name === 'test' ? [name] : ['run', name]))
      commands.push(['run', 'cli', '--', '--help'], ['run', '-s', 'web', '--', '--port', '0'])
      const env = { PATH: `${path.dirname(oldNode!)}${path.delimiter}/bin`, HOME: copy, LANG: 'C.UTF-8', npm_config_update_notifier: 'false' }
      const npm = path.join(path.dirname(oldNode!), 'npm')
      // Four at a time: each is an npm start of a second or so.
      for (let first = 0; first < commands.length; first += 4) {
        await Promise.all(
          commands.slice(first, first + 4).map(async (args) => {
            const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
              execFile(npm, args, { cwd: copy, env, timeout: 60_000 }, (error, _stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr }))
            })
            expect(result, `npm ${args.join(' ')}`).toEqual({ code: 2, stderr: `${nodeVersionProblem(version)}\n` })
          }),
        )
      }
    } finally {
      fs.rmSync(copy, { recursive: true, force: true })
    }
  }, 180_000)

  it('on an old Node.js it prints the one line and exits 2', async () => {
    const result = await run(process.execPath, ['--import', PRETEND_OLD, PREFLIGHT])
    expect(result).toEqual({ code: 2, stdout: '', stderr: ONE_LINE })
    expect(await run(process.execPath, [PREFLIGHT])).toEqual({ code: 0, stdout: '', stderr: '' })
  })
})

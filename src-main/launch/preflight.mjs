// Runs first in every npm script (npm start, npm test, web, cli, the benchmarks, lint, build…), before
// the tool of node_modules it runs (tsx, eslint, vitest, electron-vite…): plain JavaScript that any
// Node.js runs, so that an old Node.js or a missing `npm install` is said in words, not as the shell's
// "tsx: not found" (exit 127) or a crash.
// The version line is the one src-main/core/startup/node-version.ts writes (a test keeps them equal).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The Node.js the tools need: as MIN_NODE in core/startup/node-version.ts. */
export const MIN_NODE = '22.12.0'

/** What stops the program from starting here, in one line, or undefined when nothing does. */
export function preflightProblem(version, dependenciesInstalled) {
  const found = version.replace(/^v/, '').split('.').map((part) => Number.parseInt(part, 10) || 0)
  const needed = MIN_NODE.split('.').map(Number)
  const older = found[0] !== needed[0] ? found[0] < needed[0] : found[1] !== needed[1] ? found[1] < needed[1] : (found[2] ?? 0) < needed[2]
  if (older) {
    return `Tuneshelf needs Node.js ${needed[0]}.${needed[1]} or newer and this is Node.js ${version.replace(/^v/, '')}: install Node.js ${needed[0]} LTS (https://nodejs.org), then run npm install again.`
  }
  if (!dependenciesInstalled) return "Tuneshelf's dependencies are not installed (node_modules has no tsx): run npm install in the project's folder first."
  return undefined
}

/**
 * What loading better-sqlite3 (the cache's native module) in a child Node.js said, in one line, or
 * undefined when it loaded. Tried in a child: a native binary that does not fit this Node.js (or a
 * damaged install of either) can crash the process outright, with no message at all.
 */
export function nativeModuleProblem(version, result) {
  if (result.status === 0) return undefined
  const how = result.signal ? `crashed (${result.signal})` : `failed (${(result.stderr || '').trim().split('\n').find((line) => /Error/.test(line)) ?? `exit code ${result.status}`})`
  return (
    `The SQLite module (better-sqlite3) ${how} when Node.js ${version.replace(/^v/, '')} loaded it: ` +
    'reinstall Node.js 22 LTS (https://nodejs.org), delete node_modules and run npm install again.'
  )
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const installed = fs.existsSync(fileURLToPath(new URL('../../node_modules/tsx/package.json', import.meta.url)))
  let problem = preflightProblem(process.versions.node, installed)
  if (problem === undefined) {
    const loaded = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
    })
    problem = nativeModuleProblem(process.versions.node, loaded)
  }
  if (problem !== undefined) {
    process.stderr.write(`${problem}\n`)
    process.exit(2)
  }
}

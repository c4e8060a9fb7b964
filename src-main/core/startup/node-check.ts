/**
 * Imported first, for its effect, by every entry point (the CLI, `npm run web`,
 * the demo catalogue, the benchmarks, the core's host, the Electron main
 * process): on a Node.js older than the tools need it prints one line naming
 * both versions and exits 2, before anything that could crash on it is loaded.
 * ES modules run in the order they are imported, so an entry that imports this
 * first runs it before any other of its imports.
 */
import { NODE_TOO_OLD_EXIT, nodeVersionProblem } from './node-version'

const problem = nodeVersionProblem(process.versions.node)
if (problem !== undefined) {
  process.stderr.write(`${problem}\n`)
  process.exit(NODE_TOO_OLD_EXIT)
}

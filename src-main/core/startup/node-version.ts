/**
 * The Node.js the tools need, and the one line that says so. better-sqlite3 13
 * (and Electron 45's installer) need Node 22.12 or newer; on Node 20 the cache's
 * native module crashes the process (SIGSEGV, exit 139) instead of saying why,
 * so every entry point checks first (see node-check.ts). A test keeps this
 * equal to package.json's `engines`.
 */
export const MIN_NODE = '22.12.0'

/** Exit code of a process that refuses to run on this Node, as for any unusable input. */
export const NODE_TOO_OLD_EXIT = 2

/** The one line that says this Node is too old, or undefined when it will do. */
export function nodeVersionProblem(found: string, needed: string = MIN_NODE): string | undefined {
  if (compareVersions(found, needed) >= 0) return undefined
  const [major, minor] = needed.split('.')
  return `Tuneshelf needs Node.js ${major}.${minor} or newer and this is Node.js ${found.replace(/^v/, '')}: install Node.js ${major} LTS (https://nodejs.org), then run npm install again.`
}

/** Compares dotted versions (`22.12.0`, `v20.20.2`) by their numbers. */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string): number[] => version.replace(/^v/, '').split(/[.-]/).slice(0, 3).map((part) => Number.parseInt(part, 10) || 0)
  const [left, right] = [parts(a), parts(b)]
  for (let index = 0; index < 3; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0)
    if (difference !== 0) return Math.sign(difference)
  }
  return 0
}

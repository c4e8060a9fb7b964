/**
 * The built renderer the web bridge serves, built again when its sources are
 * newer than it: `npx electron-vite build`, its output on stderr (stdout is the
 * bridge's one line).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/** The project's folder (this file is src-main/web/build.ts). */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..')
export const RENDERER_OUT = path.join(PROJECT_ROOT, 'out/renderer')

/** What the renderer bundle is made of: its own folder, what it shares with main, and how it is built (the CSP comes from core/shared). */
export const RENDERER_SOURCES = [
  'src-renderer',
  'electron.vite.config.ts',
  'resources',
  'src-preload/api.ts',
  'src-main/core/shared',
].map((entry) => path.join(PROJECT_ROOT, entry))

/** The newest modification time of a file under the given files and folders (0 when there is none). */
export function newestMtime(entries: readonly string[]): number {
  let newest = 0
  const visit = (entry: string): void => {
    const stat = fs.statSync(entry, { throwIfNoEntry: false })
    if (!stat) return
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(entry)) visit(path.join(entry, name))
    } else if (stat.isFile()) {
      newest = Math.max(newest, stat.mtimeMs)
    }
  }
  for (const entry of entries) visit(entry)
  return newest
}

/** Why outDir needs a build (no index.html, or a source newer than it), or undefined when it is current. */
export function rendererStaleness(outDir: string, sources: readonly string[]): string | undefined {
  const built = fs.statSync(path.join(outDir, 'index.html'), { throwIfNoEntry: false })
  if (!built) return `there is no ${path.join(outDir, 'index.html')}`
  const newest = newestMtime(sources)
  if (newest > built.mtimeMs) return 'the renderer changed since it was built'
  return undefined
}

/** Runs `npx electron-vite build` in the project, everything it prints going to stderr. */
export function buildApp(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['electron-vite', 'build'], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', process.stderr, process.stderr],
      shell: process.platform === 'win32',
    })
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      if (code === 0) resolve()
      else reject(new Error(`npx electron-vite build failed (${signal ?? `exit code ${code}`})`))
    })
  })
}

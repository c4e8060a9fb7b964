/** The built app (out/), made fresh when a test needs it and the sources are newer than the build. */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

function newestSource(folders: string[]): number {
  let newest = 0
  for (const folder of folders) {
    for (const entry of fs.readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs)
    }
  }
  return newest
}

/** The path of a built file (relative to out/), building the app first if it is missing or older than its sources. */
export function builtFile(relative: string): string {
  const file = path.join(ROOT, 'out', relative)
  const built = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0
  if (built < newestSource(['src-main', 'src-preload', 'src-renderer'])) {
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: ROOT, stdio: 'ignore' })
  }
  return file
}

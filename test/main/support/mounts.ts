/**
 * Real file systems for tests, so a disk really fills and a folder really is
 * read-only: a tiny tmpfs, and a folder shown read-only somewhere else (a
 * read-only bind mount). Mounting needs root (as in CI and on this machine) or
 * CAP_SYS_ADMIN; elsewhere the tests that need it skip, saying why.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * Unmounts folder; a mount something still holds (a cache the test's library
 * closes just after) is detached lazily and goes once its files are closed.
 * Quiet either way: a passing run prints no "target is busy".
 */
export function unmount(folder: string): void {
  try {
    execFileSync('umount', [folder], { stdio: 'pipe' })
  } catch {
    execFileSync('umount', ['--lazy', folder], { stdio: 'pipe' })
  }
}

export interface SmallDisk {
  folder: string
  /** Gives the file system a new size, e.g. to "free space". */
  resize(sizeKb: number): void
  unmount(): void
}

/** Mounts a tmpfs of sizeKb on folder; undefined where mounting is not allowed. */
export function mountSmallDisk(folder: string, sizeKb: number): SmallDisk | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', folder], { stdio: 'ignore' })
  } catch {
    return undefined
  }
  return {
    folder,
    resize: (size) => execFileSync('mount', ['-o', `remount,size=${size}k`, folder]),
    unmount: () => unmount(folder),
  }
}

/** Shows source at target, read-only; returns the unmount (see unmount). */
export function mountReadOnly(source: string, target: string): () => void {
  execFileSync('mount', ['--bind', source, target], { stdio: 'pipe' })
  try {
    execFileSync('mount', ['-o', 'remount,bind,ro', target], { stdio: 'pipe' })
  } catch (error) {
    unmount(target)
    throw error
  }
  return () => unmount(target)
}

let refusal: { why: string | undefined } | undefined

/** Why a read-only bind mount cannot be made here, or undefined when it can (tried once per test file). */
export function readOnlyMountRefusal(): string | undefined {
  refusal ??= { why: probe() }
  return refusal.why
}

function probe(): string | undefined {
  const source = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-probe-'))
  const target = fs.mkdtempSync(path.join(os.tmpdir(), 'tuneshelf-probe-'))
  try {
    mountReadOnly(source, target)()
    return undefined
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim()
    return `a read-only bind mount is not allowed here, mounting needs root: ${stderr || (error as Error).message.split('\n')[0]}`
  } finally {
    fs.rmSync(source, { recursive: true, force: true })
    fs.rmSync(target, { recursive: true, force: true })
  }
}

/** The note a skipped test's name carries, e.g. `test.skipIf(readOnlyMountRefusal() !== undefined)(\`...${readOnlyMountSkipNote()}\`)`. */
export function readOnlyMountSkipNote(): string {
  const why = readOnlyMountRefusal()
  return why === undefined ? '' : ` (skipped: ${why})`
}

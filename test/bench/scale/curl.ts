/**
 * The downloads' reference, as bench:download makes it: curl fetching the same files 4 at a
 * time (`--parallel --parallel-max 4`), then `sha256sum` of them and `sync` of them, since a
 * download the queue reports finished is hashed, flushed and renamed (it survives a power cut).
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { Upload } from './context'

export interface CurlRun {
  bytes: number
  /** curl, sha256sum and sync, each in wall seconds. */
  curl: number
  sha256sum: number
  sync: number
  seconds: number
}

function timed(command: readonly string[]): number {
  const started = performance.now()
  execFileSync(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 64 * 1024 * 1024 })
  return (performance.now() - started) / 1000
}

/** Fetches uploads into folder (created, then deleted) with `concurrency` at once, hashes and flushes them. */
export function curlReference(uploads: readonly Upload[], folder: string, concurrency: number): CurlRun {
  fs.mkdirSync(folder, { recursive: true })
  try {
    const files = uploads.map((_, i) => path.join(folder, `${i}.bin`))
    const config = path.join(folder, 'curl.config')
    fs.writeFileSync(config, uploads.map((upload, i) => `url = "${upload.url}"\noutput = "${files[i]}"\n`).join(''))
    const curl = timed(['curl', '-sS', '--no-progress-meter', '--parallel', '--parallel-max', String(concurrency), '--parallel-immediate', '-K', config])
    const sha256sum = timed(['sha256sum', ...files])
    const sync = timed(['sync', ...files])
    return { bytes: uploads.reduce((sum, upload) => sum + upload.bytes, 0), curl, sha256sum, sync, seconds: curl + sha256sum + sync }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true })
  }
}

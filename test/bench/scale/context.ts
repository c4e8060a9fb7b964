/**
 * What the parts share: the work folder, the closing table's rows, the large demo catalogue
 * (started once, kept for every part that needs it: a cache is tied to its service's address)
 * and the cache synced from it by `cli sync` (built once, copied for each run that needs one).
 */
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { startService, type Service } from '../service'
import type { BenchRow } from '../table'
import { config } from './config'
import type { CallsMeasure } from './caller'
import { cliSync, type SyncRun } from './syncs'
import { n, s } from './stats'

export interface Upload {
  id: string
  bytes: number
  /** The file's address on the service, for curl. */
  url: string
}

export class Context {
  readonly rows: BenchRow[] = []
  private big: Promise<Service> | undefined
  private cacheDir: string | undefined
  private copies = 0
  /** The `cli sync` that built the cache, when this run built it: part 1's figure for that size. */
  cacheBuild: SyncRun | undefined
  /** Part 6's calls during part 1's sync of the big catalogue, when both parts run. */
  syncCalls: { measured: CallsMeasure; seconds: number } | undefined

  constructor(
    readonly work: string,
    private readonly started = performance.now(),
  ) {}

  /** Where the bench is, on stderr (the figures go to stdout). */
  step(what: string): void {
    process.stderr.write(`[${((performance.now() - this.started) / 1000).toFixed(0)} s] ${what}\n`)
  }

  /** The catalogue of BENCH_CACHE_ARTISTS artists, files up to 64 MiB, at niceness 10, on loopback. */
  bigService(): Promise<Service> {
    return (this.big ??= (this.step(`starting the demo catalogue of ${n(config.cacheArtists)} artists`),
    startService(config.cacheArtists, 0, ['--max-file-mb', String(config.maxFileMb)], config.serviceNiceness)))
  }

  /** Part 1's CLI sync of the big catalogue is such a cache: it hands its folder over instead of deleting it. */
  offerCache(dataDir: string): void {
    this.cacheDir ??= dataDir
  }

  /** A copy of the cache of the big catalogue (synced by `cli sync` the first time it is asked for). */
  async cacheCopy(name: string): Promise<string> {
    const template = await this.cache()
    const copy = path.join(this.work, `${name}-${++this.copies}`)
    fs.cpSync(template, copy, { recursive: true })
    return copy
  }

  /** The cache's own folder (never opened by the app: each run gets a copy). */
  private async cache(): Promise<string> {
    if (!this.cacheDir) {
      const service = await this.bigService()
      const dataDir = path.join(this.work, 'cache')
      this.step(`building the cache: cli sync of ${n(config.cacheArtists)} artists`)
      this.cacheBuild = await cliSync(service.baseUrl, dataDir, config.concurrency)
      this.step(`cache built in ${s(this.cacheBuild.wall)}`)
      this.cacheDir = dataDir
    }
    return this.cacheDir
  }

  /**
   * Uploads of the cache, by what a part needs: the largest first, then the smallest (a queue that
   * starts on the largest files and still fits the disk: the app refuses a queue larger than the
   * free space, and 10,000 files of 64 MiB are 671 GB); or files of 1 to 5 MB (as bench:responsiveness).
   */
  async uploads(which: { largest: number } | 'small', count: number): Promise<Upload[]> {
    const folder = path.join(await this.cache(), 'catalogues')
    const file = fs.readdirSync(folder).find((name) => name.endsWith('.sqlite'))!
    // Picking uploads by size is the benchmark's own question: it reads the cache directly.
    const db = new Database(path.join(folder, file), { readonly: true })
    try {
      const select = (where: string, limit: number): Upload[] =>
        db.prepare(`SELECT upload_id AS id, bytes, hotlink_path AS url FROM tracks ${where} LIMIT ?`).all(limit) as Upload[]
      let uploads: Upload[]
      if (which === 'small') uploads = select('WHERE bytes BETWEEN 1000000 AND 5000000 ORDER BY upload_id', count)
      else {
        const largest = select('ORDER BY bytes DESC, upload_id', Math.min(count, which.largest))
        const taken = new Set(largest.map((upload) => upload.id))
        uploads = [...largest, ...select('ORDER BY bytes, upload_id', count).filter((upload) => !taken.has(upload.id))].slice(0, count)
      }
      if (uploads.length < count) throw new Error(`the cache holds ${uploads.length} such uploads, not ${count}`)
      return uploads
    } finally {
      db.close()
    }
  }

  async close(): Promise<void> {
    if (this.big) await (await this.big).stop()
  }
}

/** The offline verbs: `artists`, `artist` and `levels`, answered from the cache alone. */
import fs from 'node:fs'
import type { Database } from 'better-sqlite3'
import { cacheFileFor, openCache } from '../db/connection'
import { lastService } from '../data-dir'
import { accessLevels, getArtist, listArtists, syncStatus, SORT_ORDERS, type SortOrder } from '../db/queries'
import { formatBytes, formatDate } from '../shared/format'
import type { CliOptions } from './main'
import { accessLevelsJson, artistJson, artistListJson } from './service-json'
import { table, truncate } from './table'
import { NothingSyncedError, UsageError, integerOption, requireOption } from './usage'

export function runArtists(options: CliOptions): number {
  if (options.podcasts && options.musicians) throw new UsageError('--podcasts and --musicians exclude each other')
  const sort = options.sort ?? 'trending'
  if (!(SORT_ORDERS as readonly string[]).includes(sort)) throw new UsageError(`--sort must be one of ${SORT_ORDERS.join(', ')}`)
  const page = integerOption(options.page, 'page', 1, Number.MAX_SAFE_INTEGER) ?? 1
  const perPage = integerOption(options['per-page'], 'per-page', 1, 1000) ?? 25
  return withCache(options, (db) => {
    const result = listArtists(db, {
      q: options.q,
      kind: options.podcasts ? 'podcasts' : options.musicians ? 'musicians' : 'all',
      sort: sort as SortOrder,
      reverse: options.reverse === true,
      includeBlank: options['include-blank'] === true,
      page,
      perPage,
    })
    if (options.json) return writeJson(artistListJson(result))
    const first = (page - 1) * perPage
    process.stdout.write(
      `${table(
        ['#', 'username', 'name', 'tracks', 'kind', 'location'],
        result.artists.map((artist, index) => [
          String(first + index + 1),
          artist.username,
          truncate(artist.name, 40),
          String(artist.numTracks),
          artist.isPodcaster ? 'podcast' : 'music',
          artist.location?.name ?? '',
        ]),
      )}\n`,
    )
    process.stderr.write(`page ${page} of ${result.pages}, ${result.total} artists\n`)
  })
}

export function runArtist(username: string, options: CliOptions): number {
  return withCache(options, (db) => {
    const artist = getArtist(db, username)
    if (!artist) {
      process.stderr.write(`no artist named ${JSON.stringify(username)} in the cache\n`)
      return 1
    }
    if (options.json) return writeJson(artistJson(artist))
    const lines = [
      `${artist.name} (${artist.username})${artist.isPodcaster ? ' — podcast' : ''}${artist.goneAt ? ' — no longer listed by the service' : ''}`,
      artist.location?.name ? `location: ${artist.location.name}` : undefined,
      artist.website ? `website: ${artist.website}` : undefined,
      artist.twitter ? `twitter: ${artist.twitter}` : undefined,
      artist.facebook ? `facebook: ${artist.facebook}` : undefined,
      '',
      artist.bio,
      '',
      table(
        ['title', 'type', 'size', 'format', 'date', 'downloads', 'hotlinks'],
        artist.tracks.map((track) => [
          truncate(track.title, 50),
          track.subtype,
          formatBytes(track.bytes),
          track.ext ?? '',
          formatDate(track.createdAt),
          String(track.downloads ?? ''),
          String(track.hotlinks ?? ''),
        ]),
      ),
    ]
    process.stdout.write(`${lines.filter((line) => line !== undefined).join('\n')}\n`)
    if (artist.detailError) process.stderr.write(`the last refresh of this artist failed: ${artist.detailError}\n`)
  })
}

export function runLevels(options: CliOptions): number {
  return withCache(options, (db) => {
    const levels = accessLevels(db)
    if (options.json) return writeJson(accessLevelsJson(levels))
    process.stdout.write(
      `${table(
        ['id', 'name', 'max file', 'price / month', 'bandwidth / month', 'storage'],
        levels.map((level) => [
          String(level.id),
          level.name,
          `${level.maxsize} MB`,
          `$${level.price}`,
          `${level.bandwidth} GB`,
          `${level.storage} GB`,
        ]),
      )}\n`,
    )
  })
}

/** Opens the cache the options name (or the last synced one) and runs answer on it; nothing synced is exit code 2. */
function withCache(options: CliOptions, answer: (db: Database) => number | void): number {
  return openSyncedCacheSync(options, (db) => answer(db) ?? 0)
}

function openSyncedCacheSync<T extends number | Promise<number>>(
  options: CliOptions,
  answer: (db: Database, baseUrl: string, dataDir: string) => T,
): T | number {
  const dataDir = requireOption(options['data-dir'], 'data-dir')
  let db: Database | undefined
  try {
    const baseUrl = options['base-url'] ?? lastService(dataDir)
    if (baseUrl === undefined) throw new NothingSyncedError(`nothing has been synced into ${dataDir}; run: npm run cli -- sync --base-url URL --data-dir ${dataDir}`)
    // Reading never creates a cache: a missing file means nothing was synced from that service.
    if (!fs.existsSync(cacheFileFor(dataDir, baseUrl))) throw new NothingSyncedError(`nothing has been synced from ${baseUrl} into ${dataDir}`)
    const opened = openCache(dataDir, baseUrl)
    db = opened.db
    if (opened.recovered) throw new NothingSyncedError(opened.recovered)
    if (syncStatus(db).lastFullSyncAt === null) throw new NothingSyncedError(`no sync of ${baseUrl} has completed in ${dataDir} yet; run sync`)
    const result = answer(db, baseUrl, dataDir)
    if (result instanceof Promise) {
      const open = db
      db = undefined
      return result.finally(() => open.close()) as T
    }
    return result
  } catch (error) {
    if (!(error instanceof NothingSyncedError)) throw error
    process.stderr.write(`${error.message}\n`)
    return 2
  } finally {
    db?.close()
  }
}

/** The synced cache for the asynchronous verbs (downloads); closes it when answer settles. */
export async function openSyncedCache(
  options: CliOptions,
  answer: (db: Database, baseUrl: string, dataDir: string) => Promise<number>,
): Promise<number> {
  return openSyncedCacheSync(options, answer)
}

function writeJson(value: object): number {
  process.stdout.write(`${JSON.stringify(value)}\n`)
  return 0
}

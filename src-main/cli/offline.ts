/** The offline verbs: `artists`, `artist` and `levels`, answered from the cache alone. */
import { InvalidArgumentError } from '../core/shared/errors'
import { artistListQuerySchema } from '../core/shared/arguments'
import { parseArguments } from '../core/shared/validation'
import { formatBytes, formatDate } from '../core/shared/format'
import { withLibrary } from './open'
import { numberFlag, type CliOptions } from './options'
import { accessLevelsJson, artistJson, artistListJson } from './service-json'
import { printAnswer, printJson, printMessage } from './print'
import { table, truncate } from './table'

const READ = { mustExist: true, synced: true }

export async function runArtists(options: CliOptions): Promise<number> {
  if (options.podcasts && options.musicians) throw new InvalidArgumentError('--podcasts and --musicians exclude each other')
  // Checked before the cache is opened, so a bad flag is always a usage error.
  const query = parseArguments(artistListQuerySchema, {
    q: options.q,
    kind: options.podcasts ? 'podcasts' : options.musicians ? 'musicians' : 'all',
    sort: options.sort,
    reverse: options.reverse === true,
    includeBlank: options['include-blank'] === true,
    page: numberFlag(options.page) ?? 1,
    perPage: numberFlag(options['per-page']) ?? 25,
  })
  const { page, perPage } = query as { page: number; perPage: number }
  return withLibrary(options, READ, (library) => {
    const result = library.catalogue.list(query)
    if (options.json) return writeJson(artistListJson(result))
    if (result.total === 0) {
      printMessage(options.q === undefined ? 'no artists in this list' : `no artists match ${JSON.stringify(options.q)}`)
      return 0
    }
    if (result.artists.length === 0) {
      printMessage(`page ${page} is past the last page (${result.pages}) of ${result.total} artists`)
      return 0
    }
    const first = (page - 1) * perPage
    printAnswer(
      table(
        ['#', 'username', 'name', 'tracks', 'kind', 'location'],
        result.artists.map((artist, index) => [
          String(first + index + 1),
          artist.username,
          truncate(artist.name, 40),
          String(artist.numTracks),
          artist.isPodcaster ? 'podcast' : 'music',
          artist.location?.name ?? '',
        ]),
      ),
    )
    printMessage(`page ${page} of ${result.pages}, ${result.total} artists`)
    return 0
  })
}

export async function runArtist(username: string, options: CliOptions): Promise<number> {
  return withLibrary(options, READ, (library) => {
    const artist = library.catalogue.artist(username)
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
      artist.tracks.length === 0
        ? 'no tracks'
        : table(
            ['upload', 'title', 'type', 'size', 'format', 'date', 'downloads', 'hotlinks'],
            artist.tracks.map((track) => [
              track.uploadId,
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
    printAnswer(lines.filter((line) => line !== undefined).join('\n'))
    if (artist.tracks.length > 0) printMessage(`download with: npm run -s cli -- download UPLOAD_ID... --data-dir ${library.dataDir}`)
    if (artist.detailError) printMessage(`the last refresh of this artist failed: ${artist.detailError}`)
    return 0
  })
}

export async function runLevels(options: CliOptions): Promise<number> {
  return withLibrary(options, READ, (library) => {
    const levels = library.catalogue.levels()
    if (options.json) return writeJson(accessLevelsJson(levels))
    if (levels.length === 0) {
      printMessage('the cache holds no access levels')
      return 0
    }
    printAnswer(
      table(
        ['id', 'name', 'max file', 'price / month', 'bandwidth / month', 'storage'],
        levels.map((level) => [
          String(level.id),
          level.name,
          // The level's limits as the screens write them: decimal units, exactly.
          formatBytes(level.maxsize * 1e6, { exact: true }),
          `$${level.price}`,
          formatBytes(level.bandwidth * 1e9, { exact: true }),
          formatBytes(level.storage * 1e9, { exact: true }),
        ]),
      ),
    )
    return 0
  })
}

function writeJson(value: object): number {
  printJson(value)
  return 0
}

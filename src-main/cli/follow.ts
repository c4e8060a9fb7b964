/**
 * The follow verbs: `follow USERNAME [--auto-download | --no-auto-download]`, `unfollow USERNAME`
 * and `following [--json]`, on the cache of --data-dir (and --base-url, else
 * the service synced last), with the exit codes of the other offline verbs:
 * 2 for bad arguments or nothing synced, 1 for an artist the cache does not
 * hold (as `artist USERNAME`) or one that is not followed.
 */
import { InvalidArgumentError, NotFoundError } from '../core/shared/errors'
import type { FollowedArtist } from '../core/shared/types'
import { withLibrary } from './open'
import type { CliOptions } from './options'
import { printAnswer, printJson, printMessage } from './print'
import { table, truncate } from './table'

const READ = { mustExist: true, synced: true }

export async function runFollow(username: string, options: CliOptions): Promise<number> {
  return withLibrary(options, READ, (library) => {
    if (options['auto-download'] && options['no-auto-download']) throw new InvalidArgumentError('--auto-download and --no-auto-download: give one of them')
    const autoDownload = options['auto-download'] ? true : options['no-auto-download'] ? false : undefined
    const followed = library.follows.follow(username, { autoDownload })
    const auto = followed.autoDownload ? '; its new tracks are downloaded by themselves after each sync' : ''
    printMessage(`following ${titleOf(followed)}${auto}`)
    return 0
  })
}

export async function runUnfollow(username: string, options: CliOptions): Promise<number> {
  return withLibrary(options, READ, (library) => {
    if (!library.follows.unfollow(username)) throw new NotFoundError(`${JSON.stringify(username)} is not followed`)
    printMessage(`no longer following ${username}`)
    return 0
  })
}

export async function runFollowing(options: CliOptions): Promise<number> {
  return withLibrary(options, READ, (library) => {
    const followed = library.follows.list()
    if (options.json) {
      printJson(followed)
      return 0
    }
    if (followed.length === 0) {
      printMessage(`no artist is followed; follow one with: npm run -s cli -- follow USERNAME --data-dir ${library.dataDir}`)
      return 0
    }
    printAnswer(
      table(
        ['username', 'name', 'auto-download', 'followed', 'status'],
        followed.map((artist) => [
          artist.username,
          truncate(artist.name ?? '', 40),
          artist.autoDownload ? 'yes' : 'no',
          new Date(artist.followedAt).toISOString().slice(0, 10),
          statusOf(artist),
        ]),
      ),
    )
    return 0
  })
}

function titleOf(artist: FollowedArtist): string {
  const name = artist.name?.trim() ?? ''
  return name === '' || name === artist.username ? artist.username : `${name} (${artist.username})`
}

/** What the status column says: listed, gone from the service, or not in the cache (cleared and not synced again). */
function statusOf(artist: FollowedArtist): string {
  if (!artist.inCache) return 'not in the cache'
  return artist.gone ? 'no longer listed by the service' : 'listed'
}

/**
 * The library's follows (`library.follows`): following and unfollowing
 * artists in one catalogue's cache. Every argument is checked against its
 * schema, writes are refused on a read-only data folder, and every failure is
 * a TuneshelfError with a code. The SQL is in db/follows.ts.
 */
import type { Database } from 'better-sqlite3'
import { Emitter, type Event } from '../base/events'
import { artistInCache, deleteFollow, getFollow, setFollowAutoDownload, upsertFollow } from '../db/follows'
import { autoDownloadSchema, followOptionsSchema, usernameSchema } from '../shared/arguments'
import { guard, NotFoundError } from '../shared/errors'
import type { FollowedArtist } from '../shared/types'
import { parseArguments } from '../shared/validation'
import type { FollowsQueries } from './queries'

export interface FollowsApi extends FollowsQueries {
  /** Follows an artist the cache holds (NotFoundError otherwise), or changes how a followed one is followed. */
  follow(username: string, options?: { autoDownload?: boolean | undefined }): FollowedArtist
  /** Stops following; false when the artist was not followed. */
  unfollow(username: string): boolean
  /** Turns auto-download of new tracks on or off; NotFoundError when the artist is not followed. */
  setAutoDownload(username: string, on: boolean): FollowedArtist
  /** A follow written (followed, unfollowed, auto-download switched), whoever asked: the artist's username. */
  onDidChange: Event<string>
}

export interface FollowsParts {
  db: Database
  displayUrl: string
  /** Throws a ReadOnlyError naming `what` when the data folder cannot be written. */
  refuseWrites: (what: string) => void
  now: () => number
  /** The follows as the queries read them. */
  queries: FollowsQueries
}

export function followsApi({ db, displayUrl, refuseWrites, now, queries }: FollowsParts): FollowsApi {
  const changes = new Emitter<string>()
  /** The result of a write that changed a follow, after saying so. */
  const changed = <T>(name: string, result: T): T => {
    changes.fire(name)
    return result
  }
  return {
    ...queries,
    follow: (username, options = {}) =>
      guard(() => {
        const name = parseArguments(usernameSchema, username)
        const { autoDownload } = parseArguments(followOptionsSchema, options)
        refuseWrites('following an artist')
        // One the cache no longer holds (cleared, not synced again yet) but still followed may be followed again.
        if (!artistInCache(db, name) && !getFollow(db, name)) {
          throw new NotFoundError(`no artist named ${JSON.stringify(name)} in the cache of ${displayUrl}`)
        }
        return changed(name, upsertFollow(db, name, autoDownload, now()))
      }),
    unfollow: (username) =>
      guard(() => {
        const name = parseArguments(usernameSchema, username)
        refuseWrites('unfollowing an artist')
        const deleted = deleteFollow(db, name)
        return deleted ? changed(name, deleted) : deleted
      }),
    setAutoDownload: (username, on) =>
      guard(() => {
        const name = parseArguments(usernameSchema, username)
        const value = parseArguments(autoDownloadSchema, on)
        refuseWrites('changing how an artist is followed')
        const follow = setFollowAutoDownload(db, name, value)
        if (!follow) throw new NotFoundError(`${JSON.stringify(name)} is not followed`)
        return changed(name, follow)
      }),
    onDidChange: changes.event,
  }
}

/**
 * The artists the user follows, as every screen shows them: read once from
 * the cache, then kept by the changes made here. A follow, an unfollow or a
 * change of auto-download shows at once (optimistic) and is undone, with a
 * notice, if the core refuses it (a read-only data folder, an artist the
 * cache no longer holds). Read again when the catalogue changes (a name, an
 * artist gone), when another caller changes a follow, and for another
 * service, whose follows are its own.
 */
import { defineStore } from 'pinia'
import { reactive, ref } from 'vue'
import type { FollowedArtist } from '@shared/types'
import { api } from '../api'
import { useNoticesStore } from './notices'
import { oneRead } from './one-read'
import { useSessionStore } from './session'

export { RELOAD_DELAY_MS } from './one-read'

/** The key the core keeps a follow under: the username without regard to case. */
export function followKey(username: string): string {
  return username.toLowerCase()
}

export const useFollowsStore = defineStore('follows', () => {
  const session = useSessionStore()
  const notices = useNoticesStore()

  /** The followed artists by username key. */
  const followed = reactive(new Map<string, FollowedArtist>())
  /** The follows were read at least once (an empty map before that means "not known yet"). */
  const loaded = ref(false)
  /** Bumped by every change of the follows: what is narrowed to them (the Following filter) reads again. */
  const version = ref(0)

  /**
   * The latest change asked for each artist: an answer (or a failure) of an older one is
   * left alone, so a quick follow then unfollow ends as the user left it.
   */
  const latest = new Map<string, number>()
  let changes = 0

  function isFollowed(username: string): boolean {
    return followed.has(followKey(username))
  }

  function get(username: string): FollowedArtist | undefined {
    return followed.get(followKey(username))
  }

  const reads = oneRead(async () => {
    const asked = changes
    try {
      const list = await api.follows.list()
      // A change made meanwhile is newer than this answer: read once more instead.
      if (asked !== changes) return false
      followed.clear()
      for (const artist of list) followed.set(followKey(artist.username), artist)
      loaded.value = true
      version.value += 1
    } catch (error) {
      notices.error(error, 'Could not read the followed artists')
    }
  })
  /** Reads the follows now, or once the read under way is over. */
  const load = reads.now

  /** Reads the follows unless they were read already (each screen that shows them calls it). */
  function start(): void {
    if (!loaded.value && !reads.busy) void load()
  }

  /** Shows `next` for the artist at once, asks the core, and keeps its answer, or puts back what was there. */
  async function change(
    username: string,
    next: FollowedArtist | undefined,
    call: () => Promise<FollowedArtist | undefined>,
    doing: string,
  ): Promise<void> {
    const key = followKey(username)
    const before = followed.get(key)
    const mine = ++changes
    latest.set(key, mine)
    const show = (value: FollowedArtist | undefined): void => {
      if (value) followed.set(key, value)
      else followed.delete(key)
      version.value += 1
    }
    show(next)
    try {
      const answer = await call()
      // Shown again once the core has it: what was read meanwhile (the Following list, asked
      // at the optimistic change) may be from before the change.
      if (latest.get(key) === mine) show(answer ?? next)
    } catch (error) {
      if (latest.get(key) === mine) show(before)
      notices.error(error, doing)
    } finally {
      if (latest.get(key) === mine) latest.delete(key)
    }
  }

  /** Follows an artist (or changes whether its new tracks download by themselves). */
  function follow(username: string, options: { autoDownload?: boolean } = {}): Promise<void> {
    const before = get(username)
    const next: FollowedArtist = {
      username: before?.username ?? username,
      name: before?.name ?? null,
      autoDownload: options.autoDownload ?? before?.autoDownload ?? false,
      followedAt: before?.followedAt ?? Date.now(),
      gone: before?.gone ?? false,
      inCache: before?.inCache ?? true,
    }
    const args = options.autoDownload === undefined ? {} : { autoDownload: options.autoDownload }
    return change(username, next, () => api.follows.follow(username, args), `Could not follow ${username}`)
  }

  function unfollow(username: string): Promise<void> {
    return change(username, undefined, async () => void (await api.follows.unfollow(username)), `Could not unfollow ${username}`)
  }

  function setAutoDownload(username: string, on: boolean): Promise<void> {
    const before = get(username)
    if (!before) return follow(username, { autoDownload: on })
    return change(
      username,
      { ...before, autoDownload: on },
      () => api.follows.setAutoDownload(username, on),
      `Could not turn ${on ? 'on' : 'off'} auto-download for ${username}`,
    )
  }

  /** Follows or unfollows, whichever the artist is not. */
  function toggle(username: string): Promise<void> {
    return isFollowed(username) ? unfollow(username) : follow(username)
  }

  function reloadSoon(): void {
    if (loaded.value) reads.soon()
  }

  session.onDidEmit((event) => {
    if (event.type === 'service') {
      // Another service's follows are its own: none is shown until they are read.
      followed.clear()
      version.value += 1
      if (loaded.value) void load()
    } else if (event.type === 'catalogue-changed') {
      reloadSoon()
    } else if (event.type === 'follows-changed' && !latest.has(followKey(event.username))) {
      // Followed or unfollowed by another caller (another window of `npm run web`, a script on the contract);
      // a change of this window's under way shows its own answer.
      reloadSoon()
    }
  })

  return { followed, loaded, version, isFollowed, get, load, start, follow, unfollow, setAutoDownload, toggle }
})

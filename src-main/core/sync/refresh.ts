/**
 * Refreshing one artist when it is opened: its detail fetched now and stored,
 * and its avatars cached if they are not yet, so the artist screen is current
 * online and complete offline. An artist the service no longer knows is marked
 * gone, not deleted.
 */
import type { CatalogueClient } from '../api/index'
import type { Database } from '../db/connection'
import { avatarsMissing, recordAvatars } from '../db/avatars'
import { recordDetails } from '../db/detail-store'
import { detailWantedFor, markGone } from '../db/sync-store'
import { NotFoundError } from '../shared/errors'
import { AVATAR_MAX_BYTES, THUMBNAIL_MAX_BYTES, fetchAvatar } from './avatars'

export interface RefreshOutcome {
  /** True when the service no longer knows the artist (it was marked gone). */
  gone: boolean
  /** Avatars fetched now. */
  avatarsFetched: number
}

/** Fetches the artist's detail and missing avatars and stores them; NotFoundError when the cache does not know the artist. */
export async function refreshArtist(db: Database, client: CatalogueClient, username: string, signal?: AbortSignal, now = Date.now): Promise<RefreshOutcome> {
  const wanted = detailWantedFor(db, username)
  if (!wanted) throw new NotFoundError(`no artist named ${JSON.stringify(username)} in the cache`)
  let detail
  try {
    detail = await client.getArtist(wanted.username, { signal })
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error
    markGone(db, wanted.id, now())
    return { gone: true, avatarsFetched: 0 }
  }
  recordDetails(db, [{ wanted, detail, fetchedAt: now() }])
  const images = []
  for (const url of avatarsMissing(db, [detail.avatar, detail.avatar_thumb])) {
    try {
      const maxBytes = url === detail.avatar_thumb ? THUMBNAIL_MAX_BYTES : AVATAR_MAX_BYTES
      images.push(await fetchAvatar(client, url, signal ?? new AbortController().signal, maxBytes))
    } catch (error) {
      // The detail is what matters; an avatar that cannot be had is shown as a placeholder.
      if (signal?.aborted) throw error
    }
  }
  if (images.length > 0) recordAvatars(db, images, now())
  return { gone: false, avatarsFetched: images.length }
}

/** Avatars fetched into the cache, so artist screens show them offline. */
import type { CatalogueClient } from '../api/index'
import { redactUrl, shortened } from '../shared/urls'
import { cleanText } from '../shared/text'
import type { AvatarImage } from '../db/avatars'
import { BadResponseError } from '../shared/errors'

const MAX_AVATAR_BYTES = 2 * 1024 * 1024
const IMAGE_TYPES = new Set(['image/svg+xml', 'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'])

/** Fetches one avatar; anything but an image of a known type is refused. */
export async function fetchAvatar(client: CatalogueClient, url: string, signal: AbortSignal): Promise<AvatarImage> {
  const { body, contentType } = await client.fetchBinary(url, { signal, maxBytes: MAX_AVATAR_BYTES })
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  if (!IMAGE_TYPES.has(mediaType)) {
    // Both come from the service: shortened, so a failure noted in the sync's report stays small.
    throw new BadResponseError(`${shortened(redactUrl(url))} is not an image (${cleanText(mediaType, 100) || 'no content type'})`, { url })
  }
  return { url, contentType: mediaType, body }
}

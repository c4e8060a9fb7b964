/** Avatars fetched into the cache, so artist screens show them offline. */
import type { CatalogueClient } from '../api/index'
import { redactUrl, shortened } from '../shared/urls'
import type { AvatarImage } from '../db/avatars'
import { BadResponseError } from '../shared/errors'

const KIB = 1024

/**
 * The largest thumbnail kept. A thumbnail is shown at 40-96 px (112 at most, twice that on a
 * high-density screen): a picture that size is a few kilobytes, 256 KiB is far beyond any honest
 * one, and it bounds what a service can make a sync write to 256 KiB an artist.
 */
export const THUMBNAIL_MAX_BYTES = 256 * KIB

/**
 * The largest full-size avatar kept: fetched one artist at a time as the user opens it (never by a
 * sync), shown at 112 px, and a real service's may be a photo of some hundred kilobytes.
 */
export const AVATAR_MAX_BYTES = 1024 * KIB

/**
 * The type of an image the window shows (an <img> from the media scheme: PNG, JPEG, GIF, WebP,
 * AVIF, SVG), known by its first bytes alone: nothing is decoded here, and the type the service
 * says counts for nothing (it said image/png of 2 MiB of 0x07). Undefined for anything else.
 */
export function imageTypeOf(body: Uint8Array): string | undefined {
  const ascii = (start: number, end: number): string => Buffer.from(body.subarray(start, end)).toString('latin1')
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png'
  if (body[0] === 0xff && body[1] === 0xd8 && body[2] === 0xff) return 'image/jpeg'
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif'
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp'
  if (ascii(4, 8) === 'ftyp' && (ascii(8, 12) === 'avif' || ascii(8, 12) === 'avis')) return 'image/avif'
  // SVG is text: an <svg> element first, after at most an XML declaration, a doctype and comments.
  // It is shown only as an image, under the media's sandbox (content-security.ts), so it runs nothing.
  if (/^(\ufeff)?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(Buffer.from(body.subarray(0, 1024)).toString('utf8'))) {
    return 'image/svg+xml'
  }
  return undefined
}

/** Fetches one avatar (a thumbnail unless maxBytes says otherwise); anything but a small image the window shows is refused. */
export async function fetchAvatar(client: CatalogueClient, url: string, signal: AbortSignal, maxBytes = THUMBNAIL_MAX_BYTES): Promise<AvatarImage> {
  const { body } = await client.fetchBinary(url, { signal, maxBytes })
  const contentType = imageTypeOf(body)
  if (contentType === undefined) {
    // The address comes from the service: shortened, so a failure noted in the sync's report stays small.
    throw new BadResponseError(`${shortened(redactUrl(url))} is not an image (not PNG, JPEG, GIF, WebP, AVIF or SVG)`, { url })
  }
  return { url, contentType, body }
}

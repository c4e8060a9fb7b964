/**
 * An item in full as the service's artist detail gives it (`{"item": {...}}`), in the
 * service's member order: written by the demo service, and by the CLI's `--json`, which
 * prints the cache's answers in the service's own shapes. One writer, so the two agree.
 */

/** What an item in full is made of, in the app's names (the cache's Track, the demo's TrackRecord). */
export interface ItemFields {
  itemId: string | null
  title: string
  subtype: string
  uploadId: string
  createdAt: string | null
  bytes: number | null
  downloads: number | null
  hotlinks: number | null
  ext: string | null
}

/** hotlinkPath: the file's address as the service gives it; artistUsername: the item's artist (null where the service said none). */
export function itemJson(track: ItemFields, hotlinkPath: string | null, artistUsername: string | null) {
  return {
    item: {
      id: track.itemId,
      title: track.title,
      subtype: track.subtype,
      upload: {
        id: track.uploadId,
        created_at: track.createdAt,
        bytes: track.bytes,
        downloads: track.downloads,
        hotlinks: track.hotlinks,
        ext: track.ext,
        hotlink_path: hotlinkPath,
      },
      artist: artistUsername === null ? null : { username: artistUsername },
    },
  }
}

/**
 * The service's artist entries as the cache takes them: what sync-store.ts
 * writes from a list page and from an artist's detail. The cache's own
 * description, so it does not depend on the client (api/): the sync hands the
 * client's results over as they are, and the compiler holds the two shapes
 * equal (sync/pipeline.ts). As they are matters: a list entry's signature is a
 * digest of the whole entry (listSignature).
 */

/** What both kinds of entry say of an artist. */
export interface ArtistProfileRecord {
  username: string
  num_tracks: number
  pf_name: string
  pf_facebook: string | null
  pf_twitter: string | null
  pf_website: string | null
  pf_bio: string
  avatar: string
  avatar_thumb: string
  /** Only list entries carry these two; a detail has null. */
  location: { id: number; name: string } | null
  user: { username: string } | null
}

/** An artist as a list page gives it: its items are only their subtype and upload id. */
export interface ListedArtistRecord extends ArtistProfileRecord {
  items: { subtype: string; upload: { id: string } }[]
}

/** An upload of an artist's detail: its id, and null where the service did not say. */
export interface UploadRecord {
  id: string
  created_at: string | null
  bytes: number | null
  downloads: number | null
  hotlinks: number | null
  ext: string | null
  hotlink_path: string | null
}

/** A track of an artist's detail, in full. */
export interface ItemRecord {
  id: string | null
  title: string
  subtype: string
  upload: UploadRecord
  artist: { username: string } | null
}

/** An artist with every item in full. */
export interface ArtistDetailRecord extends ArtistProfileRecord {
  items: ItemRecord[]
}

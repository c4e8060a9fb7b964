/**
 * What the sync engine writes into the cache from artists' details: each profile as its
 * detail gives it, and all its tracks, replacing the old ones. The list pages and the run's
 * bookkeeping are in sync-store.ts.
 */
import type { Database } from 'better-sqlite3'
import type { ArtistDetailRecord, ItemRecord } from './artist-records'
import { bumpCatalogueVersion } from './query-cache'
import { statement } from './statements'
import type { DetailWanted } from './sync-store'

export interface FetchedDetail {
  wanted: DetailWanted
  detail: ArtistDetailRecord
  fetchedAt: number
}

/**
 * Stores artists' details in one transaction: each profile as its detail gives
 * it, and all its tracks, replacing the old ones.
 */
export function recordDetails(db: Database, fetched: FetchedDetail[], runId: number | null = null): void {
  // The profile is written only where it changed, so an unchanged artist keeps its search index entry.
  const updateProfile = statement(
    db,
    `UPDATE artists SET num_tracks = @num_tracks, pf_name = @pf_name, pf_facebook = @pf_facebook,
       pf_twitter = @pf_twitter, pf_website = @pf_website, pf_bio = @pf_bio, avatar = @avatar, avatar_thumb = @avatar_thumb,
       changed_run = coalesce(@run, changed_run)
     WHERE id = @id AND (num_tracks IS NOT @num_tracks OR pf_name IS NOT @pf_name OR pf_facebook IS NOT @pf_facebook
       OR pf_twitter IS NOT @pf_twitter OR pf_website IS NOT @pf_website OR pf_bio IS NOT @pf_bio
       OR avatar IS NOT @avatar OR avatar_thumb IS NOT @avatar_thumb)`,
  )
  const markFetched = statement(
    db,
    'UPDATE artists SET detail_signature = ?, detail_fetched_at = ?, detail_error = NULL WHERE id = ?',
  )
  // What the artist's tracks were, so a track keeps when it first appeared, and shows when it changed.
  const tracksBefore = statement<[number], TrackBefore>(
    db,
    `SELECT upload_id AS uploadId, title, subtype, created_at AS createdAt, bytes, ext, hotlink_path AS hotlinkPath,
       first_seen_run AS firstSeenRun, changed_run AS changedRun
     FROM tracks WHERE artist_id = ?`,
  )
  const deleteTracks = statement(db, 'DELETE FROM tracks WHERE artist_id = ?')
  // A plain INSERT first: the artist's old rows are deleted just before, so an upload id is
  // almost never taken, and a plain INSERT costs a quarter less than an OR REPLACE (which
  // looks for a conflict before every row). Where one is taken (an upload that moved from
  // another artist, or listed twice), the same row goes in by OR REPLACE: the same outcome
  // (the old row goes, the new one gets a new rowid; nothing refers to a track's rowid).
  const insertTrack = statement<TrackRow>(db, `INSERT INTO tracks ${TRACK_COLUMNS}`)
  const replaceTrack = statement<TrackRow>(db, `INSERT OR REPLACE INTO tracks ${TRACK_COLUMNS}`)
  db.transaction(() => {
    for (const { wanted, detail, fetchedAt } of fetched) {
      const before = new Map(tracksBefore.all(wanted.id).map((track) => [track.uploadId, track]))
      updateProfile.run({
        run: runId,
        id: wanted.id,
        num_tracks: detail.num_tracks,
        pf_name: detail.pf_name,
        pf_facebook: detail.pf_facebook,
        pf_twitter: detail.pf_twitter,
        pf_website: detail.pf_website,
        pf_bio: detail.pf_bio,
        avatar: detail.avatar,
        avatar_thumb: detail.avatar_thumb,
      })
      markFetched.run(wanted.listSignature, fetchedAt, wanted.id)
      deleteTracks.run(wanted.id)
      detail.items.forEach((item, position) => {
        const upload = item.upload
        const known = before.get(upload.id)
        const changedRun = !known ? runId : trackChanged(known, item) ? (runId ?? known.changedRun) : known.changedRun
        const row: TrackRow = [
          upload.id, wanted.id, position, item.id, item.title, item.subtype, upload.created_at, upload.bytes,
          upload.downloads, upload.hotlinks, upload.ext, upload.hotlink_path, item.artist?.username ?? null,
          known ? known.firstSeenRun : runId, changedRun,
        ]
        try {
          insertTrack.run(...row)
        } catch (error) {
          if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error
          replaceTrack.run(...row)
        }
      })
    }
    bumpCatalogueVersion(db)
  }).immediate()
}

const TRACK_COLUMNS = `(upload_id, artist_id, position, item_id, title, subtype, created_at, bytes,
    downloads, hotlinks, ext, hotlink_path, item_artist, first_seen_run, changed_run)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
type TrackRow = [
  string, number, number, string | null, string, string, string | null, number | null,
  number | null, number | null, string | null, string | null, string | null, number | null, number | null,
]

interface TrackBefore {
  uploadId: string
  title: string
  subtype: string
  createdAt: string | null
  bytes: number | null
  ext: string | null
  hotlinkPath: string | null
  firstSeenRun: number | null
  changedRun: number | null
}

/** A track changed when what a listener sees of it did: not its download and hotlink counters, which always move. */
function trackChanged(before: TrackBefore, item: ItemRecord): boolean {
  const upload = item.upload
  return (
    before.title !== item.title || before.subtype !== item.subtype || before.createdAt !== upload.created_at || before.bytes !== upload.bytes ||
    before.ext !== upload.ext || before.hotlinkPath !== upload.hotlink_path
  )
}

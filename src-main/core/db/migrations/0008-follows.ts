/**
 * Following and the queue's own order.
 *   follows          the artists a user follows, by username key (not by row: an artist the
 *                    service removed, or a cache emptied and synced again, stays followed);
 *                    since_run is the last sync run when the artist was followed: only tracks
 *                    first seen after it are new to the follower (and auto-downloaded).
 *   enqueued_uploads every upload ever put in the queue, by any path, so auto-download never
 *                    brings back what the user downloaded, cancelled or removed.
 *   downloads.queue_order  the order the queue starts downloads in (moved to the top, the
 *                    bottom, or dragged); equal to the id until a user moves one.
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    CREATE TABLE follows (
      username_key TEXT PRIMARY KEY,
      username TEXT NOT NULL,
      auto_download INTEGER NOT NULL DEFAULT 0,
      followed_at INTEGER NOT NULL,
      since_run INTEGER
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE enqueued_uploads (
      upload_id TEXT PRIMARY KEY,
      first_at INTEGER NOT NULL,
      auto INTEGER NOT NULL DEFAULT 0
    ) STRICT, WITHOUT ROWID;
    INSERT OR IGNORE INTO enqueued_uploads (upload_id, first_at) SELECT upload_id, min(created_at) FROM downloads GROUP BY upload_id;

    ALTER TABLE downloads ADD COLUMN queue_order INTEGER;
    UPDATE downloads SET queue_order = id;
    CREATE INDEX downloads_by_queue_order ON downloads (state, queue_order, id);
  `
